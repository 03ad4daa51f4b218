import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {
    private final JdbcTemplate jdbc;

    OrderController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    List<Map<String, Object>> byStatus(String status) {
        // ruleid: java-spring-controller-sql
        return jdbc.queryForList("SELECT * FROM orders WHERE status = " + status);
    }

    List<Map<String, Object>> byOwner(String owner) {
        // ok: java-spring-controller-sql
        return jdbc.queryForList("SELECT * FROM orders WHERE owner = ?", owner);
    }
}

class OrderJob {
    private final JdbcTemplate jdbc;
    private final ReentrantLock lock = new ReentrantLock();
    private int runs;

    OrderJob(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    List<Map<String, Object>> stale(String days) {
        // ok: java-spring-controller-sql
        return jdbc.queryForList("SELECT * FROM orders WHERE age > " + days);
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
