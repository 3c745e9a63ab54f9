"""`python -m pairing` (see pairing/cli.py and DESIGN.md "The command line")."""

import sys

from .cli import main

sys.exit(main())
