package org.citylib.util;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** library.properties from the class path, with environment overrides (CITYLIB_DB_URL, ...). */
public final class AppConfig {

    private static final Properties PROPS = load();

    private AppConfig() {
    }

    private static Properties load() {
        Properties props = new Properties();
        try (InputStream in = AppConfig.class.getResourceAsStream("/library.properties")) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }

    public static String get(String key) {
        String env = System.getenv("CITYLIB_" + key.toUpperCase().replace('.', '_'));
        return env != null ? env : PROPS.getProperty(key);
    }

    public static String get(String key, String fallback) {
        String value = get(key);
        return value == null ? fallback : value;
    }
}
