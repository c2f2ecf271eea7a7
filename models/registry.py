"""Installed dice models: the one shipped with zonkcam plus any a table trained itself.

    ~/.local/share/zonkcam/models/          ($ZONKCAM_HOME/models when set)
        state.json                          {"active": NAME | null, "history": [NAME, ...]}
        NAME/dice.onnx, NAME/MODEL_CARD.md, NAME/metrics.json

`zonkcam model list|use|rollback|add` manages it; the recognizer loads `active_path()`.
A model trained elsewhere is added by copying its `.onnx` (and card) in with `model add`.
Every command's `--model` goes through `resolve_model`: a name from `model list` or a file.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

SHIPPED = "shipped"
MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # one folder name, never a path


class RegistryError(ValueError):
    """An unknown model name or an unusable model file."""


def zonkcam_home() -> Path:
    """Where zonkcam keeps its data: $ZONKCAM_HOME, else $XDG_DATA_HOME/zonkcam."""
    if home := os.environ.get("ZONKCAM_HOME"):
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "zonkcam"


def shipped_model() -> Path:
    return Path(__file__).resolve().parent / "dice.onnx"


@dataclass(frozen=True)
class ModelEntry:
    name: str
    path: Path
    created: float | None
    metrics: dict
    active: bool


class Registry:
    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else zonkcam_home() / "models"

    def entries(self) -> list[ModelEntry]:
        active = self.active_name()
        out = [ModelEntry(SHIPPED, shipped_model(), None, {}, active == SHIPPED)]
        if self.root.is_dir():
            for folder in sorted(p for p in self.root.iterdir() if (p / "dice.onnx").is_file()):
                metrics = _metrics(folder / "metrics.json")
                created = (folder / "dice.onnx").stat().st_mtime
                out.append(ModelEntry(folder.name, folder / "dice.onnx", created, metrics,
                                      active == folder.name))
        return out

    def add(self, onnx: str | Path, name: str | None = None, card: str | None = None,
            metrics: dict | None = None) -> str:
        """Copy a model file in (not activated); returns its name."""
        from zonkcam.vision.model import DiceModel, ModelError

        onnx = Path(onnx)
        if not onnx.is_file():
            raise RegistryError(f"{onnx}: no such model file")
        name = name or time.strftime("dice-%Y%m%d-%H%M%S")
        if name == SHIPPED or not MODEL_NAME.fullmatch(name):
            raise RegistryError(f"{name!r} cannot be used as a model name (letters, digits, "
                                "'.', '_' and '-', starting with a letter or digit)")
        try:
            DiceModel(onnx).check()  # a file every read would fail on is never installed
        except ModelError as exc:
            raise RegistryError(str(exc)) from None
        folder = self.root / name
        if folder.exists():
            raise RegistryError(f"a model named {name!r} already exists")
        folder.mkdir(parents=True)
        shutil.copyfile(onnx, folder / "dice.onnx")
        sibling_card = onnx.with_name("MODEL_CARD.md")
        if card is not None:
            (folder / "MODEL_CARD.md").write_text(card)
        elif sibling_card.is_file():
            shutil.copyfile(sibling_card, folder / "MODEL_CARD.md")
        (folder / "metrics.json").write_text(json.dumps(metrics or {}, indent=1))
        return name

    def use(self, name: str) -> None:
        """Make ``name`` the active model, remembering the previous one for rollback."""
        if name not in {e.name for e in self.entries()}:
            known = ", ".join(e.name for e in self.entries())
            raise RegistryError(f"no model named {name!r} (installed: {known})")
        state = self._state()
        previous = state["active"] or SHIPPED
        if previous != name:
            state["history"].append(previous)
        state["active"] = name
        self._save(state)

    def rollback(self) -> str:
        """Go back to the model that was active before; returns its name."""
        state = self._state()
        if not state["history"]:
            raise RegistryError("nothing to roll back to: no earlier model was active")
        state["active"] = state["history"].pop()
        self._save(state)
        return state["active"]

    def active_name(self) -> str:
        name = self._state()["active"] or SHIPPED
        if name != SHIPPED and not (self.root / name / "dice.onnx").is_file():
            return SHIPPED  # the active model was deleted by hand: fall back, don't fail
        return name

    def active_path(self) -> Path:
        name = self.active_name()
        return shipped_model() if name == SHIPPED else self.root / name / "dice.onnx"

    def _state(self) -> dict:
        path = self.root / "state.json"
        if not path.is_file():
            return {"active": None, "history": []}
        try:
            state = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RegistryError(f"{path} is corrupt ({exc}); delete it to start over") from None
        history = state.get("history", []) if isinstance(state, dict) else None
        names = [state.get("active"), *history] if isinstance(history, list) else [0]
        if not all(n is None or (isinstance(n, str) and MODEL_NAME.fullmatch(n)) for n in names):
            raise RegistryError(f"{path} is not a model registry state; delete it to start over")
        return {"active": state.get("active"), "history": list(history or [])}

    def _save(self, state: dict) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / "state.json.tmp"
        tmp.write_text(json.dumps(state, indent=1))
        os.replace(tmp, self.root / "state.json")


MODEL_HELP = "a model name from `zonkcam model list`, or an .onnx file (default: the active model)"


def resolve_model(spec: str | Path | None, registry: Registry | None = None) -> Path:
    """The model file a `--model` names: None is the active model; an existing file is itself;
    else a name from `zonkcam model list`. Anything else is a RegistryError listing the names.
    A file wins over a name (a folder does not: `zonkcam train --out ours` makes a folder and
    registers the name "ours")."""
    registry = registry or Registry()
    if spec is None or str(spec) == "":
        return registry.active_path()
    path = Path(spec)
    if path.is_file():
        return path
    entries = registry.entries()
    for entry in entries:
        if entry.name == str(spec):
            return entry.path
    names = ", ".join(e.name for e in entries)
    raise RegistryError(f"model file not found: {spec} (nor is it an installed model: {names})")


def _metrics(path: Path) -> dict:
    """A model's metrics.json; a missing or unreadable one is no metrics, not a failure."""
    try:
        metrics = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return metrics if isinstance(metrics, dict) else {}
