"""`python -m starebrain.cli` runs the starebrain command line (what the console script runs)."""

from starebrain.cli.app import main

main()
