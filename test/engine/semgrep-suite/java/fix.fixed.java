import java.util.Random;

class Roles {
    boolean isAdmin(String role) {
        // ruleid: java-string-equality
        return "admin".equals(role);
    }

    int token() {
        // ruleid: java-secure-random
        Random random = new java.security.SecureRandom();
        return random.nextInt();
    }
}
