"""u2 RPCs that hand out named UiObjects: childByText/childByDescription/childByInstance, getParent.

As in u2.jar, the result is an object name; later RPCs accept the name where a selector goes (u2's
`UiObject(session, name)`). A name re-finds its node on every call, so it follows the live screen.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from starebrain.sim.phone import UiNode
from starebrain.sim.u2server.method_base import MethodBase, rpc
from starebrain.sim.u2server.selector import find_all

SCROLL_SEARCH_SWIPES = 30  # UiScrollable's default max search swipes
MAX_OBJECTS = 1000  # named objects kept per server; the oldest are forgotten
Finder = Callable[[], list[UiNode]]


class ObjectMethods(MethodBase):
    """Named objects found inside a collection, and their parents."""

    _objects: dict[str, Finder] | None = None
    _made = 0

    def _name(self, finder: Finder) -> str:
        """Register a finder under a fresh UUID-shaped name (deterministic per server)."""
        if self._objects is None:
            self._objects = {}
        self._made += 1
        name = str(uuid.uuid5(uuid.NAMESPACE_OID, f"{self.port}:{self._made}"))
        self._objects[name] = finder
        if len(self._objects) > MAX_OBJECTS:  # a long session must not grow without bound
            del self._objects[next(iter(self._objects))]
        return name

    def find(self, selector: Any) -> list[UiNode]:
        """A selector dict, or the name of an object an earlier RPC returned."""
        if isinstance(selector, str):
            finder = (self._objects or {}).get(selector)
            return finder() if finder is not None else []
        return super().find(selector)

    def _child_with(self, collection: Any, child: Any, match: Callable[[UiNode], bool]) -> Finder:
        def finder() -> list[UiNode]:
            parents = self.find(collection)
            if not parents:
                return []
            rows = [n for n in find_all(parents[0], child) if any(match(d) for d in n.iter())]
            return rows[:1]
        return finder

    async def _child_by(self, collection: Any, child: Any, match: Callable[[UiNode], bool],
                        scroll: Any) -> str:
        self.find_one(collection)
        finder = self._child_with(collection, child, match)
        if scroll in (True, "true"):
            for _ in range(SCROLL_SEARCH_SWIPES):
                if finder() or not await self._scroll_collection(collection):
                    break
        if not finder():
            raise self._missing(child)
        return self._name(finder)

    def _missing(self, selector: Any) -> Exception:
        from starebrain.sim.u2server.rpc_errors import not_found
        from starebrain.sim.u2server.selector import describe

        return not_found(describe(selector) if isinstance(selector, dict) else str(selector))

    async def _scroll_collection(self, collection: Any) -> bool:
        """One forward page of the collection (UiScrollable); True if the screen changed."""
        scroll_once = getattr(self, "_scroll_once", None)
        return bool(scroll_once and await scroll_once(collection, True, True, 55))

    @rpc("childByText")
    async def child_by_text(self, collection: Any, child: Any, text: Any, scroll: Any = False) -> str:
        """The first `child` inside `collection` that has a descendant whose text is `text`."""
        return await self._child_by(collection, child, lambda n: n.attrs.get("text") == str(text), scroll)

    @rpc("childByDescription")
    async def child_by_description(self, collection: Any, child: Any, desc: Any, scroll: Any = False) -> str:
        """The first `child` inside `collection` with a descendant whose content-desc is `desc`."""
        return await self._child_by(collection, child, lambda n: n.attrs.get("content-desc") == str(desc),
                                    scroll)

    @rpc("childByInstance")
    async def child_by_instance(self, collection: Any, child: Any, instance: Any) -> str:
        """The `instance`-th `child` inside `collection`."""
        position = int(instance)

        def finder() -> list[UiNode]:
            parents = self.find(collection)
            rows = find_all(parents[0], child) if parents else []
            return rows[position:position + 1] if position >= 0 else []
        self.find_one(collection)
        if not finder():
            raise self._missing(child)
        return self._name(finder)

    @rpc("getParent")
    async def get_parent(self, selector: Any) -> str:
        """The parent of the first match (UiObject.getParent)."""
        def finder() -> list[UiNode]:
            found = self.find(selector)
            parent = found[0].parent if found else None
            return [parent] if parent is not None and parent.parent is not None else []
        self.find_one(selector)
        if not finder():
            raise self._missing(selector)
        return self._name(finder)
