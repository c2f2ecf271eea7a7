"""`zonkcam play`: the table kiosk (camera -> live throws -> game -> web display)."""
from __future__ import annotations

import argparse
import logging
import math
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import zonkcam.hardware.cli.play_config as play_config
from zonkcam.hardware.cli.rules import add_ruleset_arguments, ruleset_from
from zonkcam.hardware.kiosk.evidence import DEFAULT_DAYS, DEFAULT_MB, Retention, keep_pruned
from zonkcam.hardware.options import CliError, bounded, bounded_float, check_port, frame_rate, port, seed
from zonkcam.models.registry import MODEL_HELP

if TYPE_CHECKING:
    from zonkcam.hardware.cameras import DemoCamera
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.league.outbox import LeagueLink
    from zonkcam.hardware.store import Store
    from zonkcam.models.captures import CaptureSet
    from zonkcam.rules.ruleset import Ruleset

DEFAULT_PLAYERS = "Player1,Player2"

log = logging.getLogger("zonkcam.play")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="run the table: camera, scoring and the kiosk display (the main job)")
    p.add_argument("--camera", help="pi, usb:N, a video file, a folder of frames, or demo "
                   "(default: the Pi camera, else USB camera 0, else the demo)")
    add_ruleset_arguments(p)
    p.add_argument("--players", help=f"Zonk names in seating order (default: {DEFAULT_PLAYERS})")
    p.add_argument("--new", action="store_true",
                   help="start a new game (an unfinished one is left in the database, unfinished)")
    p.add_argument("--port", type=port, default=8080)
    p.add_argument("--lan", action="store_true",
                   help="listen on the LAN too: phones watch; actions from them need the kiosk's PIN")
    p.add_argument("--db", help="game database (default: $ZONKCAM_DB or ~/.local/share/zonkcam/zonkcam.db)")
    p.add_argument("--table", metavar="FILE", help="table calibration from `zonkcam calibrate`")
    p.add_argument("--dice-set", metavar="FILE", help="dice colours from `zonkcam calibrate-dice`")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--gesture-bank", action=argparse.BooleanOptionalAction, default=None,
                   help="picking up every die banks the turn when it may be banked "
                   "(default: on for the demo)")
    p.add_argument("--button", type=bounded(0, 63), metavar="GPIO",
                   help="a push button on this GPIO pin banks (gpiozero)")
    p.add_argument("--fps", type=frame_rate, help="frame rate of a video file or frame folder")
    p.add_argument("--demo-seed", type=seed, metavar="N",
                   help="the demo's throws (default: new ones each start; the log names the seed to replay)")
    p.add_argument("--capture", metavar="DIR", help="save every settled throw with its labels for "
                   "`zonkcam train` (2 GB cap); review page at /review")
    p.add_argument("--league", metavar="URL", help="join a league (`zonkcam league serve`): play the game it "
                   "gives this table and send it every event (token: $ZONKCAM_LEAGUE_TOKEN)")
    p.add_argument("--table-name", metavar="T", help="this table's name in the league (with --league)")
    p.add_argument("--evidence-days", type=bounded_float(0, 36_500), default=DEFAULT_DAYS, metavar="DAYS",
                   help="keep the pictures throws were read from this long (0: no limit)")
    p.add_argument("--evidence-mb", type=bounded_float(0, 10_000_000), default=DEFAULT_MB, metavar="MB",
                   help="and at most this much of them, the oldest pruned first (0: no limit)")
    p.add_argument("--config", metavar="FILE",
                   help="options in TOML, overridden by flags (default: $XDG_CONFIG_HOME/zonkcam/play.toml "
                   "or ~/.config/zonkcam/play.toml, if there)")
    p.set_defaults(func=cmd_play, config_defaults=play_config.defaults, command_parser=p)


def cmd_play(args: argparse.Namespace) -> int:
    # Heavy imports here, so that other subcommands stay instant.
    from zonkcam.hardware.cameras import CameraError, Reconnecting, detect_camera
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.kiosk.web import Access, Hub, create_app, new_pin, serve
    from zonkcam.hardware.store import Store, default_path
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.colors import DiceSetError
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.read import Reader
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig, TableConfigError

    play_config.flags_win(args)
    host = "0.0.0.0" if args.lan else "127.0.0.1"
    check_port(host, args.port)
    # Rules, players and the capture folder first (cheap, and checked even when a game resumes).
    ruleset = ruleset_from(args)
    players = _players(args.players, ruleset)
    captures = _captures(args.capture)
    spec = args.camera or detect_camera()
    if args.camera is None and spec == "demo":
        log.info("no camera found: starting the demo camera (simulated throws)")
    app: TableApp | None = None

    def camera_status(message: str) -> None:  # the table app says it on the display, once there
        (app.camera_status if app is not None else print)(message)

    db = Path(args.db) if args.db else default_path()
    # The table region: --table, else the one last set on the kiosk's page for this database
    # (the demo's table is its own).
    table_file = Path(args.table) if args.table else None if spec == "demo" else db.parent / "table.json"
    if args.table and not Path(args.table).is_file():
        raise CliError(f"cannot read table file {args.table}: no such file")
    # The camera, model and table are checked before any game is written to the database.
    try:
        table = TableConfig.load(table_file) if table_file is not None and table_file.is_file() else None
        model = resolve_model(args.model)
        reader = Reader(model, dice_set=args.dice_set, overhead=True)
        # Every source but the demo is retried when it fails, and the display says so.
        camera: Reconnecting | DemoCamera | None = None if spec == "demo" else Reconnecting(
            open_source(spec, args.fps, table.camera if table else None), on_status=camera_status)
    except (CameraError, ModelError, RegistryError, TableConfigError, DiceSetError) as exc:
        raise CliError(str(exc)) from None
    store = Store(db)
    league = _join_league(args, store, db)  # None without --league
    house = {Path(args.rules).stem: ruleset_from(args)} if args.rules else {}
    game_id = _game_to_play(args, store, league, ruleset, players)
    ruleset = store.game(game_id).ruleset

    hub = Hub()
    gesture = args.gesture_bank if args.gesture_bank is not None else spec == "demo"
    app = TableApp(store, game_id, hub, db.parent / "evidence", gesture_bank=gesture,
                   on_message=log.info, house_rules=house, demo=spec == "demo",
                   captures=captures, model=str(model), review=bool(args.capture),
                   table=table, table_path=table_file)
    if camera is None:
        camera = demo_camera(app, ruleset.dice, args.demo_seed)
        app.table = app.table or camera.table

    def make_stream(dice: int) -> ThrowStream:  # a region set on the page counts from the next one
        if unknown := reader.use_colors(app.game.ruleset.dice_colors):  # only the set's colours
            log.warning("no reference colour for %s: pass a calibrated --dice-set", ", ".join(unknown))
        return ThrowStream(reader, app.table, dice_count=dice)

    pin = new_pin() if args.lan else None
    stop = threading.Event()
    retention = Retention(args.evidence_days, args.evidence_mb)
    threading.Thread(target=keep_pruned, args=(app.evidence_root, retention, stop), name="evidence",
                     daemon=True).start()
    threading.Thread(target=app.run, args=(camera, make_stream(ruleset.dice), stop, make_stream),
                     name="camera", daemon=True).start()
    if args.button is not None:
        _bank_button(args.button, app)
    if league is not None:  # its sender, and its next game once this one is over
        league.start(app)
    print(f"zonkcam: open http://localhost:{args.port}/" + (f" (LAN PIN {pin})" if pin else ""),
          file=sys.stderr)
    try:
        from zonkcam.hardware.kiosk.review import review_routes

        access = Access(pin)  # one PIN guard for the kiosk's actions and the review page's
        # its dice captured without their look get it from the model that read them (--model)
        extra = review_routes(args.capture, access, model) if args.capture else None
        serve(create_app(app, hub, access=access, extra_routes=extra), host, args.port)
    finally:
        stop.set()
        camera.close()
        if league is not None:
            league.stop()
    return 0


def _game_to_play(args: argparse.Namespace, store: Store, league: LeagueLink | None, ruleset: Ruleset,
                  players: tuple[str, ...]) -> int:
    """The game this table plays: the league's (new or begun; --new has no say), else the newest
    unfinished one resumed (unless --new, or it cannot be loaded), else a new one."""
    from zonkcam.hardware.store import StoreError
    from zonkcam.rules.game import GameSetup

    game_id = store.unfinished() if league is None else league.game_id
    if game_id is not None and not args.new:
        try:
            store.game(game_id)
        except StoreError as exc:  # the kiosk still starts: that game stays, unplayable, in the db
            if league is not None:  # a new game here would not be the league's: stop, say why
                raise CliError(league.unloadable(game_id, exc), status=1) from None
            log.warning("cannot resume: %s; starting a new game", exc)
            game_id = None
    if game_id is not None and args.new:
        # The game log ends a game only by its rules, so the old game stays unfinished; the
        # newest unfinished game is the one resumed.
        log.info("game %s left unfinished", game_id)
        game_id = None
    if game_id is None:
        game_id = store.new_game(GameSetup(ruleset, players))
        log.info("new game %s: %s, %s", game_id, ruleset.name, ", ".join(players))
    elif league is not None:  # the game the league gave this table, new or begun; --new has no say
        game = store.game(game_id)
        log.info("table %s: %s its league game (local game %s): %s, %s", league.table,
                 "resuming" if game.log else "starting", game_id, game.ruleset.name, ", ".join(game.order))
    else:
        game = store.game(game_id)
        log.info("resuming game %s: %s, %s (--new to start another)", game_id, game.ruleset.name,
                 ", ".join(game.order))
    return game_id


def demo_camera(app: TableApp, dice: int, number: int | None) -> DemoCamera:
    """The demo table, played by the demo player: new throws each start unless a seed `number`
    is given (a kiosk left running the demo should not replay one game), logged to replay it."""
    from zonkcam.hardware.cameras import DemoCamera
    from zonkcam.hardware.kiosk.demo import DemoPlayer

    if number is None:
        number = random.SystemRandom().randrange(2**32)
    log.info("the demo plays seed %d (--demo-seed %d plays the same throws again)", number, number)
    # The throws' seed is one above the player's: --demo-seed 0 is the demo as it always was.
    return DemoCamera(seed=number + 1, dice=dice, player=DemoPlayer(app, seed=number))


def _join_league(args: argparse.Namespace, store: Store, db: Path) -> LeagueLink | None:
    """With --league: the game the league gives this table (not --new's, not the unfinished one)."""
    if not args.league:
        return None
    from zonkcam.hardware.league.outbox import LeagueLink

    if args.new:
        log.warning("--new does nothing with --league: the league decides which game this table plays")
    args.new = False
    return LeagueLink(store, db, args.league, args.table_name)


def _players(text: str | None, ruleset: Ruleset) -> tuple[str, ...]:
    """`--players` as a new game would seat them; refused as the game would refuse them."""
    from zonkcam.rules.game import GameSetup
    from zonkcam.rules.turn import IllegalAction

    players = tuple(n.strip() for n in (DEFAULT_PLAYERS if text is None else text).split(","))
    try:
        GameSetup(ruleset, players)
    except IllegalAction as exc:
        raise CliError(f"--players: {exc}") from None
    return players


def _captures(folder: str | None) -> CaptureSet | None:
    """The `--capture` dataset folder, made now: a file in its way is a one-line error."""
    from zonkcam.models.captures import CaptureSet

    if folder is None:
        return None
    try:
        return CaptureSet(folder)
    except OSError as exc:
        raise CliError(f"--capture {folder}: cannot make a dataset folder there ({exc.strerror})") \
            from None


def open_source(spec: str, fps: float | None, controls: dict | None = None) -> Callable:
    """How to (re)open a camera source, as `cameras.camera_opener` opens it for capture too;
    recorded footage plays in real time, as a camera would. `controls`: the Pi camera's
    exposure, gains and focus saved by `zonkcam calibrate`."""
    from zonkcam.hardware.cameras import camera_opener, source_for

    opener = camera_opener(spec, fps, controls)
    if source_for(spec).live:
        return opener
    return lambda: Paced(opener())


class Paced:
    """A recorded source delivered at its frames' own times instead of as fast as they decode."""

    def __init__(self, camera) -> None:
        self.camera, self.name = camera, camera.name
        self._origin: float | None = None
        self._last_t = -math.inf
        self._closed = False

    def read(self):
        if self._closed:  # a closed folder would go on reading: the retry must reopen the source
            from zonkcam.hardware.cameras import CameraError

            raise CameraError(f"{self.name}: closed")
        frame = self.camera.read()
        if frame is None:
            return None
        now = time.monotonic()
        if self._origin is None or frame.t < self._last_t:
            self._origin = now - frame.t
        self._last_t = frame.t
        delay = self._origin + frame.t - now
        if delay > 0:
            time.sleep(delay)
        return frame

    def still(self):
        return self.camera.still()

    def close(self) -> None:
        self._closed = True
        self.camera.close()


def _bank_button(pin: int, app) -> None:
    try:
        from gpiozero import Button
    except ImportError:
        raise CliError("--button needs gpiozero (on a Raspberry Pi: apt install python3-gpiozero)") from None
    from zonkcam.hardware.kiosk.web import Refused

    def bank() -> None:
        try:
            app.act({"action": "bank"})
        except Refused as exc:
            app.say(f"bank button: {exc}")
            app.publish_state()

    button = Button(pin)
    button.when_pressed = bank
    app.button = button  # keep a reference: gpiozero stops watching a collected button
