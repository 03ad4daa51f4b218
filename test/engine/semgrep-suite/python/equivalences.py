import subprocess as sp
from os import system as run_shell
from subprocess import call
from xml.etree import ElementTree

from flask import Flask

import helpers

app = Flask(__name__)


def deploy(target):
    # ruleid: python-shell-call
    call("rsync -a build/ " + target, shell=True)
    # ruleid: python-shell-call
    sp.call("systemctl restart app", shell=True)
    # ok: python-shell-call
    helpers.call("rsync -a build/ " + target, shell=True)
    # ok: python-shell-call
    call(["rsync", "-a", "build/", target])
    # ruleid: python-os-system
    run_shell("rm -rf build/")


def read_manifest(path, parser):
    # ruleid: python-etree-parse
    tree = ElementTree.parse(path)
    # ok: python-etree-parse
    other = parser.parse(path)
    return tree, other


if __name__ == "__main__":
    # ruleid: python-flask-public-debug
    app.run(debug=True, host="0.0.0.0")
    # ruleid: python-flask-public-debug
    app.run(host="0.0.0.0", debug=True)
    # ok: python-flask-public-debug
    app.run(host="127.0.0.1", debug=True)
