"""``python -m tronlab`` is the ``tronlab`` command (see :mod:`tronlab.cli`)."""

import sys

from .cli import main

sys.exit(main())
