"""Admin pages: user directory, saved map queries, survey statistics, maintenance."""
import importlib
import json

import jwt
from flask import Blueprint, abort, current_app, jsonify, request
from ldap3 import Connection, Server
from ldap3.utils.conv import escape_filter_chars
from lxml import etree
from pymongo import MongoClient

from .util import arg

bp = Blueprint("admin", __name__)

EXPORTERS = {"csv": "fieldnotes.exporters.csv_export", "geojson": "fieldnotes.exporters.geojson_export"}
STATS_FIELDS = ("count", "area", "photos")


def _mongo():
    return MongoClient(current_app.config["MONGO_URL"]).fieldnotes


def _directory():
    server = Server(current_app.config["LDAP_URL"], use_ssl=True)
    return Connection(server, "cn=fieldnotes,ou=apps,dc=survey,dc=example", current_app.config["GIS_SHARE_PASSWORD"], auto_bind=True)


def _require_admin():
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    claims = jwt.decode(token, options={"verify_signature": False}) # vuln: jwt-misuse
    if "admin" not in claims.get("roles", []):
        abort(403)


@bp.before_request
def check_admin():
    _require_admin()


@bp.route("/users")
def users():
    email = arg("email")
    conn = _directory()
    conn.search("ou=people,dc=survey,dc=example", f"(mail={email})", attributes=["cn", "mail"]) # vuln: ldap-injection
    found = [str(e.cn) for e in conn.entries]
    team = arg("team")
    conn.search("ou=people,dc=survey,dc=example", "(ou=%s)" % escape_filter_chars(team), attributes=["cn"]) # safe: ldap-injection
    return jsonify(found=found, team=[str(e.cn) for e in conn.entries])


@bp.route("/surveys/find", methods=["POST"])
def find_surveys():
    body = request.get_json()
    surveys = _mongo().surveys.find({"owner": body["owner"], "archived": False}) # vuln: nosql-injection
    return jsonify([s["name"] for s in surveys])


@bp.route("/surveys/find-by-name", methods=["POST"])
def find_survey_by_name():
    body = request.get_json()
    survey = _mongo().surveys.find_one({"name": str(body.get("name", ""))}) # safe: nosql-injection
    return jsonify(found=survey is not None)


@bp.route("/surveys/purge", methods=["POST"])
def purge_surveys():
    criteria = request.get_json().get("criteria", {})
    result = _mongo().surveys.delete_many(criteria) # vuln: nosql-injection
    return jsonify(deleted=result.deleted_count)


@bp.route("/surveys/rename", methods=["POST"])
def rename_survey():
    body = request.get_json()
    _mongo().surveys.update_one({"name": body["old"]}, {"$set": {"name": body["new"]}}) # vuln: nosql-injection
    return "", 204


@bp.route("/surveys/stale")
def stale_surveys():
    days = int(arg("days", "30"))
    cursor = _mongo().surveys.find({"$where": "this.updated_days_ago > %d" % days}) # safe: nosql-injection
    return jsonify(count=len(list(cursor)))


@bp.route("/stats")
def stats():
    expr = arg("expr", "count")
    if expr in STATS_FIELDS:
        return jsonify(value=eval(expr, {"count": 10, "area": 3.5, "photos": 42})) # safe: code-injection
    return jsonify(value=eval(expr, {"__builtins__": {}}, {"count": 10})) # vuln: code-injection


@bp.route("/export/<kind>")
def export(kind):
    module_name = EXPORTERS.get(kind)
    if module_name is None:
        abort(404)
    exporter = importlib.import_module(module_name) # safe: code-injection
    return exporter.run()


@bp.route("/plugins/load")
def load_plugin():
    plugin = importlib.import_module(arg("module")) # vuln: code-injection
    return jsonify(name=getattr(plugin, "NAME", plugin.__name__))


@bp.route("/layers/lookup")
def layer_lookup():
    layers = etree.parse(current_app.open_resource("layers.xml"))
    name = arg("name")
    titles = layers.xpath("//layer[@name='%s']/title/text()" % name) # vuln: xpath-injection
    abstracts = layers.xpath("//layer[@name=$name]/abstract/text()", name=name) # safe: xpath-injection
    return jsonify(titles=titles, abstracts=abstracts)


@bp.route("/maintenance/settings", methods=["POST"])
def settings():
    payload = json.loads(request.data) # safe: insecure-deserialization
    assert payload.get("confirm") == "yes", "confirmation required"
    current_app.config.update({k: v for k, v in payload.items() if k.startswith("FIELDNOTES_")}) # vuln: mass-assignment
    return "", 204
