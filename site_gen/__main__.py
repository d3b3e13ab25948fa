"""`python -m site_gen` runs the command line."""

from .console import run

run()
