"""ObjInfo and DeviceInfo, the result shapes of u2.jar (docs/sim.md, Selectors and ObjInfo)."""

from __future__ import annotations

from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.services.device import SimDevice, screen_is_on


def _flag(node: UiNode, name: str) -> bool:
    return node.attrs.get(name, "false") == "true"


def obj_info(node: UiNode) -> dict[str, Any]:
    """The ObjInfo JSON of one node."""
    left, top, right, bottom = node.bounds
    bounds = {"bottom": bottom, "left": left, "right": right, "top": top}
    attrs = node.attrs
    return {
        "bounds": bounds, "checkable": _flag(node, "checkable"), "checked": _flag(node, "checked"),
        "childCount": len(node.children), "className": attrs.get("class", ""),
        "clickable": _flag(node, "clickable"), "contentDescription": attrs.get("content-desc") or None,
        "enabled": _flag(node, "enabled"), "focusable": _flag(node, "focusable"),
        "focused": _flag(node, "focused"), "longClickable": _flag(node, "long-clickable"),
        "packageName": attrs.get("package", ""), "resourceName": attrs.get("resource-id") or None,
        "scrollable": _flag(node, "scrollable"), "selected": _flag(node, "selected"),
        "text": attrs.get("text", ""), "visibleBounds": dict(bounds),
    }


def device_info(device: SimDevice) -> dict[str, Any]:
    """The DeviceInfo JSON of `deviceInfo` (sdkInt from the simulated Android release)."""
    phone = device.phone
    width, height = phone.display_size()
    rotation = phone.rotation()
    density = _int(phone.getprop("ro.sf.lcd_density"), 420)
    return {
        "currentPackageName": phone.current_focus()[0], "displayHeight": height,
        "displayRotation": rotation, "displaySizeDpX": round(width * 160 / density),
        "displaySizeDpY": round(height * 160 / density), "displayWidth": width,
        "productName": phone.getprop("ro.product.name"), "screenOn": screen_is_on(phone),
        "sdkInt": device.release.sdk, "naturalOrientation": rotation % 2 == 0,
    }


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return default
