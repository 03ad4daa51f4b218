import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ServiceTest {
    @Test
    void waits() throws InterruptedException {
        // ok: java-thread-sleep
        Thread.sleep(10);
    }

    @Test
    void flaky() {
        // ruleid: java-assume-false
        Assumptions.assumeTrue(false);
    }
}
