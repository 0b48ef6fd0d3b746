"""Device profiles (device_*.yaml): OEM ids and packages for permission, ANR, keyboard and launcher."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from starebrain.profiles.permissions import PermissionRules
from starebrain.profiles.words import ObstructionWords, PermissionPolicy


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PermissionIds(_Frozen):
    """Where runtime permission dialogs come from and which button is which."""

    packages: tuple[str, ...] = ()
    allow_foreground_ids: tuple[str, ...] = ()
    allow_once_ids: tuple[str, ...] = ()
    allow_ids: tuple[str, ...] = ()
    deny_ids: tuple[str, ...] = ()


class SystemDialogIds(_Frozen):
    """'App isn't responding' and 'app has stopped' dialogs."""

    packages: tuple[str, ...] = ()
    anr_wait_ids: tuple[str, ...] = ()
    anr_close_ids: tuple[str, ...] = ()
    crash_ok_ids: tuple[str, ...] = ()


class Navigation(_Frozen):
    """How this phone's navigation behaves, for people reading the profile and for the executor."""

    gesture_navigation: bool = False
    back_hides_keyboard: bool = True
    notes: str = ""


class DeviceFile(_Frozen):
    """The contents of one device_*.yaml (before `extends` is applied)."""

    format_version: Literal[1]
    name: str = Field(min_length=1)
    extends: str | None = None
    brands: tuple[str, ...] = Field(min_length=1)
    permission: PermissionIds = PermissionIds()
    system_dialog: SystemDialogIds = SystemDialogIds()
    keyboard_packages: tuple[str, ...] = ()
    launcher_packages: tuple[str, ...] = ()
    system_ui_packages: tuple[str, ...] = ()
    navigation: Navigation = Navigation()


class DeviceProfile(_Frozen):
    """Everything the obstruction detector knows about one kind of phone, word lists included."""

    name: str
    brands: tuple[str, ...]
    permission: PermissionIds
    system_dialog: SystemDialogIds
    keyboard_packages: tuple[str, ...]
    launcher_packages: tuple[str, ...]
    system_ui_packages: tuple[str, ...]
    navigation: Navigation
    words: ObstructionWords
    permissions: PermissionRules | None = None  # None: the policy answers every request

    @property
    def permission_policy(self) -> PermissionPolicy:
        return self.words.permission_policy

    def with_policy(self, policy: PermissionPolicy) -> DeviceProfile:
        """A copy answering permission dialogs with `policy`."""
        return self.model_copy(update={"words": self.words.model_copy(update={"permission_policy": policy})})


def merge_device(base: DeviceFile | None, own: DeviceFile) -> DeviceFile:
    """`own` on top of `base`: lists are joined (base first, no repeats), scalars from `own` win."""
    if base is None:
        return own
    merged = _merge(base.model_dump(), own.model_dump(exclude_unset=True))
    merged["extends"] = own.extends
    merged["brands"] = own.brands  # a Samsung profile must not claim Google's brands
    return DeviceFile.model_validate(merged)


def _merge(base: dict[str, object], own: dict[str, object]) -> dict[str, object]:
    out = dict(base)
    for key, value in own.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = _merge(old, value)
        elif isinstance(old, tuple | list) and isinstance(value, tuple | list):
            out[key] = tuple(dict.fromkeys([*old, *value]))
        else:
            out[key] = value
    return out
