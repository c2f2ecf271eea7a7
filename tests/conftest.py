import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests' own helper modules

from browser import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def reader():
    """The shipped model's reader (tests/test_vision_read.py, test_vision_overhead.py)."""
    from zonkcam.vision.read import Reader

    return Reader()


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run: Playwright's sync API allows one instance per thread."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(autouse=True, scope="session")
def _no_personal_play_config(tmp_path_factory):
    """`zonkcam play` reads $XDG_CONFIG_HOME/zonkcam/play.toml: the tests (and the servers they
    start) never see the developer's own; a test that wants one sets it."""
    import os

    saved = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg-config"))
    yield
    if saved is None:
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        os.environ["XDG_CONFIG_HOME"] = saved
