"""What one screen says about what the person is dealing with: rules over a `ScreenSnapshot`.

The rules are structural, so they hold on real apps as on the sim (tested on a real WhatsApp dump):
- A *conversation* is an app screen with a toolbar title and a message composer (an EditText in
  the lower half of the screen whose id/hint speaks of messages, or any EditText in a known
  messaging app). The partner is the toolbar title (WhatsApp's `conversation_contact_name`,
  Messages' `conversation_title`, a Toolbar's first TextView).
- A *conversation list* is a messaging app screen with a list and no composer; its first row is
  the most recent thread (messaging apps sort threads by last activity).
- An *opened document* is a screen whose toolbar title is a file name (viewers, editors and
  previews title themselves with the file's name), or a file just attached to a draft (an
  attachment tile/chip whose id says "attach", as in Gmail's compose screen).
Password fields never contribute (the snapshot keeps no password text anyway).
"""

from __future__ import annotations

import re

from starebrain.snapshot import Node, ScreenSnapshot

# Known messaging apps; any package whose name speaks of messages/chat/sms counts too.
MESSAGING_PACKAGES = frozenset({
    "com.whatsapp", "com.whatsapp.w4b", "org.telegram.messenger", "org.thoughtcrime.securesms",
    "com.google.android.apps.messaging", "com.android.mms", "com.samsung.android.messaging",
    "com.facebook.orca", "com.tencent.mm", "jp.naver.line.android", "com.viber.voip",
    "com.discord", "com.Slack", "com.microsoft.teams", "com.skype.raider", "com.kakao.talk",
})
_MESSAGING_NAME = re.compile(r"messag|messeng|chat|sms|mms|talk", re.I)
_COMPOSER_WORDS = re.compile(r"message|messag|mensa|nachricht|entry|chat|reply|compose_text|sms|"
                             r"text_editor|send_text|消息|信息", re.I)
_TOOLBAR = re.compile(r"toolbar|action_?bar|app_?bar|title_?bar|header", re.I)
_TITLE_ID = re.compile(r"title|name|contact|header_text", re.I)
_FILE_NAME = re.compile(r"^[^/\\<>|\n]{1,160}\.(pdf|docx?|xlsx?|pptx?|odt|ods|odp|rtf|txt|csv|md|epub|"
                        r"pages|numbers|key|zip|png|jpe?g|heic|gif|mp4|mp3)$", re.I)
_LIST_CLASS = re.compile(r"RecyclerView|ListView|LazyColumn|ScrollView", re.I)


def is_messaging_package(package: str) -> bool:
    """A package we treat as a messaging app."""
    return package in MESSAGING_PACKAGES or bool(_MESSAGING_NAME.search(package))


def _app_nodes(snap: ScreenSnapshot, package: str) -> list[Node]:
    """Visible content nodes of the app `package` (or of the foreground app if empty)."""
    package = package or snap.foreground_package
    return [n for n in snap.content_nodes() if n.package == package]


def _is_toolbar(node: Node) -> bool:
    return bool(_TOOLBAR.search(node.resource_id) or _TOOLBAR.search(node.short_class))


def toolbar_title(snap: ScreenSnapshot, package: str = "") -> str | None:
    """The title text of the app's top bar: an id naming a title first, else its first text."""
    nodes = _app_nodes(snap, package)
    bars = [n for n in nodes if _is_toolbar(n) and n.bounds.top < snap.screen.height * 0.3]
    for bar in bars:
        texts = [d for d in snap.descendants(bar) if d.visible and d.text.strip() and not d.password
                 and "EditText" not in d.class_name and "Button" not in d.short_class]
        named = [d for d in texts if _TITLE_ID.search(d.resource_id)]
        if named or texts:
            return (named or texts)[0].text.strip()
    return None


def composer(snap: ScreenSnapshot, package: str = "") -> Node | None:
    """The message entry field, if the screen has one in its lower half."""
    nodes = _app_nodes(snap, package)
    messaging = is_messaging_package(package or snap.foreground_package)
    half = snap.screen.top + snap.screen.height // 2
    for n in nodes:
        if "EditText" not in n.class_name or n.password or n.bounds.top < half:
            continue
        words = " ".join((n.resource_id, n.hint, n.content_desc, n.text))
        if messaging or _COMPOSER_WORDS.search(words):
            return n
    return None


def conversation_partner(snap: ScreenSnapshot, package: str = "") -> str | None:
    """Who the open conversation is with, or None if this is not a conversation screen."""
    if composer(snap, package) is None:
        return None
    return toolbar_title(snap, package)


def most_recent_thread(snap: ScreenSnapshot, package: str = "") -> str | None:
    """On a messaging app's conversation list: the first thread's title (the freshest one)."""
    package = package or snap.foreground_package
    if not is_messaging_package(package) or composer(snap, package) is not None:
        return None
    nodes = _app_nodes(snap, package)
    for lst in (n for n in nodes if _LIST_CLASS.search(n.class_name)):
        rows = [c for c in snap.children(lst) if c.visible and c.clickable]
        if rows:
            return _row_title(snap, rows[0])
    return None


def _row_title(snap: ScreenSnapshot, row: Node) -> str | None:
    texts = [d for d in snap.descendants(row) if d.visible and d.text.strip() and not d.password]
    named = [d for d in texts if _TITLE_ID.search(d.resource_id)]
    picks = named or texts
    return picks[0].text.strip() if picks else None


def opened_document(snap: ScreenSnapshot, package: str = "") -> str | None:
    """The file a viewer/editor shows as its title, or the one just attached to a draft."""
    title = toolbar_title(snap, package)
    if title and _FILE_NAME.match(title):
        return title
    for node in _app_nodes(snap, package):
        text = node.text.strip()
        if "attach" in node.resource_id.lower() and _FILE_NAME.match(text):
            return text
    return None
