"""SQLAlchemy engine and session, the ORM models and the hand-written queries."""
from datetime import datetime

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, String, Text, create_engine, func, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker

from .config import settings

engine = create_engine(settings.database_url, pool_pre_ping=True)
SessionLocal = sessionmaker(bind=engine, autoflush=False, expire_on_commit=False)


class Base(DeclarativeBase):
    pass


class Member(Base):
    __tablename__ = "members"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(200), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    bio: Mapped[str] = mapped_column(Text, default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    legacy_hash: Mapped[bool] = mapped_column(Boolean, default=False)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    club_id: Mapped[int] = mapped_column(default=1)
    webhook_url: Mapped[str | None] = mapped_column(String(300))
    reset_token: Mapped[str | None] = mapped_column(String(100))


class Recipe(Base):
    __tablename__ = "recipes"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    club_id: Mapped[int]
    name: Mapped[str] = mapped_column(String(120))
    style: Mapped[str] = mapped_column(String(60), default="")
    yeast: Mapped[str] = mapped_column(String(60), default="")
    abv: Mapped[float] = mapped_column(Float, default=0.0)
    ibu: Mapped[float] = mapped_column(Float, default=0.0)
    hops: Mapped[list] = mapped_column(JSON, default=list)
    notes: Mapped[str] = mapped_column(Text, default="")
    source_url: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime, server_default=func.now())


class Batch(Base):
    __tablename__ = "batches"

    id: Mapped[int] = mapped_column(primary_key=True)
    recipe_id: Mapped[int] = mapped_column(ForeignKey("recipes.id"))
    club_id: Mapped[int]
    name: Mapped[str] = mapped_column(String(120))
    og: Mapped[float]
    fg: Mapped[float | None]
    notes: Mapped[str] = mapped_column(Text, default="")
    brewed_at: Mapped[datetime] = mapped_column(DateTime, server_default=func.now())

    recipe: Mapped[Recipe] = relationship()


class Reading(Base):
    __tablename__ = "readings"

    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id"))
    sensor_id: Mapped[int]
    temperature: Mapped[float]
    gravity: Mapped[float]
    taken_at: Mapped[datetime] = mapped_column(DateTime)


def get_session():
    with SessionLocal() as session:
        yield session


# Queries the ORM made awkward (the brewer filter joins members by display name).

RECIPE_LIST = """
SELECT r.id, r.name, r.style, r.yeast, r.abv, m.display_name AS brewer
FROM recipes r JOIN members m ON m.id = r.owner_id
WHERE r.club_id = :club
"""

COLUMNS = {"style": "r.style", "yeast": "r.yeast", "brewer": "m.display_name"}


def find_recipes(session: Session, club_id: int, filters: dict[str, str]):
    sql = RECIPE_LIST
    for key, value in filters.items():
        sql += f" AND {COLUMNS[key]} = '{value}'" # vuln: sql-injection [recipe-filters]
    return session.execute(text(sql + " ORDER BY r.created_at DESC"), {"club": club_id}).all() # vuln: sql-injection [recipe-filters]
