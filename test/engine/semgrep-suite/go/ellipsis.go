package files

import (
	"archive/zip"
	"database/sql"
	"io"
	"net/http"
	"os"
)

func readConfig(path string) ([]byte, error) {
	// ruleid: go-defer-close-before-error-check
	f, err := os.Open(path)
	defer f.Close()
	if err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

func readConfigSafely(path string) ([]byte, error) {
	// ok: go-defer-close-before-error-check
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func entry(archive io.ReaderAt, size int64, name string) error {
	reader, err := zip.NewReader(archive, size)
	if err != nil {
		return err
	}
	// ruleid: go-zip-open-user-path
	if _, err := reader.Open(name); err != nil {
		return err
	}
	dir := http.Dir("/srv")
	// ok: go-zip-open-user-path
	_, err = dir.Open(name)
	return err
}

func search(db *sql.DB, r *http.Request) (*sql.Rows, error) {
	// ruleid: go-query-with-form-value
	rows, err := db.Query("SELECT * FROM items WHERE name = '" + r.FormValue("name") + "'")
	if err != nil {
		return nil, err
	}
	rows.Close()
	// ok: go-query-with-form-value
	return db.Query("SELECT * FROM items WHERE name = $1", r.FormValue("name"))
}

func limits(settings map[string]int) (int, int) {
	var retries, timeout int
	// ruleid: go-overwritten-before-use
	retries = settings["retries"]
	retries = 3
	// ok: go-overwritten-before-use
	timeout = settings["timeout"]
	settings["timeout"] = 30
	return retries, timeout
}

type user interface {
	IsActive() bool
	IsAdmin() bool
	ID() string
}

func remove(u user, owner string, drop func()) {
	// ruleid: go-admin-check-in-condition
	if u.IsActive() && (u.IsAdmin() || owner == u.ID()) {
		drop()
	}
	// ok: go-admin-check-in-condition
	if owner == u.ID() {
		drop()
	}
}
