"""Field notes: listing, search on the map, sharing, tags."""
import logging
import re

from flask import Blueprint, Response, abort, current_app, jsonify, make_response, redirect, render_template, render_template_string, request, session, url_for
from markupsafe import Markup, escape

from ..services import db, tokens
from .util import arg, client_ip, form_field

bp = Blueprint("notes", __name__)
log = logging.getLogger(__name__)

TRUSTED_OFFICE_IPS = {"192.0.2.10", "192.0.2.11"}


@bp.route("/notes")
def list_notes():
    author = session.get("user")
    rows = db.find_notes(author, tag=request.args.get("tag"), order=request.args.get("order", "created_at"))
    return render_template("notes/list.html", notes=rows)


@bp.route("/notes/area")
def notes_in_area():
    bbox = arg("bbox").split(",")
    if len(bbox) != 4:
        abort(400)
    return jsonify([dict(row) for row in db.notes_in_area(bbox)])


@bp.route("/notes/<int:note_id>", methods=["DELETE"])
def delete(note_id):
    db.delete_note(note_id)
    return "", 204


@bp.route("/tags/rename", methods=["POST"])
def rename_tag():
    db.rename_tag(form_field("old"), form_field("new"))
    return redirect(url_for("notes.list_notes")) # safe: open-redirect


@bp.route("/notes/search")
def search():
    q = arg("q")
    pattern = re.compile(q, re.IGNORECASE) # vuln: redos
    literal = re.compile(re.escape(q), re.IGNORECASE) # safe: redos
    rows = db.find_notes(session.get("user"))
    hits = [r for r in rows if pattern.search(r["body"]) or literal.search(r["title"])]
    heading = "<h2>%d notes match <em>%s</em></h2>" % (len(hits), q)
    return heading + render_template("notes/hits.html", hits=hits) # vuln: xss


@bp.route("/notes/preview", methods=["POST"])
def preview():
    body = request.form["body"]
    return render_template_string("<article>{{ body }}</article>", body=body) # safe: template-injection


@bp.route("/notes/card")
def card():
    title = arg("title", "Untitled")
    template = "<div class='card'><h3>" + title + "</h3>{{ note.body }}</div>"
    return render_template_string(template, note={"body": "..."}) # vuln: template-injection


@bp.route("/notes/banner")
def banner():
    message = arg("message")
    return Response(Markup("<div class='banner'>%s</div>") % message, mimetype="text/html") # safe: xss


@bp.route("/notes/motd")
def motd():
    motd = arg("motd")
    return Response(Markup("<marquee>" + motd + "</marquee>"), mimetype="text/html") # vuln: xss


@bp.route("/notes/hello")
def hello():
    return f"<p>Hello {escape(arg('name'))}</p>" # safe: xss


@bp.route("/share/<int:note_id>", methods=["POST"])
def share(note_id):
    token = tokens.share_token()
    resp = make_response(jsonify(url=url_for("notes.shared", token=token, _external=True)))
    resp.set_cookie("last_share", token) # vuln: insecure-cookie
    resp.set_cookie("ui_theme", arg("theme", "light"), samesite="Lax") # safe: insecure-cookie
    return resp


@bp.route("/shared/<token>")
def shared(token):
    return render_template("notes/shared.html", token=token)


@bp.route("/login", methods=["POST"])
def login():
    user = form_field("username")
    row = db.get_db().execute("SELECT password FROM users WHERE name = ?", (user,)).fetchone() # safe: sql-injection
    if row is None or not tokens.legacy_password_matches(form_field("password"), row["password"]):
        log.info("login failed for %s from %s", user, client_ip()) # vuln: log-injection
        abort(403)
    session["user"] = user # safe: trust-boundary
    session["office"] = client_ip() in TRUSTED_OFFICE_IPS # vuln: trust-boundary [xff-office]
    session["display_name"] = request.form.get("display_name", user) # vuln: trust-boundary
    next_url = request.args.get("next") or url_for("notes.list_notes")
    return redirect(next_url) # vuln: open-redirect


@bp.route("/settings/page-size", methods=["POST"])
def page_size():
    session["page_size"] = min(int(form_field("size")), 200) # safe: trust-boundary
    log.info("page size set to %d", session["page_size"]) # safe: log-injection
    return "", 204


@bp.route("/lang")
def set_language():
    lang = arg("lang")
    resp = redirect(url_for("notes.list_notes"))
    if lang not in current_app.config.get("LANGUAGES", ("en", "fr", "de")):
        return resp
    resp.headers["Content-Language"] = lang # safe: header-injection
    return resp
