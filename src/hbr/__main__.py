"""``python -m hbr`` runs the same command as ``hbr``."""

import sys

from hbr.cli import main

sys.exit(main())
