import markupsafe
from flask import render_template_string, request


def banner(trusted):
    name = request.args.get("name")
    if trusted:
        name = markupsafe.escape(name)
    # ruleid: python-template-injection
    return render_template_string("<h1>" + name + "</h1>")


def banner_escaped(trusted):
    name = request.args.get("name")
    if trusted:
        name = markupsafe.escape(name)
    else:
        name = markupsafe.escape(name.strip())
    # ok: python-template-injection
    return render_template_string("<h1>" + name + "</h1>")


def page():
    html = "<ul>"
    for item in request.get_json()["items"]:
        html += "<li>" + item + "</li>"
    # ruleid: python-template-injection
    return render_template_string(html)


def profile():
    context = {"title": request.args.get("title"), "static": "Profile"}
    # ruleid: python-template-injection
    return render_template_string(context["title"])


def report():
    title = request.args.get("title")
    title = "Monthly report"
    # ok: python-template-injection
    return render_template_string("<h1>" + title + "</h1>")


def condition_only():
    if request.args.get("debug"):
        # ok: python-template-injection
        return render_template_string("<p>debug</p>")
    return ""
