from flask import Flask, request

from app.db import escape_sql, get_cursor, normalize

app = Flask(__name__)


@app.route("/items")
def items():
    cursor = get_cursor()
    # ruleid: python-flask-sql-injection
    cursor.execute("SELECT * FROM items WHERE name = '" + request.args.get("name") + "'")
    owner = request.args.get("owner")
    query = f"SELECT * FROM items WHERE owner = '{owner}'"
    # ruleid: python-flask-sql-injection
    cursor.execute(query)
    # ok: python-flask-sql-injection
    cursor.execute("SELECT * FROM items WHERE owner = %s", (owner,))
    # ok: python-flask-sql-injection
    cursor.execute(query)  # nosemgrep: python-flask-sql-injection
    return cursor.fetchall()


@app.route("/items/<int:item_id>", methods=["POST"])
def update(item_id):
    cursor = get_cursor()
    label = request.form["label"]
    cleaned = normalize(label)
    # ruleid: python-flask-sql-injection
    cursor.execute("UPDATE items SET label = '%s' WHERE id = %d" % (cleaned, item_id))
    limit = int(request.args.get("limit"))
    # ok: python-flask-sql-injection
    cursor.execute("SELECT * FROM items LIMIT " + str(limit))
    safe_label = escape_sql(label)
    # ok: python-flask-sql-injection
    cursor.execute("UPDATE items SET label = '" + safe_label + "'")
    label = "default"
    # ok: python-flask-sql-injection
    cursor.execute("UPDATE items SET label = '" + label + "'")
    return "ok"
