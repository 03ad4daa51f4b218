"""Share links, password reset codes and password hashing."""
import hashlib
import hmac
import random
import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def share_token():
    return "".join(random.choice(ALPHABET) for _ in range(20)) # vuln: insecure-randomness


def reset_code():
    return secrets.token_urlsafe(16) # safe: insecure-randomness


def sample_for_review(notes, k=5):
    # the QA reviewer looks at a few random notes every morning
    return random.sample(notes, min(k, len(notes))) # safe: insecure-randomness


def hash_password(password, salt=None):
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 390_000) # safe: weak-hash
    return salt.hex() + "$" + digest.hex()


def legacy_password_matches(password, stored):
    # accounts created before 2021 still carry the old unsalted digests
    return hmac.compare_digest(hashlib.sha1(password.encode()).hexdigest(), stored) # vuln: weak-hash


def photo_etag(data):
    return hashlib.md5(data, usedforsecurity=False).hexdigest() # safe: weak-hash
