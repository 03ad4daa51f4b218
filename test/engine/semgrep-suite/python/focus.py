def login(response, token, user):
    response.set_cookie(
        "session",
        token,
        httponly=True,
        # ruleid: python-cookie-not-secure
        secure=False,
    )
    response.set_cookie(
        "remember",
        user.id,
        # ok: python-cookie-not-secure
        secure=True,
    )
    return response
