"""u2 RPCs that read the screen: deviceInfo, dumpWindowHierarchy, exist, waitFor*, objInfo, count, getText."""

from __future__ import annotations

from typing import Any

from starebrain.sim.u2server.method_base import MethodBase, rpc
from starebrain.sim.u2server.objinfo import device_info, obj_info


class QueryMethods(MethodBase):
    """Reading the screen through UiSelector queries."""

    @rpc("deviceInfo")
    async def device_info(self) -> dict[str, Any]:
        """DeviceInfo of the phone."""
        return device_info(self.device)

    @rpc("dumpWindowHierarchy")
    async def dump_window_hierarchy(self, compressed: bool = False, max_depth: int = 50,
                                    root_in_active: Any = None) -> str:
        """The hierarchy XML (docs/sim.md, "Hierarchy dump"), after the profile's dump latency."""
        await self.pause(self.phone.timing.dump_ms)
        return self.phone.hierarchy_xml(int(max_depth or 50))

    @rpc("exist")
    async def exist(self, selector: Any) -> bool:
        """Whether the selector matches now."""
        return bool(self.find(selector))

    @rpc("waitForExists")
    async def wait_for_exists(self, selector: Any, timeout_ms: Any = 0) -> bool:
        """Block until the selector matches or the timeout passes (the screen is re-read meanwhile)."""
        self.find(selector)  # a bad selector fails at once, not after the timeout
        return await self.wait_until(lambda: bool(self.find(selector)), timeout_ms)

    @rpc("waitUntilGone")
    async def wait_until_gone(self, selector: Any, timeout_ms: Any = 0) -> bool:
        """Block until the selector no longer matches or the timeout passes."""
        return await self.wait_until(lambda: not self.find(selector), timeout_ms)

    @rpc("objInfo")
    async def obj_info(self, selector: Any) -> dict[str, Any]:
        """ObjInfo of the first match; UiObjectNotFoundException if none."""
        return obj_info(self.find_one(selector))

    @rpc("objInfoOfAllInstances")
    async def obj_info_all(self, selector: Any) -> list[dict[str, Any]]:
        """ObjInfo of every match."""
        return [obj_info(node) for node in self.find(selector)]

    @rpc("count")
    async def count(self, selector: Any) -> int:
        """How many nodes match."""
        return len(self.find(selector))

    @rpc("getText")
    async def get_text(self, selector: Any) -> str:
        """The text of the first match."""
        return self.find_one(selector).attrs.get("text", "")

    @rpc("ping")
    async def ping(self) -> str:
        """Liveness."""
        return "pong"

    @rpc("waitForIdle")
    async def wait_for_idle(self, timeout_ms: Any = 0) -> bool:
        """The sim is always idle between RPCs."""
        return True

    @rpc("waitForWindowUpdate")
    async def wait_for_window_update(self, package: Any = None, timeout_ms: Any = 0) -> bool:
        """Window updates are synchronous in the sim."""
        return True
