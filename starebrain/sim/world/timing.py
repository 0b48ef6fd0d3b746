"""Timing profiles: how slow the simulated phone pretends to be (applied by the wire side)."""

from __future__ import annotations

from starebrain.sim.phone import TimingProfile

PROFILES = {
    "fast": TimingProfile(name="fast"),
    "real-phone": TimingProfile(name="real-phone", dump_ms=250.0, action_ms=60.0, transition_ms=300.0,
                                rpc_ms=15.0),
}


def timing_profile(name: str) -> TimingProfile:
    """A fresh copy of a named profile (`fast` or `real-phone`)."""
    if name not in PROFILES:
        raise ValueError(f"unknown timing profile {name!r}; known: {', '.join(PROFILES)}")
    base = PROFILES[name]
    return TimingProfile(base.name, base.dump_ms, base.action_ms, base.transition_ms, base.rpc_ms)
