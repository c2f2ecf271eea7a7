"""The review page: captured dice crops, least confident first, corrected in bulk.

    GET  /review                        the page (static/review.html + review.js)
    GET  /api/review?limit=N            {"total", "frames", "reviewed_frames", "items": [{name, die,
                                        value, color, confidence, rejected, crop}]}  (dice no
                                        person has set; `rejected`: read as no pip die)
    GET  /api/review/crop/NAME/DIE      the die's crop, JPEG
    POST /api/review/correct            {"items": [{"name", "die"}], "value": 0..6}: sets the value
                                        of every die listed (0: not a pip die) and marks it
                                        human-verified

Mounted in the kiosk by `zonkcam play --capture DIR` (its `extra_routes`), or served alone by
`zonkcam review DIR`. Corrections go through `CaptureSet.correct`, so labels and metadata are
rewritten exactly as a tap on the kiosk rewrites them. Starlette is imported lazily (the
`zonkcam` command imports this module to register the subcommand).
"""
from __future__ import annotations

import argparse
import asyncio
import threading
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from zonkcam.hardware.cli_common import CliError, port

if TYPE_CHECKING:
    from zonkcam.hardware.web import Access
    from zonkcam.models.captures import CaptureSet

MAX_ITEMS = 500


def review_routes(root: str | Path, access: Access | None = None) -> list:
    """Starlette routes of the review page for the capture folder `root`. Corrections from
    another machine need the kiosk's PIN in the ``x-zonkcam-pin`` header (`access`; None:
    from this machine only)."""
    import cv2
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route
    from zonkcam.hardware.web import Access, read_json
    from zonkcam.models.captures import CaptureError, CaptureSet

    captures = CaptureSet(root, max_bytes=None)  # never prune from here: capture owns the cap
    lock = threading.Lock()  # one writer at a time per frame's meta (the kiosk may write too)
    static = resources.files("zonkcam.hardware").joinpath("static")

    access = access or Access(None)

    async def page(request: Request) -> Response:
        return FileResponse(str(static.joinpath("review.html")))

    async def script(request: Request) -> Response:
        return FileResponse(str(static.joinpath("review.js")), media_type="text/javascript")

    async def items(request: Request) -> Response:
        try:
            limit = min(int(request.query_params.get("limit", 120)), MAX_ITEMS)
        except ValueError:
            return JSONResponse({"error": "limit must be a number"}, status_code=400)
        return JSONResponse(await asyncio.to_thread(_listing, captures, limit))

    async def crop(request: Request) -> Response:
        name, die = request.path_params["name"], request.path_params["die"]
        try:
            image = await asyncio.to_thread(captures.crop, name, die)
        except (CaptureError, IndexError):
            return Response("no such die", status_code=404)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok or image.size == 0:
            return Response("no such die", status_code=404)
        return Response(jpeg.tobytes(), media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    def apply(entries: list[tuple[str, int]], value: int) -> int:
        with lock:
            for name, die in entries:
                captures.correct(name, die, value=value)
        return len(entries)

    async def correct(request: Request) -> Response:
        if (no := access.refused(request)) is not None:
            return no
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        try:
            entries, value = _correction(body)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        try:
            done = await asyncio.to_thread(apply, entries, value)
        except CaptureError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse({"corrected": done, "value": value})

    return [
        Route("/review", page),
        Route("/review/review.js", script),
        Route("/api/review", items),
        Route("/api/review/crop/{name}/{die:int}", crop),
        Route("/api/review/correct", correct, methods=["POST"]),
    ]


def _listing(captures: CaptureSet, limit: int) -> dict:
    """The review queue's first `limit` dice, least confident first, and the counts."""
    queue = captures.review_queue()
    names = captures.names()
    reviewed = sum(1 for n in names if captures.meta(n)["reviewed"])
    items = [{"name": it.name, "die": it.die, "value": it.value, "color": it.color,
              "confidence": round(it.confidence, 3), "rejected": it.rejected,
              "crop": f"/api/review/crop/{it.name}/{it.die}"} for it in queue[:limit]]
    return {"total": len(queue), "frames": len(names), "reviewed_frames": reviewed, "items": items}


def _correction(body: object) -> tuple[list[tuple[str, int]], int]:
    """The dice and the value of a review correction, or ValueError saying what is expected."""
    try:
        value = body["value"]  # type: ignore[index]
        entries = [(str(e["name"]), int(e["die"])) for e in body["items"]]  # type: ignore[index]
    except (ValueError, KeyError, TypeError):
        raise ValueError('expected {"items": [{"name", "die"}, ...], "value": 0..6}') from None
    if not isinstance(value, int) or isinstance(value, bool) or value not in range(7):
        raise ValueError(f"{value!r} is not a face value 1-6 (or 0: not a pip die)")
    return entries, value


def create_review_app(root: str | Path):
    """The review page on its own (`zonkcam review`): `/` redirects to it."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, RedirectResponse
    from starlette.routing import Route

    async def home(request) -> RedirectResponse:
        return RedirectResponse("/review")

    async def state(request) -> JSONResponse:  # liveness, as the kiosk's /api/state
        return JSONResponse({"review": str(root)})

    return Starlette(routes=[Route("/", home), Route("/api/state", state), *review_routes(root)])


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="review page for captured dice: least confident first, fix in bulk")
    p.add_argument("captures", metavar="CAPTURE_DIR", help="a folder made by zonkcam capture")
    p.add_argument("--port", type=port, default=8081)
    p.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    import uvicorn

    root = Path(args.captures)
    if not (root / "meta").is_dir():
        raise CliError(f"{root}: not a capture folder (no meta/; make one with zonkcam capture)")
    print(f"review page: http://localhost:{args.port}/review", flush=True)
    try:
        uvicorn.run(create_review_app(root), host="127.0.0.1", port=args.port, log_level="warning")
    except OSError as exc:
        raise CliError(f"cannot listen on port {args.port}: {exc}") from None
    return 0
