"""gunicorn settings for the survey VM."""
import multiprocessing

bind = "127.0.0.1:8010"
workers = multiprocessing.cpu_count() * 2 + 1
accesslog = "-"
reload = False # safe: debug-enabled
raw_env = ["FIELDNOTES_SETTINGS=/etc/fieldnotes/settings.cfg"]
