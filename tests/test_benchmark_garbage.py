"""The benchmark commands a user runs from the docs answer bad arguments with one line (argparse's
usage error, status 2), never a traceback."""
import benchmark_scripts
import pytest

CASES = [
    ("live_eval", ["--first-seed", "-5"], "--first-seed"),
    ("live_eval", ["--games", "0"], "--games"),
    ("live_eval", ["--fps", "nan"], "--fps"),
    ("live_eval", ["--frame", "640x480x3"], "--frame"),
    ("teach_eval", ["--seed", "-1"], "--seed"),
    ("teach_eval", ["--teach", "0"], "--teach"),
    ("teach_eval", ["--per-face", "-1"], "--per-face"),
    ("teach_eval", ["--misses", "/nonexistent/model.onnx"], "model file not found"),
    ("demo_eval", ["--seed", "-1"], "--seed"),
    ("read_cost", ["--sizes", "40,abc"], "--sizes"),
    ("read_cost", ["--seed", "-2"], "--seed"),
    ("read_cost", ["--count", "-3"], "--count"),
    ("read_cost", ["--count", "0", "--model", "/nonexistent/model.onnx"], "model file not found"),
]


@pytest.mark.parametrize(("script", "argv", "said"), CASES)
def test_a_bad_argument_is_one_line_not_a_traceback(script, argv, said, capsys):
    with pytest.raises(SystemExit) as exit_:
        benchmark_scripts.load(script).main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and said in err and "Traceback" not in err


def test_a_file_that_is_no_model_is_named_as_such(tmp_path, capsys):
    junk = tmp_path / "model.onnx"
    junk.write_text("not a model")
    with pytest.raises(SystemExit):
        benchmark_scripts.load("teach_eval").main(["--source", "drawn", "--misses", str(junk)])
    assert "not an ONNX model file" in capsys.readouterr().err
