"""The review page: captured dice crops, by what a person's answer is worth to the model.

    GET  /review                        the page (static/review.html + review.js)
    GET  /api/review?offset=K&limit=N   {"total", "groups": {group: count}, "frames",
                                        "reviewed_frames", "offset", "items": [{name, die, value,
                                        color, confidence, rejected, group, words, crop}]}: dice no
                                        person has set or skipped, likely misreads first, sure
                                        reads next, table junk last (`models.review_rank`)
    GET  /api/review/crop/NAME/DIE      the die's crop, JPEG
    GET  /api/review/frame/NAME         the whole frame, JPEG
    GET  /api/review/frame/NAME/dice    {"size": [w, h], "dice": [{"box", "value", "status"}]}
    POST /api/review/correct            {"items": [{"name", "die"}], "value": 0..6}: sets the value
                                        of every die listed (0: not a pip die) and marks it
                                        human-verified; or "action" instead of "value":
                                        "confirm" (the read is right), "bad_crop", "skip"
    POST /api/review/add                {"name", "x", "y"}: a die the recognizer missed, there

Mounted in the kiosk by `zonkcam play --capture DIR` (its `extra_routes`), or served alone by
`zonkcam review DIR`. Corrections go through `CaptureSet.correct`, so labels and metadata are
rewritten exactly as a tap on the kiosk rewrites them. POSTs are guarded as the kiosk's actions
are (`web.Access`: same origin, JSON, the PIN from the LAN). Dice captured without their look
(by the kiosk) get it from `model` (default: the active model) when the queue is listed.
Starlette is imported lazily (the `zonkcam` command imports this module to register the
subcommand).
"""
from __future__ import annotations

import argparse
import asyncio
import threading
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zonkcam.hardware.options import CliError, port

if TYPE_CHECKING:
    from zonkcam.hardware.kiosk.web import Access
    from zonkcam.models.captures import CaptureSet

MAX_ITEMS = 500  # one page of the queue; `offset` reaches the rest
ACTIONS = ("confirm", "bad_crop", "skip")


def review_routes(root: str | Path, access: Access | None = None, model: str | Path | None = None) -> list:
    """Starlette routes of the review page for the capture folder `root`. Corrections from
    another machine need the kiosk's PIN in the ``x-zonkcam-pin`` header (`access`; None:
    from this machine only). `model` gives dice captured without their look one."""
    from starlette.responses import FileResponse, Response
    from starlette.routing import Route
    from zonkcam.hardware.kiosk.web import Access
    from zonkcam.models.captures import CaptureSet

    captures = CaptureSet(root, max_bytes=None)  # never prune from here: capture owns the cap
    lock = threading.Lock()  # one writer at a time per frame's meta (the kiosk may write too)
    static = resources.files("zonkcam.hardware.kiosk").joinpath("static")

    async def page(request) -> Response:
        return FileResponse(str(static.joinpath("review.html")))

    async def script(request) -> Response:
        return FileResponse(str(static.joinpath("review.js")), media_type="text/javascript")

    return [Route("/review", page), Route("/review/review.js", script),
            *_reading_routes(captures, lock, model), *_writing_routes(captures, lock, access or Access(None))]


def _reading_routes(captures: CaptureSet, lock: threading.Lock, model: str | Path | None) -> list:
    """The queue, crops and frames."""
    import cv2
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
    from zonkcam.models.captures import CaptureError

    loaded: list = []  # the model giving dice their look, loaded when first needed

    def fill_looks() -> None:
        with lock:
            todo = [n for n in captures.names() if any("look" not in d for d in captures.meta(n)["dice"])]
            if todo:
                if not loaded:
                    from zonkcam.models.registry import resolve_model
                    from zonkcam.vision.model import DiceModel

                    loaded.append(DiceModel(resolve_model(model)))
                captures.fill_looks(loaded[0], todo)

    async def items(request: Request) -> Response:
        try:
            limit = max(1, min(int(request.query_params.get("limit", 120)), MAX_ITEMS))
            offset = max(0, int(request.query_params.get("offset", 0)))
        except ValueError:
            return JSONResponse({"error": "limit and offset must be numbers"}, status_code=400)
        await asyncio.to_thread(fill_looks)
        return JSONResponse(await asyncio.to_thread(_listing, captures, limit, offset))

    def jpeg(image, quality: int) -> Response:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok or image.size == 0:
            return Response("no such die", status_code=404)
        return Response(data.tobytes(), media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def crop(request: Request) -> Response:
        name, die = request.path_params["name"], request.path_params["die"]
        try:
            return jpeg(await asyncio.to_thread(captures.crop, name, die), 90)
        except (CaptureError, IndexError):
            return Response("no such die", status_code=404)

    async def frame(request: Request) -> Response:
        try:
            return jpeg(await asyncio.to_thread(captures.image, request.path_params["name"]), 85)
        except CaptureError:
            return Response("no such frame", status_code=404)

    async def frame_dice(request: Request) -> Response:
        try:
            meta = await asyncio.to_thread(captures.meta, request.path_params["name"])
        except CaptureError:
            return JSONResponse({"error": "no such frame"}, status_code=404)
        return JSONResponse({"size": meta["size"], "dice": [
            {"box": d["box"], "value": d["value"], "status": d["status"]} for d in meta["dice"]]})

    return [Route("/api/review", items), Route("/api/review/crop/{name}/{die:int}", crop),
            Route("/api/review/frame/{name}", frame), Route("/api/review/frame/{name}/dice", frame_dice)]


def _writing_routes(captures: CaptureSet, lock: threading.Lock, access: Access) -> list:
    """Corrections and added dice, guarded as the kiosk's actions are."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
    from zonkcam.hardware.kiosk.web import read_json
    from zonkcam.models.captures import CaptureError

    async def guarded_body(request: Request) -> Any:
        """The request's JSON body, or the response that refuses it (access, then parsing)."""
        if (no := access.refused(request)) is not None:
            return no
        return await read_json(request)

    async def correct(request: Request) -> Response:
        body = await guarded_body(request)
        if isinstance(body, Response):
            return body
        try:
            entries, value = _correction(body)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        try:
            done = await asyncio.to_thread(_apply, captures, lock, entries, value)
        except (CaptureError, IndexError) as exc:
            return JSONResponse({"error": str(exc) or "no such die"}, status_code=404)
        return JSONResponse({"corrected": done, "value": value})

    def add_one(name: str, x: float, y: float) -> int:
        with lock:
            return captures.add_die(name, x, y)

    async def add(request: Request) -> Response:
        body = await guarded_body(request)
        if isinstance(body, Response):
            return body
        try:
            name, x, y = str(body["name"]), float(body["x"]), float(body["y"])
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": 'expected {"name", "x", "y"}: the spot in the frame, px'},
                                status_code=400)
        try:
            die = await asyncio.to_thread(add_one, name, x, y)
        except CaptureError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404 if "no captured" in str(exc) else 400)
        return JSONResponse({"added": die, "crop": f"/api/review/crop/{name}/{die}"})

    return [Route("/api/review/correct", correct, methods=["POST"]),
            Route("/api/review/add", add, methods=["POST"])]


def _apply(captures: CaptureSet, lock: threading.Lock, entries: list[tuple[str, int]],
           value: int | str) -> int:
    """A correction: a face (0..6) or an action (`ACTIONS`) for each die listed."""
    from zonkcam.models.captures import CaptureError

    with lock:
        for name, die in entries:
            if value == "confirm":
                read = captures.meta(name)["dice"][die]["value"] if die >= 0 else None
                if read is None:
                    raise CaptureError(f"{name}: die {die} has no read to confirm; set its face")
                captures.correct(name, die, value=read)
            elif isinstance(value, str):
                captures.dismiss(name, die, value)
            else:
                captures.correct(name, die, value=value)
    return len(entries)


def _listing(captures: CaptureSet, limit: int, offset: int = 0) -> dict:
    """`limit` dice of the review queue from `offset`, and the counts."""
    from zonkcam.models.review_rank import GROUPS

    queue = captures.review_queue()
    names = captures.names()
    reviewed = sum(1 for n in names if captures.meta(n)["reviewed"])
    items = [{"name": it.name, "die": it.die, "value": it.value, "color": it.color,
              "confidence": round(it.confidence, 3), "rejected": it.rejected, "group": it.group,
              "words": it.words, "crop": f"/api/review/crop/{it.name}/{it.die}"}
             for it in queue[offset:offset + limit]]
    groups = {g: sum(it.group == g for it in queue) for g in GROUPS}
    return {"total": len(queue), "groups": groups, "frames": len(names), "reviewed_frames": reviewed,
            "offset": offset, "items": items}


def _correction(body: object) -> tuple[list[tuple[str, int]], int | str]:
    """The dice and the value (or action) of a review correction, or ValueError saying what is
    expected."""
    try:
        value = body["action"] if "action" in body else body["value"]  # type: ignore[index,operator]
        entries = [(str(e["name"]), int(e["die"])) for e in body["items"]]  # type: ignore[index]
    except (ValueError, KeyError, TypeError):
        raise ValueError('expected {"items": [{"name", "die"}, ...], "value": 0..6 or "action": '
                         '"confirm" | "bad_crop" | "skip"}') from None
    if isinstance(value, str):
        if value not in ACTIONS:
            raise ValueError(f"{value!r} is not an action ({', '.join(ACTIONS)})")
        return entries, value
    if not isinstance(value, int) or isinstance(value, bool) or value not in range(7):
        raise ValueError(f"{value!r} is not a face value 1-6 (or 0: not a pip die)")
    return entries, value


def create_review_app(root: str | Path, model: str | Path | None = None):
    """The review page on its own (`zonkcam review`): `/` redirects to it."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import JSONResponse, RedirectResponse
    from starlette.routing import Route
    from zonkcam.hardware.kiosk.web import OwnHostOnly, SecurityHeaders

    async def home(request) -> RedirectResponse:
        return RedirectResponse("/review")

    async def state(request) -> JSONResponse:  # liveness, as the kiosk's /api/state
        return JSONResponse({"review": str(root)})

    # A page under another name (DNS rebinding) would otherwise read the crops and label them.
    return Starlette(routes=[Route("/", home), Route("/api/state", state), *review_routes(root, model=model)],
                     middleware=[Middleware(SecurityHeaders), Middleware(OwnHostOnly)])


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="review page for captured dice: likely misreads first, fix in bulk")
    p.add_argument("captures", metavar="CAPTURE_DIR", help="a folder made by zonkcam capture")
    p.add_argument("--port", type=port, default=8081)
    p.add_argument("--model", metavar="NAME|FILE",
                   help="the model that orders dice captured without their look (default: the active model)")
    p.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    import uvicorn
    from zonkcam.models.registry import RegistryError, resolve_model

    root = Path(args.captures)
    if not (root / "meta").is_dir():
        raise CliError(f"{root}: not a capture folder (no meta/; make one with zonkcam capture)")
    try:
        model = resolve_model(args.model)
    except RegistryError as exc:
        raise CliError(str(exc)) from None
    print(f"review page: http://localhost:{args.port}/review", flush=True)
    try:
        uvicorn.run(create_review_app(root, model), host="127.0.0.1", port=args.port, log_level="warning")
    except OSError as exc:
        raise CliError(f"cannot listen on port {args.port}: {exc}") from None
    return 0
