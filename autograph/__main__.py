"""`python -m autograph convert FILE.py ...`"""
import sys

from autograph.cli import main

sys.exit(main())
