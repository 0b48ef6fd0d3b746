"""Parsed screens: `ScreenSnapshot.from_xml(xml)` and the `Node`s it holds."""

from __future__ import annotations

from starebrain.snapshot.node import REDACTED, Bounds, Node
from starebrain.snapshot.snapshot import ScreenSnapshot
from starebrain.snapshot.windows import Window, is_keyboard_package

__all__ = ["REDACTED", "Bounds", "Node", "ScreenSnapshot", "Window", "is_keyboard_package"]
