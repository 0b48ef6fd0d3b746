"""The device side of the ADB transport protocol (what adbd speaks)."""
