"""StareBrain benchmarks: `make bench` runs every `bench/*_bench.py` module (see bench/__main__.py)."""
