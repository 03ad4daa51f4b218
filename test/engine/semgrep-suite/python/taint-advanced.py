import os
import subprocess

from flask import Flask, redirect, request, send_file

from app import db
from app.forms import ProfileForm
from app.models import Profile
from app.storage import ensure_inside_uploads
from app.urls import is_safe_url

app = Flask(__name__)


def save_profile():
    form = ProfileForm(request.form)
    profile = Profile()
    form.populate_obj(profile)
    # ruleid: python-form-data-in-query
    db.session.execute("UPDATE profiles SET bio = '" + profile.bio + "'")
    other = Profile()
    # ok: python-form-data-in-query
    db.session.execute("UPDATE profiles SET bio = '" + other.bio + "'")


def download():
    name = request.args.get("name")
    # ruleid: python-path-traversal
    return send_file(os.path.join("/srv/uploads", name))


def download_checked():
    name = request.args.get("name")
    ensure_inside_uploads(name)
    # ok: python-path-traversal
    return send_file(os.path.join("/srv/uploads", name))


def run_report():
    args = ["report", "--format"]
    args.append(request.args.get("format"))
    # ruleid: python-command-from-list
    os.system(" ".join(args))


def run_default_report():
    args = ["report", "--format"]
    args.append("pdf")
    # ok: python-command-from-list
    os.system(" ".join(args))


@app.route("/logs/<service>")
def logs(service):
    # ruleid: python-route-parameter-in-shell
    return subprocess.check_output("journalctl -u " + service, shell=True)


def logs_of(service):
    # ok: python-route-parameter-in-shell
    return subprocess.check_output("journalctl -u " + service, shell=True)


def next_page():
    target = request.args.get("next")
    if is_safe_url(target):
        # ok: python-guarded-redirect
        return redirect(target)
    # ruleid: python-guarded-redirect
    return redirect(target)
