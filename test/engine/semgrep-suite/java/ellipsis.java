import java.io.FileOutputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.servlet.http.HttpServletRequest;

public class Reports {
    interface User {
        boolean isActive();
        boolean isAdmin();
    }

    interface Report {
        User owner();
        void delete();
        void archive();
    }

    private static final Logger LOG = Logger.getLogger("reports");

    void write(FileOutputStream out, byte[] header, byte[] body) throws IOException {
        out.write(header);
        // ruleid: java-stream-used-after-close
        out.close();
        LOG.info("header written");
        out.write(body);
    }

    void writeAll(FileOutputStream out, byte[] body) throws IOException {
        out.write(body);
        out.flush();
        // ok: java-stream-used-after-close
        out.close();
    }

    ResultSet find(Connection connection, HttpServletRequest request) throws SQLException {
        Statement statement = connection.createStatement();
        // ruleid: java-statement-from-concatenation
        ResultSet byName = statement.executeQuery("SELECT * FROM reports WHERE name = '" + request.getParameter("name") + "'");
        // ok: java-statement-from-concatenation
        ResultSet all = statement.executeQuery("SELECT * FROM reports");
        return byName != null ? byName : all;
    }

    int[] limits(java.util.Properties settings) {
        int retries;
        int timeout;
        // ruleid: java-overwritten-before-use
        retries = Integer.parseInt(settings.getProperty("retries"));
        retries = 3;
        // ok: java-overwritten-before-use
        timeout = Integer.parseInt(settings.getProperty("timeout"));
        settings.setProperty("timeout", "30");
        return new int[] {retries, timeout};
    }

    void delete(User user, Report report) {
        // ruleid: java-admin-check-in-condition
        if (user.isActive() && (user.isAdmin() || report.owner().equals(user))) {
            report.delete();
        }
        // ok: java-admin-check-in-condition
        if (report.owner().equals(user)) {
            report.archive();
        }
    }

    void report(Logger audit, Exception e) {
        // ruleid: java-logger-with-exception-message
        audit.log(Level.WARNING, e.getMessage());
        // ok: java-logger-with-exception-message
        audit.log(Level.WARNING, "report failed", e);
        // ok: java-logger-with-exception-message
        Math.log(Double.parseDouble(e.getMessage()));
    }
}
