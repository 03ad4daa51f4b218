"""Small request helpers used by the views."""
from flask import abort, request


def arg(name, default=""):
    return request.args.get(name, default).strip()


def form_field(name):
    value = request.form.get(name)
    if value is None:
        abort(400, f"missing field {name}")
    return value


def client_ip():
    # behind the office proxy the real address is in X-Forwarded-For
    return request.headers.get("X-Forwarded-For", request.remote_addr).split(",")[0].strip() # vuln: trust-boundary [xff-office]
