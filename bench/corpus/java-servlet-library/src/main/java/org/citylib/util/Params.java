package org.citylib.util;

import javax.servlet.http.HttpServletRequest;

/** Request parameter helpers shared by the servlets (trimmed values, defaults, numbers). */
public final class Params {

    private Params() {
    }

    public static String get(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null ? "" : value.trim();
    }

    public static String header(HttpServletRequest request, String name, String fallback) {
        String value = request.getHeader(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    public static int intValue(HttpServletRequest request, String name, int fallback) {
        try {
            return Integer.parseInt(request.getParameter(name));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
