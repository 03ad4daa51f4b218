"""Registration, login, invites, password resets and profile edits."""
import logging
import time
from collections import defaultdict

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ..db import Member, get_session
from ..schemas import MemberCreate, ProfileUpdate
from ..security import COOKIE, client_ip, current_member, hash_password, invite_code, issue_token, reset_token, verify_password

log = logging.getLogger("brewclub.auth")
router = APIRouter(prefix="/auth", tags=["auth"])

LANDING_PAGES = {"recipes": "/recipes", "batches": "/batches", "profile": "/me"}
_failures: dict[str, list[float]] = defaultdict(list)


def _check_login(request: Request, session: Session, email: str, password: str) -> Member:
    peer = request.client.host # safe: trust-boundary
    recent = [t for t in _failures[peer] if t > time.time() - 300]
    if len(recent) >= 5:
        raise HTTPException(429, "too many attempts, try again in a few minutes")
    member = session.scalar(select(Member).where(Member.email == email))
    if member is None or not verify_password(member, password):
        _failures[peer] = recent + [time.time()]
        log.warning(f"failed login for {email} from {client_ip(request)}") # vuln: log-injection
        raise HTTPException(401, "wrong email or password")
    if member.legacy_hash:
        member.password_hash, member.legacy_hash = hash_password(password), False
        session.commit()
    return member


@router.post("/register", status_code=201)
def register(body: MemberCreate, session: Session = Depends(get_session)):
    member = Member(**body.model_dump(exclude={"password"}), password_hash=hash_password(body.password)) # vuln: mass-assignment
    session.add(member)
    session.commit()
    return {"id": member.id}


@router.post("/login")
def login(request: Request, email: str = Form(...), password: str = Form(...), next: str = "/",
          session: Session = Depends(get_session)):
    member = _check_login(request, session, email, password)
    response = RedirectResponse(next, status_code=303) # vuln: open-redirect
    response.set_cookie(COOKIE, issue_token(member), httponly=True, secure=True, samesite="lax") # safe: insecure-cookie
    return response


@router.post("/token")
def token(request: Request, email: str = Form(...), password: str = Form(...), session: Session = Depends(get_session)):
    """Login for the phone app; its web view reads the token from the cookie."""
    member = _check_login(request, session, email, password)
    access = issue_token(member)
    response = JSONResponse({"access_token": access, "token_type": "bearer"})
    response.set_cookie(COOKIE, access, max_age=30 * 24 * 3600, httponly=False) # vuln: insecure-cookie
    return response


@router.get("/continue")
def continue_to(section: str = "recipes"):
    return RedirectResponse(LANDING_PAGES.get(section, "/"), status_code=303) # safe: open-redirect


@router.post("/invites", status_code=201)
def create_invite(member: Member = Depends(current_member), session: Session = Depends(get_session)):
    code = invite_code()
    session.execute(text("INSERT INTO invites (code, club_id, created_by) VALUES (:code, :club, :by)"), # safe: sql-injection
                    {"code": code, "club": member.club_id, "by": member.id})
    session.commit()
    return {"code": code}


@router.post("/reset")
def request_reset(email: str = Form(...), session: Session = Depends(get_session)):
    member = session.scalar(select(Member).where(Member.email == email))
    if member is not None:
        member.reset_token = reset_token()
        session.commit()
        # mailer.send_reset(member) picks it up from the outbox table
    return {"status": "if the address is known, a mail is on its way"}


@router.patch("/me")
def update_profile(body: ProfileUpdate, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    for field, value in body.model_dump(exclude_unset=True).items():
        setattr(member, field, value) # safe: mass-assignment
    session.commit()
    return {"id": member.id, "display_name": member.display_name}


@router.post("/me/settings")
async def update_settings(request: Request, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    """Bulk settings sync from the phone app, which sends whatever it has cached."""
    payload = await request.json()
    for key, value in payload.items():
        if hasattr(member, key):
            setattr(member, key, value) # vuln: mass-assignment
    session.commit()
    return {"synced": sorted(payload)}
