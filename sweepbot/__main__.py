import sys

from sweepbot.cli import main

sys.exit(main())
