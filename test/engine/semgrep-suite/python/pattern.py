import os
import subprocess

import psycopg2
import requests


def fetch_profile(user_id, token):
    # ruleid: python-requests-verify-disabled
    requests.get("https://accounts.internal/profile", verify=False, timeout=5)
    # ruleid: python-requests-verify-disabled
    response = requests.post(
        "https://accounts.internal/profile",
        json={"id": user_id},
        headers={"Authorization": token},
        verify=False,
    )
    # ruleid: python-requests-verify-disabled
    requests.delete(verify=False, url="https://accounts.internal/profile")
    # ok: python-requests-verify-disabled
    requests.get("https://accounts.internal/profile", verify=True)
    # ok: python-requests-verify-disabled
    requests.get("https://accounts.internal/profile", timeout=5)
    # ok: python-requests-verify-disabled
    requests.get("https://accounts.internal/profile", verify=False)  # nosemgrep: python-requests-verify-disabled
    return response


def has_changed(record, other):
    # ruleid: python-self-comparison
    if record.version == record.version:
        return False
    # ok: python-self-comparison
    return record.version == other.version


def connect(settings):
    # ruleid: python-hardcoded-db-password
    primary = psycopg2.connect(host="db.internal", user="billing", password="s3cr3t-billing")
    # ruleid: python-hardcoded-db-password
    replica = psycopg2.connect(password="s3cr3t-billing", host="replica.internal")
    # ok: python-hardcoded-db-password
    fallback = psycopg2.connect(host="db.internal", user="billing", password=os.environ["DB_PASSWORD"])
    # ok: python-hardcoded-db-password
    local = psycopg2.connect(host="localhost", user=settings.user)
    return primary, replica, fallback, local


def archive(directory, name):
    # ruleid: python-popen-shell
    subprocess.Popen("tar czf /backups/%s.tgz %s" % (name, directory), shell=True)
    # ruleid: python-popen-shell
    subprocess.Popen(["tar", "czf", name], cwd=directory, shell=True)
    # ok: python-popen-shell
    subprocess.Popen(["tar", "czf", name, directory], shell=False)
    # ok: python-popen-shell
    subprocess.Popen(["tar", "czf", name, directory])
