"""The `make demo` errand on the built-in simulated phone."""
