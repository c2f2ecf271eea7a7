"""alembic's entry: run the league's migrations online against the URL `migrate` configured."""
from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

url = context.config.get_main_option("sqlalchemy.url")
assert url, "migrate sets sqlalchemy.url"
engine = create_engine(url, poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
