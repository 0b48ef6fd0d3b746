"""Versioned YAML flow files (explicit step lists) and the example flows shipped with StareBrain."""

from __future__ import annotations

from pathlib import Path

# Secrets for the example flows, used only when the phone is the simulated one (its bank accepts any
# password). A real phone always needs STAREBRAIN_SECRET_<NAME> set by the person.
SIM_SECRETS = {"bank_password": "sim-demo-password"}

# Flows tagged so need a person's approval for an irreversible step: `starebrain test` leaves them out
# unless --approve-irreversible is given.
IRREVERSIBLE_TAG = "irreversible"


def examples_dir() -> Path:
    """The folder of example flows for the simulated phone (inside the installed package)."""
    return Path(__file__).parent / "examples"
