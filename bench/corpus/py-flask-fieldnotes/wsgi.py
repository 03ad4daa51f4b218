"""Entry point for gunicorn (deploy/fieldnotes.service) and for local runs."""
import os

from fieldnotes import create_app

app = create_app()

if __name__ == "__main__":
    app.run(host="0.0.0.0", port=int(os.environ.get("PORT", "5000")), debug=True) # vuln: debug-enabled
