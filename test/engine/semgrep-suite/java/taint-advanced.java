import java.io.File;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.commons.beanutils.BeanUtils;

public class Files {
    public File export(HttpServletRequest request) throws Exception {
        ExportForm form = new ExportForm();
        BeanUtils.populate(form, request.getParameterMap());
        // ruleid: java-bean-from-request-path
        return new File("/srv/exports/" + form.getFileName());
    }

    public File exportChecked(HttpServletRequest request) throws Exception {
        ExportForm form = new ExportForm();
        BeanUtils.populate(form, request.getParameterMap());
        PathGuard.check(form);
        // ok: java-bean-from-request-path
        return new File("/srv/exports/" + form.getFileName());
    }

    public File exportDefault() {
        ExportForm form = new ExportForm();
        // ok: java-bean-from-request-path
        return new File("/srv/exports/" + form.getFileName());
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

    void next(HttpServletRequest request, HttpServletResponse response) throws Exception {
        String target = request.getParameter("next");
        if (Urls.isLocal(target)) {
            // ok: java-guarded-redirect
            response.sendRedirect(target);
            return;
        }
        // ruleid: java-guarded-redirect
        response.sendRedirect(target);
    }
}
