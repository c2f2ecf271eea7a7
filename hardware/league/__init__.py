"""League night (issue 39; seed 001's match rules, checklist L1-L4): many tables, one league.

The league lives in PostgreSQL (`zonkcam league serve --db postgresql://...`): teams and rosters,
seasons, match nights, the draw of each round, which game plays at which table, every game's
events as the kiosk recorded them, results and standings. A kiosk joins with
`zonkcam play --league URL --table-name T`: it plays from its own SQLite log as ever, and a
sender copies that log to the league, idempotently by (game, sequence).

Modules: `draw` (the rounds' draws and the standings: pure functions), `migrations/` and
`migrate` (alembic), `db` (the pool; teams, seasons, nights, tables), `matches` (draws into
games at tables; what the league shows), `sync` (a kiosk's events in, idempotently),
`results` (a game's standing replayed from its events), `auth` (tokens, the admin's password,
lockouts), `server`, `pages` and `admin.html` (the web app), `export` (CSV and JSON), `kiosk`
and `outbox` (the kiosk's side: its client, links and sender; `zonkcam league` is `cli.league`),
`throwaway` (a temporary PostgreSQL for tests and benchmarks), `bot` and `simkiosk` (a
simulated player and kiosk).

psycopg, psycopg_pool and alembic are imported only by the server's side (`db`, `migrate`,
`server`): the kiosk needs none of them.
"""
