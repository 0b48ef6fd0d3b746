"""`starebrain resume` must reach the phone fast: nothing of openai, alembic or textual loads on its way.

sqlmodel and uiautomator2 alone take most of the one-second budget; the planner (openai), the schema
upgrade (alembic, only for an old file) and the TUI (textual) are not needed to continue a task.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from starebrain.config import load_settings
from starebrain.store import Store

HEAVY = ("openai", "alembic", "textual")
PROJECT_ROOT = Path(__file__).resolve().parents[2]

# What `resume` imports on its way to the first device action (cli/task_commands.py, cli/wiring.py,
# starebrain/session.py), then the work it does before touching the phone.
RESUME_PATH = """
    import sys
    import starebrain.cli.app, starebrain.cli.task_commands, starebrain.cli.wiring
    import starebrain.cli.live_view, starebrain.cli.outcome, starebrain.cli.failures
    import rich.prompt
    import starebrain.config, starebrain.events, starebrain.models, starebrain.session
    import starebrain.device.u2_device, starebrain.executor.task_executor, starebrain.guard
    from starebrain.profiles import load_profiles
    from starebrain.store import Store

    load_profiles()
    with Store.open() as store:
        store.latest_unresolved()
    print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & {HEAVY})))
"""


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_")}
    env.update(STAREBRAIN_HOME=str(home), PYTHONPATH=str(PROJECT_ROOT))
    return env


def _existing_home(tmp_path: Path) -> Path:
    """A data dir whose database is already at the current schema, as after any earlier run."""
    home = tmp_path / "home"
    Store.open(settings=load_settings(home=home)).close()
    return home


def test_the_resume_code_path_loads_no_planner_schema_tool_or_tui(tmp_path: Path) -> None:
    code = textwrap.dedent(RESUME_PATH).replace("{HEAVY}", repr(set(HEAVY)))
    done = subprocess.run([sys.executable, "-c", code], env=_env(_existing_home(tmp_path)), cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_the_resume_command_imports_none_of_them(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "starebrain.cli", "resume"],
                          env=_env(_existing_home(tmp_path)), cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "nothing to resume" in done.stderr
    imported = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "sqlalchemy" in imported  # the trace is real
    assert imported & set(HEAVY) == set()


def test_resume_json_loads_no_terminal_rendering(tmp_path: Path) -> None:
    """With --json nothing is drawn: the live view (rich) stays unloaded, as does click beside typer's own copy."""
    done = subprocess.run([sys.executable, "-c", EXIT_MODULES, "resume", "--json"],
                          env=_env(_existing_home(tmp_path)), cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"message": "nothing to resume"' in done.stdout
    loaded = set(done.stderr.split("MODULES ", 1)[1].split())
    assert "starebrain.store.repository" in loaded  # the command did open the store
    assert loaded & {"rich", "click", "starebrain.cli.live_view"} == set()


# Runs the CLI in-process, then lists every module it loaded when the interpreter exits.
EXIT_MODULES = """
import atexit, sys
atexit.register(lambda: print("MODULES", *sorted(sys.modules), file=sys.stderr))
sys.argv[0] = "starebrain"
from starebrain.cli.app import main
main()
"""
