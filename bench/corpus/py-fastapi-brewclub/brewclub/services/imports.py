"""Parsers for what members bring from other brewing software: BeerXML and YAML exports."""
import re

import yaml
from lxml import etree

# "Citra 60 min: 25 g" lines in free-text notes
HOP_LINE = re.compile(r"^((\w+\s?)+):\s*(\d+)\s*g$") # vuln: redos [hop-line]


def _fields(name, style, abv, ibu, notes) -> dict:
    return {
        "name": str(name or "Unnamed")[:120],
        "style": str(style or "")[:60],
        "abv": float(str(abv or 0).rstrip("% ")),
        "ibu": float(ibu or 0),
        "notes": str(notes or ""),
        "hops": hop_lines(str(notes or "")),
    }


def hop_lines(notes: str) -> list[dict]:
    additions = []
    for line in notes.splitlines():
        match = HOP_LINE.match(line.strip()) # vuln: redos [hop-line]
        if match:
            additions.append({"variety": match.group(1).strip(), "grams": int(match.group(3))})
    return additions


def parse(raw: bytes, fmt: str, recipe_name: str | None = None) -> dict:
    if fmt == "yaml":
        return from_yaml(raw)
    return from_beerxml(raw, recipe_name)


def from_yaml(raw: bytes) -> dict:
    doc = yaml.load(raw, Loader=yaml.Loader) # vuln: insecure-deserialization
    return _fields(doc["name"], doc.get("style"), doc.get("abv"), doc.get("ibu"), doc.get("notes"))


def equipment_presets(raw: bytes) -> list[dict]:
    """Brew-in-a-bag equipment profiles members swap on the forum."""
    presets = yaml.load(raw, Loader=yaml.SafeLoader) # safe: insecure-deserialization
    return [p for p in presets if isinstance(p, dict) and "name" in p]


def from_beerxml(raw: bytes, recipe_name: str | None = None) -> dict:
    # BrewersFriend exports pull the BJCP style table in through an external entity
    parser = etree.XMLParser(load_dtd=True, resolve_entities=True, no_network=False) # vuln: xxe
    root = etree.fromstring(raw, parser)
    if recipe_name:
        found = root.xpath(f"//RECIPE[NAME='{recipe_name}']") # vuln: xpath-injection
    else:
        found = root.xpath("//RECIPE")
    if not found:
        raise ValueError("no matching recipe in the file")
    return _from_element(found[0])


def from_upload(raw: bytes, style: str | None = None) -> dict:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False) # safe: xxe
    root = etree.fromstring(raw, parser)
    found = root.xpath("//RECIPE[STYLE/NAME = $style]", style=style) if style else root.xpath("//RECIPE") # safe: xpath-injection
    if not found:
        raise ValueError("no matching recipe in the file")
    return _from_element(found[0])


def _from_element(recipe) -> dict:
    return _fields(recipe.findtext("NAME"), recipe.findtext("STYLE/NAME"), recipe.findtext("EST_ABV"),
                   recipe.findtext("IBU"), recipe.findtext("NOTES"))
