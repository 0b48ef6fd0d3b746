"""The `starebrain` command line (typer)."""
