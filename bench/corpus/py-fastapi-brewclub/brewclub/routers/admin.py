"""Club administration: backups, table statistics, the server's logs."""
import logging
import os
import subprocess
from datetime import datetime

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import PlainTextResponse
from sqlalchemy import text
from sqlalchemy.orm import Session

from ..config import settings
from ..db import Member, get_session
from ..schemas import BackupRequest
from ..security import require_admin

log = logging.getLogger("brewclub.admin")
router = APIRouter(prefix="/admin", tags=["admin"])

STATS_TABLES = {"members": "members", "recipes": "recipes", "batches": "batches", "readings": "readings"}
LOG_DIR = "/var/log/brewclub"


@router.post("/backups", status_code=201)
def backup(body: BackupRequest, admin: Member = Depends(require_admin)):
    stamp = datetime.now().strftime("%Y%m%d-%H%M")
    dump = settings.backup_dir / f"db-{stamp}.sql"
    subprocess.run(["pg_dump", "--no-owner", "--file", str(dump), settings.dsn], check=True, timeout=600) # safe: command-injection
    # the uploads go into a tarball named after the occasion ("before-upgrade", "season-end", ...)
    os.system(f"tar czf {settings.backup_dir}/{body.label}-{stamp}.tgz -C {settings.upload_dir} .") # vuln: command-injection
    log.info("backup %s taken by member %d", stamp, admin.id)
    return {"dump": dump.name}


@router.get("/stats/{table}")
def table_stats(table: str, admin: Member = Depends(require_admin), session: Session = Depends(get_session)):
    name = STATS_TABLES.get(table)
    if name is None:
        raise HTTPException(404, "unknown table")
    rows = session.execute(text(f"SELECT count(*) FROM {name}")).scalar_one() # safe: sql-injection
    return {"table": name, "rows": rows}


@router.get("/logs", response_class=PlainTextResponse)
def read_log(file: str = Query("brewclub.log"), lines: int = Query(200, le=5000), admin: Member = Depends(require_admin)):
    with open(os.path.join(LOG_DIR, file), encoding="utf-8", errors="replace") as fh: # vuln: path-traversal
        return "".join(fh.readlines()[-lines:])
