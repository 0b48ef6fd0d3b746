"""Which Android release the simulated phone reports, and the output details that differ between them.

Sources: AOSP `ActivityRecord.toString()` (services/core/java/com/android/server/wm/ActivityRecord.java
in Android 13: the cached name ends with `}` and the task id follows, so records read
`ActivityRecord{hash u0 pkg/.Act} t7}` from 13 on; Android 12 printed `...pkg/.Act t7}`; dumps from
13/14 phones in uiautomator2 issue #952 agree), and the build properties of Pixel factory images
(SDK 33/34/35). What differs between 13, 14 and 15 for the commands clients use is the build.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AndroidRelease:
    """The version-dependent facts of one Android release."""

    release: str
    sdk: int
    build_id: str
    security_patch: str

    def props(self) -> dict[str, str]:
        """Build properties this release reports, over whatever the app world says."""
        return {
            "ro.build.version.release": self.release, "ro.build.version.sdk": str(self.sdk),
            "ro.build.version.release_or_codename": self.release, "ro.build.id": self.build_id,
            "ro.build.version.security_patch": self.security_patch,
            "ro.build.fingerprint": f"starebrain/sim/sim:{self.release}/{self.build_id}/1:user/release-keys",
        }

    def activity_record(self, ident: str, component: str, task_id: int) -> str:
        """`ActivityRecord{...}` as toString() prints it on 13-15."""
        return f"ActivityRecord{{{ident} u0 {component}}} t{task_id}}}"


RELEASES = {
    13: AndroidRelease("13", 33, "TQ3A.230901.001", "2023-09-01"),
    14: AndroidRelease("14", 34, "UQ1A.240205.004", "2024-02-05"),
    15: AndroidRelease("15", 35, "AP4A.250205.002", "2025-02-05"),
}
DEFAULT_RELEASE = 14


def android_release(version: int) -> AndroidRelease:
    """The release for `--android N`; ValueError for one the sim does not know."""
    if version not in RELEASES:
        raise ValueError(f"unknown Android version {version}; known: {', '.join(map(str, RELEASES))}")
    return RELEASES[version]


def short_component(package: str, activity: str) -> str:
    """`ComponentName.flattenToShortString()`: `pkg/.Act` when the class is inside the package."""
    if activity.startswith("."):
        return f"{package}/{activity}"
    if activity.startswith(package + "."):
        return f"{package}/{activity[len(package):]}"
    return f"{package}/{activity}"


def full_class(package: str, activity: str) -> str:
    """`.Act` expanded to `pkg.Act`."""
    return package + activity if activity.startswith(".") else activity
