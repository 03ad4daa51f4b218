package org.citylib.web;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpSession;
import javax.sql.DataSource;

import org.apache.commons.text.StringEscapeUtils;
import org.citylib.util.Params;

/** Catalogue search (GET) and reservations (POST). */
@WebServlet("/books/search")
public class BookSearchServlet extends HttpServlet {

    private static final Map<String, String> SORT_COLUMNS = Map.of(
            "title", "b.title",
            "year", "b.published_year",
            "author", "a.last_name");

    private transient DataSource dataSource;

    @Override
    public void init() throws ServletException {
        dataSource = (DataSource) getServletContext().getAttribute("citylib.dataSource");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String title = Params.get(request, "q");
        String author = request.getParameter("author");
        String orderBy = SORT_COLUMNS.getOrDefault(request.getParameter("sort"), "b.title");
        int page = Params.intValue(request, "page", 1);

        HttpSession session = request.getSession();
        session.setAttribute("lastSearch", title); // vuln: trust-boundary
        session.setAttribute("lastPage", page); // safe: trust-boundary

        response.setContentType("text/html;charset=UTF-8");
        PrintWriter out = response.getWriter();
        out.println("<h2>Results for " + title + "</h2>"); // vuln: xss
        out.println("<p class=\"hint\">Sorted by " + StringEscapeUtils.escapeHtml4(request.getParameter("sort")) + "</p>"); // safe: xss

        try (Connection conn = dataSource.getConnection()) {
            String sql = "SELECT b.id, b.title, b.isbn FROM books b JOIN authors a ON a.id = b.author_id"
                    + " WHERE lower(b.title) LIKE ? ORDER BY " + orderBy + " LIMIT 20 OFFSET " + ((page - 1) * 20);
            try (PreparedStatement ps = conn.prepareStatement(sql)) { // safe: sql-injection
                ps.setString(1, "%" + title.toLowerCase() + "%");
                try (ResultSet rs = ps.executeQuery()) {
                    out.println("<ul>");
                    while (rs.next()) {
                        out.printf("<li><a href=\"/books/%d\">%s</a></li>%n", rs.getLong("id"), StringEscapeUtils.escapeHtml4(rs.getString("title"))); // safe: xss
                    }
                    out.println("</ul>");
                }
            }
            if (author != null && !author.isEmpty()) {
                Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM books b JOIN authors a ON a.id = b.author_id WHERE a.last_name = '" + author + "'"); // vuln: sql-injection
                if (rs.next()) {
                    out.printf("<p>%d books by %s</p>", rs.getInt(1), author); // vuln: xss
                }
            }
        } catch (SQLException e) {
            throw new ServletException("search failed", e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String isbn = Params.get(request, "isbn");
        int year = Params.intValue(request, "year", 0);
        try (Connection conn = dataSource.getConnection(); Statement st = conn.createStatement()) {
            st.executeUpdate(String.format("UPDATE books SET reserved = true WHERE isbn = '%s'", isbn)); // vuln: sql-injection
            st.execute(String.format("UPDATE stats SET reservations = reservations + 1 WHERE year = %d", year), Statement.NO_GENERATED_KEYS); // safe: sql-injection
        } catch (SQLException e) {
            throw new ServletException(e);
        }
        response.sendRedirect(request.getContextPath() + "/books/" + java.net.URLEncoder.encode(isbn, java.nio.charset.StandardCharsets.UTF_8)); // safe: open-redirect
    }
}
