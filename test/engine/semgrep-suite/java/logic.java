import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import javax.crypto.Cipher;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLSession;

public class Crypto {
    static final byte[] TRUSTED_BYTES = new byte[0];

    Cipher[] ciphers() throws Exception {
        return new Cipher[] {
            // ruleid: java-weak-cipher
            Cipher.getInstance("DES"),
            // ruleid: java-weak-cipher
            Cipher.getInstance("AES/ECB/PKCS5Padding"),
            // ruleid: java-weak-cipher
            Cipher.getInstance("RC4"),
            // ok: java-weak-cipher
            Cipher.getInstance("AES/GCM/NoPadding"),
        };
    }

    Object read(InputStream input) throws Exception {
        // ruleid: java-unsafe-object-input
        Object untrusted = new ObjectInputStream(input).readObject();
        // ok: java-unsafe-object-input
        Object trusted = new ObjectInputStream(new ByteArrayInputStream(TRUSTED_BYTES)).readObject();
        return untrusted != null ? untrusted : trusted;
    }

    static class TrustEveryone implements HostnameVerifier {
        // ruleid: java-trust-all-hostnames
        public boolean verify(String hostname, SSLSession session) {
            return true;
        }
    }

    static class TrustOurs implements HostnameVerifier {
        // ok: java-trust-all-hostnames
        public boolean verify(String hostname, SSLSession session) {
            return hostname.endsWith(".example.com");
        }
    }
}
