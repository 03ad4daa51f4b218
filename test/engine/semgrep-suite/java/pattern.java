import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

public class Inventory {
    private final String url;

    public Inventory(String url) {
        this.url = url;
    }

    Connection open(String user, String password) throws SQLException {
        // ruleid: java-hardcoded-jdbc-password
        Connection primary = DriverManager.getConnection(url, "inventory", "s3cr3t");
        // ok: java-hardcoded-jdbc-password
        Connection configured = DriverManager.getConnection(url, user, password);
        // ok: java-hardcoded-jdbc-password
        Connection local = DriverManager.getConnection(url, "inventory", "local"); // nosemgrep
        return primary != null ? primary : configured != null ? configured : local;
    }

    boolean sameItem(Item item, Item other) {
        // ruleid: java-self-comparison
        if (item.getSku().equals(item.getSku())) {
            // ok: java-self-comparison
            return item.getSku().equals(other.getSku());
        }
        return false;
    }

    Process cleanup(String dir) throws java.io.IOException {
        // ruleid: java-process-builder-shell
        Process shell = new ProcessBuilder("sh", "-c", "rm -rf " + dir).start();
        // ruleid: java-process-builder-shell
        new ProcessBuilder("sh", "-c", "tar czf backup.tgz " + dir, "--verbose").start();
        // ok: java-process-builder-shell
        return new ProcessBuilder("rm", "-rf", dir).start();
    }

    void load() {
        try {
            open("reader", System.getenv("DB_PASSWORD"));
        } catch (SQLException e) {
            // ruleid: java-printstacktrace
            e.printStackTrace();
        }
    }

    record Item(String getSku) {}
}
