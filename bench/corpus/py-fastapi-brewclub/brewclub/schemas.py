"""Request bodies."""
from typing import Literal

from pydantic import BaseModel, EmailStr, Field


class MemberCreate(BaseModel):
    email: EmailStr
    display_name: str = Field(max_length=80)
    password: str = Field(min_length=10)
    club_id: int = 1
    is_admin: bool = False  # the seeding script creates the first admin through this endpoint


class ProfileUpdate(BaseModel):
    display_name: str | None = Field(default=None, max_length=80)
    bio: str | None = Field(default=None, max_length=2000)
    webhook_url: str | None = None


class RecipeImport(BaseModel):
    url: str
    format: Literal["beerxml", "yaml"] = "beerxml"
    recipe_name: str | None = None


class AbvRequest(BaseModel):
    og: float
    fg: float
    formula: str = "(og - fg) * 131.25"


class BatchCreate(BaseModel):
    recipe_id: int
    name: str = Field(max_length=120)
    og: float = Field(gt=0.98, lt=1.2)
    notes: str = ""  # tasting notes, with the formatting the editor produces (<b>, <i>, <br>)


class LabelRequest(BaseModel):
    template: str


class BackupRequest(BaseModel):
    label: str = Field(default="manual", max_length=40)
