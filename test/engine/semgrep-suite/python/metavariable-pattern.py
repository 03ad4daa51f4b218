import logging
import subprocess

import jwt

logger = logging.getLogger(__name__)


def read_claims(token, key):
    # ruleid: python-jwt-signature-not-verified
    unverified = jwt.decode(token, key, algorithms=["HS256"], options={"verify_signature": False})
    # ruleid: python-jwt-signature-not-verified
    lenient = jwt.decode(token, options={"verify_exp": False, "verify_signature": False})
    # ok: python-jwt-signature-not-verified
    checked = jwt.decode(token, key, algorithms=["HS256"], options={"verify_exp": True})
    # ok: python-jwt-signature-not-verified
    plain = jwt.decode(token, key, algorithms=["HS256"])
    return unverified, lenient, checked, plain


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
