package main

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"net"
	"net/http"
	"os/exec"
)

func digests(data []byte) {
	// ruleid: go-weak-hash
	h := md5.New()
	// ruleid: go-weak-hash
	sum := sha1.Sum(data)
	// ok: go-weak-hash
	strong := sha256.Sum256(data)
	_, _, _ = h, sum, strong
}

func run(tool string, args []string) error {
	// ruleid: go-exec-non-literal
	if err := exec.Command(tool, args...).Run(); err != nil {
		return err
	}
	// ok: go-exec-non-literal
	return exec.Command("git", "status").Run()
}

func serve(handler http.Handler) error {
	// ruleid: go-listen-all-interfaces
	go http.ListenAndServe(":8080", handler)
	// ruleid: go-listen-all-interfaces
	if _, err := net.Listen("tcp", "0.0.0.0:9090"); err != nil {
		return err
	}
	// ok: go-listen-all-interfaces
	return http.ListenAndServe("127.0.0.1:8081", handler)
}
