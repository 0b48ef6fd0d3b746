from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from starebrain.models import Selector
from starebrain.snapshot import ScreenSnapshot
from tests.snapshot.dumps import hierarchy, node

SECRET = "hunter2-Correct-Horse"


def login_screen(secret: str = SECRET) -> str:
    kids = (node("Sign in to StareBank", bounds="[40,100][1040,200]")
            + node("alice@example.com", cls="android.widget.EditText", rid="com.starebrain.bank:id/user",
                   bounds="[40,300][1040,400]", clickable=True, focusable=True)
            + node(secret, cls="android.widget.EditText", rid="com.starebrain.bank:id/password",
                   bounds="[40,450][1040,550]", clickable=True, focusable=True, focused=True, password=True,
                   hint=secret)
            + node("Sign in", cls="android.widget.Button", bounds="[40,600][1040,700]", clickable=True))
    return hierarchy(node(cls="android.widget.FrameLayout", pkg="com.starebrain.bank", bounds="[0,0][1080,2400]",
                          children=kids))


def every_output(s: ScreenSnapshot) -> str:
    return "\n".join([*s.visible_texts, *s.interactables, s.summary(), s.summary(relevant_to=SECRET),
                      s.full_dump_text(), repr(s), s.hash, *(repr(n) for n in s.nodes)])


def test_password_text_appears_in_no_output():
    s = ScreenSnapshot.from_xml(login_screen())
    assert SECRET not in every_output(s)
    assert "alice@example.com" in s.summary()  # ordinary fields are still shown
    assert any("[password" in e for e in s.interactables)


def test_password_field_is_still_found_by_its_id():
    s = ScreenSnapshot.from_xml(login_screen())
    field = s.resolve(Selector(resource_id="password"))
    assert field is not None and field.password and field.text == ""


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=6, max_size=30)
       .filter(lambda t: t.strip() == t and len(set(t)) > 3))
def test_no_password_ever_leaks(secret):
    assume(secret not in every_output(ScreenSnapshot.from_xml(login_screen("x"))))  # e.g. "[passw"
    s = ScreenSnapshot.from_xml(login_screen(secret))
    assert secret not in every_output(s)
