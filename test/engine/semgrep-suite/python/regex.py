import hashlib

import requests

# ruleid: python-internal-http-url
BILLING_URL = "http://billing.corp.example.com/api/v2"
# ok: python-internal-http-url
LEDGER_URL = "https://ledger.corp.example.com/api/v2"
# ok: python-internal-http-url
PUBLIC_URL = "http://status.example.org/"


def smtp_settings():
    # ruleid: python-default-password
    password = "welcome1"
    # ok: python-default-password
    empty_password = ""
    return password, empty_password


def fingerprints(data):
    # ruleid: python-weak-hash-by-name
    short = hashlib.md5(data).hexdigest()
    # ruleid: python-weak-hash-by-name
    legacy = hashlib.sha1(data).hexdigest()
    # ok: python-weak-hash-by-name
    good = hashlib.sha256(data).hexdigest()
    # ok: python-weak-hash-by-name
    better = hashlib.blake2b(data).hexdigest()
    return short, legacy, good, better, requests.get(BILLING_URL)
