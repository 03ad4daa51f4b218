package jobs

import (
	"encoding/json"
	"net/http"
	"os/exec"
	"strings"
)

type Job struct {
	Script string
}

func Run(w http.ResponseWriter, r *http.Request) {
	var job Job
	json.NewDecoder(r.Body).Decode(&job)
	// ruleid: go-json-body-to-command
	exec.Command("sh", "-c", job.Script).Run()
}

func RunChecked(w http.ResponseWriter, r *http.Request) {
	var job Job
	json.NewDecoder(r.Body).Decode(&job)
	validateJob(job)
	// ok: go-json-body-to-command
	exec.Command("sh", "-c", job.Script).Run()
}

func RunDefault(w http.ResponseWriter, r *http.Request) {
	job := Job{Script: "uptime"}
	// ok: go-json-body-to-command
	exec.Command("sh", "-c", job.Script).Run()
}

func Grep(w http.ResponseWriter, r *http.Request) {
	var command strings.Builder
	command.WriteString("grep -r ")
	command.WriteString(r.URL.Query().Get("pattern"))
	// ruleid: go-args-from-query
	exec.Command("sh", "-c", command.String()).Run()
}

func GrepFixed(w http.ResponseWriter, r *http.Request) {
	var command strings.Builder
	command.WriteString("grep -r ")
	command.WriteString("TODO")
	// ok: go-args-from-query
	exec.Command("sh", "-c", command.String()).Run()
}

func Next(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("next")
	if isLocalURL(target) {
		// ok: go-guarded-redirect
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	// ruleid: go-guarded-redirect
	http.Redirect(w, r, target, http.StatusFound)
}
