"""The demo: the seed instruction on the built-in simulated phone, through the real stack.

It starts an isolated adb server, a simulated phone (with spinners, pop-ups, a permission dialog
and an "isn't responding" dialog in the way) and a scripted OpenAI-compatible LLM on loopback,
then runs `starebrain do "..."` exactly as a person would. In a terminal you answer the
confirmation before "Send" yourself; without one, the demo says so and approves on your behalf.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

INSTRUCTION = "send the invoice to the client I just messaged, then mark the project as done"
SCENARIO = "obstacle_course"


def _say(text: str) -> None:
    # Bold only on a terminal: a log or a pipe gets plain text, never raw escape sequences.
    bold = sys.stderr.isatty() and "NO_COLOR" not in os.environ
    tag = "\033[1m[demo]\033[0m" if bold else "[demo]"
    print(f"{tag} {text}", file=sys.stderr, flush=True)


def starebrain_command() -> str:
    """How to run `starebrain` from here after `make demo`: the venv's script (it may not be on PATH)."""
    script = Path(sys.executable).with_name("starebrain")
    if not script.exists():
        return f"{shlex.quote(sys.executable)} -m starebrain.cli"
    try:
        return shlex.quote(str(script.relative_to(Path.cwd())))
    except ValueError:
        return shlex.quote(str(script))


def _starebrain(env: dict[str, str], *args: str) -> int:
    """Run the CLI as its own process, sharing this terminal (so confirmation prompts reach you)."""
    return subprocess.call([sys.executable, "-m", "starebrain.cli", *args], env=env, timeout=600)


def run_demo(workdir: Path) -> int:
    """Everything of the demo; returns the exit code of the task."""
    from starebrain.llmserver import ScriptedLlmServer
    from starebrain.sim.adb_server import AdbServer
    from starebrain.sim.harness import SimProcess

    workdir.mkdir(parents=True, exist_ok=True)
    script = Path(__file__).with_name("llm_script.yaml")
    with ExitStack() as stack:
        _say("starting an isolated adb server and the simulated phone …")
        (workdir / "adb").mkdir(exist_ok=True)
        adb = AdbServer(workdir=workdir / "adb").start()
        stack.callback(adb.close)
        phone = SimProcess(adb, scenario=SCENARIO)
        stack.callback(phone.stop)
        phone.wait_online()
        llm = stack.enter_context(ScriptedLlmServer(script))
        env = {**os.environ, **adb.env, "STAREBRAIN_HOME": str(workdir / "home"),
               "OPENAI_BASE_URL": llm.base_url, "OPENAI_API_KEY": "demo", "STAREBRAIN_MODEL": "scripted-demo"}
        _say(f"phone {phone.serial} is up; scripted LLM at {llm.base_url}")
        _say(f'starebrain do "{INSTRUCTION}"')
        code = _starebrain(env, "do", INSTRUCTION, "--device", phone.serial)
        code = _confirm_if_unattended(env, code)
        _report(env, phone, llm)
        return code


def _confirm_if_unattended(env: dict[str, str], code: int) -> int:
    """Without a terminal nobody can answer; say so, and answer as the person of the demo."""
    while code == 3 and not sys.stdin.isatty():
        _say("no terminal to ask you, so the demo approves the step as you would: starebrain approve")
        task_id = _latest_task(env)
        code = _starebrain(env, "approve", task_id)
    return code


def _latest_task(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-m", "starebrain.cli", "history", "--json", "--limit", "1"], env=env,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    import json

    return str(json.loads(out)[0]["id"])


def _report(env: dict[str, str], phone: object, llm: object) -> None:
    task_id = _latest_task(env)
    _starebrain(env, "show", task_id)
    state = subprocess.run([sys.executable, "-m", "starebrain.cli", "sim", "state", "--serial", phone.serial],  # type: ignore[attr-defined]
                           env=env, capture_output=True, text=True, timeout=60).stdout
    effects = next((line for line in state.splitlines() if line.startswith("side_effects")), "side_effects: ?")
    calls = getattr(llm, "requests", [])
    _say(f"the phone's checkable state: {effects}")
    _say(f"LLM requests made: {len(calls)} (one plan; obstructions were cleared without the LLM)")
    home = shlex.quote(env["STAREBRAIN_HOME"])
    command = starebrain_command()
    _say(f"step history lives in {env['STAREBRAIN_HOME']}; try: STAREBRAIN_HOME={home} {command} show {task_id}")
    if os.sep in command and shutil.which("starebrain") is None:
        _say(f"(`starebrain` alone is not on your PATH: run `. {Path(command).parent}/activate` first)")


def main() -> None:
    """`python -m starebrain.demo [WORKDIR]`."""
    workdir = Path(sys.argv[1] if len(sys.argv) > 1 else ".demo").resolve()
    sys.exit(run_demo(workdir))
