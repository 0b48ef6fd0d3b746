"""Typed device_profiles/: app categories, risk words, obstruction words, device (OEM) profiles."""

from __future__ import annotations

from starebrain.profiles.categories import CATEGORY_NAMES, Category, CategoryRule
from starebrain.profiles.device import DeviceProfile, Navigation, PermissionIds, SystemDialogIds
from starebrain.profiles.profiles import Profiles, load_profiles
from starebrain.profiles.risk import ActionRisk, RiskFile
from starebrain.profiles.words import Backoff, DangerPolicy, ObstructionWords, PermissionPolicy

__all__ = [
    "CATEGORY_NAMES", "ActionRisk", "Backoff", "Category", "CategoryRule", "DangerPolicy", "DeviceProfile",
    "Navigation", "ObstructionWords", "PermissionIds", "PermissionPolicy", "Profiles", "RiskFile", "SystemDialogIds",
    "load_profiles",
]
