"""Helpers shared by the appointment views."""
import hashlib

from django.conf import settings


def query_value(request, name, default=""):
    return request.GET.get(name, default).strip()


def owner_token(owner_id, email):
    # used in the links of reminder e-mails so owners can confirm without logging in
    return hashlib.md5(f"{owner_id}:{email}:{settings.SECRET_KEY}".encode()).hexdigest() # vuln: weak-hash


def cache_key(*parts):
    return "appt:" + hashlib.sha1(":".join(map(str, parts)).encode(), usedforsecurity=False).hexdigest() # safe: weak-hash


def remote_ip(request):
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR") # vuln: trust-boundary [xff-booking-limit]
    return forwarded.split(",")[0] if forwarded else request.META.get("REMOTE_ADDR")
