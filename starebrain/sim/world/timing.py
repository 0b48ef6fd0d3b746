"""Timing profiles: how slow the simulated phone pretends to be (applied by the wire side)."""

from __future__ import annotations

import dataclasses

from starebrain.sim.phone import TimingProfile

# Gesture steps keep their proportions on `fast` (1/50 of a phone's 5 ms), so a 400-step swipe still
# takes longer than a 10-step one; everything else is free there.
PROFILES = {
    "fast": TimingProfile(name="fast", step_ms=0.1),
    "real-phone": TimingProfile(name="real-phone", dump_ms=250.0, action_ms=60.0, transition_ms=300.0,
                                rpc_ms=15.0, dumpsys_ms=150.0, screencap_ms=400.0, step_ms=5.0),
}


def timing_profile(name: str) -> TimingProfile:
    """A fresh copy of a named profile (`fast` or `real-phone`)."""
    if name not in PROFILES:
        raise ValueError(f"unknown timing profile {name!r}; known: {', '.join(PROFILES)}")
    return dataclasses.replace(PROFILES[name])
