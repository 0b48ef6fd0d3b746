from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from starebrain.errors import BadInput, ProfileInvalid
from starebrain.profiles import CATEGORY_NAMES, PermissionPolicy, load_profiles


@pytest.fixture(scope="module")
def profiles():
    return load_profiles()


@pytest.mark.parametrize(("package", "category"), [
    ("com.google.android.apps.messaging", "messaging"),
    ("com.google.android.gm", "email"),
    ("com.google.android.documentsui", "system"),
    ("com.google.android.apps.tasks", "tasks"),
    ("com.starebrain.bank", "banking"),
    ("com.google.android.keep", "notes"),
    ("com.android.settings", "settings"),
    ("com.android.launcher3", "system"),
    ("com.whatsapp", "messaging"),
    ("com.paypal.android.p2pmobile", "payments"),
    ("com.amazon.mShop.android.shopping", "shopping"),
    ("com.chase.sig.android", "banking"),
    ("com.chase.some.future.app", "banking"),  # by prefix
    ("org.example.never.heard.of", "unknown"),
    (None, "unknown"),
])
def test_packages_map_to_categories(profiles, package, category):
    assert profiles.category_of(package) == category


def test_every_category_has_a_threshold(profiles):
    assert {name: profiles.rule(name).threshold for name in CATEGORY_NAMES}.keys() == set(CATEGORY_NAMES)
    assert profiles.rule("banking").threshold < profiles.rule("notes").threshold


@pytest.mark.parametrize(("brand", "name"), [
    ("google", "aosp"), ("Pixel", "aosp"), ("samsung", "samsung"), ("SAMSUNG", "samsung"),
    ("Xiaomi", "xiaomi"), ("Redmi", "xiaomi"), ("POCO", "xiaomi"), ("OnePlus", "aosp"), ("", "aosp"),
])
def test_device_profile_is_chosen_by_brand(profiles, brand, name):
    assert profiles.device_profile(brand).name == name


def test_oem_profiles_extend_the_generic_one(profiles):
    samsung = profiles.device_profile("samsung")
    assert "com.samsung.android.honeyboard" in samsung.keyboard_packages
    assert "com.google.android.inputmethod.latin" in samsung.keyboard_packages  # inherited
    assert "android:id/aerr_wait" in samsung.system_dialog.anr_wait_ids
    assert "google" not in samsung.brands
    xiaomi = profiles.device_profile("xiaomi")
    assert "com.lbe.security.miui" in xiaomi.permission.packages
    assert "com.miui.home" in xiaomi.launcher_packages


def test_default_permission_policy_is_allow_while_in_use(profiles):
    profile = profiles.device_profile("google")
    assert profile.permission_policy is PermissionPolicy.ALLOW_FOREGROUND
    assert profile.with_policy(PermissionPolicy.DENY).permission_policy is PermissionPolicy.DENY


def test_risk_words_include_the_obvious_ones(profiles):
    for word in ("send", "pay", "transfer", "delete", "submit", "buy", "confirm", "post"):
        assert profiles.risk.words[word] >= 0.5


def copy_profiles(tmp_path: Path) -> Path:
    for f in resources.files("starebrain.device_profiles").iterdir():
        if f.name.endswith(".yaml"):
            (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def test_override_directory_replaces_a_packaged_file(tmp_path):
    d = copy_profiles(tmp_path)
    text = (d / "categories.yaml").read_text().replace("com.whatsapp: messaging", "com.whatsapp: social")
    (d / "categories.yaml").write_text(text)
    (d / "device_acme.yaml").write_text("format_version: 1\nname: acme\nextends: aosp\nbrands: [acme]\n"
                                         "keyboard_packages: [com.acme.keys]\n")
    p = load_profiles(d)
    assert p.category_of("com.whatsapp") == "social"
    assert "com.acme.keys" in p.device_profile("ACME").keyboard_packages


def test_override_directory_with_one_file_keeps_the_rest(tmp_path):
    (tmp_path / "obstructions.yaml").write_text(
        resources.files("starebrain.device_profiles").joinpath("obstructions.yaml").read_text(encoding="utf-8")
        .replace("permission_policy: allow_foreground", "permission_policy: deny"))
    p = load_profiles(tmp_path)
    assert p.device_profile("samsung").permission_policy is PermissionPolicy.DENY
    assert p.category_of("com.whatsapp") == "messaging"


@pytest.mark.parametrize(("file", "old", "new", "expected"), [
    ("categories.yaml", "com.whatsapp: messaging", "com.whatsapp: chat", "categories.yaml: packages.com.whatsapp"),
    ("categories.yaml", "threshold: 0.40", "threshold: 1.40", "categories.yaml: categories.banking.threshold"),
    ("risk.yaml", "  send: 0.6", "  send: 6",
     "risk.yaml: word_groups.communication.words: risk word weights must be between 0 and 1"),
    ("risk.yaml", "not_in: [notes, tasks]", "not_in: [notes, todo]", "risk.yaml: word_groups.money.not_in.1"),
    ("risk.yaml", "format_version: 1", "format_version: 2", "risk.yaml: format_version"),
    ("device_samsung.yaml", "extends: aosp", "extends: pixel", "device_samsung.yaml: extends 'pixel'"),
    ("device_xiaomi.yaml", "brands: [xiaomi", "brand: [xiaomi", "device_xiaomi.yaml: "),
    ("obstructions.yaml", "dismiss:\n  - not now", "dismiss:\n  - not now\n - bad: [",
     "obstructions.yaml: YAML syntax"),
    ("obstructions.yaml", "permission_policy: allow_foreground", "permission_policy: always",
     "obstructions.yaml: permission_policy"),
])
def test_a_broken_file_is_reported_in_one_line_naming_it(tmp_path, file, old, new, expected):
    d = copy_profiles(tmp_path)
    text = (d / file).read_text()
    assert old in text
    (d / file).write_text(text.replace(old, new, 1))
    with pytest.raises(ProfileInvalid) as info:
        load_profiles(d)
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert isinstance(info.value, BadInput) and info.value.exit_code == 2


def test_missing_override_directory_is_reported(tmp_path):
    with pytest.raises(ProfileInvalid, match="does not exist"):
        load_profiles(tmp_path / "nope")
