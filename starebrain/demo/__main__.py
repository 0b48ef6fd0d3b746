"""`python -m starebrain.demo`: see runner.py."""

from starebrain.demo.runner import main

main()
