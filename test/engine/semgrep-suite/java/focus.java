public class Messages {
    String greet(String template, String name) {
        String custom = String.format(
            // ruleid: java-format-string-argument
            template,
            name);
        String fixed = String.format(
            // ok: java-format-string-argument
            "Hello %s",
            name);
        return custom + fixed;
    }
}
