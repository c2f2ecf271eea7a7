"""The models package's shape (issue 33): no import cycle inside it (lazy imports count), no
module over 500 lines, torch only where training needs it, and vision never imports models
(the commands hand vision a model path)."""
from layout_helpers import ROOT, import_cycle, imported, long_modules, package_graph

MODELS = ROOT / "models"


def test_no_models_module_imports_itself_round_a_cycle():
    assert import_cycle(package_graph(MODELS)) is None


def test_every_models_module_is_under_500_lines():
    assert long_modules(MODELS) == {}


def test_vision_never_imports_models():
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imported(p) if m.startswith("zonkcam.models"))
                 for p in (ROOT / "vision").rglob("*.py")}
    assert {path: mods for path, mods in offenders.items() if mods} == {}


def test_only_the_training_recipe_needs_torch_on_import():
    """`zonkcam train` (finetune) and the product's pieces (registry, captures) import without
    torch: only the nets and the from-scratch recipe load it when imported."""
    graph = package_graph(MODELS, top_level_only=True)
    needs = {p.stem for p in MODELS.glob("*.py") if any(m.startswith("torch")
                                                         for m in imported(p, top_level_only=True))}
    grew = True
    while grew:
        more = {m for m, deps in graph.items() if deps & needs} - needs
        needs |= more
        grew = bool(more)
    assert needs == {"nets", "train"}
