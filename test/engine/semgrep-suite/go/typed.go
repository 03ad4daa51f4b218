package views

import (
	"html/template"
	"io"
	"net/http"
)

type Exporter struct{}

func (Exporter) Execute(w io.Writer, data any) error { return nil }

func render(page *template.Template, w io.Writer, exporter Exporter, data any) error {
	// ruleid: go-template-execute-untrusted
	if err := page.Execute(w, data); err != nil {
		return err
	}
	var layout *template.Template
	// ruleid: go-template-execute-untrusted
	layout.Execute(w, data)
	// ok: go-template-execute-untrusted
	return exporter.Execute(w, data)
}

func remember(w http.ResponseWriter, user string, header http.Header) {
	cookie := &http.Cookie{Name: "user"}
	// ruleid: go-cookie-value-set
	cookie.Value = user
	http.SetCookie(w, cookie)
	var other struct{ Value string }
	// ok: go-cookie-value-set
	other.Value = user
	header.Set("X-User", other.Value)
}
