"""The league's schema: alembic migrations (`migrations/versions`), run to the newest at start."""
from __future__ import annotations

import logging
from pathlib import Path

import psycopg
from psycopg import sql

HERE = Path(__file__).resolve().parent


class MigrateError(RuntimeError):
    """The league's database cannot be reached or brought up to date; the message says why."""


def sqlalchemy_url(url: str) -> str:
    """A libpq URL as SQLAlchemy names psycopg 3's driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    scheme = url.split("://")[0] + "://..." if "://" in url else "no scheme"
    raise MigrateError(f"--db: expected a postgresql://... URL, got {scheme}")


def create_database(url: str) -> bool:
    """Create the URL's database when it is missing (the role must be allowed to); True if made."""
    sqlalchemy_url(url)  # a postgresql:// URL, or a one-line error
    try:
        name = str(psycopg.conninfo.conninfo_to_dict(url).get("dbname") or "")
    except psycopg.ProgrammingError as exc:
        raise MigrateError(f"--db: not a database URL ({_first_line(exc)})") from None
    if not name:
        return False
    try:
        with psycopg.connect(url, connect_timeout=10):
            return False
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise MigrateError(f"cannot reach the league's database: {_first_line(exc)}") from None
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=10) as db:
            db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as exc:
        raise MigrateError(f"cannot create database {name}: {_first_line(exc)}") from None
    return True


def upgrade(url: str) -> None:
    """Bring the league's schema to the newest migration."""
    # Before the import: alembic (1.16+) says a line per plugin as it loads them, noise at every start.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    config.set_main_option("sqlalchemy.url", sqlalchemy_url(url).replace("%", "%%"))
    try:
        command.upgrade(config, "head")
    except Exception as exc:  # alembic and SQLAlchemy raise many kinds; say it in one line
        raise MigrateError(f"cannot migrate the league's database: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
