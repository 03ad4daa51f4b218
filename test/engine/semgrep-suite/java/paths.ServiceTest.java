import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class ServiceTest {
    @Test
    void waits() throws InterruptedException {
        // ok: java-thread-sleep
        Thread.sleep(10);
    }

    // ruleid: java-disabled-test
    @Disabled
    void flaky() {}
}
