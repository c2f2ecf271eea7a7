"""`python -m zonkcam.hardware.cli`: the `zonkcam` command without its console script."""
import sys

from zonkcam.hardware.cli import main

sys.exit(main())
