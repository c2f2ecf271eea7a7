"""The rules package's shape (issue 33): small modules, no import cycle, nothing of ours
imported but rules, and every event's hit source switched by the ruleset."""
import ast
import dataclasses
from pathlib import Path

from zonkcam.rules import hits, rounds
from zonkcam.rules.gamerules import HitRules

RULES = Path(__file__).resolve().parents[1] / "rules"


def _imports() -> dict[str, set[str]]:
    """module -> the rules modules it imports (at run time, lazily or for type checking)."""
    graph = {}
    for path in RULES.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("zonkcam."):
                assert node.module.startswith("zonkcam.rules"), f"{path.name} imports {node.module}"
                rest = node.module.removeprefix("zonkcam.rules").lstrip(".")
                deps |= {rest.split(".")[0]} if rest else {a.name for a in node.names}
        graph[path.stem] = {d for d in deps if (RULES / f"{d}.py").exists()} - {path.stem}
    return graph


def test_no_rules_module_imports_itself_round_a_cycle():
    graph = _imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, "import cycle: " + " -> ".join([*path, module])
        if module not in done:
            for dep in graph[module]:
                visit(dep, [*path, module])
            done.add(module)

    for module in graph:
        visit(module, [])


def test_every_rules_module_is_under_500_lines():
    sizes = {p.name: len(p.read_text("utf-8").splitlines()) for p in RULES.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 500} == {}


def test_every_event_hit_source_is_a_ruleset_switch():
    """An event's hit is given when the ``[hits]`` key of its source's name is on."""
    switches = {f.name for f in dataclasses.fields(HitRules)}
    assert {s for table in hits.EVENT_HITS.values() for s, _ in table} <= switches


def test_phases_have_one_kind_each_and_the_round_s_hooks_run_bonus_first():
    kinds = [p.kind for p in rounds.PHASES]
    assert len(set(kinds)) == len(kinds)
    round_over = [p.kind for p in rounds.PHASES if p.round_over]
    assert round_over == ["bonus", "rebuttal", "end"]  # A9 before A11, both before the end
