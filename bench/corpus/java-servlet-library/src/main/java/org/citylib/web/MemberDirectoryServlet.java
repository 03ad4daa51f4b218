package org.citylib.web;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Hashtable;

import javax.naming.Context;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;

import org.apache.commons.text.StringEscapeUtils;
import org.citylib.util.AppConfig;
import org.citylib.util.Params;
import org.w3c.dom.Document;

/** Member look-ups: staff directory in LDAP, reading-group rosters kept as XML. */
@WebServlet("/members")
public class MemberDirectoryServlet extends HttpServlet {

    private static final String PEOPLE_BASE = "ou=people,dc=citylib,dc=org";

    private transient Document rosters;

    @Override
    public void init() throws ServletException {
        try {
            DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
            dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            rosters = dbf.newDocumentBuilder().parse(getServletContext().getResourceAsStream("/WEB-INF/rosters.xml"));
        } catch (Exception e) {
            throw new ServletException("rosters.xml unreadable", e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String uid = Params.get(request, "uid");
        String department = request.getParameter("department");
        String group = request.getParameter("group");
        response.setContentType("text/html;charset=UTF-8");
        PrintWriter out = response.getWriter();
        try {
            DirContext ctx = directory();
            SearchControls controls = new SearchControls();
            controls.setSearchScope(SearchControls.SUBTREE_SCOPE);
            NamingEnumeration<SearchResult> byUid = ctx.search(PEOPLE_BASE, "(&(objectClass=inetOrgPerson)(uid=" + uid + "))", controls); // vuln: ldap-injection
            while (byUid.hasMore()) {
                out.println("<li>" + StringEscapeUtils.escapeHtml4(byUid.next().getName()) + "</li>"); // safe: xss
            }
            NamingEnumeration<SearchResult> byDept = ctx.search(PEOPLE_BASE, "(&(objectClass=inetOrgPerson)(departmentNumber={0}))", new Object[] { department }, controls); // safe: ldap-injection
            out.println("<p>" + (byDept.hasMore() ? "department found" : "no such department") + "</p>"); // safe: xss
        } catch (NamingException e) {
            throw new ServletException(e);
        }

        try {
            XPath xpath = XPathFactory.newInstance().newXPath();
            String leader = xpath.evaluate("/rosters/group[@name='" + group + "']/leader", rosters); // vuln: xpath-injection
            out.println("<p>Leader: " + StringEscapeUtils.escapeHtml4(leader) + "</p>"); // safe: xss

            XPath bound = XPathFactory.newInstance().newXPath();
            bound.setXPathVariableResolver(name -> new QName("group").equals(name) ? group : null);
            Object size = bound.evaluate("count(/rosters/group[@name=$group]/member)", rosters, XPathConstants.NUMBER); // safe: xpath-injection
            out.println("<p>" + size + " members</p>");
        } catch (XPathExpressionException e) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
        }
    }

    private static DirContext directory() throws NamingException {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, AppConfig.get("ldap.url", "ldaps://ldap.citylib.local:636"));
        env.put(Context.SECURITY_PRINCIPAL, "cn=desk,ou=services,dc=citylib,dc=org");
        env.put(Context.SECURITY_CREDENTIALS, "Desk-Lookup-2021!"); // vuln: hardcoded-secret
        return new InitialDirContext(env);
    }
}
