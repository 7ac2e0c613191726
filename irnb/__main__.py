"""``python -m irnb``: the ``irnb`` command."""

import sys

from .cli import main

sys.exit(main())
