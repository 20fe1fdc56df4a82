"""The package facade (tronlab/__init__.py): every name it offers resolves, and
``from tronlab import *`` gives exactly those names, the lazy ones included."""

import subprocess
import sys
import types

import tronlab


def test_every_offered_name_resolves_and_star_gives_them_all():
    assert len(set(tronlab.__all__)) == len(tronlab.__all__)
    offered = {n for n in dir(tronlab)
               if not n.startswith("_") and not isinstance(getattr(tronlab, n), types.ModuleType)}
    assert set(tronlab.__all__) == offered
    for name in tronlab.__all__:
        assert getattr(tronlab, name) is not None, name
    code = ("from tronlab import *\nimport tronlab\n"
            "names = {k for k in dir() if not k.startswith('_')} - {'tronlab'}\n"
            "assert names == set(tronlab.__all__), names ^ set(tronlab.__all__)\n"
            "assert callable(territory) and callable(solve_zero_sum)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
