package store

import (
	"crypto/tls"
	"database/sql"
	"fmt"
	"os"
)

func clientConfig(serverName string) (*tls.Config, *tls.Config, *tls.Config) {
	// ruleid: go-tls-insecure-skip-verify
	insecure := &tls.Config{InsecureSkipVerify: true}
	// ruleid: go-tls-insecure-skip-verify
	legacy := &tls.Config{
		ServerName:         serverName,
		InsecureSkipVerify: true,
	}
	// ok: go-tls-insecure-skip-verify
	secure := &tls.Config{ServerName: serverName, MinVersion: tls.VersionTLS12}
	// ok: go-tls-insecure-skip-verify
	_ = tls.Config{InsecureSkipVerify: true} // nosemgrep
	return insecure, legacy, secure
}

func sameVersion(a, b Record) bool {
	// ruleid: go-self-comparison
	if a.Version == a.Version {
		// ok: go-self-comparison
		return a.Version == b.Version
	}
	return false
}

func open() (*sql.DB, *sql.DB, error) {
	// ruleid: go-hardcoded-dsn
	db, err := sql.Open("postgres", "postgres://app:hunter2@db.internal/app")
	if err != nil {
		return nil, nil, err
	}
	// ok: go-hardcoded-dsn
	replica, err := sql.Open("postgres", os.Getenv("REPLICA_DSN"))
	return db, replica, err
}

func queries(table, owner string, limit int) []string {
	return []string{
		// ruleid: go-sprintf-sql
		fmt.Sprintf("SELECT * FROM %s WHERE owner = '%s'", table, owner),
		// ruleid: go-sprintf-sql
		fmt.Sprintf("SELECT * FROM %s LIMIT %d", table, limit),
		// ok: go-sprintf-sql
		fmt.Sprintf("owner %s", owner),
	}
}

type Record struct{ Version int }
