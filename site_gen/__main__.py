"""`python -m site_gen` runs the command line."""

from .cli import run

run()
