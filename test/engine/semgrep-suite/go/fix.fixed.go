package client

import (
	"crypto/tls"
	"io"
	"io/ioutil"
)

func read(r io.Reader) ([]byte, *tls.Config, error) {
	// ruleid: go-ioutil-readall
	data, err := io.ReadAll(r)
	// ruleid: go-tls-min-version
	config := &tls.Config{MinVersion: tls.VersionTLS12}
	return data, config, err
}
