"""`zonkcam train`: fine-tune the dice model on a table's own captured dice (needs the train extra)."""
from __future__ import annotations

import argparse
from pathlib import Path

from zonkcam.hardware.options import CliError, bounded, seed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="teach the dice model a table's own dice from captured throws")
    p.add_argument("datasets", nargs="+", metavar="DATASET",
                   help="capture folders (zonkcam capture --out) or YOLO folders")
    p.add_argument("--base", metavar="rune55|DIR|MODEL.onnx",
                   help="base data mixed in against forgetting (rune55 or a YOLO folder; default: drawn "
                        "dice), or the model to start from (default: the active one)")
    p.add_argument("-o", "--out", required=True, type=Path, metavar="DIR",
                   help="where model.onnx, MODEL_CARD.md and metrics.json go")
    p.add_argument("--epochs", type=bounded(1, 1000),
                   help="most epochs per round (default: 24 for a few photos, 8 for a bigger capture)")
    p.add_argument("--seed", type=seed, default=0)
    p.add_argument("--threads", type=bounded(1, 256), default=1, help="torch threads")
    p.add_argument("--name", help="name in `zonkcam model list` (default: the --out folder's name)")
    p.add_argument("--force", action="store_true",
                   help="activate the new model even if it is worse; overwrite DIR's model")
    p.add_argument("--no-register", action="store_true", help="only write DIR; leave the models alone")
    p.add_argument("--proposer", action="store_true",
                   help="experimental: also teach the proposer (which finds the dice) the dice a person "
                        "set or added (see docs/teach.md: so far it found fewer new dice, not more)")
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from zonkcam.models.finetune import FinetuneConfig, TrainError, finetune
    from zonkcam.models.yolo import LabelError

    try:
        m = finetune(FinetuneConfig(datasets=[Path(d) for d in args.datasets], out=args.out,
                                    base=args.base, epochs=args.epochs, seed=args.seed,
                                    threads=args.threads, force=args.force,
                                    register=not args.no_register, name=args.name,
                                    proposer=args.proposer))
    except (TrainError, LabelError) as exc:
        raise CliError(str(exc)) from None

    def pct(x: float | None) -> str:
        return "  n/a" if x is None else f"{100 * x:5.1f}%"

    b, a = m["before"], m["after"]
    print(f"held-back captured dice ({m['dice']['held_back']}, labels: {m['held_back_labels']}): "
          f"{pct(b['held_back'])} -> {pct(a['held_back'])}")
    print(f"base data ({m['base_data']}, {m['base_eval_dice']} dice): {pct(b['base'])} -> {pct(a['base'])}")
    p = m.get("proposer") or {}
    if "drawn_recall_after" in p:
        print(f"proposer: taught {p['frames']} frames; drawn dice found {pct(p['drawn_recall_before'])} -> "
              f"{pct(p['drawn_recall_after'])} ({'kept' if p['tuned'] else 'not kept: it would forget'})")
    print(f"training took {m['train_seconds']:.0f} s ({m['total_seconds']:.0f} s in all); "
          f"wrote {args.out / 'model.onnx'}")
    if m["thin_faces"]:
        from zonkcam.models.thin_faces import advice

        print(f"warning: {advice({int(v): n for v, n in m['thin_faces'].items()})}")
    if "name" not in m:
        return 0
    if m["activated"]:
        print(f"now using {m['name']} (`zonkcam model rollback` goes back)")
    else:
        print(f"installed {m['name']} but not activated: it is worse than the model in use "
              f"(`zonkcam model use {m['name']}` or --force to use it anyway)")
    return 0
