"""`python -m pairing` (see pairing/cli.py and docs/README.md, "The command line")."""

import sys

from .cli import main

sys.exit(main())
