"""``python -m tronlab.cli`` is the ``tronlab`` command."""

import sys

from . import main

sys.exit(main())
