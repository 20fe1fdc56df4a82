"""Fixtures for the tests of ahead-of-time twins (a pytest plugin, see conftest.py).

``aot_build`` builds the AOT module once per test session into a temp dir (about
half a minute); ``twins`` loads it for one test with every twin call checking its
argument types (``TRONLAB_AOT_CHECK=1``); ``no_twins`` points at an empty build
directory, so the kernels use numba.
"""

import os

import pytest

from tronlab.jit import aot


@pytest.fixture(scope="session")
def aot_build(tmp_path_factory):
    """``(directory, module)``: the AOT module built once for the session (or the build
    for these sources already under ``$TRONLAB_TEST_AOT_DIR``, to save minutes)."""
    reuse = os.environ.get("TRONLAB_TEST_AOT_DIR")
    if reuse:
        module = aot.load(reuse)
        aot.unload()
        if module is not None:
            return reuse, module
    directory = tmp_path_factory.mktemp("aot")
    try:
        aot.build(directory=str(directory))
    except aot.AotError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"cannot build the AOT module here: {exc}")
    module = aot.load(str(directory))
    aot.unload()
    assert module is not None, aot.status()
    return str(directory), module


@pytest.fixture
def twins(aot_build, monkeypatch):
    """The built module, loaded for the wrappers during one test."""
    monkeypatch.delenv("TRONLAB_AOT", raising=False)
    monkeypatch.setenv("TRONLAB_AOT_DIR", aot_build[0])
    monkeypatch.setenv("TRONLAB_AOT_CHECK", "1")
    aot.unload()
    yield aot_build[1]
    aot.unload()


@pytest.fixture
def no_twins(tmp_path, monkeypatch):
    """An empty build directory: the wrappers must use numba."""
    monkeypatch.setenv("TRONLAB_AOT_DIR", str(tmp_path))
    aot.unload()
    yield tmp_path
    aot.unload()


def child_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRONLAB_", "NUMBA_"))}
    env.update(extra)
    return env


def with_and_without(aot_build, compute):
    """``(compute() with the twins, their arguments checked, compute() with numba)``."""
    saved = {k: os.environ.get(k) for k in ("TRONLAB_AOT_DIR", "TRONLAB_AOT_CHECK", "TRONLAB_AOT")}
    try:
        os.environ.pop("TRONLAB_AOT", None)
        os.environ.update(TRONLAB_AOT_DIR=aot_build[0], TRONLAB_AOT_CHECK="1")
        aot.unload()
        assert aot.twin("negamax_kernel") is not None, aot.status()
        fast = compute()
        os.environ["TRONLAB_AOT"] = "0"
        aot.unload()
        assert aot.twin("negamax_kernel") is None
        slow = compute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        aot.unload()
    return fast, slow
