import logging
import subprocess

from flask import redirect, request, url_for

logger = logging.getLogger(__name__)


def prepare_upload_dir(path):
    # ruleid: python-world-writable-shell-command
    subprocess.run("chmod 777 /srv/uploads", shell=True, check=True)
    # ok: python-world-writable-shell-command
    subprocess.run("chmod 750 /srv/uploads", shell=True, check=True)
    # ok: python-world-writable-shell-command
    subprocess.run(["chmod", "755", path], check=True)


def audit(user, action):
    # ruleid: python-log-non-literal
    logger.info("user %s did %s" % (user, action))
    # ruleid: python-log-non-literal
    logger.warning(f"user {user} did {action}")
    # ok: python-log-non-literal
    logger.info("user %s did %s", user, action)


def parse_quantity(value):
    if not value.isdigit():
        # ruleid: python-exception-message-built
        raise ValueError("not a quantity: " + value)
    if int(value) == 0:
        # ok: python-exception-message-built
        raise ValueError("a quantity cannot be zero")
    return int(value)


def after_login():
    if "next" in request.args:
        # ruleid: python-redirect-to-request-value
        return redirect(request.args.get("next"))
    if "tab" in request.args:
        # ruleid: python-redirect-to-request-value
        return redirect("/home/" + request.args["tab"])
    if "user" in request.args:
        # ruleid: python-redirect-to-request-value
        return redirect(f"/users/{request.args.get('user')}/profile")
    # ok: python-redirect-to-request-value
    return redirect(url_for("home"))
