from flask import request


def export_orders(conn, rows):
    cursor = conn.cursor()
    for row in rows:
        cursor.execute("INSERT INTO export VALUES (%s, %s)", (row.id, row.total))
    # ruleid: python-use-after-close
    conn.close()
    print("exported", len(rows))
    conn.commit()


def export_some(conn, rows, dry_run):
    if dry_run:
        # ok: python-use-after-close
        conn.close()
    conn.commit()


def import_orders(conn, rows):
    cursor = conn.cursor()
    cursor.executemany("INSERT INTO orders VALUES (%s, %s)", rows)
    conn.commit()
    # ok: python-use-after-close
    conn.close()
    return len(rows)


# ruleid: python-mutable-default-argument
def merge_settings(base, overrides={}):
    base.update(overrides)
    return base


# ruleid: python-mutable-default-argument
def render(template, context={}, strict=False):
    return template.format(**context)


# ok: python-mutable-default-argument
def merge_defaults(base, overrides=None):
    return {**base, **(overrides or {})}


def search(cursor):
    # ruleid: python-request-data-in-single-query
    cursor.execute("SELECT * FROM items WHERE name = '%s'" % request.args["name"])
    # ruleid: python-request-data-in-single-query
    cursor.execute("SELECT * FROM items WHERE owner = '" + request.args.get("owner", "") + "'")
    # ok: python-request-data-in-single-query
    cursor.execute("SELECT * FROM items WHERE name = %s", (request.args["name"],))
    # ok: python-request-data-in-single-query
    cursor.execute("SELECT * FROM items WHERE name = 'public'")


def delete_account(user, account):
    # ruleid: python-admin-check-in-condition
    if user.is_active and (user.is_admin() or account.owner == user):
        account.delete()
    # ok: python-admin-check-in-condition
    if account.owner == user:
        account.archive()


def timeouts(settings):
    # ruleid: python-overwritten-before-use
    connect_timeout = settings.connect_timeout
    connect_timeout = 5
    # ok: python-overwritten-before-use
    read_timeout = settings.read_timeout
    write_timeout = 5
    return connect_timeout, read_timeout, write_timeout


def active_users(User, order):
    # ruleid: python-queryset-extra
    ranked = User.objects.filter(active=True).order_by("name").extra(select={"rank": order})
    # ok: python-queryset-extra
    plain = User.objects.filter(active=True).order_by("name")
    return ranked, plain
