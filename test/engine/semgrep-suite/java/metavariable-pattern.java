import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.servlet.http.Cookie;

public class Scripts {
    Object run(ScriptEngineManager manager) throws Exception {
        ScriptEngine engine = manager.getEngineByName("nashorn");
        // ruleid: java-script-engine-runs-process
        engine.eval("java.lang.Runtime.getRuntime().exec('id')");
        // ruleid: java-script-engine-runs-process
        engine.eval("var x = eval(input); x + 1");
        // ok: java-script-engine-runs-process
        return engine.eval("1 + 2");
    }

    Cookie session(String id) {
        Cookie cookie = new Cookie("session", id);
        // ruleid: java-cookie-flags-off
        cookie.setSecure(false);
        // ruleid: java-cookie-flags-off
        cookie.setHttpOnly(false);
        // ok: java-cookie-flags-off
        cookie.setMaxAge(0);
        // ok: java-cookie-flags-off
        cookie.setSecure(true);
        return cookie;
    }
}
