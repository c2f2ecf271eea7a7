"""hardware's rooms (issue 33) and the one way their imports point: the shared base (`store`,
`options`) imports no room; `cameras` only the base; `kiosk` the cameras; `league` the kiosk's
web access; `cli`, the front door, may use every room. Lazy and type-only imports count."""
from layout_helpers import ROOT, tree_graph

HARDWARE = ROOT / "hardware"
MAY_IMPORT = {
    "base": set(),
    "cameras": {"base"},
    "kiosk": {"base", "cameras"},
    "league": {"base", "kiosk"},
    "cli": {"base", "cameras", "kiosk", "league"},
}


def room(module: str) -> str:
    """"kiosk.app" -> "kiosk"; a module directly in hardware/ ("store") is in the base."""
    first = module.split(".")[0]
    return first if (HARDWARE / first).is_dir() else "base"


def test_every_hardware_module_is_in_a_known_room():
    assert {room(m) for m in tree_graph(HARDWARE)} == set(MAY_IMPORT)


def test_every_import_between_rooms_points_one_way():
    against = sorted((module, dep) for module, deps in tree_graph(HARDWARE).items() for dep in deps
                     if room(dep) != room(module) and room(dep) not in MAY_IMPORT[room(module)])
    assert against == []


def test_the_rooms_allowed_imports_have_no_cycle():
    """So that the rule above alone keeps the rooms one-way."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name not in done:
            for dep in MAY_IMPORT[name]:
                visit(dep, [*path, name])
            done.add(name)

    for name in MAY_IMPORT:
        visit(name, [])
