package fetch

import (
	"net/http"
	"strings"
)

type target struct {
	URL   string
	Label string
}

func Proxy(w http.ResponseWriter, r *http.Request, trusted bool) {
	url := r.URL.Query().Get("url")
	if trusted {
		url = allowlistedURL(url)
	}
	// ruleid: go-ssrf
	http.Get(url)
}

func ProxyChecked(w http.ResponseWriter, r *http.Request, trusted bool) {
	url := r.URL.Query().Get("url")
	if trusted {
		url = allowlistedURL(url)
	} else {
		url = allowlistedURL(strings.TrimSpace(url))
	}
	// ok: go-ssrf
	http.Get(url)
}

func Avatar(w http.ResponseWriter, r *http.Request) {
	url := "https://avatars.example.com/"
	url += r.URL.Query().Get("user")
	// ruleid: go-ssrf
	http.Get(url)
}

func Targets(w http.ResponseWriter, r *http.Request) {
	t := target{URL: r.URL.Query().Get("url"), Label: "default"}
	urls := []string{t.URL}
	// ruleid: go-ssrf
	http.Get(urls[0])
}

func Each(w http.ResponseWriter, r *http.Request) {
	for _, u := range strings.Split(r.URL.Query().Get("urls"), ",") {
		// ruleid: go-ssrf
		http.Get(u)
	}
}

func Status(w http.ResponseWriter, r *http.Request) {
	url := r.URL.Query().Get("url")
	url = "https://status.example.com/"
	// ok: go-ssrf
	http.Get(url)
}
