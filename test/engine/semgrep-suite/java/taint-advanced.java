import java.io.File;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class Files {
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

    public File openDefault(String name) {
        // ok: java-spring-path-traversal
        return new File("/srv/files/" + name);
    }

    ResultSet search(HttpServletRequest request, Statement statement) throws Exception {
        StringBuilder sql = new StringBuilder("SELECT * FROM files WHERE 1 = 1");
        sql.append(" AND owner = '");
        sql.append(request.getParameter("owner"));
        sql.append("'");
        StringBuilder plain = new StringBuilder("SELECT * FROM files WHERE ");
        plain.append("public = 1");
        // ok: java-query-builder-injection
        statement.executeQuery(plain.toString());
        // ruleid: java-query-builder-injection
        return statement.executeQuery(sql.toString());
    }
}
