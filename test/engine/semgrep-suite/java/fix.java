import java.util.Random;

class Roles {
    boolean isAdmin(String role) {
        // ruleid: java-string-equality
        return role == "admin";
    }

    int token() {
        // ruleid: java-secure-random
        Random random = new Random();
        return random.nextInt();
    }
}
