import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;

public class Settings {
    Object read(Logger audit, List<Logger> loggers, Printer printer, String key, Map<String, Object> cache) {
        Logger local = Logger.getLogger("settings");
        // ruleid: java-logger-info-concatenation
        local.info("reading " + key);
        // ruleid: java-logger-info-concatenation
        audit.info("read by " + key);
        for (Logger each : loggers) {
            // ruleid: java-logger-info-concatenation
            each.info("settings " + key);
        }
        // ok: java-logger-info-concatenation
        printer.info("reading " + key);
        java.util.Properties props = new java.util.Properties();
        Properties defaults = new Properties();
        // ruleid: java-map-get-on-properties
        Object value = props.get(key);
        // ruleid: java-map-get-on-properties
        Object fallback = defaults.get(key);
        // ok: java-map-get-on-properties
        Object cached = cache.get(key);
        return value != null ? value : fallback != null ? fallback : cached;
    }

    interface Printer {
        void info(String message);
    }
}
