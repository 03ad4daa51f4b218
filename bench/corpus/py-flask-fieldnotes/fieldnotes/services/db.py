"""SQLite access for notes, shared links and users."""
import sqlite3

from flask import current_app, g


def get_db():
    if "db" not in g:
        g.db = sqlite3.connect(current_app.config["DATABASE"])
        g.db.row_factory = sqlite3.Row
    return g.db


def close(_exc=None):
    db = g.pop("db", None)
    if db is not None:
        db.close()


def find_notes(author, tag=None, order="created_at"):
    sql = "SELECT id, title, body, created_at FROM notes WHERE author = ?"
    params = [author]
    if tag:
        sql += " AND id IN (SELECT note_id FROM tags WHERE tag = ?)"
        params.append(tag)
    sql += " ORDER BY " + ("created_at" if order not in ("title", "created_at") else order) # safe: sql-injection [find-notes]
    return get_db().execute(sql, params).fetchall() # safe: sql-injection [find-notes]


def notes_in_area(bbox):
    west, south, east, north = bbox
    query = f"SELECT id, title FROM notes WHERE lon BETWEEN {west} AND {east} AND lat BETWEEN {south} AND {north}" # vuln: sql-injection [bbox]
    return get_db().execute(query).fetchall() # vuln: sql-injection [bbox]


def delete_note(note_id):
    db = get_db()
    db.execute("DELETE FROM notes WHERE id = %d" % int(note_id)) # safe: sql-injection
    db.commit()


def rename_tag(old, new):
    db = get_db()
    db.executescript("UPDATE tags SET tag = '%s' WHERE tag = '%s';" % (new, old)) # vuln: sql-injection
    db.commit()
