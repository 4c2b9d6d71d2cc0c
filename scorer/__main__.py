import sys

from scorer.cli import main

sys.exit(main())
