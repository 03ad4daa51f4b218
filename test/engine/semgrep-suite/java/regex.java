import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class Billing {
    private static final Logger LOG = LoggerFactory.getLogger(Billing.class);
    // ruleid: java-internal-http-url
    static final String BILLING = "http://billing.corp.example.com/api";
    // ok: java-internal-http-url
    static final String LEDGER = "https://ledger.corp.example.com/api";

    void charge(String account, long cents) {
        // ruleid: java-mysql-without-tls
        String plain = "jdbc:mysql://db.internal:3306/billing";
        // ok: java-mysql-without-tls
        String encrypted = "jdbc:mysql://db.internal:3306/billing?useSSL=true";
        // ruleid: java-verbose-logging
        LOG.debug("charging {} {}", account, cents);
        // ruleid: java-verbose-logging
        LOG.trace("account {}", account);
        // ok: java-verbose-logging
        if (LOG.isDebugEnabled()) {
            // ok: java-verbose-logging
            LOG.info("charged {}", account);
        }
    }
}
