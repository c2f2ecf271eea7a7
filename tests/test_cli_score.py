"""`zonkcam score` and `zonkcam variants`: the stable command-line contract."""
import json

import pytest
from zonkcam.hardware.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_score_json_shape(capsys):
    status, out, _ = run(capsys, "score", "--variant", "wheaton", "1", "2", "3", "4", "5", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["variant"] == "wheaton" and data["zonk"] is False
    assert data["dice"][0] == {"value": 1, "color": None}
    assert data["best"] == {
        "points": 150, "keep": [0, 1, 2, 3, 4], "combos": ["straight"], "all_scored": True
    }
    assert [o["points"] for o in data["options"]] == [150, 150, 100, 50]
    straight = {"type": "straight", "name": "straight", "faces": [1, 2, 3, 4, 5], "points": 150}
    assert data["events"] == [straight]


def test_score_json_with_colours_detroit_colored_pairs(capsys):
    status, out, _ = run(capsys, "score", "--variant", "detroit", "2", "2", "3", "3", "1", "1",
                         "--colors", "green,green,red,red,white,white", "--json")
    data = json.loads(out)
    assert status == 0 and data["best"]["points"] == 1200 and data["best"]["all_scored"]


def test_score_colours_of_the_set_any_case(capsys):
    status, out, _ = run(capsys, "score", "--variant", "colors6", "2", "2", "2", "--colors",
                         "Red,green,WHITE", "--json")
    data = json.loads(out)
    assert status == 0 and [d["color"] for d in data["dice"]] == ["red", "green", "white"]
    assert "colors" in [e["type"] for e in data["events"]]


def test_score_zonk_json(capsys):
    _, out, _ = run(capsys, "score", "2", "3", "4", "6", "6", "--json")
    data = json.loads(out)
    assert data["zonk"] is True and data["best"] is None and data["options"] == []


def test_score_readable_table(capsys):
    status, out, _ = run(capsys, "score", "--variant", "albany", "5", "5", "5", "5", "2")
    assert status == 0
    assert "best    550  keep 5 5 5 5" in out and "event: social" in out


def test_score_takes_dice_written_with_commas(capsys):
    assert run(capsys, "score", "1,5,5", "2") == run(capsys, "score", "1", "5", "5", "2")
    status, _, err = run(capsys, "score", "1,,5")
    assert status == 2 and "'' is not a die" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["score", "1", "7"], "'7' is not a die"),
    (["score", "1,7"], "'7' is not a die"),
    (["score", "--variant", "nope", "1"], "unknown variant 'nope'"),
    (["score", "1", "2", "--colors", "red"], "1 colours for 2 dice"),
    (["score", "1", "1", "1", "1", "1", "1"], "played with 5 dice"),
    (["score", "--rules", "/nonexistent.toml", "1"], "no such file"),
    # a name outside the set would count as a colour of its own (a false COLORS)
    (["score", "--variant", "colors6", "2", "2", "2", "--colors", "red,green,gren"],
     "die 3: 'gren' is not a colour of colors6's dice (red, green, white)"),
    (["score", "--variant", "albany", "yellow:3", "3", "3"], "'yellow' is not a colour of albany's dice"),
    (["score", "--variant", "colors6", "2", "2", "--colors", "red,<b>"], "not a colour name"),
])
def test_score_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_score_with_house_rules_file(capsys, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text(
        'base = "wheaton"\n[[scoring.straights]]\nname = "big"\nfaces = [1,2,3,4,5]\npoints = 2000\n'
    )
    _, out, _ = run(capsys, "score", "--rules", str(rules), "1", "2", "3", "4", "5", "--json")
    assert json.loads(out)["best"]["points"] == 2000


def test_variants_json_lists_point_tables(capsys):
    status, out, _ = run(capsys, "variants", "--json")
    data = {v["name"]: v for v in json.loads(out)}
    assert status == 0 and set(data) == {"wheaton", "albany", "classic", "detroit", "colors6"}
    assert data["detroit"]["scoring"]["of_a_kind"]["4"][0] == 1500
    assert data["colors6"]["turn"]["open_minimum"] == 500


def test_variants_show_prints_a_loadable_file(capsys, tmp_path):
    _, out, _ = run(capsys, "variants", "--show", "classic")
    (tmp_path / "mine.toml").write_text(out)
    mine = str(tmp_path / "mine.toml")
    _, out2, _ = run(capsys, "score", "--rules", mine, "1", "2", "3", "4", "5", "--json")
    assert json.loads(out2)["best"]["points"] == 1000


def test_kiosk_correction_to_a_colour_outside_the_set_says_which_colours(tmp_path):
    from types import SimpleNamespace

    import numpy as np
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.kiosk.web import Hub, Refused
    from zonkcam.hardware.store import Store
    from zonkcam.rules import load_variant
    from zonkcam.rules.game import GameSetup
    from zonkcam.vision.dice import Die

    store = Store(tmp_path / "z.db")
    app = TableApp(store, store.new_game(GameSetup(load_variant("colors6"), ("Dee", "Ann"))), Hub(),
                   tmp_path / "evidence", gesture_bank=True, on_message=lambda m: None)
    dice = [Die(v, c, 0.99, 0.9, (20 * i, 0, 20 * i + 10, 10), (20 * i + 5, 5), 0.0)
            for i, (v, c) in enumerate(zip([1, 5, 2, 3, 6, 4], ["red", "red", "green", "green",
                                                               "white", "white"], strict=True))]
    app.on_throw(SimpleNamespace(thrown=dice, kept=[], removed=[], flags=[], quorum=True),
                 np.zeros((48, 64, 3), np.uint8))
    with pytest.raises(Refused, match=r"'gren' is not a colour of colors6's dice \(red, green, white\)"):
        app.act({"action": "correct", "throw": "1", "die": 2, "color": "gren"})
    app.act({"action": "correct", "throw": "1", "die": 2, "color": "White"})
    assert str(app.game.log[-1]) == "correct 1 die 2 white:2"
