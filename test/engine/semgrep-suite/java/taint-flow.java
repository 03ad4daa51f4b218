import java.util.ArrayList;
import java.util.List;
import javax.servlet.http.HttpServletRequest;

public class Tools {
    void ping(HttpServletRequest request, boolean trusted) throws Exception {
        String host = request.getParameter("host");
        if (trusted) {
            host = Shell.quote(host);
        }
        // ruleid: java-runtime-exec-injection
        Runtime.getRuntime().exec("ping -c 1 " + host);
    }

    void pingQuoted(HttpServletRequest request, boolean trusted) throws Exception {
        String host = request.getParameter("host");
        if (trusted) {
            host = Shell.quote(host);
        } else {
            host = Shell.quote(host.trim());
        }
        // ok: java-runtime-exec-injection
        Runtime.getRuntime().exec("ping -c 1 " + host);
    }

    void archive(HttpServletRequest request) throws Exception {
        String command = "tar czf /backups/out.tgz";
        command += " " + request.getParameter("dir");
        // ruleid: java-runtime-exec-injection
        Runtime.getRuntime().exec(command);
    }

    void batch(HttpServletRequest request) throws Exception {
        List<String> hosts = new ArrayList<>();
        for (String host : request.getParameter("hosts").split(",")) {
            // ruleid: java-runtime-exec-injection
            Runtime.getRuntime().exec("ping -c 1 " + host);
            hosts.add(host);
        }
    }

    void uptime(HttpServletRequest request) throws Exception {
        String command = request.getParameter("command");
        command = "uptime";
        // ok: java-runtime-exec-injection
        Runtime.getRuntime().exec(command);
    }
}
