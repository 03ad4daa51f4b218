package server

import (
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	// ruleid: go-test-skip
	t.Skip("flaky on CI")
	// ok: go-time-sleep
	time.Sleep(10 * time.Millisecond)
}
