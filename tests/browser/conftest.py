"""Real-browser tests: register the marker (also declared in pyproject) and decide when to skip.

They drive Debian's chromium (``/usr/bin/chromium``) through Playwright against a
JupyterLab / Notebook 7 server started for the test.  Without chromium they are
skipped, except in CI (env ``CI`` set), where a missing browser is a failure.
"""

import os
import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real chromium against a local Jupyter")


@pytest.fixture(scope="session")
def chromium_path():
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing but CI is set: install Debian's chromium "
                    f"(apt-get install -y chromium; dev.py test does it as root)")
    pytest.skip(f"{CHROMIUM} not found (install Debian's chromium to run the browser tests)")


@pytest.fixture(scope="session")
def sync_playwright():
    try:
        from playwright.sync_api import sync_playwright as sp
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("playwright is not installed but CI is set (pip install -e '.[test]')")
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    return sp


@pytest.fixture(scope="session")
def jupyter_available():
    if shutil.which("jupyter") is None:
        import importlib.util
        if importlib.util.find_spec("jupyterlab") is None:
            pytest.skip("jupyterlab is not installed")
    return True
