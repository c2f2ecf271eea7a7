"""The vision package's shape (issue 33): the simulator and the drawn dice live in `vision/sim/`,
apart from the live path, which never imports them (they are for tests, benchmarks, training
data and the demo); no import cycle (lazy imports count); no module over 500 lines."""
from layout_helpers import ROOT, import_cycle, imported, long_modules, tree_graph

VISION = ROOT / "vision"


def test_the_live_path_never_imports_the_simulator():
    offenders = {p.name: sorted(m for m in imported(p) if m.startswith("zonkcam.vision.sim"))
                 for p in VISION.glob("*.py")}
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_the_simulator_is_a_room_of_its_own():
    flat = {p.stem for p in VISION.glob("*.py")}
    assert not {name for name in flat if name.startswith("simulate") or name == "synthetic"}
    assert (VISION / "sim" / "simulator.py").is_file()


def test_no_vision_module_imports_itself_round_a_cycle():
    assert import_cycle(tree_graph(VISION)) is None


def test_every_vision_module_is_under_500_lines():
    assert long_modules(VISION) == {}


def test_the_stages_before_kept_vs_thrown_never_import_it():
    """Kept vs thrown (`throws`) and the stream that drives it come last: the stages they use
    (cocked, silhouette, quorum, reread...) take shared geometry from `vision.geometry`."""
    late = {"zonkcam.vision.throws", "zonkcam.vision.stream"}
    offenders = {p.name: sorted(late & imported(p)) for p in VISION.glob("*.py")
                 if p.stem not in ("throws", "stream")}
    assert {name: mods for name, mods in offenders.items() if mods} == {}
