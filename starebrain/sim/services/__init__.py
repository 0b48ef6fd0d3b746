"""Device services over an abstract byte channel: shell, sync, tcp."""
