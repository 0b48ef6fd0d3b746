"""The task engine's host overhead and resume latency, through the full stack on simulated phones.

Figures:
- `engine.step_overhead_ratio` (real-phone timing) and `engine.step_overhead_ratio_fast`: the median
  host overhead of a step (its wall time minus the time spent inside Device calls, measured by a
  timing proxy around the real U2Device, and minus the executor's poll sleeps) divided by the median
  raw uiautomator2 `dump_hierarchy()` + `click(x, y)` round trip on the same sim. Target <= 0.10.
- `engine.resume_to_first_action_s`: `starebrain resume` started as a new process after a SIGKILL
  (`python -m tests.cli.faulty_cli --fault after_commit:2 run invoice.yaml`) until the sim receives its
  first input action (fast timing; `..._real_phone` with real-phone timing). Target <= 1.0 s.

Diagnostics beside them: `..._host_cpu_ms` (CPU the engine thread spent outside device calls, which,
unlike wall time, does not grow when other processes load the machine), `..._cpu_s` of the resume
process at its first action, and the fsync'd commit time measured at the start (every step commits
four times: write-ahead, its StepStarted event, the result, its StepFinished event).

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starebrain.sim.adb_server import AdbServer

ENGINE_RUNS = 4  # runs of the flow per timing profile (each gives one sample per step)
RAW_SAMPLES = 30
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


class TimedDevice:
    """A Device proxy summing the wall time spent inside the real device's methods (not a mock)."""

    def __init__(self, device: Any) -> None:
        self._device = device
        self.serial = device.serial
        self.busy_s = 0.0
        self.busy_cpu_s = 0.0  # this thread's CPU inside device calls (u2 client work)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._device, name)
        if not callable(attr):
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return attr(*args, **kwargs)
            finally:
                self.busy_s += time.perf_counter() - start
                self.busy_cpu_s += time.thread_time() - cpu
        return timed


class TimedSleep:
    """The runner's sleep (poll waits for a screen to settle): waiting on the phone, not host work."""

    def __init__(self) -> None:
        self.slept_s = 0.0

    def __call__(self, seconds: float) -> None:
        start = time.perf_counter()
        time.sleep(seconds)
        self.slept_s += time.perf_counter() - start


class StepClock:
    """Subscribed last to the bus: one sample per step, from the previous step's end to this one's."""

    def __init__(self, device: TimedDevice, sleep: TimedSleep) -> None:
        self.device, self.sleep = device, sleep
        self.samples: list[dict[str, float]] = []
        self._mark: tuple[float, ...] | None = None

    def _now(self) -> tuple[float, ...]:
        return (time.perf_counter(), self.device.busy_s, self.sleep.slept_s, time.thread_time(),
                self.device.busy_cpu_s)

    def __call__(self, event: Any) -> None:
        if event.kind == "TaskStarted":
            self._mark = self._now()
        elif event.kind == "StepFinished" and self._mark is not None:
            now = self._now()
            wall, device, slept, cpu, device_cpu = (b - a for a, b in zip(self._mark, now, strict=True))
            # host_cpu: CPU the engine thread burnt outside device calls; unlike the wall figure it
            # does not grow when other processes compete for the CPUs.
            self.samples.append({"wall": wall * 1000, "device": device * 1000, "sleep": slept * 1000,
                                 "host": (wall - device - slept) * 1000, "host_cpu": (cpu - device_cpu) * 1000})
            self._mark = now


def run_flow_once(adb: AdbServer, serial: str, home: Path) -> list[dict[str, float]]:
    """Run the bench flow through open_session (store, lease, U2Device, guard, executor); step samples."""
    import yaml

    from starebrain.config import load_settings
    from starebrain.events import EventBus
    from starebrain.flows.flow_file import parse_flow
    from starebrain.models import AgentTask, TaskStatus
    from starebrain.session import open_session
    from starebrain.store import Store

    flow = parse_flow(yaml.safe_load(FLOW))
    settings = load_settings(home=home)
    with Store.open(settings=settings) as store, open_session(settings, store, serial,
                                                              events=EventBus()) as session:
        runner = session.executor.runner  # type: ignore[union-attr]
        device, sleep = TimedDevice(runner.device), TimedSleep()
        runner.device, runner.sleep = device, sleep
        clock = StepClock(device, sleep)
        session.events.subscribe(clock)
        task = AgentTask(instruction=flow.instruction, device_serial=serial, steps=flow.steps, source="flow")
        task = session.executor.start(task)  # type: ignore[union-attr]
        if task.status is not TaskStatus.COMPLETED:
            raise RuntimeError(f"bench flow ended {task.status.value}: {task.status_reason}")
    return clock.samples


def raw_round_trip(adb: AdbServer, serial: str) -> list[float]:
    """Milliseconds of plain u2 `dump_hierarchy()` + `click(x, y)` (home pressed untimed between)."""
    import adbutils
    import uiautomator2 as u2

    d = u2.connect(adbutils.AdbClient(port=adb.port).device(serial))
    samples = []
    for i in range(RAW_SAMPLES + 3):
        d.press("home")
        start = time.perf_counter()
        d.dump_hierarchy()
        d.click(*MESSAGES_ICON)
        if i >= 3:  # the first round trips warm connections up
            samples.append((time.perf_counter() - start) * 1000)
    return samples


def overhead(adb: AdbServer, host: Any, timing: str, work: Path) -> dict[str, float]:
    """Host overhead per step vs the raw round trip, both on one sim with this timing profile."""
    from starebrain.sim.harness import SimConfig

    sim = host.start_sim(adb, SimConfig(timing=timing))
    try:
        raw = raw_round_trip(adb, sim.serial)
        steps: list[dict[str, float]] = []
        for i in range(ENGINE_RUNS):
            sim.reset(timing=timing)
            sim.wait_online()
            steps += run_flow_once(adb, sim.serial, work / f"{timing}-{i}")
    finally:
        sim.stop()
    host_ms, raw_ms = median([s["host"] for s in steps]), median(raw)
    return {"ratio": round(host_ms / raw_ms, 4), "host_ms": host_ms, "raw_ms": raw_ms,
            "step_ms": median([s["wall"] for s in steps]), "device_ms": median([s["device"] for s in steps]),
            "sleep_ms": median([s["sleep"] for s in steps]), "steps": len(steps),
            "host_cpu_ms": median([s["host_cpu"] for s in steps]),
            "host_p90_ms": round(statistics.quantiles([s["host"] for s in steps], n=10)[-1], 2)}


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
    env = {k: v for k, v in os.environ.items() if not k.startswith("STAREBRAIN_")}
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
    resume = subprocess.Popen([sys.executable, "-m", "cli", "resume", "--json"], env=cli_env(adb, home),
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
    """Isolated adb server + in-process sims; engine overhead in both timing profiles, then resume."""
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
        with tempfile.TemporaryDirectory(prefix="starebrain-engine-bench-") as tmp:
            work = Path(tmp)
            figures = {"real-phone": overhead(adb, host, "real-phone", work),
                       "fast": overhead(adb, host, "fast", work)}
            for name, fig in figures.items():
                print(f"  {name:<10} host overhead {fig['host_ms']} ms/step (p90 {fig['host_p90_ms']}, "
                      f"CPU {fig['host_cpu_ms']}) / raw dump+click {fig['raw_ms']} ms = {fig['ratio']:.1%}; "
                      f"step {fig['step_ms']} ms = device {fig['device_ms']} + poll sleeps {fig['sleep_ms']} "
                      f"+ host ({fig['steps']} steps)", flush=True)
            resumes = {name: resume_latency(adb, host, name, work) for name in ("fast", "real-phone")}
            for name, runs in resumes.items():
                print(f"  {name:<10} resume to first action {[round(w, 3) for w, _ in runs]} s "
                      f"(CPU {[round(c, 2) for _, c in runs]} s)", flush=True)
    finally:
        host.close()
        adb.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    record(results, figures, resumes)


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
    """The figures under their keys: real-phone is the headline ratio, fast the headline resume."""
    for name, suffix in (("real-phone", ""), ("fast", "_fast")):
        fig = figures[name]
        results[f"engine.step_overhead_ratio{suffix}"] = fig["ratio"]
        results[f"engine.step_host_ms{suffix}"] = fig["host_ms"]
        results[f"engine.step_host_cpu_ms{suffix}"] = fig["host_cpu_ms"]
        results[f"engine.raw_dump_click_ms{suffix}"] = fig["raw_ms"]
    for name, suffix in (("fast", ""), ("real-phone", "_real_phone")):
        results[f"engine.resume_to_first_action_s{suffix}"] = median([w for w, _ in resumes[name]], 3)
        results[f"engine.resume_to_first_action_cpu_s{suffix}"] = median([c for _, c in resumes[name]], 3)
