"""`zonkcam league`: serve the league, add a table (its token), set the admin password, migrate.

psycopg and alembic are the `league` extra (`pip install 'zonkcam[league]'`); they are imported
only when a league command runs."""
from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys

from zonkcam.hardware.options import CliError, check_port, port

DB_ENV = "ZONKCAM_LEAGUE_DB"
PASSWORD_ENV = "ZONKCAM_LEAGUE_PASSWORD"
HOSTS_ENV = "ZONKCAM_LEAGUE_HOSTS"
log = logging.getLogger("zonkcam.league")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("league", help="the league's server on PostgreSQL: teams, draws, tables, standings")
    league = p.add_subparsers(dest="league_command", metavar="COMMAND", required=True)

    def command(name: str, help_text: str, func) -> argparse.ArgumentParser:
        c = league.add_parser(name, help=help_text)
        c.add_argument("--db", help=f"the league's database, postgresql://... (default ${DB_ENV}); "
                       "made if missing")
        c.set_defaults(func=func)
        return c

    c = command("serve", "run the league's pages and API (migrates the database first)", cmd_serve)
    c.add_argument("--port", type=port, default=8090)
    c.add_argument("--lan", action="store_true", help="listen on the LAN (kiosks and phones), not only here")
    c.add_argument("--allowed-hosts", metavar="NAMES",
                   help="DNS names the league answers to besides this machine's own (an IP address, "
                   "localhost, its host name): league.example.org,*.example.org, behind a reverse proxy "
                   f"(default ${HOSTS_ENV}); other names are refused (DNS rebinding)")
    c = command("add-table", "add a table (or give it a new token); prints its token once", cmd_add_table)
    c.add_argument("name", help="the table's name, as the kiosk gives it with --table-name")
    command("password", f"set the admin's password (asked, or ${PASSWORD_ENV})", cmd_password)
    command("migrate", "bring the league's database to the newest schema", cmd_migrate)


def _open(args: argparse.Namespace):
    """The league's database, made and migrated; CliError when psycopg is missing or it fails."""
    url = args.db or os.environ.get(DB_ENV)
    if not url:
        raise CliError(f"--db: give the league's database, postgresql://... (or set ${DB_ENV})")
    try:
        from zonkcam.hardware.league import migrate
        from zonkcam.hardware.league.db import League
    except ImportError as exc:
        raise CliError(f"the league needs its extra: pip install 'zonkcam[league]' ({exc.name} missing)") \
            from None
    try:
        if migrate.create_database(url):
            log.info("made the league's database")
        migrate.upgrade(url)
    except migrate.MigrateError as exc:
        raise CliError(str(exc)) from None
    return League(url)


def cmd_migrate(args: argparse.Namespace) -> int:
    _open(args).close()
    print("the league's database is up to date", file=sys.stderr)
    return 0


def cmd_add_table(args: argparse.Namespace) -> int:
    from zonkcam.hardware.league.db import LeagueError

    league = _open(args)
    try:
        token = league.add_table(args.name)
    except LeagueError as exc:
        raise CliError(str(exc)) from None
    finally:
        league.close()
    print(f"table {args.name}: on its kiosk, put this token in ZONKCAM_LEAGUE_TOKEN or in the file"
          " league-token beside its game database (shown once, kept only as a hash):", file=sys.stderr)
    print(token)
    return 0


def _ask_password() -> str:
    password = os.environ.get(PASSWORD_ENV)
    if password:
        return password
    if not sys.stdin.isatty():
        raise CliError(f"no admin password: set ${PASSWORD_ENV} or run this at a terminal")
    first = getpass.getpass("league admin password (8+ characters): ")
    if first != getpass.getpass("again: "):
        raise CliError("the two passwords differ")
    return first


def cmd_password(args: argparse.Namespace) -> int:
    from zonkcam.hardware.league.db import LeagueError

    league = _open(args)
    try:
        league.set_admin_password(_ask_password())
    except LeagueError as exc:
        raise CliError(str(exc)) from None
    finally:
        league.close()
    print("admin password set", file=sys.stderr)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from zonkcam.hardware.kiosk.web import serve
    from zonkcam.hardware.league.db import LeagueError, Unavailable
    from zonkcam.hardware.league.hosts import allowed_hosts
    from zonkcam.hardware.league.server import create_app

    host = "0.0.0.0" if args.lan else "127.0.0.1"
    try:
        allowed = allowed_hosts(args.allowed_hosts if args.allowed_hosts is not None
                                else os.environ.get(HOSTS_ENV))
    except ValueError as exc:
        raise CliError(f"--allowed-hosts: {exc}") from None
    check_port(host, args.port)
    league = _open(args)
    try:
        if league.admin_hash() is None:
            if sys.stdin.isatty() or os.environ.get(PASSWORD_ENV):
                league.set_admin_password(_ask_password())
            else:
                log.warning("no admin password yet: edits are refused until `zonkcam league password`")
    except (LeagueError, Unavailable) as exc:
        league.close()
        raise CliError(str(exc)) from None
    print(f"zonkcam league: open http://localhost:{args.port}/ (admin: /admin)", file=sys.stderr)
    if allowed:
        log.info("answering to %s as well as this machine's own names", ", ".join(allowed))
    serve(create_app(league, allowed_hosts=allowed), host, args.port)
    return 0
