package client

import (
	"crypto/tls"
	"io"
	"io/ioutil"
)

func read(r io.Reader) ([]byte, *tls.Config, error) {
	// ruleid: go-ioutil-readall
	data, err := ioutil.ReadAll(r)
	// ruleid: go-tls-min-version
	config := &tls.Config{MinVersion: tls.VersionTLS10}
	return data, config, err
}
