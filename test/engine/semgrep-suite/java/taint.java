import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class AccountServlet extends HttpServlet {
    private Connection connection;

    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {
        String account = request.getParameter("account");
        Statement statement = connection.createStatement();
        // ruleid: java-servlet-sql-injection
        ResultSet rows = statement.executeQuery("SELECT * FROM accounts WHERE id = '" + account + "'");

        String sort = request.getHeader("X-Sort").trim();
        String query = String.format("SELECT * FROM accounts ORDER BY %s", sort);
        // ruleid: java-servlet-sql-injection
        statement.executeQuery(query);

        // ok: java-servlet-sql-injection
        PreparedStatement prepared = connection.prepareStatement("SELECT * FROM accounts WHERE id = ?");
        prepared.setString(1, account);

        int limit = Integer.parseInt(request.getParameter("limit"));
        // ok: java-servlet-sql-injection
        statement.executeQuery("SELECT * FROM accounts LIMIT " + limit);

        String owner = Encode.forSql(request.getParameter("owner"));
        // ok: java-servlet-sql-injection
        statement.executeUpdate("UPDATE accounts SET seen = 1 WHERE owner = '" + owner + "'");

        account = "public";
        // ok: java-servlet-sql-injection
        statement.executeQuery("SELECT * FROM accounts WHERE id = '" + account + "'");
        rows.close();
    }
}
