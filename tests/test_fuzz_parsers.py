"""Every parser of outside input, fuzzed: it gives back a value or its own clear error, never
another exception. Rulesets, game scripts, YOLO labels, table and dice-set files, polygons on
the command line, dice, and the kiosk's action bodies (through the real app and web layer)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from zonkcam.hardware.kiosk.app import TableApp
from zonkcam.hardware.kiosk.web import Hub, create_app
from zonkcam.hardware.store import Store
from zonkcam.models.yolo import LabelError, read_labels
from zonkcam.rules import load_variant
from zonkcam.rules.dice import parse_die
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import RulesetError, load_ruleset, ruleset_from_dict
from zonkcam.rules.script import ScriptError, parse_script, play_script
from zonkcam.rules.turn import IllegalAction
from zonkcam.vision.colors import DiceSet, DiceSetError
from zonkcam.vision.table import TableConfig, TableConfigError, parse_polygon

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats() | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)


def mutated(base: dict) -> st.SearchStrategy[dict]:
    """A real file's data with values swapped for anything JSON holds, at any depth."""
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append((*path, key))
                walk(value, (*path, key))

    walk(base, ())

    @st.composite
    def build(draw):
        data = json.loads(json.dumps(base))
        for path in draw(st.lists(st.sampled_from(paths), min_size=1, max_size=3)):
            node = data
            for key in path[:-1]:
                node = node.get(key) if isinstance(node, dict) else None
            if isinstance(node, dict):
                node[path[-1]] = draw(json_values)
        return data

    return build()


WHEATON = load_variant("wheaton").to_dict()


@SETTINGS
@given(mutated(WHEATON) | st.dictionaries(st.text(max_size=10), json_values, max_size=5))
def test_a_ruleset_of_any_shape_is_one_or_a_ruleset_error(data):
    try:
        ruleset = ruleset_from_dict(data, "fuzz")
    except RulesetError:
        return
    assert ruleset_from_dict(ruleset.to_dict()) == ruleset  # what is kept with a game reads back


@SETTINGS
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_a_ruleset_file_of_any_bytes_is_one_or_a_ruleset_error(tmp_path, data):
    path = tmp_path / "house.toml"
    path.write_bytes(data)
    try:
        ruleset = load_ruleset(path)
    except RulesetError:
        return
    assert 1 <= ruleset.dice <= 6


lines = st.lists(st.sampled_from(["A throw 1 5 2 3 6", "A keep 1 5", "A bank", "B throw 1 1 1 2 3",
                                  "undo", "B spaz", "A penalty foul 2", "correct 1 A throw 5 5 5 2 3",
                                  "players A B", "variant wheaton", "# a note"]) | st.text(max_size=30),
                 max_size=8)


@SETTINGS
@given(lines)
def test_a_game_script_plays_or_says_why(script_lines):
    try:
        game = play_script(parse_script("\n".join(script_lines), load_variant("wheaton"), ("A", "B")))
    except (ScriptError, IllegalAction):
        return
    assert len(game.log) <= len(script_lines)


@SETTINGS
@given(st.binary(max_size=200) | st.lists(st.lists(st.sampled_from(
    ["0", "5", "6", "9", "-1", "0.5", "1.5", "nan", "inf", "a", "1e3", ""]), max_size=6), max_size=4)
    .map(lambda rows: "\n".join(" ".join(r) for r in rows).encode()))
def test_a_yolo_label_file_gives_dice_or_a_label_error(tmp_path, data):
    path = tmp_path / "a.txt"
    path.write_bytes(data)
    try:
        rows = read_labels(path)
    except LabelError:
        return
    assert rows.shape[1] == 5 and np.isfinite(rows).all()
    assert set(rows[:, 0].tolist()) <= {1, 2, 3, 4, 5, 6}


TABLE = {"frame_size": [640, 480], "polygon": [[10, 10], [600, 12], [590, 470], [12, 460]],
         "keep_zone": None}


@SETTINGS
@given(mutated(TABLE) | json_values)
def test_a_table_file_of_any_shape_is_one_or_a_table_error(tmp_path, data):
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    try:
        config = TableConfig.load(path)
    except TableConfigError:
        return
    assert min(config.frame_size) > 0 and len(config.polygon) >= 3
    config.scaled(1280, 960)


@pytest.mark.parametrize("text", ["NaN", "[1, 2]", "\"table\"", "7"])
def test_a_table_file_that_is_no_json_object_says_so(tmp_path, text):
    path = tmp_path / "table.json"
    path.write_text(text)
    with pytest.raises(TableConfigError, match=r"not a table calibration file \(a JSON"):
        TableConfig.load(path)


@SETTINGS
@given(st.text(alphabet="0123456789,.;- naefix", max_size=40))
def test_a_polygon_on_the_command_line_is_one_or_a_table_error(text):
    try:
        polygon = parse_polygon(text)
    except TableConfigError:
        return
    assert len(polygon) >= 3 and all(math.isfinite(v) for p in polygon for v in p)


DICE_SET = {"name": "ours", "colors": {"red": [120, 170, 150], "white": [250, 128, 128]},
            "modes": {"red": [[0.7, 120, 170, 150], [0.3, 250, 128, 128]],
                      "white": [[1.0, 250, 128, 128], [0.0, 250, 128, 128]]}}


@SETTINGS
@given(mutated(DICE_SET) | json_values)
def test_a_dice_set_file_of_any_shape_is_one_or_a_dice_set_error(tmp_path, data):
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data))
    try:
        dice_set = DiceSet.load(path)
    except DiceSetError:
        return
    dice_set.name_of(np.array([128, 128, 128], np.float32))


@SETTINGS
@given(st.text(max_size=20))
def test_a_die_token_is_a_die_or_says_why(token):
    try:
        die = parse_die(token)
    except ValueError:
        return
    assert 1 <= die.value <= 6 and parse_die(str(die)) == die


action_bodies = st.fixed_dictionaries(
    {"action": st.sampled_from(["bank", "undo", "redo", "penalty", "end_game", "shaharazad",
                                "accept", "decline", "correct", "new_game", "resume", "table",
                                "rolloff_throw", "cancel_rolloff", "nope"])},
    optional={key: json_values for key in ("kind", "player", "turns", "throw", "die", "value",
                                           "color", "ruleset", "players", "id", "polygon")})


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory):
    """The real app behind the real web layer, one for all examples (its game goes on)."""
    root = tmp_path_factory.mktemp("kiosk")
    store = Store(root / "z.db")
    game_id = store.new_game(GameSetup(load_variant("albany"), ("Ann", "Bob")))
    store.record(game_id, "Ann throw 1 5 2 3 6", "Ann keep 1 5")
    app = TableApp(store, game_id, Hub(), root / "evidence", on_message=lambda m: None)
    with TestClient(create_app(app, app.hub), client=("127.0.0.1", 5000),
                    base_url="http://localhost:8080", raise_server_exceptions=False) as client:
        yield client


@SETTINGS
@given(st.lists(action_bodies | json_values, min_size=1, max_size=4))
def test_any_action_body_is_done_or_refused_with_a_reason(kiosk, bodies):
    """200, or a 4xx with the reason; never a 500."""
    for body in bodies:
        r = kiosk.post("/api/action", content=json.dumps(body),
                       headers={"Content-Type": "application/json"})
        assert r.status_code in (200, 400, 409, 413), (body, r.status_code, r.text)
        assert r.status_code == 200 or r.json()["error"]
    assert kiosk.get("/api/state").status_code == 200
