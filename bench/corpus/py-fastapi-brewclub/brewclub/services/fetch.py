"""Outgoing HTTP: recipe downloads, the hop supplier, the cellar gateway, members' webhooks."""
import logging
from urllib.parse import urlsplit

import httpx

from ..config import settings

log = logging.getLogger("brewclub.fetch")

RECIPE_SITES = {"www.brewersfriend.com", "beerxml.com", "recipes.brewclub.example"}
SUPPLIER_TOKEN = "hs_live_5e2b9d07c4a1f8e36b70" # vuln: hardcoded-secret

_supplier = httpx.Client(base_url=settings.supplier_url, verify=settings.supplier_ca_bundle, timeout=10) # safe: tls-verification-disabled
# the gateway in the cellar only has a self-signed certificate
_gateway = httpx.Client(base_url=settings.gateway_url, verify=False, timeout=5) # vuln: tls-verification-disabled


def download(url: str) -> bytes:
    """Fetches a file a member linked to."""
    resp = httpx.get(url, follow_redirects=True, timeout=15) # vuln: ssrf
    resp.raise_for_status()
    return resp.content


def download_from_known_site(url: str) -> bytes:
    parts = urlsplit(url)
    if parts.scheme != "https" or parts.hostname not in RECIPE_SITES:
        raise ValueError(f"recipes can only be imported from {', '.join(sorted(RECIPE_SITES))}")
    resp = httpx.get(url, follow_redirects=False, timeout=15) # safe: ssrf
    resp.raise_for_status()
    return resp.content


def hop_price(variety_id: int) -> dict:
    resp = _supplier.get(f"/hops/{variety_id}/price", headers={"Authorization": f"Bearer {SUPPLIER_TOKEN}"})
    resp.raise_for_status()
    return resp.json()


def gateway_readings(sensor_id: int) -> list[dict]:
    return _gateway.get(f"/sensors/{sensor_id}/readings", params={"last": 20}).json()


def notify(member, event: dict) -> None:
    """Posts batch events to the member's own webhook (Discord, Home Assistant, ...)."""
    if not member.webhook_url:
        return
    try:
        httpx.post(member.webhook_url, json=event, timeout=5) # vuln: ssrf
    except httpx.HTTPError as exc:
        log.info("webhook for member %d failed: %s", member.id, type(exc).__name__)
