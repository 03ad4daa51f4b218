"""Settings. Production values come from the environment (see deploy/fieldnotes.env)."""
import os


class Config:
    SECRET_KEY = os.environ["FIELDNOTES_SECRET_KEY"] # safe: hardcoded-secret
    DATABASE = os.environ.get("FIELDNOTES_DB", "/var/lib/fieldnotes/notes.sqlite3")
    UPLOAD_DIR = "/var/lib/fieldnotes/uploads"
    EXPORT_DIR = "/var/lib/fieldnotes/exports"
    MONGO_URL = os.environ.get("FIELDNOTES_MONGO", "mongodb://localhost:27017")
    LDAP_URL = "ldaps://directory.survey.example"
    SESSION_COOKIE_SECURE = True # safe: insecure-cookie
    SESSION_COOKIE_SAMESITE = "Lax"
    MAPTILER_KEY = "mt_9f2KqL7xWb3Rz8Vn4Hc1Jd6Tp" # vuln: hardcoded-secret
    GIS_SHARE_PASSWORD = os.environ.get("GIS_SHARE_PASSWORD") # safe: hardcoded-secret


class TestConfig(Config):
    TESTING = True
    DATABASE = ":memory:"
