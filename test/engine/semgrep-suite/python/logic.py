import hashlib

import yaml
from flask import Flask

app = Flask(__name__)


def checksums(blob):
    # ruleid: python-weak-hash
    legacy = hashlib.md5(blob).hexdigest()
    # ruleid: python-weak-hash
    etag = hashlib.sha1(blob, usedforsecurity=False).hexdigest()
    # ruleid: python-weak-hash
    other = hashlib.new("md5", blob).hexdigest()
    # ok: python-weak-hash
    strong = hashlib.sha256(blob).hexdigest()
    # ok: python-weak-hash
    named = hashlib.new("sha512", blob).hexdigest()
    return legacy, etag, other, strong, named


def load_config(stream, trusted_stream):
    # ruleid: python-unsafe-yaml-load
    config = yaml.load(stream)
    # ruleid: python-unsafe-yaml-load
    extra = yaml.load(trusted_stream, Loader=yaml.Loader)
    # ok: python-unsafe-yaml-load
    safe = yaml.load(stream, Loader=yaml.SafeLoader)
    # ok: python-unsafe-yaml-load
    fast = yaml.load(stream, Loader=yaml.CSafeLoader)
    # ok: python-unsafe-yaml-load
    simple = yaml.safe_load(stream)
    return config, extra, safe, fast, simple


def main(local):
    if local:
        # ok: python-debug-enabled-app
        app.run(host="127.0.0.1", debug=True)
    else:
        # ruleid: python-debug-enabled-app
        app.run(host="0.0.0.0", port=8080, debug=True)
    # ruleid: python-debug-enabled-app
    app.config["DEBUG"] = True
    # ok: python-debug-enabled-app
    app.config["DEBUG"] = False
    # ok: python-debug-enabled-app
    app.run(host="0.0.0.0", port=8080)
