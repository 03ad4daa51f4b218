package messages

import "fmt"

func greet(template, name string) {
	fmt.Printf(
		// ruleid: go-printf-non-constant-format
		template,
		name,
	)
	fmt.Printf(
		// ok: go-printf-non-constant-format
		"hello %s\n",
		name,
	)
}
