"""Recipes: listing and search, imports from other brewing software, the ABV calculator."""
import ast
import html
import re

from fastapi import APIRouter, Body, Depends, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db import COLUMNS, Member, Recipe, find_recipes, get_session
from ..schemas import AbvRequest, RecipeImport
from ..security import current_member
from ..services import fetch, imports

router = APIRouter(prefix="/recipes", tags=["recipes"])


def _own_recipe(session: Session, recipe_id: int, member: Member) -> Recipe:
    recipe = session.get(Recipe, recipe_id)
    if recipe is None or recipe.owner_id != member.id:
        raise HTTPException(404)
    return recipe


def _save(session: Session, member: Member, data: dict, source_url: str | None = None) -> dict:
    recipe = Recipe(**data, owner_id=member.id, club_id=member.club_id, source_url=source_url) # safe: mass-assignment
    session.add(recipe)
    session.commit()
    return {"id": recipe.id, "name": recipe.name}


@router.get("")
def list_recipes(request: Request, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    # ?style=IPA&brewer=Jo -- only the columns the list page offers as filters
    filters = {key: value for key, value in request.query_params.items() if key in COLUMNS}
    return [dict(row._mapping) for row in find_recipes(session, member.club_id, filters)]


@router.get("/search", response_class=HTMLResponse)
def search(q: str, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    """HTML fragment for the search box's drop-down."""
    stmt = select(Recipe).where(Recipe.club_id == member.club_id, Recipe.name.ilike(f"%{q}%")).limit(20) # safe: sql-injection
    hits = session.scalars(stmt).all()
    if not hits:
        return HTMLResponse(f"<p class='empty'>No recipe matches <b>{q}</b>.</p>", status_code=404) # vuln: xss
    items = "".join(f"<li><a href='/recipes/{r.id}'>{html.escape(r.name)}</a> <i>{html.escape(r.style)}</i></li>" for r in hits)
    return HTMLResponse(f"<ul class='hits'>{items}</ul>") # safe: xss


@router.get("/notes")
def grep_notes(pattern: str, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    # power users search their notes with regular expressions ("dry.?hop", "^day [0-9]+")
    rx = re.compile(pattern, re.IGNORECASE | re.MULTILINE) # vuln: redos
    recipes = session.scalars(select(Recipe).where(Recipe.owner_id == member.id)).all()
    return [{"id": r.id, "name": r.name} for r in recipes if rx.search(r.notes)]


@router.get("/keywords")
def keyword_search(words: str, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    rx = re.compile("|".join(re.escape(w) for w in words.split()[:10]), re.IGNORECASE) # safe: redos
    recipes = session.scalars(select(Recipe).where(Recipe.club_id == member.club_id)).all()
    return [{"id": r.id, "name": r.name} for r in recipes if rx.search(r.name) or rx.search(r.notes)]


@router.post("/abv")
def abv(body: AbvRequest):
    # the app lets members pick their formula (the simple one, Daniels, Hall, ...)
    value = eval(body.formula, {"__builtins__": {}}, {"og": body.og, "fg": body.fg}) # vuln: code-injection
    return {"abv": round(float(value), 2)}


@router.put("/{recipe_id}/hops")
def set_hop_schedule(recipe_id: int, schedule: str = Body(..., media_type="text/plain"),
                     member: Member = Depends(current_member), session: Session = Depends(get_session)):
    # the old desktop app exports schedules as Python literals: [("Citra", 60, 25), ("Mosaic", 5, 40)]
    additions = ast.literal_eval(schedule) # safe: code-injection
    recipe = _own_recipe(session, recipe_id, member)
    recipe.hops = [{"variety": str(v), "minutes": int(m), "grams": float(g)} for v, m, g in additions]
    session.commit()
    return {"hops": recipe.hops}


@router.post("/import", status_code=201)
def import_recipe(body: RecipeImport, member: Member = Depends(current_member), session: Session = Depends(get_session)):
    raw = fetch.download_from_known_site(body.url)
    return _save(session, member, imports.parse(raw, body.format, body.recipe_name), source_url=body.url)


@router.post("/upload", status_code=201)
async def upload_recipe(file: UploadFile, style: str | None = None, member: Member = Depends(current_member),
                        session: Session = Depends(get_session)):
    return _save(session, member, imports.from_upload(await file.read(), style))


@router.get("/presets")
def shared_presets(url: str, member: Member = Depends(current_member)):
    """Previews an equipment preset file somebody linked to on the forum."""
    return {"presets": [p["name"] for p in imports.equipment_presets(fetch.download(url))]}
