"""Installed models: add, use, rollback; the shipped model is always there."""
import pytest
from zonkcam.models.registry import SHIPPED, Registry, RegistryError, shipped_model


def onnx(tmp_path, name, content=None):
    path = tmp_path / name
    path.write_bytes(shipped_model().read_bytes() if content is None else content)
    return path


def test_shipped_model_is_active_by_default(tmp_path):
    registry = Registry(tmp_path / "models")
    assert registry.active_name() == SHIPPED and registry.active_path() == shipped_model()
    assert [e.name for e in registry.entries()] == [SHIPPED]


def test_add_use_and_rollback(tmp_path):
    registry = Registry(tmp_path / "models")
    a = registry.add(onnx(tmp_path, "a.onnx"), name="ours-1", metrics={"accuracy": 0.99})
    b = registry.add(onnx(tmp_path, "b.onnx"), name="ours-2")
    registry.use(a)
    registry.use(b)
    assert registry.active_path() == tmp_path / "models" / "ours-2" / "dice.onnx"
    assert registry.rollback() == "ours-1"
    assert registry.rollback() == SHIPPED
    with pytest.raises(RegistryError, match="nothing to roll back"):
        registry.rollback()
    entry = next(e for e in registry.entries() if e.name == "ours-1")
    assert entry.metrics == {"accuracy": 0.99} and not entry.active


def test_bad_names_and_files(tmp_path):
    registry = Registry(tmp_path / "models")
    with pytest.raises(RegistryError, match="no model named 'nope'"):
        registry.use("nope")
    with pytest.raises(RegistryError, match="no such model file"):
        registry.add(tmp_path / "missing.onnx")
    registry.add(onnx(tmp_path, "a.onnx"), name="x")
    with pytest.raises(RegistryError, match="already exists"):
        registry.add(onnx(tmp_path, "a.onnx"), name="x")
    with pytest.raises(RegistryError, match="cannot be used"):
        registry.add(onnx(tmp_path, "a.onnx"), name=SHIPPED)


def test_a_deleted_active_model_falls_back_to_the_shipped_one(tmp_path):
    registry = Registry(tmp_path / "models")
    registry.use(registry.add(onnx(tmp_path, "a.onnx"), name="gone"))
    (tmp_path / "models" / "gone" / "dice.onnx").unlink()
    assert registry.active_path() == shipped_model()


def test_model_command_round_trip(tmp_path, monkeypatch, capsys):
    from zonkcam.hardware.cli import main

    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    model = onnx(tmp_path, "ours.onnx")
    (tmp_path / "MODEL_CARD.md").write_text("# ours\n")
    assert main(["model", "add", str(model), "--name", "ours", "--use"]) == 0
    assert (tmp_path / "home" / "models" / "ours" / "MODEL_CARD.md").read_text() == "# ours\n"
    main(["model", "list"])
    assert "* ours" in capsys.readouterr().out
    assert main(["model", "rollback"]) == 0 and "now using shipped" in capsys.readouterr().out
    assert main(["model", "use", "nope"]) == 2
    assert "no model named 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"not a model", b"", bytes(range(256))])
def test_a_file_that_is_no_dice_model_is_never_installed(tmp_path, content):
    registry = Registry(tmp_path / "models")
    with pytest.raises(RegistryError, match="model"):
        registry.add(onnx(tmp_path, "text.onnx", content), name="broken")
    assert [e.name for e in registry.entries()] == [SHIPPED]


def test_a_corrupt_metrics_file_leaves_the_list_working(tmp_path):
    registry = Registry(tmp_path / "models")
    registry.add(onnx(tmp_path, "a.onnx"), name="ours")
    (tmp_path / "models" / "ours" / "metrics.json").write_bytes(b"\xff{")
    assert next(e for e in registry.entries() if e.name == "ours").metrics == {}


def test_resolve_model_takes_a_name_a_file_or_nothing(tmp_path, monkeypatch):
    from zonkcam.models.registry import resolve_model

    registry = Registry(tmp_path / "models")
    registry.add(onnx(tmp_path, "a.onnx"), name="ours")
    assert resolve_model(None, registry) == shipped_model()  # the active model
    assert resolve_model("ours", registry) == tmp_path / "models" / "ours" / "dice.onnx"
    assert resolve_model(tmp_path / "a.onnx", registry) == tmp_path / "a.onnx"
    assert resolve_model(SHIPPED, registry) == shipped_model()
    # a folder named like the model (train --out ours) does not hide the name
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ours").mkdir()
    assert resolve_model("ours", registry) == tmp_path / "models" / "ours" / "dice.onnx"
    with pytest.raises(RegistryError, match=r"model file not found: nope .*shipped, ours"):
        resolve_model("nope", registry)


@pytest.mark.parametrize("command", [["read", "{img}"], ["eval", "{data}"], ["replay", "{data}"],
                                     ["capture", "--camera", "{data}", "--out", "{out}"]])
def test_every_model_option_takes_a_name(tmp_path, monkeypatch, capsys, command):
    import cv2
    import numpy as np
    from zonkcam.hardware.cli import main

    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    Registry(tmp_path / "home" / "models").add(onnx(tmp_path, "a.onnx"), name="ours")
    (tmp_path / "data" / "images").mkdir(parents=True)
    (tmp_path / "data" / "labels").mkdir()
    img = tmp_path / "data" / "images" / "a.jpg"
    cv2.imwrite(str(img), np.full((120, 160, 3), 90, np.uint8))
    (tmp_path / "data" / "labels" / "a.txt").write_text("")
    args = [a.format(img=img, data=tmp_path / "data", out=tmp_path / "out") for a in command]
    assert main([*args, "--model", "nope"]) == 2
    assert "nor is it an installed model: shipped, ours" in capsys.readouterr().err
    main([*args, "--model", "ours"])
    assert "not found" not in capsys.readouterr().err
