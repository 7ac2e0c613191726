"""``python -m irnb``: the ``irnb`` command (:mod:`irnb.cli`)."""

import sys

from .cli import main

sys.exit(main())
