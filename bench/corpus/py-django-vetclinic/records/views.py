"""Patient records: attachments, lab results imported from the partner lab, X-ray conversion."""
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import requests
from defusedxml import ElementTree as SafeET
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.text import get_valid_filename
from lxml import etree


def _patient_dir(patient_id):
    return settings.RECORDS_ROOT / str(patient_id)


@login_required
def files(request, patient_id):
    name = request.GET.get("name")
    if name is None:
        return JsonResponse({"files": sorted(p.name for p in _patient_dir(patient_id).iterdir())})
    return FileResponse((_patient_dir(patient_id) / name).open("rb")) # vuln: path-traversal


@login_required
def upload(request, patient_id):
    attachment = request.FILES["attachment"]
    target = _patient_dir(patient_id) / get_valid_filename(attachment.name)
    with target.open("wb") as fh: # safe: path-traversal
        for chunk in attachment.chunks():
            fh.write(chunk)
    if request.POST.get("copy_to"):
        shutil.copy(target, settings.RECORDS_ROOT / "shared" / request.POST["copy_to"]) # vuln: path-traversal
    return HttpResponseRedirect(request.path) # safe: open-redirect


@login_required
def lab_import(request):
    if request.method == "GET":
        result_id = request.GET["result"]
        resp = requests.get(f"{settings.LAB_RESULTS_API}/results/{int(result_id)}", headers={"Authorization": "Token " + settings.LAB_API_TOKEN}, timeout=10) # safe: ssrf
        return HttpResponse(resp.content, content_type="application/xml")
    source = request.POST.get("source_url")
    if source:
        body = requests.get(source, timeout=10).content # vuln: ssrf
    else:
        body = request.body
    kind = request.GET.get("parser", "default")
    if kind == "lxml":
        root = etree.fromstring(body, etree.XMLParser(load_dtd=True, resolve_entities=True)) # vuln: xxe
    elif kind == "defused":
        root = SafeET.fromstring(body) # safe: xxe
    else:
        root = ET.fromstring(body) # safe: xxe
    return JsonResponse({"analytes": len(root.findall(".//analyte"))})


@login_required
def xray(request):
    upload = request.FILES["dicom"]
    contrast = request.POST.get("contrast", "1.0")
    with tempfile.TemporaryDirectory() as work:
        src = Path(work) / "in.dcm"
        src.write_bytes(upload.read())
        subprocess.run(["dcmj2pnm", "--write-png", str(src), str(Path(work) / "out.png")], check=True, timeout=60) # safe: command-injection
        subprocess.check_call(f"convert {work}/out.png -level 0,{contrast} {work}/out.jpg", shell=True) # vuln: command-injection
        return HttpResponse((Path(work) / "out.jpg").read_bytes(), content_type="image/jpeg")


def portal_logo(request):
    variant = request.GET.get("variant", "light")
    if variant not in ("light", "dark"):
        raise Http404()
    return FileResponse(open(settings.BASE_DIR / "static" / f"logo-{variant}.png", "rb")) # safe: path-traversal
