"""Fakes for pure-logic tests (fakes over mocks: see docs/style.md)."""

from tests.fakes.fake_device import FakeDevice, FakeNode, FakeScreen, node_at, screen_xml

__all__ = ["FakeDevice", "FakeNode", "FakeScreen", "node_at", "screen_xml"]
