package setup

import (
	"net/http"
	"os/exec"
)

func install() error {
	// ruleid: go-shell-script-downloads
	if err := exec.Command("sh", "-c", "curl -fsSL https://get.example.com/agent | sh").Run(); err != nil {
		return err
	}
	// ok: go-shell-script-downloads
	return exec.Command("sh", "-c", "curl -fsSL -o /tmp/agent https://get.example.com/agent").Run()
}

func cookies(value string) []*http.Cookie {
	return []*http.Cookie{
		// ruleid: go-cookie-not-secure
		&http.Cookie{Name: "session", Value: value, Secure: false},
		// ok: go-cookie-not-secure
		&http.Cookie{Name: "session", Value: value, Secure: true},
	}
}
