"""Reading an APK's manifest (package, version, SDKs, activities, launcher, permissions, IMEs)."""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile

from starebrain.sim.services.android_release import full_class
from starebrain.sim.services.packages import PackageRecord

INPUT_METHOD_ACTION = "android.view.InputMethod"


class ApkError(Exception):
    """Not a parsable APK (what `pm install` reports as INSTALL_PARSE_FAILED_*)."""


def read_apk(data: bytes) -> PackageRecord:
    """The package record an APK declares; ApkError if it is not an APK."""
    from pyaxmlparser import APK  # imported here: only `pm install` needs it

    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise ApkError("not a zip archive")
    logging.getLogger("pyaxmlparser").setLevel(logging.ERROR)  # it logs every unknown chunk
    try:
        apk = APK(data, raw=True)
        package = apk.package
    except Exception as exc:  # the parser raises many kinds on a broken manifest
        raise ApkError(f"unreadable manifest: {exc}") from exc
    if not apk.is_valid_APK() or not package:
        raise ApkError("no AndroidManifest.xml")
    services = apk.get_services() or []
    imes = [full_class(package, s) for s in services
            if INPUT_METHOD_ACTION in (apk.get_intent_filters("service", s).get("action") or [])]
    main = apk.get_main_activity()
    return PackageRecord(
        package, version_name=apk.version_name or "null", version_code=_int(apk.version_code, 0),
        min_sdk=_int(apk.get_min_sdk_version(), 1), target_sdk=_int(apk.get_target_sdk_version(), 1),
        activities=[full_class(package, a) for a in apk.get_activities()],
        launcher=full_class(package, main) if main else None,
        permissions=sorted(set(apk.get_permissions())), ime_services=imes, system=False,
        label=str(apk.application or package), apk_md5=hashlib.md5(data).hexdigest())


def _int(value: object, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default
