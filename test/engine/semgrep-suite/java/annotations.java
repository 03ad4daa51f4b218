import java.io.File;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Disabled;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
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

    @GetMapping("/files")
    public File open(@RequestParam String name) {
        // ruleid: java-spring-path-traversal
        return new File("/srv/files/" + name);
    }

    @GetMapping("/files/checked")
    public File openChecked(@RequestParam String name) {
        PathGuard.check(name);
        // ok: java-spring-path-traversal
        return new File("/srv/files/" + name);
    }
}

class OrderJob {
    private final JdbcTemplate jdbc;

    OrderJob(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    List<Map<String, Object>> stale(String days) {
        // ok: java-spring-controller-sql
        return jdbc.queryForList("SELECT * FROM orders WHERE age > " + days);
    }

    public File openDefault(String name) {
        // ok: java-spring-path-traversal
        return new File("/srv/files/" + name);
    }
}

class OrderJobTest {
    // ruleid: java-disabled-test
    @Disabled
    void flaky() {}

    // ok: java-disabled-test
    void notDisabled() {}
}
