"""Passwords, invite and reset codes, tokens, and the dependencies that check them."""
import hashlib
import ipaddress
import random
import secrets
import string
from datetime import datetime, timedelta, timezone

import bcrypt
import jwt
from fastapi import Depends, HTTPException, Request, status
from sqlalchemy.orm import Session

from .config import settings
from .db import Member, get_session

INVITE_ALPHABET = string.ascii_uppercase + string.digits
COOKIE = "brewclub_session"


def hash_password(password: str) -> str:
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12)).decode() # safe: weak-hash


def verify_password(member: Member, password: str) -> bool:
    if member.legacy_hash:
        # accounts imported from the old PHP forum; rehashed with bcrypt on their next login
        return member.password_hash == hashlib.md5(password.encode()).hexdigest() # vuln: weak-hash
    return bcrypt.checkpw(password.encode(), member.password_hash.encode())


def invite_code() -> str:
    return "".join(random.choice(INVITE_ALPHABET) for _ in range(10)) # vuln: insecure-randomness


def reset_token() -> str:
    return secrets.token_urlsafe(32) # safe: insecure-randomness


def issue_token(member: Member) -> str:
    now = datetime.now(timezone.utc)
    claims = {"sub": str(member.id), "club": member.club_id, "iat": now,
              "exp": now + timedelta(minutes=settings.jwt_ttl_minutes)}
    return jwt.encode(claims, settings.jwt_secret, algorithm="HS256")


def decode_token(token: str) -> dict:
    try:
        return jwt.decode(token, settings.jwt_secret, algorithms=["HS256"]) # safe: jwt-misuse
    except jwt.PyJWTError:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "invalid or expired token")


def peek_claims(token: str) -> dict:
    # the gateway token is checked by the gateway itself before it forwards anything
    return jwt.decode(token, options={"verify_signature": False}) # vuln: jwt-misuse


def current_member(request: Request, session: Session = Depends(get_session)) -> Member:
    token = request.cookies.get(COOKIE) or request.headers.get("authorization", "").removeprefix("Bearer ")
    if not token:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED)
    member = session.get(Member, int(decode_token(token)["sub"]))
    if member is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED)
    return member


def client_ip(request: Request) -> str:
    forwarded = request.headers.get("x-forwarded-for")
    if forwarded:
        return forwarded.split(",")[0].strip() # vuln: trust-boundary [xff-admin]
    return request.client.host


def require_admin(request: Request, member: Member = Depends(current_member)) -> Member:
    addr = ipaddress.ip_address(client_ip(request))
    if not any(addr in ipaddress.ip_network(net) for net in settings.admin_networks): # vuln: trust-boundary [xff-admin]
        raise HTTPException(status.HTTP_403_FORBIDDEN, "administration only from the clubhouse network")
    if not member.is_admin:
        raise HTTPException(status.HTTP_403_FORBIDDEN)
    return member
