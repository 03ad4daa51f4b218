package cloud

import (
	"net/http"
	"unsafe"
)

// ruleid: go-internal-http-url
const billingURL = "http://billing.corp.example.com/api"

// ok: go-internal-http-url
const ledgerURL = "https://ledger.corp.example.com/api"

func regions() []string {
	return []string{
		// ruleid: go-aws-region-hardcoded
		"eu-west-1",
		// ok: go-aws-region-hardcoded
		"us-east-1",
	}
}

func size(v *int64) (uintptr, *http.Response, error) {
	resp, err := http.Get(billingURL + ledgerURL)
	// ruleid: go-unsafe-package-call
	return unsafe.Sizeof(*v), resp, err
}
