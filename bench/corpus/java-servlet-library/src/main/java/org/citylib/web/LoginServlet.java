package org.citylib.web;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpSession;
import javax.sql.DataSource;

import org.citylib.util.Digests;
import org.citylib.util.Params;
import org.citylib.util.TokenFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Staff sign-in: password check, remember-me cookie, redirect back to where they were. */
@WebServlet("/login")
public class LoginServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(LoginServlet.class);
    private static final String ADMIN_NETWORK_PREFIX = "10.20.";

    private transient DataSource dataSource;

    @Override
    public void init() {
        dataSource = (DataSource) getServletContext().getAttribute("citylib.dataSource");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String user = Params.get(request, "username");
        String password = request.getParameter("password");
        String next = request.getParameter("next");

        if (!checkPassword(user, password)) {
            LOG.warn("failed login for " + user + " from " + request.getRemoteAddr()); // vuln: log-injection
            response.sendRedirect("login?error=1"); // safe: open-redirect
            return;
        }
        LOG.info("login ok for {}", user.replaceAll("[\r\n]", "_")); // safe: log-injection

        HttpSession session = request.getSession(true);
        session.setAttribute("staffUser", user); // safe: trust-boundary
        String clientIp = Params.header(request, "X-Forwarded-For", request.getRemoteAddr()); // vuln: trust-boundary [xff-admin]
        session.setAttribute("admin", clientIp.startsWith(ADMIN_NETWORK_PREFIX)); // vuln: trust-boundary [xff-admin]

        Cookie remember = new Cookie("citylib_remember", TokenFactory.rememberMeToken()); // vuln: insecure-cookie [remember]
        remember.setMaxAge(60 * 60 * 24 * 30);
        response.addCookie(remember); // vuln: insecure-cookie [remember]

        Cookie lang = new Cookie("citylib_lang", "en"); // safe: insecure-cookie [lang]
        lang.setSecure(true);
        lang.setHttpOnly(true);
        response.addCookie(lang); // safe: insecure-cookie [lang]

        if (next != null && !next.isEmpty()) {
            response.sendRedirect(next); // vuln: open-redirect
        } else {
            response.sendRedirect(request.getContextPath() + "/desk"); // safe: open-redirect
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String back = request.getParameter("back");
        try {
            URI target = new URI(back);
            if (target.getHost() != null || target.getScheme() != null || !back.startsWith("/")) {
                response.sendError(HttpServletResponse.SC_BAD_REQUEST);
                return;
            }
        } catch (URISyntaxException e) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        response.setHeader("Refresh", "0; url=" + back); // safe: header-injection
        String reason = request.getParameter("reason");
        response.setHeader("X-Login-Reason", reason); // vuln: header-injection
    }

    private boolean checkPassword(String user, String password) throws ServletException {
        try (Connection conn = dataSource.getConnection();
                PreparedStatement ps = conn.prepareStatement("SELECT password_hash FROM staff WHERE username = ?")) { // safe: sql-injection
            ps.setString(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getString(1).equals(Digests.hashPassword(password));
            }
        } catch (SQLException e) {
            throw new ServletException(e);
        }
    }
}
