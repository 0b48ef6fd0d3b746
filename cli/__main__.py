"""`python -m cli` runs the starebrain command line (what the console script runs)."""

from cli.app import main

main()
