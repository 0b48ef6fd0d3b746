"""Rewrites of a real dump that show the same screen as another phone, app or build would (invariance tests)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from lxml import etree

from starebrain.obstruction.kinds import Obstruction, TapClearance
from starebrain.obstruction.lexicon import languages, normal_word
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.decode import to_text
from starebrain.snapshot.windows import WindowKind, by_layer

_SOURCE = Path(__file__).resolve().parents[2]
_BOUNDS = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')
_NODE_TAG = re.compile(r"<node\b([^>]*?)(/?)>")
_ATTR = re.compile(r'([\w:.-]+)="([^"]*)"')
_LABEL = re.compile(r'\b(text|content-desc)="([^"]{1,20})"')
_PACKAGE = re.compile(r'package="([^"]+)"')
# Namespaces of the platform, the OEM skins and the SoC vendors: their windows are system ones, never renamed.
_SYSTEM_PREFIXES = ("android", "com.android.", "com.google.android.", "com.samsung.", "com.sec.", "com.miui.",
                    "com.xiaomi.", "com.huawei.", "com.hihonor.", "com.honor.", "com.coloros.", "com.oplus.",
                    "com.oppo.", "com.heytap.", "com.vivo.", "com.iqoo.", "com.bbk.", "com.oneplus.", "com.lge.",
                    "com.motorola.", "com.sonymobile.", "com.asus.", "com.realme.", "com.transsion.", "com.zte.",
                    "com.meizu.", "com.nothing.", "com.tcl.", "com.qualcomm.", "com.qti.", "org.codeaurora.",
                    "vendor.", "com.mediatek.", "com.unisoc.", "com.sprd.", "com.lenovo.", "com.nubia.",
                    "com.hmdglobal.", "com.amazon.")
# English dismiss words and the same word in German, French and Spanish (each checked against the yaml).
_DISMISS_TRANSLATIONS = {
    "cancel": {"de": "Abbrechen", "fr": "Annuler", "es": "Cancelar", "it": "Annulla", "ja": "キャンセル", "zh": "取消"},
    "not now": {"de": "Nicht jetzt", "fr": "Pas maintenant", "es": "Ahora no", "it": "Non ora", "ja": "今はしない",
                "zh": "暂不"},
    "no thanks": {"de": "Nein danke", "fr": "Non merci", "es": "No, gracias", "it": "No grazie", "ja": "結構です"},
    "close": {"de": "Schließen", "fr": "Fermer", "es": "Cerrar", "it": "Chiudi", "ja": "閉じる", "zh": "关闭"},
    "skip": {"de": "Überspringen", "fr": "Passer", "es": "Omitir", "it": "Salta", "ja": "スキップ", "zh": "跳过"},
    "later": {"de": "Später", "fr": "Plus tard", "es": "Más tarde", "it": "Più tardi", "ja": "後で", "zh": "稍后"},
    "dismiss": {"de": "Verwerfen", "fr": "Ignorer", "es": "Descartar", "it": "Ignora"},
    "back": {"de": "Zurück", "fr": "Retour", "es": "Atrás", "it": "Indietro", "ja": "戻る", "zh": "返回"},
    "go back": {"de": "Zurück", "fr": "Retour", "es": "Volver", "it": "Indietro", "ja": "戻る", "zh": "返回"},
}


def scale(factor: float) -> Callable[[str], str]:
    """Every bounds times `factor`, rounded: the same screen on a phone of another density."""
    def apply(xml: str) -> str:
        return _BOUNDS.sub(lambda m: "bounds=\"[{},{}][{},{}]\"".format(*(round(int(v) * factor) for v in m.groups())),
                           xml)
    return apply


@cache
def _named_in_source() -> str:
    """Every package name the product's code and profiles spell out (rules keyed on them are meant to be)."""
    parts = [p.read_text(encoding="utf-8") for area in ("obstruction", "snapshot", "guard")
             for p in (_SOURCE / "starebrain" / area).rglob("*.py")]
    parts += [p.read_text(encoding="utf-8") for p in (_SOURCE / "device_profiles").glob("*.yaml")
              if p.name.startswith(("device_", "obstruction", "permissions"))]
    return "\n".join(parts)


def is_app_package(package: str) -> bool:
    """A store app's package: not the platform's, an OEM's, a vendor's, a keyboard, nor one a rule names."""
    return (not package.startswith(_SYSTEM_PREFIXES) and "inputmethod" not in package
            and "launcher" not in package and package not in _named_in_source())


def app_renames(xml: str) -> dict[str, str]:
    """Each app package of the dump -> a made-up one of another developer."""
    apps = sorted({p for p in _PACKAGE.findall(xml) if is_app_package(p)})
    return {p: f"org.other{i}.app" for i, p in enumerate(apps)}


def rename_apps(xml: str) -> str:
    """App packages renamed, with the same prefix of their resource-ids: another app drawing the same screen."""
    renames = app_renames(xml)
    if not renames:
        return xml
    old = re.compile(r'(package="|resource-id=")(' + "|".join(map(re.escape, renames)) + r')(?=[":])')
    return old.sub(lambda m: m.group(1) + renames[m.group(2)], xml)


def shuffle_attributes(seed: int) -> Callable[[str], str]:
    """Each node's attributes in a (seeded) random order: XML attribute order carries no meaning."""
    def apply(xml: str) -> str:
        rng = random.Random(seed)

        def tag(m: re.Match[str]) -> str:
            attrs = _ATTR.findall(m.group(1))
            rng.shuffle(attrs)
            return "<node " + " ".join(f'{k}="{v}"' for k, v in attrs) + m.group(2) + ">"
        return _NODE_TAG.sub(tag, xml)
    return apply


def older_uiautomator(xml: str) -> str:
    """`visible-to-user="true"`, an empty `hint` and `drawing-order` dropped where an API 23 dump would not have
    them and they tell nothing more: older uiautomator lists only visible nodes, and without drawing-order siblings
    stack in document order (kept where drawing-order disagrees with it)."""
    def tag(m: re.Match[str]) -> str:
        body = m.group(1).replace(' visible-to-user="true"', "").replace(' hint=""', "")
        return "<node" + body + m.group(2) + ">"
    xml = _NODE_TAG.sub(tag, xml)
    if _drawing_order_agrees(xml):
        xml = re.sub(r' drawing-order="-?\d+"', "", xml)
    return xml


def _drawing_order_agrees(xml: str) -> bool:
    """Every node's siblings are in drawing order in the document (so dropping it changes no stacking)."""
    stack: list[list[int]] = [[]]
    for m in re.finditer(r"<node\b([^>]*?)(/?)>|</node>", xml):
        if m.group(0) == "</node>":
            if len(stack) > 1 and not _ascending(stack.pop()):
                return False
            continue
        order = re.search(r'drawing-order="(-?\d+)"', m.group(1))
        stack[-1].append(int(order.group(1)) if order else 0)
        if not m.group(2):
            stack.append([])
    return all(_ascending(s) for s in stack)


def _ascending(orders: list[int]) -> bool:
    return all(a < b for a, b in zip(orders, orders[1:], strict=False))


def translate_dismiss(language: str) -> Callable[[str], str]:
    """English dismiss words (as a whole label) in another language the yaml lists: a Cancel in German is still
    a Cancel."""
    known = set(languages()[language].dismiss)
    table = {en: ws[language] for en, ws in _DISMISS_TRANSLATIONS.items()
             if language in ws and normal_word(ws[language]) in known}

    def apply(xml: str) -> str:
        def attr(m: re.Match[str]) -> str:
            word = table.get(normal_word(m.group(2)))
            return f'{m.group(1)}="{word}"' if word else m.group(0)
        return _LABEL.sub(attr, xml)
    return apply


def upper_buttons(xml: str) -> str:
    """Button labels in capitals, as Material 1 themes (textAllCaps) report them: "CANCEL" is "Cancel"."""
    def tag(m: re.Match[str]) -> str:
        if 'Button"' not in m.group(0):
            return m.group(0)
        return re.sub(r' text="([^"]*)"', lambda t: f' text="{t.group(1).upper()}"', m.group(0), count=1)
    return _NODE_TAG.sub(tag, xml)


def reorder_windows(xml: str) -> str:
    """Windows of different layers listed the other way round (uiautomator lists windows in no reliable order;
    their kinds stack them), each layer's own windows kept in their order (that order breaks ties)."""
    try:
        root = etree.fromstring(xml.encode("utf-8"), etree.XMLParser(huge_tree=True))
    except etree.XMLSyntaxError:  # a broken dump (the parser's recovery reads it): nothing to reorder
        return xml
    windows = [c for c in root if c.tag == "node"]
    snap = ScreenSnapshot.from_xml(xml)
    if len(windows) != len(snap.windows) or len(windows) < 2:
        return xml
    kind = {w.index: w.kind for w in snap.windows}
    groups: list[list[int]] = []
    for i in range(len(windows)):  # runs of one kind, in dump order
        if groups and kind[groups[-1][-1]] == kind[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    order = [i for g in reversed(groups) for i in g]
    for w in windows:
        root.remove(w)
    root.extend(windows[i] for i in order)
    out = str(etree.tostring(root, encoding="unicode"))
    moved = ScreenSnapshot.from_xml(out).windows
    same = ([(order[w.index], w.kind) for w in by_layer(moved)] == [(w.index, w.kind) for w in by_layer(snap.windows)])
    return out if same and len(groups) > 1 else xml


def translation_of(label: str, language: str) -> str:
    """The translated form `translate_dismiss` gives a label (itself when it is no translated word)."""
    word = _DISMISS_TRANSLATIONS.get(normal_word(label), {}).get(language)
    return word if word and normal_word(word) in languages()[language].dismiss else label


def text_of(data: bytes) -> str:
    return to_text(data)


def verdict_key(verdict: Obstruction, *, renames: dict[str, str] | None = None,
                language: str | None = None) -> tuple[str, str, str, str]:
    """What must not change: the kind, the way past, and which element a tap presses (not where: the point
    moves with the density)."""
    c = verdict.clearance
    if not isinstance(c, TapClearance):
        return verdict.kind.value, c.action if c else "person", "", ""
    rid = c.resource_id
    for old, new in (renames or {}).items():
        if rid.startswith(old + ":"):
            rid = new + rid[len(old):]
    label = translation_of(c.label, language) if language else c.label
    return verdict.kind.value, "tap", normal_word(label), rid


def obfuscate_ids(xml: str) -> str:
    """App resource-id names as a release build with aapt2 `--collapse-resource-names` reports them
    (`com.foo:id/0_resource_name_obfuscated`). React Native's dev-support ids (`rn_`: the red box, the dev
    error page) stay: they exist only in debug builds, which are never obfuscated."""
    def rid(m: re.Match[str]) -> str:
        if not is_app_package(m.group(1)) or m.group(2).startswith("rn_"):
            return m.group(0)
        return f'resource-id="{m.group(1)}:id/0_resource_name_obfuscated"'
    return re.sub(r'resource-id="([^":]+):id/([^"]+)"', rid, xml)


def without_bars(xml: str) -> str:
    """The status and navigation bar windows left out, as dumps of tools that list only the app's windows are."""
    try:
        root = etree.fromstring(xml.encode("utf-8"), etree.XMLParser(huge_tree=True))
    except etree.XMLSyntaxError:
        return xml
    windows = [c for c in root if c.tag == "node"]
    snap = ScreenSnapshot.from_xml(xml)
    if len(windows) != len(snap.windows):
        return xml
    thin = snap.display.height / 8  # a status or navigation bar, not a heads-up notification
    bars = [windows[w.index] for w in snap.windows if w.kind is WindowKind.BAR and w.bounds.height < thin]
    if not bars or len(bars) == len(windows):
        return xml
    for w in bars:
        root.remove(w)
    return str(etree.tostring(root, encoding="unicode"))


def dismiss_words_in(xml: str) -> list[str]:
    """The English dismiss words `translate_dismiss` knows that label something on the screen."""
    return sorted({normal_word(m.group(2)) for m in _LABEL.finditer(xml)} & set(_DISMISS_TRANSLATIONS))


def translate_one_dismiss(language: str, word: str) -> Callable[[str], str]:
    """One English dismiss word in another language, the screen's other words left: an app only partly translated
    (its own strings in English, a library's Close in the phone's language)."""
    whole = translate_dismiss(language)

    def apply(xml: str) -> str:
        return _LABEL.sub(lambda m: whole(m.group(0)) if normal_word(m.group(2)) == word else m.group(0), xml)
    return apply
