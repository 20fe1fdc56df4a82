"""The package facade (tronlab/__init__.py): every name it offers resolves, and
``from tronlab import *`` gives exactly those names, the lazy ones included."""

import json
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


def test_star_import_works_without_the_optional_extras():
    """A plain ``pip install tronlab`` has no PettingZoo: ``from tronlab import *`` raised
    ImportError ("tronlab.tron.env needs PettingZoo"), since ``parallel_env`` was in
    ``__all__`` and a star import imports every name of it.  Without the extra the star
    import gives everything else; ``tronlab.parallel_env`` still says what to install."""
    code = ("import json, sys\n"
            "sys.modules['pettingzoo'] = sys.modules['gymnasium'] = None   # not installed\n"
            "from tronlab import *\nimport tronlab\n"
            "assert callable(territory) and 'parallel_env' not in dir()\n"
            "try:\n    tronlab.parallel_env\nexcept ImportError as err:\n"
            "    print(json.dumps([str(err), tronlab.__all__]))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    error, offered = json.loads(r.stdout)
    assert "pip install 'tronlab[pettingzoo]'" in error
    assert set(offered) == set(tronlab.__all__) - {"parallel_env"}
