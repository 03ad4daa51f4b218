import java.security.KeyPairGenerator;
import java.security.SecureRandom;

public class Keys {
    void generate(SecureRandom random) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        // ruleid: java-short-rsa-key
        generator.initialize(1024);
        // ruleid: java-short-rsa-key
        generator.initialize(512, random);
        // ok: java-short-rsa-key
        generator.initialize(3072);
        // ok: java-short-rsa-key
        generator.initialize(2048, random);
        // ruleid: java-short-random-token
        random.nextBytes(new byte[8]);
        // ok: java-short-random-token
        random.nextBytes(new byte[32]);
    }
}
