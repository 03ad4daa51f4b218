import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.jdbc.core.JdbcTemplate;

class OrderJob {
    private final JdbcTemplate jdbc;
    private final ReentrantLock lock = new ReentrantLock();
    private int runs;

    OrderJob(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    int totals(java.sql.Statement statement, List<String> ids) throws java.sql.SQLException {
        int count = 0;
        for (String id : ids) {
            // ruleid: java-query-in-loop
            if (statement.executeQuery("SELECT total FROM orders WHERE id = '" + id + "'").next()) {
                count++;
            }
        }
        // ok: java-query-in-loop
        statement.executeQuery("SELECT count(*) FROM orders");
        return count;
    }

    void countUnsafely() {
        // ruleid: java-lock-without-finally
        lock.lock();
        runs++;
        lock.unlock();
    }

    void count() {
        // ok: java-lock-without-finally
        lock.lock();
        try {
            runs++;
        } finally {
            lock.unlock();
        }
    }
}
