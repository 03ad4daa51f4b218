import java.io.InputStream;
import java.security.KeyStore;

public class Keys {
    KeyStore load(InputStream input, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        String storePassword = "changeit";
        // ruleid: java-hardcoded-keystore-password
        store.load(input, storePassword.toCharArray());
        final String local = "secret";
        // ruleid: java-hardcoded-keystore-password
        store.load(input, local.toCharArray());
        // ok: java-hardcoded-keystore-password
        store.load(input, password.toCharArray());
        return store;
    }
}
