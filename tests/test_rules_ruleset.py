"""Rulesets as data (X1): bundled variants, house-rule files, clear errors."""
import pytest
from zonkcam.rules import RulesetError, Scorer, load_ruleset, load_variant, make_dice
from zonkcam.rules.ruleset import variant_names


def test_x1_every_bundled_variant_loads():
    assert variant_names() == ["albany", "classic", "colors6", "detroit", "wheaton"]
    for name in variant_names():
        assert load_variant(name).name == name


def test_x1_house_rules_start_from_a_variant_and_change_points(tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(
        'base = "wheaton"\ntitle = "Our table"\n'
        "[scoring.of_a_kind]\n4 = [2000, 400, 600, 800, 1000, 1200]\n"
        "[turn]\nopen_minimum = 500\n"
    )
    rs = load_ruleset(path)
    assert rs.name == "ours" and rs.turn.open_minimum == 500 and rs.turn.hot_dice == "mandatory"
    assert Scorer(rs).score(make_dice([4, 4, 4, 4, 2])).best.points == 800
    assert Scorer(rs).score(make_dice([1, 2, 3, 4, 5])).best.points == 150  # inherited


def test_x1_a_copied_variant_file_loads_unchanged(tmp_path):
    from importlib import resources

    text = resources.files("zonkcam.rules.variants").joinpath("albany.toml").read_text()
    (tmp_path / "albany-copy.toml").write_text(text)
    copy = load_ruleset(tmp_path / "albany-copy.toml")
    assert copy.scoring == load_variant("albany").scoring


@pytest.mark.parametrize(("text", "message"), [
    ('base = "wheaton"\n[scoring]\nsingels = {1 = 100}\n', "unknown key 'scoring.singels'"),
    ('base = "wheaton"\n[turn]\nhot_dice = "sometimes"\n', "key 'turn.hot_dice' must be one of"),
    ('base = "wheaton"\ndice = "five"\n', "key 'dice' must be an integer"),
    ('base = "wheaton"\ndice = 9\n', "key 'dice' must be 1 to 6"),
    ('base = "wheaton"\n[scoring.of_a_kind]\n3 = [1, 2]\n', "'scoring.of_a_kind.3' needs 6 values"),
    ('base = "wheaton"\nhooks = ["devli"]\n', "unknown hook 'devli'"),
    ('base = "nosuch"\n', "unknown variant 'nosuch'"),
    ("dice = [\n", "not valid TOML"),
    ('base = "wheaton"\n[spaz]\nskip_turns = { juggling = 2 }\n', "unknown reason 'juggling'"),
])
def test_x1_malformed_ruleset_names_the_bad_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesetError, match=message.replace("[", r"\[")) as info:
        load_ruleset(path)
    assert str(path) in str(info.value)


def test_x1_missing_ruleset_file(tmp_path):
    with pytest.raises(RulesetError, match="no such file"):
        load_ruleset(tmp_path / "absent.toml")
