"""What the package manager knows: the app world's (preinstalled) apps plus APKs installed with `pm install`.

The world's apps count as preinstalled system apps (as on a phone: they cannot be uninstalled without
`--user 0`); APKs installed at run time are user apps whose facts come from their manifest.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from starebrain.sim.phone import SimPhone
from starebrain.sim.services.android_release import full_class

# Runtime ("dangerous") permissions: `pm grant` changes only these; u2's auto-grant looks for them.
RUNTIME_PERMISSIONS = frozenset(f"android.permission.{name}" for name in (
    "CAMERA", "RECORD_AUDIO", "ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION", "ACCESS_BACKGROUND_LOCATION",
    "READ_CONTACTS", "WRITE_CONTACTS", "GET_ACCOUNTS", "READ_CALENDAR", "WRITE_CALENDAR", "READ_PHONE_STATE",
    "CALL_PHONE", "READ_CALL_LOG", "WRITE_CALL_LOG", "SEND_SMS", "RECEIVE_SMS", "READ_SMS", "BODY_SENSORS",
    "READ_EXTERNAL_STORAGE", "WRITE_EXTERNAL_STORAGE", "READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO",
    "READ_MEDIA_AUDIO", "POST_NOTIFICATIONS", "NEARBY_WIFI_DEVICES", "BLUETOOTH_CONNECT", "BLUETOOTH_SCAN"))
# The system's own packages and their main components (the IME is Gboard, as on a Pixel).
SYSTEM_COMPONENTS = {
    "android": "com.android.internal.app.ResolverActivity",
    "com.android.systemui": "com.android.systemui.SystemUIService",
    "com.google.android.permissioncontroller":
        "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity",
    "com.google.android.inputmethod.latin": "com.android.inputmethod.latin.LatinIME",
}
GBOARD = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
INSTALL_EPOCH = 1767225600.0  # 2026-01-01 00:00 UTC: when the preinstalled apps were "installed"


@dataclass
class PackageRecord:
    """One installed package as `dumpsys package` describes it."""

    name: str
    version_name: str = "1.0"
    version_code: int = 1
    min_sdk: int = 26
    target_sdk: int = 34
    activities: list[str] | None = None  # full class names; None: the world accepts any activity
    launcher: str | None = None  # full class name of the MAIN/LAUNCHER activity
    permissions: list[str] = field(default_factory=list)
    ime_services: list[str] = field(default_factory=list)  # full class names
    view_urls: list[str] = field(default_factory=list)  # URL prefixes of VIEW intents it handles
    system: bool = True
    label: str = ""
    installed_at: float = INSTALL_EPOCH
    updated_at: float = INSTALL_EPOCH
    apk_md5: str = ""

    @property
    def uid(self) -> int:
        """A stable app uid."""
        return app_uid(self.name)

    @property
    def path(self) -> str:
        """Where its base.apk is."""
        where = "/system/priv-app" if self.system else "/data/app/~~c2ltCg=="
        return f"{where}/{self.name}-{self.uid:x}/base.apk"

    def runtime_permissions(self) -> list[str]:
        """Requested permissions the user grants at run time."""
        return [p for p in self.permissions if p in RUNTIME_PERMISSIONS]


def app_uid(package: str) -> int:
    """A stable app uid (10000 + n), 1000 for `android`."""
    return 1000 if package == "android" else 10000 + zlib.crc32(package.encode()) % 400


def world_record(package: str, spec: dict[str, Any] | None) -> PackageRecord:
    """The record of a preinstalled app, from its app-world declaration if it has one."""
    if spec is None:  # a system package, or a phone without app declarations (any activity resolves)
        component = SYSTEM_COMPONENTS.get(package)
        return PackageRecord(package, activities=None, launcher=None if component else f"{package}.MainActivity",
                             ime_services=[component] if component and "inputmethod" in package else [])
    default = spec.get("activity", ".MainActivity")
    screens = spec.get("screens", {})
    start = screens.get(spec.get("start", ""), {})
    names = [default, *(s.get("activity", default) for s in screens.values())]
    activities = list(dict.fromkeys(full_class(package, name) for name in names))
    return PackageRecord(
        package, version_name=str(spec.get("version_name", "1.0")), version_code=int(spec.get("version_code", 1)),
        target_sdk=int(spec.get("target_sdk", 34)), activities=activities,
        launcher=full_class(package, start.get("activity", default)),
        permissions=list(spec.get("permissions", [])),
        view_urls=[*spec.get("view_urls", []), *(link["prefix"] for link in spec.get("links", []))],
        label=str(spec.get("label", package)))


class PackageRegistry:
    """Installed packages: the world's apps (from the current SimPhone) plus run-time installs."""

    def __init__(self) -> None:
        self.installed: dict[str, PackageRecord] = {}  # by `pm install`; survive a world reset
        self.granted: dict[str, set[str]] = {}
        self.disabled: set[str] = set()

    def reset_world(self) -> None:
        """A new app world: grants of its apps start over."""
        self.granted = {pkg: perms for pkg, perms in self.granted.items() if pkg in self.installed}

    def get(self, phone: SimPhone, package: str) -> PackageRecord | None:
        """The record of an installed package, or None."""
        if package in self.installed:
            return self.installed[package]
        if package not in phone.installed_packages():
            return None
        specs = getattr(phone, "apps", None)
        return world_record(package, specs.get(package) if isinstance(specs, dict) else None)

    def names(self, phone: SimPhone) -> list[str]:
        """Every installed package name, sorted."""
        return sorted(set(phone.installed_packages()) | set(self.installed))

    def records(self, phone: SimPhone) -> list[PackageRecord]:
        """Every installed package."""
        return [r for r in (self.get(phone, name) for name in self.names(phone)) if r is not None]

    def install(self, record: PackageRecord) -> PackageRecord:
        """Register an installed APK (an update keeps the first install time)."""
        old = self.installed.get(record.name)
        now = time.time()
        record.installed_at = old.installed_at if old else now
        record.updated_at = now
        record.system = False
        self.installed[record.name] = record
        return record

    def uninstall(self, package: str) -> bool:
        """Remove a run-time install; False for preinstalled or unknown packages."""
        self.granted.pop(package, None)
        return self.installed.pop(package, None) is not None

    def is_granted(self, package: str, permission: str) -> bool:
        """Whether a runtime permission is granted."""
        return permission in self.granted.get(package, set())

    def set_granted(self, package: str, permission: str, granted: bool) -> None:
        """`pm grant` / `pm revoke`."""
        perms = self.granted.setdefault(package, set())
        (perms.add if granted else perms.discard)(permission)

    def input_methods(self, phone: SimPhone) -> list[str]:
        """IME ids (`pkg/.Service`) of every installed input method, Gboard first."""
        ids = [GBOARD] if "com.google.android.inputmethod.latin" in phone.installed_packages() else []
        for record in self.installed.values():
            ids.extend(_ime_id(record.name, service) for service in record.ime_services)
        return list(dict.fromkeys(ids))

    def resolve_view(self, phone: SimPhone, url: str, package: str | None = None) -> tuple[PackageRecord, str] | None:
        """The app and activity a VIEW intent for `url` opens (the longest declared URL prefix wins; `-p` limits
        the search to one package)."""
        best: tuple[int, PackageRecord] | None = None
        for record in self.records(phone):
            if package and record.name != package:
                continue
            for prefix in record.view_urls:
                if url.startswith(prefix) and (best is None or len(prefix) > best[0]):
                    best = (len(prefix), record)
        if best is None or best[1].launcher is None:
            return None
        return best[1], best[1].launcher


def _ime_id(package: str, service: str) -> str:
    short = service[len(package):] if service.startswith(package + ".") else service
    return f"{package}/{short}"
