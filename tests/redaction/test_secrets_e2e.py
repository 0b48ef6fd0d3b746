"""A canary secret typed into a password field and a plain field, through the real CLI, the real adb
server, the simulated phone and (for `do`) the scripted LLM server via the real openai client.

Afterwards the canary is nowhere: not in any byte of the data dir (database, WAL, dumps, screenshots),
not in any request the LLM server received, not in the cassette, the HTML report or the CLI's output, nor on
the phone's clipboard, which typing never touched; a value said in the instruction reaches the LLM and
the database only as its reference. The data dir is 0700 and every file 0600 although
the processes ran under umask 022.
"""

from __future__ import annotations

import html
import json
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from starebrain.llmserver import plan_step, selector_dict
from tests.agent.support import LlmCli, llm_env, plan_entry, replan_entry
from tests.redaction.umask import umask_022  # noqa: F401 - a fixture, used by name

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("umask_022")]  # the CLI processes inherit it

CANARY = 'cAnary-7Q&x<"z'  # XML and JSON escape it differently: every form must be gone
SECRET_ENV = {"STAREBRAIN_SECRET_CANARY": CANARY}
REF = "{secret:CANARY}"
BANK = "com.starebrain.bank"
KEEP = "com.google.android.keep"
CLIP = "what the person copied"
MAX_APPROVALS = 8


def canary_forms() -> set[bytes]:
    """The canary as any file or wire format could hold it."""
    forms = {CANARY, html.escape(CANARY, quote=False), html.escape(CANARY, quote=True),
             html.escape(CANARY, quote=False).replace('"', "&quot;"), json.dumps(CANARY)[1:-1],
             json.dumps(CANARY, ensure_ascii=True)[1:-1]}
    return {f.encode() for f in forms} | {CANARY.encode("utf-16-le")}


def leaks_in(blob: bytes) -> list[bytes]:
    return [f for f in canary_forms() if f in blob]


def step(kind: str, instruction: str, app: str, **fields: Any) -> dict[str, Any]:
    """One planned step as the LLM writes it."""
    action = {"kind": kind, **{k: (selector_dict(**v) if k == "selector" else v) for k, v in fields.items()}}
    return plan_step(instruction, action, app)


def drive(cli: LlmCli, *first: str) -> list[subprocess.CompletedProcess[str]]:
    """Run a command, then approve whatever the guard asks (this test is about secrets, not the guard)."""
    runs = [cli.run(*first)]
    while runs[-1].returncode == 3 and len(runs) <= MAX_APPROVALS:
        runs.append(cli.run("approve", cli.latest_task_id()))
    assert runs[-1].returncode in (0, 1), runs[-1].stderr
    return runs


def assert_nothing_kept(home: Path, runs: list[subprocess.CompletedProcess[str]]) -> None:
    files = [p for p in home.rglob("*") if p.is_file()]
    assert any(p.name == "starebrain.db" for p in files) and any(p.suffix == ".xml" for p in files)
    leaked = {str(p.relative_to(home)): leaks_in(p.read_bytes()) for p in files}
    assert {k: v for k, v in leaked.items() if v} == {}
    assert [leaks_in((r.stdout + r.stderr).encode()) for r in runs] == [[]] * len(runs)
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    loose = {str(p.relative_to(home)): oct(stat.S_IMODE(p.stat().st_mode)) for p in home.rglob("*")
             if stat.S_IMODE(p.stat().st_mode) != (0o700 if p.is_dir() else 0o600)}
    assert loose == {}


def memo_painted_over(dump: Path) -> bool:
    """Whether the screenshot saved with `dump` is black in the middle of the memo field."""
    from PIL import Image

    from starebrain.snapshot import ScreenSnapshot

    snap = ScreenSnapshot.from_xml(dump.read_text())
    memo = next(n for n in snap.nodes if n.resource_id == f"{BANK}:id/memo_input")
    shot = Image.open(next(dump.parent.glob(dump.stem + ".*g"))).convert("RGB")
    width, height = max(n.bounds.right for n in snap.nodes), max(n.bounds.bottom for n in snap.nodes)
    x, y = memo.center
    return shot.getpixel((x * shot.width // width, y * shot.height // height)) == (0, 0, 0)


def typed_fields(sim: Any) -> dict[str, str]:
    """What the phone's fields hold now (read from the sim, not through StareBrain)."""
    def read(phone: Any) -> dict[str, str]:
        return {key: value for task in phone.nav.tasks.values() for screen in task
                for key, value in screen.form.items()}
    return sim.call(read)


def test_run_types_the_canary_without_the_clipboard_and_keeps_no_trace(sim: Any, tmp_path: Path) -> None:
    sim.call(lambda phone: phone.set_clipboard(CLIP))
    flow = tmp_path / "sign-in.yaml"
    flow.write_text(yaml.safe_dump({
        "format": "starebrain-flow", "version": 1, "name": "canary",
        "instruction": "Sign in to the bank and leave a memo on a transfer",
        "steps": [
            {"open_app": BANK, "instruction": "Open the bank"},
            {"type": {"selector": {"resource_id": f"{BANK}:id/password_input"}, "text": REF},
             "instruction": "Enter the password"},
            {"tap": {"resource_id": f"{BANK}:id/sign_in_button"}, "instruction": "Sign in",
             "expect": {"resource_id": f"{BANK}:id/transfer_button"}},
            {"tap": {"resource_id": f"{BANK}:id/transfer_button"}, "instruction": "Start a transfer",
             "expect": {"resource_id": f"{BANK}:id/memo_input"}},
            {"type": {"selector": {"resource_id": f"{BANK}:id/memo_input"}, "text": REF},
             "instruction": "Put the canary into a plain field"},
            {"type": {"selector": {"resource_id": f"{BANK}:id/payee_input"}, "text": "Dana Whitfield"},
             "instruction": "Name the payee (the memo with the canary is on screen now)"},
        ]}))
    home = tmp_path / "home"
    home.mkdir(mode=0o755)  # as an older StareBrain left it
    cli = LlmCli(home, SECRET_ENV)
    runs = drive(cli, "run", str(flow), "--device", sim.serial)
    assert runs[-1].returncode == 0, runs[-1].stderr

    assert typed_fields(sim).get("memo") == CANARY  # typed (the password too: signing in needs one)
    assert sim.call(lambda phone: phone.get_clipboard()) == CLIP  # the clipboard was never set nor read
    shown = [d for d in home.rglob("*.xml") if REF in d.read_text()]
    assert shown  # the memo was on screen, saved as its reference...
    assert all(memo_painted_over(d) for d in shown)  # ...and painted over on the screenshot beside it
    report = tmp_path / "report.html"
    runs.append(cli.run("report", cli.latest_task_id(), "--html", str(report)))
    assert runs[-1].returncode == 0, runs[-1].stderr
    assert report.stat().st_size > 0 and leaks_in(report.read_bytes()) == []
    assert_nothing_kept(home, runs)


def test_do_keeps_the_canary_out_of_every_prompt_and_the_cassette(sim: Any, tmp_path: Path, llm: Any) -> None:
    sim.call(lambda phone: phone.set_clipboard(CLIP))
    plan = [
        step("open_app", "Open the bank", BANK, package=BANK),
        step("type", "Enter the password", BANK, selector={"resource_id": f"{BANK}:id/password_input"}, text=REF),
        step("open_app", "Open Keep", KEEP, package=KEEP),
        step("tap", "Start a note", KEEP, selector={"resource_id": f"{KEEP}:id/new_note_button"}),
        step("type", "Write the canary into the note", KEEP,
             selector={"resource_id": f"{KEEP}:id/edit_note_text"}, text=REF),
        step("tap", "Pin the note", KEEP, selector={"text": "Pin this note"}),  # not there: ground, replan
    ]
    wait = step("wait_for", "Check the note is open", KEEP,
                selector={"resource_id": f"{KEEP}:id/edit_note_text"}, timeout_s=2)
    server = llm([plan_entry(plan), {"purpose": "ground", "content": {"selector": None, "reason": "none"},
                                     "repeat": 3}, replan_entry([wait])])
    home, cassette = tmp_path / "home", tmp_path / "cassettes" / "canary.json"  # both created by the CLI
    cli = LlmCli(home, {**llm_env(server), **SECRET_ENV})
    said = f"sign in with {CANARY}, then note it"  # a person may say a secret's value aloud, too
    runs = drive(cli, "do", said, "--device", sim.serial, "--record", str(cassette))

    assert typed_fields(sim).get("text") == CANARY
    assert sim.call(lambda phone: phone.get_clipboard()) == CLIP
    asked = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert {r.purpose for r in asked} >= {"plan", "ground", "replan"}
    assert f"sign in with {REF}, then note it" in asked[0].message_text("user")
    after_typing = "\n".join(r.raw for r in asked if r.purpose in ("ground", "replan"))
    assert REF.replace('"', '\\"') in after_typing  # the note's text reached the prompts, as its reference
    assert [leaks_in(r.raw.encode()) for r in asked] == [[]] * len(asked)
    assert cassette.is_file() and leaks_in(cassette.read_bytes()) == []
    assert stat.S_IMODE(cassette.stat().st_mode) == 0o600
    assert_nothing_kept(home, runs)
