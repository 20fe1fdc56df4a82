"""``python -m tronlab`` is the ``tronlab`` command (see :mod:`tronlab.cli`)."""

import sys

try:                # a Ctrl-C while the command's modules load: no traceback
    from .cli import main
except KeyboardInterrupt:
    sys.exit(130)

sys.exit(main())
