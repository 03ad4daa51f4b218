"""Photos, GPS tracks and exports for the GIS team."""
import os
import pickle
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import requests
import yaml
from flask import Blueprint, abort, current_app, jsonify, request, send_file, send_from_directory
from lxml import etree
from werkzeug.utils import secure_filename

from .util import arg

bp = Blueprint("files", __name__)

TILE_HOSTS = {"tiles.survey.example", "api.maptiler.com"}


@bp.route("/photos/<path:name>")
def photo(name):
    return send_from_directory(current_app.config["UPLOAD_DIR"], name) # safe: path-traversal


@bp.route("/photos/raw")
def raw_photo():
    name = arg("name")
    return send_file(os.path.join(current_app.config["UPLOAD_DIR"], name)) # vuln: path-traversal


@bp.route("/photos", methods=["POST"])
def upload_photo():
    photo = request.files["photo"]
    folder = Path(current_app.config["UPLOAD_DIR"]) / request.form.get("survey", "misc")
    folder.mkdir(parents=True, exist_ok=True) # vuln: path-traversal [survey-folder]
    photo.save(folder / secure_filename(photo.filename)) # vuln: path-traversal [survey-folder]
    return "", 201


@bp.route("/tracks/<track>")
def track(track):
    base = Path(current_app.config["UPLOAD_DIR"], "tracks").resolve()
    target = (base / track).resolve()
    if not target.is_relative_to(base):
        abort(404)
    return target.read_text() # safe: path-traversal


@bp.route("/tracks/raw")
def track_raw():
    track = arg("file")
    base = Path(current_app.config["UPLOAD_DIR"], "tracks")
    return (base / track).read_bytes() # vuln: path-traversal


@bp.route("/exports/<survey>", methods=["POST"])
def export(survey):
    export_dir = current_app.config["EXPORT_DIR"]
    fmt = arg("format", "gpkg")
    match fmt:
        case "gpkg":
            driver = "GPKG"
        case "shp":
            driver = "ESRI Shapefile"
        case _:
            driver = "GeoJSON"
    subprocess.run(["ogr2ogr", "-f", driver, f"{export_dir}/{secure_filename(survey)}.out", f"{export_dir}/{secure_filename(survey)}.vrt"], check=True) # safe: command-injection
    subprocess.run(f"zip -j {export_dir}/{survey}.zip {export_dir}/{survey}.out", shell=True, check=True) # vuln: command-injection
    os.system("sync") # safe: command-injection
    os.chmod(f"{export_dir}/{secure_filename(survey)}.out", 0o644) # safe: insecure-permissions
    os.chmod(export_dir, 0o777) # vuln: insecure-permissions
    return jsonify(status="ok")


@bp.route("/exports/disk")
def disk_usage():
    out = subprocess.run("df -h /var/lib/fieldnotes | tail -1", shell=True, capture_output=True, text=True) # safe: command-injection
    return out.stdout


@bp.route("/exports/convert", methods=["POST"])
def convert():
    import shlex

    source = request.form["source"]
    target = request.form["target"]
    os.system("gpsbabel -i gpx -f %s -o kml -F %s" % (shlex.quote(source), shlex.quote(target))) # safe: command-injection
    os.popen("gpsbabel -i gpx -f " + source + " -o csv -F -").read() # vuln: command-injection
    return "", 204


@bp.route("/tiles")
def tile_proxy():
    url = arg("url")
    if urlparse(url).hostname not in TILE_HOSTS:
        abort(400)
    return requests.get(url, timeout=5).content # safe: ssrf


@bp.route("/tiles/legacy")
def legacy_tile_proxy():
    url = arg("url")
    if "tiles.survey.example" not in url:
        abort(400)
    return requests.get(url, timeout=5).content # vuln: ssrf


@bp.route("/webhooks/test", methods=["POST"])
def test_webhook():
    hook = request.get_json()["url"]
    resp = requests.post(hook, json={"ping": True}, timeout=5) # vuln: ssrf
    return jsonify(status=resp.status_code)


@bp.route("/import/gpx", methods=["POST"])
def import_gpx():
    parser = etree.XMLParser(resolve_entities=True, no_network=False) # vuln: xxe [gpx]
    doc = etree.fromstring(request.files["gpx"].read(), parser) # vuln: xxe [gpx]
    return jsonify(points=len(doc.findall(".//{*}trkpt")))


@bp.route("/import/kml", methods=["POST"])
def import_kml():
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False) # safe: xxe [kml]
    doc = etree.fromstring(request.files["kml"].read(), parser) # safe: xxe [kml]
    return jsonify(placemarks=len(doc.findall(".//{*}Placemark")))


@bp.route("/import/style", methods=["POST"])
def import_style():
    style = yaml.load(request.files["style"].read(), Loader=yaml.Loader) # vuln: insecure-deserialization
    return jsonify(layers=len(style.get("layers", [])))


@bp.route("/import/legend", methods=["POST"])
def import_legend():
    legend = yaml.safe_load(request.files["legend"].read()) # safe: insecure-deserialization
    return jsonify(entries=len(legend))


@bp.route("/drafts/restore", methods=["POST"])
def restore_draft():
    draft = pickle.loads(request.files["draft"].read()) # vuln: insecure-deserialization
    return jsonify(title=draft.get("title"))


DEFAULT_LAYERS = {"base": "osm", "overlays": ["contours", "parcels"]}


def fresh_layers():
    return pickle.loads(pickle.dumps(DEFAULT_LAYERS)) # safe: insecure-deserialization
