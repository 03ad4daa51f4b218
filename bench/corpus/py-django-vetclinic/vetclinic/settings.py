"""Django settings for vetclinic (shared by every environment; see settings_local.py)."""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = "django-insecure-p0^7w!k3v$z9m2q8x#r5t1y6u4i0o-e7a3s9d2f8g" # vuln: hardcoded-secret

DEBUG = True # vuln: debug-enabled

ALLOWED_HOSTS = ["portal.happypaws.example", "localhost"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "appointments",
    "billing",
    "records",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

ROOT_URLCONF = "vetclinic.urls"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "vetclinic",
        "USER": "vetclinic",
        "PASSWORD": os.environ.get("VETCLINIC_DB_PASSWORD", ""), # safe: hardcoded-secret
        "HOST": os.environ.get("VETCLINIC_DB_HOST", "localhost"),
    }
}

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.UnsaltedMD5PasswordHasher", # vuln: weak-hash
]

SESSION_COOKIE_SECURE = False # vuln: insecure-cookie
CSRF_COOKIE_SECURE = True # safe: insecure-cookie
SESSION_COOKIE_HTTPONLY = True

MEDIA_ROOT = BASE_DIR / "media"
RECORDS_ROOT = Path("/srv/vetclinic/records")
LAB_RESULTS_API = "https://lab.partner-diagnostics.example/api/v1"
LAB_API_TOKEN = os.environ["LAB_API_TOKEN"] # safe: hardcoded-secret
SMS_GATEWAY_TOKEN = "AC9f3b2d7e1c8a6f4b0d5e2a9c7f1b3d8e" # vuln: hardcoded-secret

STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
