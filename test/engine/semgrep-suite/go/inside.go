package api

import (
	"fmt"
	"net/http"
	"os"
	"sync"
)

var (
	mu    sync.Mutex
	count int
)

func status(w http.ResponseWriter, r *http.Request) {
	if _, err := os.Stat("/srv/ready"); err != nil {
		// ruleid: go-handler-writes-error
		fmt.Fprintf(w, "not ready: %s", err.Error())
		return
	}
	// ok: go-handler-writes-error
	fmt.Fprintf(w, "ready")
}

func report(w *os.File, err error) {
	// ok: go-handler-writes-error
	fmt.Fprintf(w, "failed: %s\n", err.Error())
}

func increment() {
	// ok: go-unlock-without-defer
	mu.Lock()
	defer mu.Unlock()
	count++
}

func incrementFast() {
	// ruleid: go-unlock-without-defer
	mu.Lock()
	count++
	mu.Unlock()
}
