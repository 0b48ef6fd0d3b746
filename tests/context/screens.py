"""Fake app screens shaped like real messaging and document apps (toolbar, list, composer)."""

from __future__ import annotations

from tests.fakes import FakeDevice, FakeNode, FakeScreen, screen_xml

CHAT = "com.example.chat"
FILES = "com.example.files"


def toolbar(package: str, title: str, title_id: str = "title") -> FakeNode:
    """A top app bar holding an up button and a title, as AppCompat/Material lays it out."""
    return FakeNode(resource_id=f"{package}:id/toolbar", class_name="androidx.appcompat.widget.Toolbar",
                    bounds=(0, 84, 1080, 231), children=(
                        FakeNode(content_desc="Navigate up", class_name="android.widget.ImageButton",
                                 bounds=(0, 84, 147, 231), clickable=True),
                        FakeNode(text=title, resource_id=f"{package}:id/{title_id}",
                                 bounds=(165, 114, 900, 201)),
                    ))


def thread_row(name: str, snippet: str, top: int) -> FakeNode:
    return FakeNode(resource_id=f"{CHAT}:id/thread_row", class_name="android.view.ViewGroup",
                    bounds=(0, top, 1080, top + 200), clickable=True, children=(
                        FakeNode(text=name, resource_id=f"{CHAT}:id/conversation_name",
                                 bounds=(180, top + 30, 900, top + 100)),
                        FakeNode(text=snippet, resource_id=f"{CHAT}:id/snippet",
                                 bounds=(180, top + 110, 900, top + 170)),
                    ))


def conversation_list(*names: str) -> str:
    rows = tuple(thread_row(n, f"last message from {n}", 231 + i * 200) for i, n in enumerate(names))
    return screen_xml(CHAT, [toolbar(CHAT, "Chats"),
                             FakeNode(resource_id=f"{CHAT}:id/threads",
                                      class_name="androidx.recyclerview.widget.RecyclerView",
                                      bounds=(0, 231, 1080, 1800), children=rows)])


def conversation(name: str) -> str:
    return screen_xml(CHAT, [
        toolbar(CHAT, name, "conversation_name"),
        FakeNode(text="See you at 5", resource_id=f"{CHAT}:id/message_text", bounds=(100, 400, 900, 480)),
        FakeNode(resource_id=f"{CHAT}:id/entry", class_name="android.widget.EditText", hint="Message",
                 bounds=(20, 1700, 880, 1800), focused=True),
        FakeNode(content_desc="Send", resource_id=f"{CHAT}:id/send", bounds=(900, 1700, 1060, 1800),
                 class_name="android.widget.ImageButton", clickable=True),
    ])


def document(name: str) -> str:
    return screen_xml(FILES, [toolbar(FILES, name),
                              FakeNode(text="Page 1 of 3", bounds=(100, 400, 900, 480))])


def file_list(*names: str) -> str:
    rows = tuple(FakeNode(text=n, resource_id=f"{FILES}:id/file_name", bounds=(0, 231 + i * 150, 1080,
                          381 + i * 150), clickable=True) for i, n in enumerate(names))
    return screen_xml(FILES, [toolbar(FILES, "Downloads"),
                              FakeNode(class_name="androidx.recyclerview.widget.RecyclerView",
                                       bounds=(0, 231, 1080, 1800), children=rows)])


def phone() -> FakeDevice:
    """Files (list -> invoice) and Chat (list -> Ana's thread); files app in front."""
    return FakeDevice([
        FakeScreen("files", file_list("invoice_0042.pdf", "notes.txt"), package=FILES, activity=".Browse",
                   on_tap={"text=invoice_0042.pdf": "invoice"}),
        FakeScreen("invoice", document("invoice_0042.pdf"), package=FILES, activity=".Viewer",
                   on_press={"back": "files"}),
        FakeScreen("chats", conversation_list("Ana Lima", "Bruno"), package=CHAT, activity=".Main",
                   on_tap={"text=Ana Lima": "ana", "text=Bruno": "bruno"}),
        FakeScreen("ana", conversation("Ana Lima"), package=CHAT, activity=".Thread",
                   on_press={"back": "chats"}),
        FakeScreen("bruno", conversation("Bruno"), package=CHAT, activity=".Thread",
                   on_press={"back": "chats"}),
    ], launch={FILES: "files", CHAT: "chats"})
