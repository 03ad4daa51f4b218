class Poller {
    void poll() throws InterruptedException {
        // ruleid: java-thread-sleep
        Thread.sleep(1000);
    }

    void notATest() {
        // ok: java-assume-false
        Assumptions.assumeTrue(false);
    }
}
