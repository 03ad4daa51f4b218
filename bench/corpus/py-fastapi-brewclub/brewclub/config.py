"""Settings, read from BREWCLUB_* environment variables and deploy/brewclub.env."""
from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="BREWCLUB_", env_file="deploy/brewclub.env")

    database_url: str = "postgresql+psycopg://brewclub@localhost/brewclub"
    debug: bool = False
    jwt_secret: str = "brewclub-7d41c9e02fa83b6e5d19" # vuln: hardcoded-secret
    jwt_ttl_minutes: int = 12 * 60
    smtp_host: str = "smtp.brewclub.example"
    smtp_password: str = "" # safe: hardcoded-secret
    frontend_origin: str = "https://club.brewclub.example"
    upload_dir: Path = Path("/var/lib/brewclub/uploads")
    backup_dir: Path = Path("/var/lib/brewclub/backups")
    label_dir: Path = Path("/var/lib/brewclub/labels")
    gateway_url: str = "https://thermo-gw.brewclub.lan:8443"
    supplier_url: str = "https://api.hopsupply.example/v2"
    supplier_ca_bundle: str = "/etc/brewclub/hopsupply-ca.pem"
    admin_networks: list[str] = ["10.20.0.0/16", "127.0.0.1/32"]

    @property
    def dsn(self) -> str:
        """The URL without SQLAlchemy's driver suffix, for pg_dump and psql."""
        return self.database_url.replace("+psycopg", "")


@lru_cache
def get_settings() -> Settings:
    return Settings()


settings = get_settings()
