import static java.security.MessageDigest.getInstance;

import java.security.MessageDigest;
import java.util.Random;

public class Tokens {
    byte[] digest(byte[] data) throws Exception {
        // ruleid: java-md5-digest
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        // ruleid: java-md5-digest
        MessageDigest legacy = getInstance("MD5");
        // ok: java-md5-digest
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        // ok: java-md5-digest
        Object other = com.acme.crypto.MessageDigest.getInstance("MD5");
        return md5.digest(legacy.digest(sha.digest(data)));
    }

    int token() {
        // ruleid: java-insecure-random
        Random random = new Random();
        // ok: java-insecure-random
        java.security.SecureRandom secure = new java.security.SecureRandom();
        return random.nextInt() ^ secure.nextInt();
    }
}
