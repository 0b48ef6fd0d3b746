"""StareBrain: drive an Android phone from one instruction, with a cursor that survives anything."""

__version__ = "0.1.0"
