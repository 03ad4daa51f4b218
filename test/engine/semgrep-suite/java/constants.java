import java.io.InputStream;
import java.security.KeyStore;

public class Keys {
    private static final String STORE_PASSWORD = "changeit";

    KeyStore load(InputStream input, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        // ruleid: java-hardcoded-keystore-password
        store.load(input, STORE_PASSWORD.toCharArray());
        final String local = "secret";
        // ruleid: java-hardcoded-keystore-password
        store.load(input, local.toCharArray());
        // ok: java-hardcoded-keystore-password
        store.load(input, password.toCharArray());
        return store;
    }
}
