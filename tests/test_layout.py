"""The shape of the whole product (issue 33; the design card's rule): imports point inward.
`rules` imports nothing else of ours; `vision` neither `rules` nor `models`; `models` may use
`vision`; `hardware` may use them all. Lazy and type-only imports count. The `hardware` package
itself has no import cycle at import time (its rooms' one-way imports: test_hardware_layout.py),
and its modules stay under 500 lines."""
from layout_helpers import ROOT, import_cycle, imported, long_modules, tree_graph

MAY_IMPORT = {"rules": set(), "vision": set(), "models": {"vision"},
              "hardware": {"vision", "rules", "models"}}


def test_every_import_points_inward():
    against = set()
    for package, allowed in MAY_IMPORT.items():
        for path in (ROOT / package).rglob("*.py"):
            for module in imported(path):
                parts = module.split(".")
                if len(parts) > 1 and parts[0] == "zonkcam" and parts[1] not in {package, *allowed}:
                    against.add((str(path.relative_to(ROOT)), module))
    assert sorted(against) == []


def test_hardware_has_no_import_cycle_when_it_loads():
    """Its rooms (subpackages) too; type-only imports aside (the page's actions are typed by the
    app they act on)."""
    assert import_cycle(tree_graph(ROOT / "hardware", top_level_only=True)) is None


def test_every_hardware_module_is_under_500_lines():
    assert long_modules(ROOT / "hardware") == {}


def test_the_architecture_map_names_every_module():
    """docs/architecture.md is the newcomer's map (issue 33): each module is named in it."""
    doc = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    modules = [p for folder in ("vision", "models", "rules", "hardware")
               for p in (ROOT / folder).rglob("*.py")
               if p.name not in ("__init__.py", "__main__.py") and "migrations" not in p.parts]
    assert sorted(str(p.relative_to(ROOT)) for p in modules if f"`{p.name}`" not in doc
                  and f"`{p.stem}`" not in doc) == []
