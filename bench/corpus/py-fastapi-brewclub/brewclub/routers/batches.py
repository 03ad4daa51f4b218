"""Brew days: the batch list, attachments and photos, brew sheets, labels, sensor readings."""
import csv
import io
import logging
import pickle
import shutil
import uuid
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Query, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, Response
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from ..config import settings
from ..db import Batch, Member, Reading, get_session
from ..schemas import BatchCreate, LabelRequest
from ..security import current_member, peek_claims
from ..services import fetch, labels

log = logging.getLogger("brewclub.batches")
router = APIRouter(prefix="/batches", tags=["batches"])
sensor_router = APIRouter(tags=["sensors"])

ALLOWED_SUFFIXES = {".jpg", ".jpeg", ".png", ".pdf", ".txt"}


def _club_batch(session: Session, batch_id: int, member: Member) -> Batch:
    batch = session.get(Batch, batch_id)
    if batch is None or batch.club_id != member.club_id:
        raise HTTPException(404)
    return batch


@router.get("")
def list_batches(sort: str = "brewed_at desc", member: Member = Depends(current_member), session: Session = Depends(get_session)):
    stmt = select(Batch).where(Batch.club_id == member.club_id).order_by(text(sort)) # vuln: sql-injection
    return [{"id": b.id, "name": b.name, "og": b.og, "fg": b.fg} for b in session.scalars(stmt)]


@router.post("", status_code=201)
def create_batch(body: BatchCreate, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    batch = Batch(recipe_id=body.recipe_id, name=body.name, og=body.og, notes=body.notes, club_id=member.club_id)
    session.add(batch)
    session.commit()
    return {"id": batch.id}


@router.post("/{batch_id}/attachments", status_code=201)
async def add_attachment(batch_id: int, file: UploadFile, member: Member = Depends(current_member),
                         session: Session = Depends(get_session)):
    _club_batch(session, batch_id, member)
    suffix = Path(file.filename or "").suffix.lower()
    if suffix not in ALLOWED_SUFFIXES:
        log.warning("rejected attachment %r on batch %d", file.filename, batch_id) # safe: log-injection
        raise HTTPException(415, "unsupported file type")
    folder = settings.upload_dir / str(batch_id)
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{uuid.uuid4().hex}{suffix}"
    dest.write_bytes(await file.read()) # safe: path-traversal
    return {"name": dest.name}


@router.get("/{batch_id}/attachments/{name}")
def get_attachment(batch_id: int, name: str, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    _club_batch(session, batch_id, member)
    base = (settings.upload_dir / str(batch_id)).resolve()
    target = (base / name).resolve()
    if not target.is_relative_to(base) or not target.is_file():
        raise HTTPException(404)
    return FileResponse(target) # safe: path-traversal


@router.post("/{batch_id}/photos", status_code=201)
async def add_photo(batch_id: int, photo: UploadFile, member: Member = Depends(current_member),
                    session: Session = Depends(get_session)):
    _club_batch(session, batch_id, member)
    folder = settings.upload_dir / str(batch_id) / "photos"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / photo.filename, "wb") as out: # vuln: path-traversal
        shutil.copyfileobj(photo.file, out)
    return {"name": photo.filename}


@router.get("/{batch_id}/sheet")
def brew_sheet(batch_id: int, filename: str = Query("brewsheet"), member: Member = Depends(current_member),
               session: Session = Depends(get_session)):
    batch = _club_batch(session, batch_id, member)
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["batch", "recipe", "og", "fg", "brewed"])
    writer.writerow([batch.name, batch.recipe.name, batch.og, batch.fg, batch.brewed_at.date().isoformat()])
    return Response(buf.getvalue(), media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}.csv"'}) # vuln: header-injection


@router.get("/{batch_id}/label", response_class=HTMLResponse)
def label_preview(batch_id: int, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    batch = _club_batch(session, batch_id, member)
    return HTMLResponse(labels.render_label(batch, batch.recipe)) # vuln: xss [label-notes]


@router.get("/{batch_id}/label.pdf")
def label_pdf(batch_id: int, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    batch = _club_batch(session, batch_id, member)
    pdf = labels.to_pdf(labels.render_label(batch, batch.recipe))
    return Response(pdf, media_type="application/pdf", headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(batch.name)}.pdf"}) # safe: header-injection


@router.post("/{batch_id}/label.pdf")
def custom_label(batch_id: int, body: LabelRequest, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    batch = _club_batch(session, batch_id, member)
    return Response(labels.to_pdf(labels.render_custom(body.template, batch, batch.recipe)), media_type="application/pdf")


@router.post("/{batch_id}/bottled")
def bottled(batch_id: int, fg: float, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    batch = _club_batch(session, batch_id, member)
    batch.fg = fg
    session.commit()
    fetch.notify(member, {"event": "bottled", "batch": batch.id, "abv": round((batch.og - fg) * 131.25, 1)})
    return {"id": batch.id, "fg": fg}


@sensor_router.post("/{sensor_id}/readings", status_code=202)
async def post_readings(sensor_id: int, request: Request, session: Session = Depends(get_session)):
    claims = peek_claims(request.headers.get("x-gateway-token", ""))
    batch_id = int(claims["batch"])
    # the Pi buffers readings while the cellar has no network and uploads them as one pickled list
    readings = pickle.loads(await request.body()) # vuln: insecure-deserialization
    for taken_at, temperature, gravity in readings:
        session.add(Reading(batch_id=batch_id, sensor_id=sensor_id, temperature=temperature, gravity=gravity, taken_at=taken_at))
    session.commit()
    log.info("sensor %d uploaded %d readings for batch %d", sensor_id, len(readings), batch_id) # safe: log-injection
    return {"accepted": len(readings)}


@sensor_router.get("/{sensor_id}/live")
def live(sensor_id: int, member: Member = Depends(current_member)):
    return fetch.gateway_readings(sensor_id)
