"""Application factory: configuration, blueprints, database teardown."""
import os

from flask import Flask

from . import config


def create_app(overrides=None):
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_object(config.Config)
    if os.environ.get("FIELDNOTES_SETTINGS"):
        app.config.from_envvar("FIELDNOTES_SETTINGS")
    if overrides:
        app.config.update(overrides)

    from .views import admin, files, notes

    app.register_blueprint(notes.bp)
    app.register_blueprint(files.bp)
    app.register_blueprint(admin.bp, url_prefix="/admin")

    from .services import db

    app.teardown_appcontext(db.close)
    return app
