import hashlib
import hmac
import socket

from cryptography.hazmat.primitives.asymmetric import rsa


def make_keys():
    # ruleid: python-short-rsa-key
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    # ruleid: python-short-rsa-key
    weaker = rsa.generate_private_key(key_size=512, public_exponent=65537)
    # ok: python-short-rsa-key
    strong = rsa.generate_private_key(public_exponent=65537, key_size=4096)
    # ok: python-short-rsa-key
    minimum = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return weak, weaker, strong, minimum


def derive(password, salt):
    # ruleid: python-low-pbkdf2-iterations
    fast = hashlib.pbkdf2_hmac("sha256", password, salt, 1000)
    # ok: python-low-pbkdf2-iterations
    slow = hashlib.pbkdf2_hmac("sha256", password, salt, 600000)
    # ok: python-low-pbkdf2-iterations
    exact = hashlib.pbkdf2_hmac("sha256", password, salt, 100000, dklen=32)
    return fast, slow, exact


def listen(privileged):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if privileged:
        # ruleid: python-privileged-port
        server.bind(("0.0.0.0", 443))
    else:
        # ok: python-privileged-port
        server.bind(("0.0.0.0", 8443))
    return server


def sign(key, message):
    # ruleid: python-weak-hmac-digest
    legacy = hmac.new(key, message, digestmod="md5")
    # ok: python-weak-hmac-digest
    current = hmac.new(key, message, digestmod="sha256")
    return legacy, current
