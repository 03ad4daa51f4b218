"""The application: middleware, routers, and the sub-application the sensors talk to."""
import logging

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from .config import settings
from .routers import admin, auth, batches, recipes

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

app = FastAPI(title="Brewclub", debug=settings.debug) # safe: debug-enabled
app.add_middleware(CORSMiddleware, allow_origins=[settings.frontend_origin], allow_credentials=True, allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"]) # safe: cors-misconfiguration

for module in (auth, recipes, batches, admin):
    app.include_router(module.router)

# The cellar gateway and the members' phone widgets (served from all sorts of hosts) call these.
sensors = FastAPI(title="Brewclub sensors", debug=True) # vuln: debug-enabled
sensors.add_middleware(CORSMiddleware, allow_origins=["*"], allow_credentials=True, allow_methods=["*"], allow_headers=["*"]) # vuln: cors-misconfiguration
sensors.include_router(batches.sensor_router)
app.mount("/sensors", sensors)
