class Poller {
    void poll() throws InterruptedException {
        // ruleid: java-thread-sleep
        Thread.sleep(1000);
    }

    // ok: java-disabled-test
    @Disabled
    void notATest() {}
}
