import jwt


def read_claims(token, key):
    # ruleid: python-jwt-signature-not-verified
    unverified = jwt.decode(token, key, algorithms=["HS256"], options={"verify_signature": False})
    # ruleid: python-jwt-signature-not-verified
    lenient = jwt.decode(token, options={"verify_exp": False, "verify_signature": False})
    # ok: python-jwt-signature-not-verified
    checked = jwt.decode(token, key, algorithms=["HS256"], options={"verify_exp": True})
    # ok: python-jwt-signature-not-verified
    plain = jwt.decode(token, key, algorithms=["HS256"])
    return unverified, lenient, checked, plain


def hosts(debug):
    if debug:
        # ruleid: python-allowed-hosts-wildcard
        ALLOWED_HOSTS = ["localhost", "*"]
    else:
        # ok: python-allowed-hosts-wildcard
        ALLOWED_HOSTS = ["app.example.com"]
    return ALLOWED_HOSTS
