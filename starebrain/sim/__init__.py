"""A simulated Android phone that the unmodified adb stack drives (docs: sim-protocol.md)."""
