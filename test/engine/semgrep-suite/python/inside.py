import tempfile

from django.db import connection
from django.http import JsonResponse


def order_detail(request, order_id):
    with connection.cursor() as cursor:
        # ruleid: python-view-raw-sql
        cursor.execute("SELECT * FROM orders WHERE id = %s" % order_id)
        row = cursor.fetchone()
    return JsonResponse({"order": row})


def nightly_report(day):
    with connection.cursor() as cursor:
        # ok: python-view-raw-sql
        cursor.execute("SELECT count(*) FROM orders WHERE day = '%s'" % day)
        return cursor.fetchone()


def order_search(request):
    with connection.cursor() as cursor:
        # ok: python-view-raw-sql
        cursor.execute("SELECT * FROM orders WHERE status = %s", [request.GET["status"]])
        return JsonResponse({"orders": cursor.fetchall()})


def read_settings(path):
    # ok: python-open-outside-with
    with open(path) as handle:
        return handle.read()


def read_header(path):
    # ok: python-open-outside-with
    handle = open(path, "rb")
    header = handle.read(16)
    handle.close()
    return header


def read_all(path):
    # ruleid: python-open-outside-with
    return open(path).read()


def spool(data, other_path):
    path = tempfile.mktemp(suffix=".csv")
    # ruleid: python-tempfile-name-reused
    with open(path, "w") as handle:
        handle.write(data)
    # ok: python-tempfile-name-reused
    with open(other_path, "w") as handle:
        handle.write(data)
