"""Production overrides, selected with DJANGO_SETTINGS_MODULE=vetclinic.settings_prod."""
import os

from .settings import *  # noqa: F401,F403

SECRET_KEY = os.environ["DJANGO_SECRET_KEY"] # safe: hardcoded-secret
DEBUG = os.environ.get("DJANGO_DEBUG") == "1" # safe: debug-enabled
SESSION_COOKIE_SECURE = True # safe: insecure-cookie
PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher", "django.contrib.auth.hashers.PBKDF2PasswordHasher"] # safe: weak-hash
