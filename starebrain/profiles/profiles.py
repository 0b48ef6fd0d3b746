"""`Profiles`: categories, risk weights, obstruction words and device profiles, loaded together."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import cast

from starebrain.errors import ProfileInvalid
from starebrain.profiles.categories import Category, CategoryFile, CategoryRule
from starebrain.profiles.device import DeviceFile, DeviceProfile, merge_device
from starebrain.profiles.load import profile_files, require, validate
from starebrain.profiles.permissions import PermissionRules
from starebrain.profiles.risk import RiskFile
from starebrain.profiles.vocabulary import VOCABULARY_PREFIX, VocabularyFile
from starebrain.profiles.words import ObstructionWords

GENERIC = "aosp"
DEVICE_PREFIX = "device_"


@dataclass(frozen=True)
class Profiles:
    """All of device_profiles/, validated."""

    categories: CategoryFile
    risk: RiskFile
    words: ObstructionWords
    devices: dict[str, DeviceProfile]
    vocabularies: dict[str, VocabularyFile] = field(default_factory=dict)
    _words_cache: dict[str, dict[str, float]] = field(default_factory=dict, compare=False, repr=False)

    def words_for(self, category: str) -> dict[str, float]:
        """Every risk word that counts in `category`: risk.yaml's groups plus each language's concepts."""
        cached = self._words_cache.get(category)
        if cached is not None:
            return cached
        words = dict(self.risk.words_for(category))
        for concept, risk in self.risk.concepts.items():
            if category in self.risk.word_groups[risk.group].not_in:
                continue
            for vocabulary in self.vocabularies.values():
                for entry in vocabulary.concepts[concept]:
                    words[entry] = max(words.get(entry, 0.0), risk.weight)
        self._words_cache[category] = words
        return words

    def category_of(self, package: str | None) -> str:
        """The app category of a package ("unknown" when we do not know it)."""
        return self.categories.category_of(package)

    def rule(self, category: str) -> CategoryRule:
        """Threshold and weights of a category (unknown ones get the `unknown` rule)."""
        rules = self.categories.categories
        return rules.get(cast(Category, category), rules["unknown"])

    def device_profile(self, brand: str) -> DeviceProfile:
        """The profile for a phone's brand or manufacturer (case-insensitive); generic AOSP otherwise."""
        key = brand.strip().casefold()
        for profile in self.devices.values():
            if key == profile.name or key in profile.brands:
                return profile
        return self.devices[GENERIC]


def load_profiles(override_dir: Path | None = None) -> Profiles:
    """Load and validate every profile file; raises ProfileInvalid with one line naming file and problem."""
    files = profile_files(override_dir)
    require(files, ("categories.yaml", "risk.yaml", "obstructions.yaml", f"{DEVICE_PREFIX}{GENERIC}.yaml"))
    words = validate(ObstructionWords, files["obstructions.yaml"])
    raw = {name: validate(DeviceFile, src) for name, src in files.items() if name.startswith(DEVICE_PREFIX)}
    return Profiles(
        categories=validate(CategoryFile, files["categories.yaml"]),
        risk=validate(RiskFile, files["risk.yaml"]),
        words=words,
        devices=_resolve_devices(raw, words, _permissions(files)),
        vocabularies=_vocabularies(files),
    )


def _vocabularies(files: dict[str, Traversable | Path]) -> dict[str, VocabularyFile]:
    out: dict[str, VocabularyFile] = {}
    for name, src in sorted(files.items()):
        if name.startswith(VOCABULARY_PREFIX):
            vocabulary = validate(VocabularyFile, src)
            if vocabulary.language in out:
                raise ProfileInvalid(f"{name}: language {vocabulary.language!r} has another vocabulary file")
            out[vocabulary.language] = vocabulary
    return out


def _permissions(files: dict[str, Traversable | Path]) -> PermissionRules | None:
    return validate(PermissionRules, files["permissions.yaml"]) if "permissions.yaml" in files else None


def _resolve_devices(raw: dict[str, DeviceFile], words: ObstructionWords,
                     permissions: PermissionRules | None = None) -> dict[str, DeviceProfile]:
    by_name: dict[str, tuple[str, DeviceFile]] = {}
    for file, dev in raw.items():
        if dev.name in by_name:
            raise ProfileInvalid(f"{file}: device name {dev.name!r} is also used by {by_name[dev.name][0]}")
        by_name[dev.name] = (file, dev)
    out: dict[str, DeviceProfile] = {}
    for name, (file, dev) in by_name.items():
        base = None
        if dev.extends is not None:
            if dev.extends not in by_name:
                raise ProfileInvalid(f"{file}: extends {dev.extends!r}, but no device profile has that name")
            base = by_name[dev.extends][1]
            if base.extends is not None:
                raise ProfileInvalid(f"{file}: extends {dev.extends!r}, which itself extends another profile")
        merged = merge_device(base, dev)
        out[name] = DeviceProfile(**merged.model_dump(exclude={"format_version", "extends"}), words=words,
                                  permissions=permissions)
    return out
