package handlers

import (
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/lib/pq"
)

func Items(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.FormValue("name")
		// ruleid: go-http-sql-injection
		db.Query("SELECT * FROM items WHERE name = '" + name + "'")

		owner := strings.TrimSpace(r.URL.Query().Get("owner"))
		query := fmt.Sprintf("SELECT * FROM items WHERE owner = '%s'", owner)
		// ruleid: go-http-sql-injection
		db.Exec(query)

		// ok: go-http-sql-injection
		db.Query("SELECT * FROM items WHERE owner = $1", owner)

		limit, _ := strconv.Atoi(r.FormValue("limit"))
		// ok: go-http-sql-injection
		db.Query(fmt.Sprintf("SELECT * FROM items LIMIT %d", limit))

		label := pq.QuoteLiteral(r.FormValue("label"))
		// ok: go-http-sql-injection
		db.Exec("UPDATE items SET label = " + label)

		name = "public"
		// ok: go-http-sql-injection
		db.Query("SELECT * FROM items WHERE name = '" + name + "'")
	}
}
