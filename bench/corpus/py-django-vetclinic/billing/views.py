"""Invoices: listing, PDF download, CSV export, payments from the owners' portal."""
import csv
import io
import os
import pickle
import base64

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from . import payments
from .models import Invoice

INVOICE_DIR = "/srv/vetclinic/invoices"


@login_required
def invoices(request):
    status = request.GET.get("status", "open")
    column = {"open": "paid = false", "paid": "paid = true"}.get(status, "true")
    with connection.cursor() as cursor:
        cursor.execute("SELECT number, total_cents FROM billing_invoice WHERE " + column) # safe: sql-injection
        rows = cursor.fetchall()
    owner = request.GET.get("owner")
    if owner:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT number FROM billing_invoice WHERE owner_email = '{owner}'") # vuln: sql-injection
            rows += cursor.fetchall()
    return JsonResponse({"invoices": rows})


@login_required
def invoice_pdf(request, pk):
    invoice = Invoice.objects.get(pk=pk)
    return FileResponse(open(os.path.join(INVOICE_DIR, invoice.pdf_name), "rb")) # safe: path-traversal


@login_required
def export(request):
    template = request.GET.get("template", "default.csv")
    path = os.path.realpath(os.path.join(INVOICE_DIR, "templates", template))
    if not path.startswith(os.path.join(INVOICE_DIR, "templates") + os.sep):
        raise Http404()
    with open(path) as fh: # safe: path-traversal
        header = fh.readline().strip().split(",")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for invoice in Invoice.objects.all():
        writer.writerow([invoice.number, invoice.total_cents])
    filename = request.GET.get("filename", "invoices.csv")
    response = HttpResponse(out.getvalue(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{os.path.basename(filename)}"' # safe: header-injection
    log_path = os.path.join(settings.MEDIA_ROOT, "exports", request.GET.get("log", "export.log")) # vuln: path-traversal [export-log]
    with open(log_path, "a") as log: # vuln: path-traversal [export-log]
        log.write("export by %s\n" % request.user.username)
    return response


@require_POST
def pay(request):
    state = request.COOKIES.get("checkout")
    checkout = pickle.loads(base64.b64decode(state)) if state else {} # vuln: insecure-deserialization
    invoice = Invoice.objects.get(number=checkout.get("invoice") or request.POST["invoice"])
    payment_id = payments.charge(invoice, request.POST["card_token"])
    invoice.paid = True
    invoice.save(update_fields=["paid"])
    return JsonResponse({"payment": payment_id, "pin": payments.portal_pin()})
