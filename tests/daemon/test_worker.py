"""A phone's worker claims a pool task by the phone's tags as they are at claim time (no restart)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NoReturn

from starebrain.config import load_settings
from starebrain.daemon.worker import PhoneWorker, WorkerContext
from starebrain.errors import DeviceBusy
from starebrain.store import Store
from starebrain.store.device_tags import DeviceTags
from starebrain.store.farm import FarmStore, parse_labels
from tests.store.sample import make_task


def _phone_held_elsewhere(serial: str) -> NoReturn:
    # the worker stops right after its claim: this test is about what it claims, not how it drives
    raise DeviceBusy(f"{serial} is held by another process")


def _never(*_args: Any) -> NoReturn:
    raise AssertionError("the worker must not open a session while its phone is held elsewhere")


def test_a_tag_set_while_the_worker_runs_counts_at_its_next_claim(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home")
    with Store.open(settings=settings) as store:
        farm = FarmStore(store)
        ctx = WorkerContext(host="h1", store=store, farm=farm, settings=settings, opener=_never,
                            stopping=threading.Event(), poll_s=1.0, hold_lease=_phone_held_elsewhere,
                            answer_hint=lambda _task: "")
        worker = PhoneWorker(ctx, "phone-a", {"model": "Pixel 8", "host": "h1"})  # not started: one step at a time
        task_id = farm.enqueue(make_task(serial=""), None, parse_labels(["bank=yes"]))
        assert worker._once() is False
        assert farm.claimed_unfinished("phone-a") == []
        DeviceTags(store).set_tags("phone-a", {"bank": "yes"})
        assert worker._once() is False  # claimed, then found the phone held elsewhere
        assert farm.claimed_unfinished("phone-a") == [task_id]
        assert store.load_task(task_id).device_serial == "phone-a"
