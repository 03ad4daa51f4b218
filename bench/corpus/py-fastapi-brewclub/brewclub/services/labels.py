"""Bottle labels: HTML from Jinja2 templates, PDF through wkhtmltopdf."""
import subprocess

from jinja2 import Environment, PackageLoader, select_autoescape
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from ..config import settings

env = Environment(loader=PackageLoader("brewclub", "templates"), autoescape=select_autoescape(["html"])) # safe: xss
_themes = SandboxedEnvironment(autoescape=True)

THEME_FILE = settings.label_dir / "theme.html"


def render_label(batch, recipe) -> str:
    tasting = Markup(batch.notes) # vuln: xss [label-notes]
    abv = round((batch.og - (batch.fg or batch.og)) * 131.25, 1)
    context = {"batch": batch, "recipe": recipe, "abv": abv, "tasting": tasting}
    if THEME_FILE.exists():
        # the club's own design, which an admin copies onto the server
        return _themes.from_string(THEME_FILE.read_text()).render(**context) # safe: template-injection
    return env.get_template("label.html").render(**context)


def render_custom(source: str, batch, recipe) -> str:
    """A one-off label a member designs in the editor (a print run for a wedding, say)."""
    return Environment().from_string(source).render(batch=batch, recipe=recipe) # vuln: template-injection


def to_pdf(html: str) -> bytes:
    done = subprocess.run(["wkhtmltopdf", "--quiet", "--page-size", "A6", "-", "-"], input=html.encode(), # safe: command-injection
                          capture_output=True, check=True, timeout=60)
    return done.stdout
