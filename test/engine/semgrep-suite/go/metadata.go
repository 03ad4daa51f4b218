package views

import "html/template"

func render(comment string) template.HTML {
	if comment == "" {
		// ruleid: go-panic-call
		panic("empty comment")
	}
	// ruleid: go-template-html-unescaped
	return template.HTML(comment)
}
