"""Shell commands that act on apps and the screen: am, monkey, input, screencap, uiautomator."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starebrain.sim.services.android_release import full_class, short_component
from starebrain.sim.services.shell_runtime import CommandContext, command

KEYCODES = {"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20,
            "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25,
            "POWER": 26, "CAMERA": 27, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "MENU": 82,
            "SEARCH": 84, "ESCAPE": 111, "FORWARD_DEL": 112, "APP_SWITCH": 187, "WAKEUP": 224,
            "SLEEP": 223, "VOLUME_MUTE": 164}
EXTRA_OPTIONS = ("-e", "--es", "--ei", "--ez", "--el", "--ef", "--eu", "--ecn", "--eia", "--esa")
VALUE_OPTIONS = ("-t", "-f", "--user", "-p", "--display", "--windowingMode", "--activityType", "-P")
VIEW = "android.intent.action.VIEW"
INPUT_SOURCES = ("touchscreen", "keyboard", "mouse", "touchpad", "dpad", "stylus", "gamepad", "trackball",
                 "joystick", "touchnavigation", "rotaryencoder")


async def pause_ms(ms: float) -> None:
    """Sleep for a timing-profile latency without blocking other phones."""
    if ms > 0:
        await asyncio.sleep(ms / 1000.0)


@dataclass
class Intent:
    """What `am start`/`am broadcast` options describe."""

    action: str | None = None
    data: str | None = None
    categories: list[str] = field(default_factory=list)
    component: tuple[str, str] | None = None  # (package, full class)
    extras: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)  # -S -W -D ...
    package: str | None = None  # -p: only this app may take the intent

    def short(self, flg: str | None = None) -> str:
        """`Intent { ... }` as Android 13-15 print it (the data's path redacted to `/...`)."""
        parts = [f"act={self.action}"] if self.action else []
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={_redacted(self.data)}")
        if flg:
            parts.append(f"flg={flg}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


def _redacted(data: str) -> str:
    parsed = urlsplit(data)
    if parsed.scheme and parsed.netloc:
        return f"{parsed.scheme}://{parsed.netloc}/..."
    return f"{parsed.scheme}:..." if parsed.scheme else data


def parse_intent(args: list[str]) -> Intent:
    """`am start`/`am broadcast` arguments after the verb; a bare trailing word is the data URI."""
    intent = Intent()
    i = 0
    while i < len(args):
        arg = args[i]
        value = args[i + 1] if i + 1 < len(args) else ""
        step = 2
        if arg == "-a":
            intent.action = value
        elif arg == "-d":
            intent.data = value
        elif arg == "-c":
            intent.categories.append(value)
        elif arg == "-p":
            intent.package = value
        elif arg == "-n":
            package, _, activity = value.partition("/")
            intent.component = (package, full_class(package, activity))
        elif arg in EXTRA_OPTIONS:
            intent.extras[value] = args[i + 2] if i + 2 < len(args) else ""
            step = 3
        elif arg in VALUE_OPTIONS:
            pass
        elif arg.startswith("-"):
            intent.flags.add(arg)
            step = 1
        else:
            intent.data = arg
            step = 1
        i += step
    return intent


@command("am")
async def am(ctx: CommandContext, args: list[str]) -> int:
    """am start|start-activity|force-stop|stop-app|broadcast|get-current-user."""
    verb = args[1] if len(args) > 1 else ""
    sub = AM.get(verb)
    if sub is None:
        ctx.error(f"Unknown command: {verb}" if verb else "usage: am [start|force-stop|broadcast] ...")
        return 1
    return await sub(ctx, args[2:])


async def _am_start(ctx: CommandContext, args: list[str]) -> int:
    # As ActivityManagerShellCommand.runStartActivity: problems go to stderr, and the exit status
    # stays 0 whatever happened (clients must read the output).
    intent = parse_intent(args)
    device = ctx.device
    phone = device.phone
    target = _resolve(ctx, intent, quiet=True)
    if "-S" in intent.flags and target is not None:
        ctx.print(f"Stopping: {target[0]}")
        phone.stop_app(target[0])
        device.processes.died(target[0])
    ctx.print(f"Starting: {intent.short()}")
    if target is None:
        _resolve(ctx, intent)  # prints Android's error
        return 0
    package, activity = target
    running, on_top = package in phone.running_packages(), phone.current_focus()[0] == package
    await pause_ms(phone.timing.action_ms)
    link = intent.data if intent.component is None else None
    if not (phone.open_link(link, package) if link else phone.start_app(package, activity)):
        ctx.error("Error: Activity not started, unknown error code -96")
        return 0
    device.log.add("ActivityTaskManager", f"START u0 {intent.short()[7:]} from uid 2000")
    if on_top:
        ctx.error("Warning: Activity not started, intent has been delivered to currently running "
                  "top-most instance.")
    elif running and intent.component is None:
        ctx.error("Warning: Activity not started, its current task has been brought to the front")
    if "-W" in intent.flags:
        ctx.print(f"Status: ok\nLaunchState: {'HOT' if running else 'COLD'}\n"
                  f"Activity: {short_component(package, activity)}\nTotalTime: 0\nWaitTime: 0\nComplete")
    return 0


def _resolve(ctx: CommandContext, intent: Intent, quiet: bool = False) -> tuple[str, str] | None:
    """The (package, activity) an intent starts, or None (after printing Android's error unless quiet)."""
    device = ctx.device
    if intent.component is not None:
        package, activity = intent.component
        record = device.packages.get(device.phone, package)
        if record is None or (record.activities is not None and activity not in record.activities):
            if not quiet:
                ctx.error(f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.")
            return None
        return package, activity
    found = device.packages.resolve_view(device.phone, intent.data, intent.package) if intent.data else None
    if found is None or (intent.action or VIEW) != VIEW:
        if not quiet:
            ctx.error(f"Error: Activity not started, unable to resolve {intent.short(flg='0x10000000')}")
        return None
    record, activity = found
    return record.name, activity


async def _am_force_stop(ctx: CommandContext, args: list[str]) -> int:
    from starebrain.sim.services.package_commands import without_user

    for package in without_user(args):
        ctx.device.phone.stop_app(package)
        ctx.device.processes.died(package)
    return 0


async def _am_broadcast(ctx: CommandContext, args: list[str]) -> int:
    from starebrain.sim.services.adb_keyboard import receive

    intent = parse_intent(args)
    ctx.print(f"Broadcasting: {intent.short(flg='0x400000')}")
    answer = receive(ctx.device, intent.action or "", intent.extras)
    ctx.print("Broadcast completed: result=0" if answer is None
              else f'Broadcast completed: result={answer[0]}, data="{answer[1]}"')
    return 0


async def _am_current_user(ctx: CommandContext, args: list[str]) -> int:
    ctx.print("0")
    return 0


AM = {"start": _am_start, "start-activity": _am_start, "force-stop": _am_force_stop, "stop-app": _am_force_stop,
      "broadcast": _am_broadcast, "get-current-user": _am_current_user}


@command("monkey")
async def monkey(ctx: CommandContext, args: list[str]) -> int:
    """monkey -p PKG -c CATEGORY 1: launches the app, as u2's app_start(pkg) uses it."""
    package = args[args.index("-p") + 1] if "-p" in args[:-1] else ""
    device = ctx.device
    record = device.packages.get(device.phone, package)
    if record is None or record.launcher is None:
        ctx.error("** No activities found to run, monkey aborted.")
        return 252
    await pause_ms(device.phone.timing.action_ms)
    if not device.phone.start_app(record.name, record.launcher):
        ctx.error("** No activities found to run, monkey aborted.")
        return 252
    ctx.print("".join(f"  bash arg: {arg}\n" for arg in args[1:]) + f"args: [{', '.join(args[1:])}]")
    ctx.print("".join(f' arg: "{arg}"\n' for arg in args[1:]) + "data=\"" + record.name + "\"")
    ctx.print("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)")
    return 0


@command("input")
async def input_(ctx: CommandContext, args: list[str]) -> int:
    """input [-d DISPLAY] [SOURCE] tap X Y | swipe|draganddrop X1 Y1 X2 Y2 [MS] | text T | keyevent K..."""
    words = [a for i, a in enumerate(args[1:], 1) if a not in INPUT_SOURCES and a != "-d" and args[i - 1] != "-d"]
    phone = ctx.device.phone
    try:
        numbers = [float(a) for a in words[1:]] if words and words[0] in ("tap", "swipe", "draganddrop") else []
    except ValueError:
        ctx.error(f"input: bad number in {' '.join(words[1:])}")
        return 1
    await pause_ms(phone.timing.action_ms)
    if words[:1] == ["tap"] and len(numbers) == 2:
        phone.tap(numbers[0], numbers[1])
    elif words[:1] in (["swipe"], ["draganddrop"]) and len(numbers) in (4, 5):
        duration = numbers[4] if len(numbers) == 5 else 300.0
        x1, y1, x2, y2 = numbers[:4]
        steps = max(2, int(duration / 5))
        await pause_ms(steps * phone.timing.step_ms)  # the gesture takes its duration on a phone
        phone.swipe(x1, y1, x2, y2, steps=steps)
    elif words[:1] == ["text"] and len(words) > 1:
        phone.input_text(" ".join(words[1:]).replace("%s", " "))
    elif words[:1] == ["keyevent"] and len(words) > 1:
        return _keyevents(ctx, [w for w in words[1:] if not w.startswith("--")])
    else:
        ctx.error("usage: input [tap x y | swipe x1 y1 x2 y2 [ms] | text T | keyevent K]")
        return 1
    return 0


def _keyevents(ctx: CommandContext, keys: list[str]) -> int:
    for key in keys:
        name = key.upper().removeprefix("KEYCODE_")
        code = int(key) if key.isdigit() else KEYCODES.get(name)
        if code is None:
            ctx.error(f"input: unknown keycode {key}")
            return 1
        ctx.device.phone.press_key(code)
    return 0


@command("screencap")
async def screencap(ctx: CommandContext, args: list[str]) -> int:
    """screencap -p [-d ID] [FILE]: PNG bytes to stdout or into FILE."""
    await pause_ms(ctx.device.phone.timing.screencap_ms)
    data = ctx.device.phone.screenshot("PNG")
    target = next((a for i, a in enumerate(args[1:], 1)
                   if not a.startswith("-") and args[i - 1] != "-d"), None)
    if target:
        ctx.device.files.write(target, data)
    else:
        ctx.write_bytes(data)
    return 0


@command("uiautomator")
async def uiautomator(ctx: CommandContext, args: list[str]) -> int:
    """uiautomator dump [FILE]: writes the hierarchy XML (the real tool's typo kept)."""
    if len(args) < 2 or args[1] != "dump":
        ctx.error("Usage: uiautomator dump [--compressed] [FILE]")
        return 1
    phone = ctx.device.phone
    target = next((a for a in args[2:] if not a.startswith("-")), "/sdcard/window_dump.xml")
    await pause_ms(phone.timing.dump_ms)
    ctx.device.files.write(target, phone.hierarchy_xml().encode("utf-8"))
    ctx.print(f"UI hierchary dumped to: {target}")
    return 0
