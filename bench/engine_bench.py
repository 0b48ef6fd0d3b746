"""Whole steps and resumes of the task engine, through the full stack on simulated phones.

Figures:
- `engine.step_ms_real_phone`: the median wall time of one tap step of the bench flow on real-phone
  timing, from the previous step's end to this one's: guard, write-ahead and result commits, every
  device call the engine makes (look, screenshot, action, verifying looks) and its poll sleeps.
- `engine.device_calls_per_step`: the median number of round trips to the phone per tap step (RPCs and
  shell commands, counted by the sim itself); `..._all_steps` over every step, open_app and typing included.
- `engine.step_minimum_ms`: the least a verified tap step can cost on the same sim with plain
  uiautomator2: one `dump_hierarchy()`, one `click(x, y)`, then `dump_hierarchy()` back to back until the
  dump shows the tap's effect (the phone needs a moment to change screens, so usually two).
- `engine.step_vs_minimum_ratio`: `step_ms_real_phone / step_minimum_ms`. Target <= 1.3.
- `engine.resume_to_first_action_s` (fast timing) and `..._real_phone`: `starebrain resume` started as a
  new process after a SIGKILL (`python -m tests.cli.faulty_cli --fault after_commit:2 run invoice.yaml`)
  until the sim receives its first input action. Target <= 1.0 s.

Diagnostics beside them: `engine.step_ms_fast` (the same step on the as-fast-as-possible sim), the
resume process's CPU seconds at its first action, and the fsync'd commit time measured at the start.
Only the resume figures, printed and not recorded: `python -m bench.engine_bench --resume-only [fast] [real-phone]`.

Sims are in-process (`SimHost`) on an isolated real adb server; the CLI runs as separate processes.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starebrain.sim.adb_server import AdbServer

ENGINE_RUNS = 4  # runs of the flow per timing profile (each gives one sample per step)
RAW_SAMPLES = 15
RESUME_RUNS = 5
PROCESS_TIMEOUT_S = 120.0
FIRST_ACTION_TIMEOUT_S = 30.0
MESSAGES_ICON = (945, 629)  # centre of the launcher's Messages icon in the default scenario
INPUT_METHODS = ("tap", "swipe", "press_key", "set_text", "input_text", "start_app")
GMAIL = "com.google.android.gm"
# The invoice errand without its irreversible Send (nothing waits for a person): taps and types
# across Messages, Gmail and Tasks, with a screenshot per step, as in production.
FLOW = f"""
format: starebrain-flow
version: 1
name: engine-bench
instruction: Prepare the invoice mail to the client I just messaged, then mark the project as done
steps:
  - open_app: com.google.android.apps.messaging
  - tap: {{resource_id: "com.google.android.apps.messaging:id/conversation_name", index: 0}}
    expect: {{resource_id: "com.google.android.apps.messaging:id/conversation_title"}}
  - open_app: {GMAIL}
  - tap: {{resource_id: "{GMAIL}:id/compose_button"}}
    expect: {{resource_id: "{GMAIL}:id/to"}}
  - type: {{selector: {{resource_id: "{GMAIL}:id/to"}}, text: dana@whitfieldstudio.com}}
  - type: {{selector: {{resource_id: "{GMAIL}:id/subject"}}, text: Invoice for the website redesign}}
  - tap: {{content_desc: Attach file}}
    expect: {{text: Invoice-2026-031.pdf}}
  - tap: {{text: Invoice-2026-031.pdf}}
    expect: {{resource_id: "{GMAIL}:id/attachment_tile_title"}}
  - open_app: com.google.android.apps.tasks
  - tap: {{text: Whitfield website redesign}}
    expect: {{resource_id: "com.google.android.apps.tasks:id/mark_done_button"}}
  - tap: {{resource_id: "com.google.android.apps.tasks:id/mark_done_button"}}
    expect: {{text: Completed}}
"""


def median(samples: list[float], digits: int = 2) -> float:
    return round(statistics.median(samples), digits)


class StepClock:
    """Subscribed to the bus: per finished step, its wall time and the phone's round trips since the last one."""

    def __init__(self, round_trips: Callable[[], int], kinds: list[str]) -> None:
        self.round_trips, self.kinds = round_trips, kinds
        self.samples: list[dict[str, Any]] = []
        self._mark: tuple[float, int] | None = None

    def __call__(self, event: Any) -> None:
        if event.kind == "TaskStarted":
            self._mark = (time.perf_counter(), self.round_trips())
        elif event.kind == "StepFinished" and self._mark is not None:
            now = (time.perf_counter(), self.round_trips())
            self.samples.append({"kind": self.kinds[event.index], "ms": (now[0] - self._mark[0]) * 1000,
                                 "calls": now[1] - self._mark[1]})
            self._mark = now


def sim_round_trips(sim: Any) -> Callable[[], int]:
    """RPCs and shell commands the sim has answered so far."""
    device = sim.server.device
    return lambda: int(device.rpcs_run + device.commands_run)


def run_flow_once(sim: Any, home: Path) -> list[dict[str, Any]]:
    """Run the bench flow through the engine builder (store, lease, U2Device, guard, executor); step samples."""
    import yaml

    from starebrain.config import load_settings
    from starebrain.engine import build_engine
    from starebrain.events import EventBus
    from starebrain.flows.flow_file import parse_flow
    from starebrain.models import AgentTask, TaskStatus
    from starebrain.store import Store

    flow = parse_flow(yaml.safe_load(FLOW))
    settings = load_settings(home=home)
    bus = EventBus()
    with Store.open(settings=settings) as store, build_engine(settings, store, sim.serial, events=bus) as session:
        clock = StepClock(sim_round_trips(sim), [s.action.kind for s in flow.steps])
        bus.subscribe(clock)
        task = AgentTask(instruction=flow.instruction, device_serial=sim.serial, steps=flow.steps, source="flow")
        assert session.executor is not None
        task = session.executor.start(task)
        if task.status is not TaskStatus.COMPLETED:
            raise RuntimeError(f"bench flow ended {task.status.value}: {task.status_reason}")
    return clock.samples


def minimum_step(adb: AdbServer, sim: Any) -> list[tuple[float, int]]:
    """(ms, dumps) of plain u2 dump + click + dumps until changed, tapping Messages on the home screen."""
    import adbutils
    import uiautomator2 as u2

    d = u2.connect(adbutils.AdbClient(port=adb.port).device(sim.serial))
    samples = []
    for i in range(RAW_SAMPLES + 3):
        d.press("home")
        time.sleep(0.6)  # untimed: the home screen settles
        start = time.perf_counter()
        before = d.dump_hierarchy()
        d.click(*MESSAGES_ICON)
        dumps = 1
        while d.dump_hierarchy() == before and dumps < 20:
            dumps += 1
        if i >= 3:  # the first rounds warm connections up
            samples.append(((time.perf_counter() - start) * 1000, dumps + 1))
    return samples


def step_figures(adb: AdbServer, host: Any, timing: str, work: Path) -> dict[str, float]:
    """The engine's tap steps against the minimum verified tap, both on one sim with this timing profile."""
    from starebrain.sim.harness import SimConfig

    sim = host.start_sim(adb, SimConfig(timing=timing))
    try:
        minimum = minimum_step(adb, sim)
        steps: list[dict[str, Any]] = []
        for i in range(ENGINE_RUNS):
            sim.reset(timing=timing)
            sim.wait_online()
            steps += run_flow_once(sim, work / f"{timing}-{i}")
    finally:
        sim.stop()
    taps = [s for s in steps if s["kind"] == "tap"]
    step_ms, minimum_ms = median([s["ms"] for s in taps]), median([m for m, _ in minimum])
    return {"step_ms": step_ms, "minimum_ms": minimum_ms, "ratio": round(step_ms / minimum_ms, 3),
            "calls": median([s["calls"] for s in taps], 1), "calls_all": median([s["calls"] for s in steps], 1),
            "minimum_dumps": median([float(n) for _, n in minimum], 1), "taps": len(taps), "steps": len(steps),
            "all_step_ms": median([s["ms"] for s in steps])}


class FirstAction:
    """Wraps the sim phone's input methods (on the sim's own thread) to timestamp the first one."""

    def __init__(self, sim: Any) -> None:
        self.sim = sim
        self.at: float | None = None
        self.what = ""
        self.pid = 0  # the process whose CPU use is read at the first action
        self.cpu_s: float | None = None
        self.seen = threading.Event()

    def arm(self) -> None:
        self.at, self.what, self.pid, self.cpu_s = None, "", 0, None
        self.seen.clear()
        self.sim.call(self._wrap)

    def _wrap(self, phone: Any) -> None:
        for name in INPUT_METHODS:
            original = getattr(type(phone), name).__get__(phone)
            setattr(phone, name, self._recording(name, original))

    def _recording(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def record(*args: Any, **kwargs: Any) -> Any:
            if self.at is None:
                self.at, self.what = time.monotonic(), name
                self.cpu_s = process_cpu_s(self.pid) if self.pid else None
                self.seen.set()
            return original(*args, **kwargs)
        return record


def process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds a live process has used so far (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cli_env(adb: AdbServer, home: Path, **extra: str) -> dict[str, str]:
    # Without PYTHONDONTWRITEBYTECODE (some dev shells set it): an installed starebrain is byte-compiled, so its
    # commands never compile their modules from source; here the crash run writes that cache before the resume.
    env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(STAREBRAIN_HOME=str(home), ANDROID_ADB_SERVER_PORT=str(adb.port),
               ADBUTILS_ADB_PATH="/bin/false", PYTHONUNBUFFERED="1", **extra)
    return env


def resume_once(adb: AdbServer, sim: Any, home: Path, first: FirstAction) -> tuple[float, float]:
    """Crash a run after step 3 committed, then time a new `resume` process to the sim's first action."""
    from starebrain.flows import examples_dir

    sim.reset(scenario="default")
    sim.wait_online()
    flow = str(examples_dir() / "invoice.yaml")
    crashed = subprocess.run([sys.executable, "-m", "tests.cli.faulty_cli", "--fault", "after_commit:2", "run",
                              flow, "--device", sim.serial], env=cli_env(adb, home),
                             capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S, stdin=subprocess.DEVNULL)
    if crashed.returncode != -9:
        raise RuntimeError(f"crash run exited {crashed.returncode}: {crashed.stderr[-500:]}")
    first.arm()
    started = time.monotonic()
    resume = subprocess.Popen([sys.executable, "-m", "starebrain.cli", "resume", "--json"], env=cli_env(adb, home),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    first.pid = resume.pid
    try:
        if not first.seen.wait(FIRST_ACTION_TIMEOUT_S):
            raise RuntimeError("resume made no device action in time")
        assert first.at is not None
        return first.at - started, first.cpu_s if first.cpu_s is not None else float("nan")
    finally:
        try:
            resume.wait(timeout=PROCESS_TIMEOUT_S)  # it runs on to the Send, which waits for the person
        except subprocess.TimeoutExpired:
            resume.kill()
            resume.wait(timeout=10)
        if resume.stderr is not None:
            resume.stderr.close()


def resume_latency(adb: AdbServer, host: Any, timing: str, work: Path) -> list[tuple[float, float]]:
    """(wall, CPU) seconds from `starebrain resume` to the first device action, RESUME_RUNS times."""
    from starebrain.sim.harness import SimConfig

    sim = host.start_sim(adb, SimConfig(timing=timing))
    first = FirstAction(sim)
    try:
        return [resume_once(adb, sim, work / f"resume-{timing}-{i}", first) for i in range(RESUME_RUNS)]
    finally:
        sim.stop()


def run(results: dict[str, Any]) -> None:
    """Isolated adb server + in-process sims; steps in both timing profiles, then resume."""
    with isolated_adb() as (adb, host), tempfile.TemporaryDirectory(prefix="starebrain-engine-bench-") as tmp:
        work = Path(tmp)
        figures = {"real-phone": step_figures(adb, host, "real-phone", work),
                   "fast": step_figures(adb, host, "fast", work)}
        for name, fig in figures.items():
            print(f"  {name:<10} tap step {fig['step_ms']} ms with {fig['calls']} round trips ({fig['taps']} "
                  f"taps; all {fig['steps']} steps: {fig['all_step_ms']} ms, {fig['calls_all']} round trips) | "
                  f"minimum verified tap {fig['minimum_ms']} ms ({fig['minimum_dumps']} dumps + 1 click) "
                  f"-> {fig['ratio']:.2f}x", flush=True)
        resumes = resume_figures(adb, host, ("fast", "real-phone"), work)
    record(results, figures, resumes)


def resume_figures(adb: AdbServer, host: Any, timings: tuple[str, ...],
                   work: Path) -> dict[str, list[tuple[float, float]]]:
    """Resume runs per timing profile, each printed as it is measured."""
    resumes = {}
    for name in timings:
        runs = resumes[name] = resume_latency(adb, host, name, work)
        print(f"  {name:<10} resume to first action {[round(w, 3) for w, _ in runs]} s "
              f"(CPU {[round(c, 2) for _, c in runs]} s) -> median {median([w for w, _ in runs], 3)} s, "
              f"CPU {median([c for _, c in runs], 3)} s", flush=True)
    return resumes


@contextmanager
def isolated_adb() -> Iterator[tuple[AdbServer, Any]]:
    """A real adb server of our own and a sim host; the environment points U2Device at that server."""
    adb = AdbServer().start()
    # U2Device's adb client takes the server port from the environment (restored afterwards).
    saved = {k: os.environ.get(k) for k in ("ANDROID_ADB_SERVER_PORT", "ADBUTILS_ADB_PATH")}
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(adb.port)
    os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/false")  # never spawn a non-isolated adb server
    from starebrain.sim.harness import SimHost

    host = SimHost()
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; fsync'd commit "
          f"{commit_ms():.1f} ms", flush=True)
    try:
        yield adb, host
    finally:
        host.close()
        adb.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def commit_ms(n: int = 30) -> float:
    """Median ms of one tiny WAL + synchronous=FULL commit here: the floor of every durable write."""
    import sqlite3

    with tempfile.TemporaryDirectory(prefix="starebrain-fsync-") as tmp:
        conn = sqlite3.connect(Path(tmp) / "probe.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (x)")
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (1)")
            conn.execute("COMMIT")
            samples.append((time.perf_counter() - start) * 1000)
        conn.close()
    return statistics.median(samples)


def record(results: dict[str, Any], figures: dict[str, dict[str, float]],
           resumes: dict[str, list[tuple[float, float]]]) -> None:
    """The figures under their keys: real-phone timing is the headline of the step figures."""
    real, fast = figures["real-phone"], figures["fast"]
    results["engine.step_ms_real_phone"] = real["step_ms"]
    results["engine.step_minimum_ms"] = real["minimum_ms"]
    results["engine.step_vs_minimum_ratio"] = real["ratio"]
    results["engine.device_calls_per_step"] = real["calls"]
    results["engine.device_calls_per_step_all_steps"] = real["calls_all"]
    results["engine.step_minimum_dumps"] = real["minimum_dumps"]
    results["engine.step_ms_fast"] = fast["step_ms"]
    results["engine.step_vs_minimum_ratio_fast"] = fast["ratio"]
    for name, suffix in (("fast", ""), ("real-phone", "_real_phone")):
        results[f"engine.resume_to_first_action_s{suffix}"] = median([w for w, _ in resumes[name]], 3)
        results[f"engine.resume_to_first_action_cpu_s{suffix}"] = median([c for _, c in resumes[name]], 3)


def main(argv: list[str]) -> int:
    """`python -m bench.engine_bench --resume-only [TIMING ...]`: only the resume figures, printed, not recorded."""
    if argv[:1] != ["--resume-only"]:
        print("usage: python -m bench.engine_bench --resume-only [fast] [real-phone]  "
              "(all engine figures: python -m bench engine)", file=sys.stderr)
        return 2
    timings = tuple(argv[1:]) or ("fast",)
    with isolated_adb() as (adb, host), tempfile.TemporaryDirectory(prefix="starebrain-resume-bench-") as tmp:
        resume_figures(adb, host, timings, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
