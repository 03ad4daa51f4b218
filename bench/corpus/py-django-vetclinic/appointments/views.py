"""Appointment calendar, search, reminders and the public booking form."""
import logging
import subprocess

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import escape, format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe

from .helpers import owner_token, query_value, remote_ip
from .models import Appointment, Owner

logger = logging.getLogger("vetclinic.appointments")

BOOKING_LIMIT_PER_IP = 3
_booking_counts = {}


@login_required
def calendar(request):
    day = query_value(request, "day")
    species = query_value(request, "species")
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, pet_name, starts_at FROM appointments_appointment WHERE starts_at::date = %s", [day]) # safe: sql-injection
        rows = cursor.fetchall()
    extra = Appointment.objects.raw("SELECT * FROM appointments_appointment WHERE species = '%s'" % species) # vuln: sql-injection
    return render(request, "appointments/calendar.html", {"rows": rows, "extra": list(extra)})


@login_required
def search(request):
    term = query_value(request, "q")
    order = query_value(request, "order", "starts_at")
    results = Appointment.objects.filter(pet_name__icontains=term).extra(order_by=[order]) # vuln: sql-injection
    same_name = Appointment.objects.raw("SELECT * FROM appointments_appointment WHERE pet_name = %s", [term]) # safe: sql-injection
    header = format_html("<h2>Appointments for {}</h2>", term) # safe: xss
    note = mark_safe(f"<p class='hint'>Showing results for <b>{term}</b></p>") # vuln: xss
    return render(request, "appointments/search.html", {"results": results, "same": same_name, "header": header, "note": note})


@login_required
def remind(request, pk):
    appointment = get_object_or_404(Appointment, pk=pk)
    channel = request.POST.get("channel", "email")
    if channel == "sms":
        subprocess.run(["/usr/local/bin/send-sms", appointment.owner.phone, "Reminder: %s tomorrow" % appointment.pet_name], check=True) # safe: command-injection
    else:
        template = request.POST.get("template", "reminder")
        subprocess.call("/usr/local/bin/mailer --template " + template + " --to " + appointment.owner.email, shell=True) # vuln: command-injection
    appointment.reminder_sent = True
    appointment.save()
    next_page = request.POST.get("next", "/appointments/")
    if url_has_allowed_host_and_scheme(next_page, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return HttpResponseRedirect(next_page) # safe: open-redirect
    return redirect("/appointments/") # safe: open-redirect


def book(request):
    ip = remote_ip(request)
    if _booking_counts.get(ip, 0) >= BOOKING_LIMIT_PER_IP: # vuln: trust-boundary [xff-booking-limit]
        return HttpResponse("Too many bookings from your address", status=429)
    _booking_counts[ip] = _booking_counts.get(ip, 0) + 1
    owner, _ = Owner.objects.get_or_create(email=request.POST["email"], defaults={"name": request.POST["name"]})
    Owner.objects.filter(pk=owner.pk).update(**request.POST.dict()) # vuln: mass-assignment
    pet = request.POST.get("pet_name", "")
    logger.info("online booking for %s (%s)", pet.replace("\n", " ").replace("\r", " "), owner.pk) # safe: log-injection
    logger.warning("booking note: " + request.POST.get("notes", "")) # vuln: log-injection
    confirm = request.GET.get("confirm_url")
    if confirm:
        return redirect(confirm) # vuln: open-redirect
    response = HttpResponse("<p>Thanks %s, we will call you back.</p>" % escape(request.POST["name"])) # safe: xss
    response.set_cookie("booking_owner", owner_token(owner.pk, owner.email), httponly=True, secure=True, samesite="Lax") # safe: insecure-cookie
    return response


def pet_card(request):
    pet = request.GET.get("pet", "")
    return HttpResponse("<div class='pet'>" + pet + "</div>") # vuln: xss


def owner_lookup(request):
    owners = Owner.objects.filter(email__iexact=request.GET.get("email", "")) # safe: sql-injection
    return JsonResponse({"count": owners.count()})
