"""Real-browser tests: register the marker (also declared in pyproject), decide when to
skip, and share one chromium and one Jupyter server.

They drive Debian's chromium (``/usr/bin/chromium``) through Playwright against a
JupyterLab / Notebook 7 server.  One browser and one server (started when the first test
needs it, stopped after the last browser test) serve every test; each test gets a fresh
browser context (no cookies, storage or cache from another) and its kernels are shut down
when it ends.  Without chromium they are skipped, except in CI (env ``CI`` set), where a
missing browser is a failure.
"""

import os
import shutil

import pytest

from .jupyter import CHROMIUM_ARGS, VIEWPORT, JupyterServer

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


@pytest.fixture(scope="package")
def browser(chromium_path, sync_playwright):
    """One headless chromium for every browser test (Playwright's sync API allows one)."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="package")
def jupyter_server(tmp_path_factory, jupyter_available):
    """One Jupyter server (JupyterLab and Notebook 7) for the tests that run notebooks."""
    server = JupyterServer(tmp_path_factory.mktemp("jupyter"))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def lab(jupyter_server, browser):
    """``(server, page)``: a fresh page in a fresh context; when the test ends the page is
    closed and the kernels it started are shut down (the server's log is printed, for a
    failing test's report)."""
    before = {k["id"] for k in jupyter_server.api("GET", "/api/kernels")}
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield jupyter_server, context.new_page()
    finally:
        context.close()
        now = {k["id"] for k in jupyter_server.api("GET", "/api/kernels")}
        jupyter_server.shut_kernels(sorted(now - before))
        print(f"--- jupyter log ---\n{jupyter_server.logs()}")
