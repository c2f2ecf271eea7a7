"""The league: teams and rosters, seasons, match nights, matches, rounds, games at tables,
every game's events (unique by game and sequence: a resent event is not stored twice), results.

Revision ID: 0001
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

NOW = sa.text("now()")


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer, sa.Identity(), primary_key=True)


def _ref(name: str, table: str, **kw) -> sa.Column:
    return sa.Column(name, sa.Integer, sa.ForeignKey(f"{table}.id", ondelete="CASCADE"), **kw)


def upgrade() -> None:
    op.create_table("settings", sa.Column("key", sa.Text, primary_key=True),
                    sa.Column("value", sa.Text, nullable=False))
    op.create_table("teams", _id(), sa.Column("name", sa.Text, nullable=False, unique=True),
                    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW))
    op.create_table("players", _id(), sa.Column("name", sa.Text, nullable=False, unique=True),
                    _ref("team_id", "teams", nullable=True),
                    sa.Column("roster_order", sa.Integer, nullable=False, server_default="0"))
    op.create_table("seasons", _id(), sa.Column("name", sa.Text, nullable=False, unique=True),
                    sa.Column("variant", sa.Text, nullable=False, server_default="albany"),
                    sa.Column("options", JSONB, nullable=False, server_default="{}"),
                    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW))
    op.create_table("match_nights", _id(), _ref("season_id", "seasons", nullable=False),
                    sa.Column("name", sa.Text, nullable=False),
                    sa.UniqueConstraint("season_id", "name"))
    op.create_table("tables", _id(), sa.Column("name", sa.Text, nullable=False, unique=True),
                    sa.Column("token_hash", sa.Text, nullable=False),
                    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
                    sa.Column("last_seen", sa.DateTime(timezone=True)))
    op.create_table("matches", _id(), _ref("night_id", "match_nights", nullable=False),
                    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW))
    op.create_table("match_teams", _ref("match_id", "matches", primary_key=True),
                    _ref("team_id", "teams", primary_key=True),
                    sa.Column("seat", sa.Integer, nullable=False),
                    sa.Column("present", JSONB, nullable=False))
    op.create_table("rounds", _id(), _ref("match_id", "matches", nullable=False),
                    sa.Column("number", sa.Integer, sa.CheckConstraint("number IN (1, 2)"), nullable=False),
                    sa.Column("drawn", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
                    sa.UniqueConstraint("match_id", "number"))
    op.create_table("games", _id(), _ref("round_id", "rounds", nullable=False),
                    sa.Column("number", sa.Integer, nullable=False),
                    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="SET NULL")),
                    sa.Column("players", JSONB, nullable=False),
                    sa.Column("ruleset", JSONB, nullable=False),
                    sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('drawn', 'playing', 'over')"),
                              nullable=False, server_default="drawn"),
                    sa.Column("started", sa.DateTime(timezone=True)),
                    sa.Column("ended", sa.DateTime(timezone=True)),
                    sa.Column("result", JSONB),
                    sa.Column("problem", sa.Text),  # the events no longer replay: why
                    sa.UniqueConstraint("round_id", "number"))
    op.create_index("games_by_table", "games", ["table_id", "status"])
    op.create_table("game_players", _ref("game_id", "games", primary_key=True),
                    sa.Column("seat", sa.Integer, primary_key=True),
                    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
                    sa.Column("team_id", sa.Integer, sa.ForeignKey("teams.id"), nullable=False),
                    sa.UniqueConstraint("game_id", "player_id"))
    op.create_table("events", _ref("game_id", "games", primary_key=True),
                    sa.Column("seq", sa.Integer, sa.CheckConstraint("seq > 0"), primary_key=True),
                    sa.Column("at", sa.Text, nullable=False),
                    sa.Column("line", sa.Text, nullable=False),
                    sa.Column("received", sa.DateTime(timezone=True), nullable=False, server_default=NOW))
    op.create_table("results", _ref("game_id", "games", primary_key=True),
                    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
                    sa.Column("team_id", sa.Integer, sa.ForeignKey("teams.id"), nullable=False),
                    sa.Column("score", sa.Integer, nullable=False),
                    sa.Column("hits", sa.Integer, nullable=False),
                    sa.Column("won", sa.Boolean, nullable=False))


def downgrade() -> None:
    for table in ("results", "events", "game_players", "games", "rounds", "match_teams", "matches",
                  "tables", "match_nights", "seasons", "players", "teams", "settings"):
        op.drop_table(table)
