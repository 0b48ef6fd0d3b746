"""`Scrubber`: secret values out of text, JSON-like data, dumps and observations; password fields masked."""

from __future__ import annotations

import html
import json

from starebrain.device.base import Observation
from starebrain.executor.secrets import SecretStore
from starebrain.redaction import MASK, Scrubber, secret_boxes

PIN = 'p1n&<"\'x'


def test_every_form_of_a_value_becomes_its_reference() -> None:
    scrub = Scrubber({"PIN": PIN})
    for form in (PIN, html.escape(PIN, quote=False), html.escape(PIN, quote=True), json.dumps(PIN)[1:-1],
                 html.escape(PIN, quote=False).replace('"', "&quot;").replace("'", "&apos;")):
        assert scrub.text(f"before {form} after") == "before {secret:PIN} after", form
    assert scrub.leaks(json.dumps({"typed": PIN}).encode()) and not scrub.leaks("{secret:PIN}")


def test_longer_values_go_first_and_tiny_ones_are_left_alone() -> None:
    scrub = Scrubber({"SHORT": "abcd", "LONG": "abcdefgh", "TINY": "ok"})
    assert scrub.text("abcdefgh abcd ok") == "{secret:LONG} {secret:SHORT} ok"


def test_data_scrubs_strings_anywhere_in_json_like_values() -> None:
    scrub = Scrubber({"PIN": PIN})
    data = {"message": f"typed {PIN}", PIN: [PIN, 3, None, {"deep": (PIN,)}]}
    assert scrub.data(data) == {"message": "typed {secret:PIN}",
                                "{secret:PIN}": ["{secret:PIN}", 3, None, {"deep": ("{secret:PIN}",)}]}


def test_no_value_shows_in_its_repr() -> None:
    assert PIN not in repr(Scrubber({"PIN": PIN})) and not Scrubber({}) and Scrubber({"PIN": PIN})


def test_saved_dumps_mask_password_fields_and_scrub_plain_ones() -> None:
    xml = ('<hierarchy><node text="a &gt; b" resource-id="x:id/title" bounds="[0,0][10,10]" />'
           '<node text="••••••" password="true" hint="Password" bounds="[0,10][10,20]"/>'
           f'<node text="{html.escape(PIN, quote=True)}" password="false" bounds="[0,20][10,30]"></node></hierarchy>')
    saved = Scrubber({"PIN": PIN}).hierarchy(xml)
    assert f'text="{MASK}" password="true" hint="Password"' in saved  # whatever a password field held
    assert 'text="a &gt; b"' in saved and 'text="{secret:PIN}" password="false"' in saved
    assert secret_boxes(saved) == [(0, 20, 10, 30)]


def test_observations_are_scrubbed_and_untouched_ones_are_the_same_object() -> None:
    scrub = Scrubber({"PIN": PIN})
    clean = Observation(hierarchy_xml='<node text="hello"/>', package="p")
    assert scrub.observation(clean) is clean
    dirty = Observation(hierarchy_xml=f'<node text="{html.escape(PIN)}"/>', package="p", screenshot=b"png")
    seen = scrub.observation(dirty)
    assert seen.hierarchy_xml == '<node text="{secret:PIN}"/>' and seen.package == "p" and seen.screenshot == b"png"


def test_the_store_knows_every_secret_of_its_source() -> None:
    store = SecretStore({"STAREBRAIN_SECRET_BANK_PIN": "4821", "STAREBRAIN_SECRET_": "x", "STAREBRAIN_HOME": "/h",
                         "STAREBRAIN_SECRET_EMPTY": ""})
    assert store.known() == {"BANK_PIN": "4821"}
    assert Scrubber.from_store(store).text("pin 4821") == "pin {secret:BANK_PIN}"
    assert store.resolve("bank-pin") == "4821"


class _RecordingStore:
    """Only what `StoreEventSink` writes to."""

    def __init__(self) -> None:
        self.rows: list[tuple[str | None, str, dict[str, object]]] = []

    def add_event(self, task_id: str | None, kind: str, payload: dict[str, object]) -> int:
        self.rows.append((task_id, kind, payload))
        return len(self.rows)

    def add_events(self, events: list[tuple[str | None, str, dict[str, object]]]) -> None:
        self.rows.extend(events)


def test_the_event_sink_writes_payloads_scrubbed() -> None:
    from starebrain.events import StepFinished
    from starebrain.session import StoreEventSink

    for background in (False, True):
        store = _RecordingStore()
        sink = StoreEventSink(store, background=background, scrubber=Scrubber({"PIN": PIN}))
        sink(StepFinished("t1", step_id="s1", index=0, instruction="type it", status="FAILED",
                          message=f"field shows {PIN}", duration_ms=1.0, attempt=1))
        sink.close()
        assert len(store.rows) == 1 and store.rows[0][2]["message"] == "field shows {secret:PIN}"
