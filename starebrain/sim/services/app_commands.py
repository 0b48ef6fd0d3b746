"""Shell commands that act on apps and the screen: am, monkey, pm, input, screencap, uiautomator."""

from __future__ import annotations

import asyncio

from starebrain.sim.services.shell_runtime import CommandContext, command

KEYCODES = {"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20,
            "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25,
            "POWER": 26, "CAMERA": 27, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "MENU": 82,
            "SEARCH": 84, "ESCAPE": 111, "FORWARD_DEL": 112, "APP_SWITCH": 187, "WAKEUP": 224,
            "SLEEP": 223, "VOLUME_MUTE": 164}


async def pause_ms(ms: float) -> None:
    """Sleep for a timing-profile latency without blocking other phones."""
    if ms > 0:
        await asyncio.sleep(ms / 1000.0)


def _component(package_and_activity: str) -> tuple[str, str | None]:
    package, _, activity = package_and_activity.partition("/")
    if activity.startswith("."):
        activity = package + activity
    return package, activity or None


@command("am")
async def am(ctx: CommandContext, args: list[str]) -> int:
    """am start [-S] -n PKG/ACT | force-stop PKG | broadcast -a ACTION."""
    sub = AM.get(args[1] if len(args) > 1 else "")
    if sub is None:
        ctx.error(f"am: unsupported or bad arguments: {' '.join(args[1:])}")
        return 1
    return await sub(ctx, args)


async def _am_start(ctx: CommandContext, args: list[str]) -> int:
    if "-n" not in args[:-1]:
        ctx.error("am start: only explicit components (-n PKG/ACT) are supported")
        return 1
    phone = ctx.device.phone
    package, activity = _component(args[args.index("-n") + 1])
    if "-S" in args:
        phone.stop_app(package)
    ctx.print(f"Starting: Intent {{ cmp={package}/{activity or ''} }}")
    await pause_ms(phone.timing.action_ms)
    if not phone.start_app(package, activity):
        ctx.print(f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.")
        return 1
    return 0


async def _am_force_stop(ctx: CommandContext, args: list[str]) -> int:
    for package in args[2:]:
        ctx.device.phone.stop_app(package)
    return 0


async def _am_broadcast(ctx: CommandContext, args: list[str]) -> int:
    action = args[args.index("-a") + 1] if "-a" in args[:-1] else ""
    ctx.print(f"Broadcasting: Intent {{ act={action} flg=0x400000 }}\nBroadcast completed: result=0")
    return 0


AM = {"start": _am_start, "start-activity": _am_start, "force-stop": _am_force_stop, "broadcast": _am_broadcast}


@command("monkey")
async def monkey(ctx: CommandContext, args: list[str]) -> int:
    """monkey -p PKG -c CATEGORY 1: launches the app, as u2's app_start(pkg) uses it."""
    package = args[args.index("-p") + 1] if "-p" in args[:-1] else None
    phone = ctx.device.phone
    if package is None or package not in phone.installed_packages():
        ctx.print("** No activities found to run, monkey aborted.")
        return 252
    await pause_ms(phone.timing.action_ms)
    phone.start_app(package)
    ctx.print("  bash arg: -p\nEvents injected: 1\n## Network stats: elapsed time=12ms")
    return 0


@command("pm")
async def pm(ctx: CommandContext, args: list[str]) -> int:
    """pm list packages | path PKG | install [-r -t] APK | clear PKG."""
    verb = args[1] if len(args) > 1 else ""
    if verb in ("clear", "grant", "revoke", "uninstall", "disable-user", "enable"):
        ctx.print("Success")
        return 0
    sub = PM.get(verb)
    if sub is None or (verb == "list" and args[2:3] != ["packages"]):
        ctx.error(f"pm: unsupported or bad arguments: {' '.join(args[1:])}")
        return 1
    return await sub(ctx, args)


async def _pm_list(ctx: CommandContext, args: list[str]) -> int:
    needle = next((a for a in args[3:] if not a.startswith("-")), "")
    for package in sorted(p for p in ctx.device.phone.installed_packages() if needle in p):
        ctx.print(f"package:{package}")
    return 0


async def _pm_path(ctx: CommandContext, args: list[str]) -> int:
    if len(args) < 3 or args[2] not in ctx.device.phone.installed_packages():
        return 1
    ctx.print(f"package:/data/app/~~sim/{args[2]}-1/base.apk")
    return 0


async def _pm_install(ctx: CommandContext, args: list[str]) -> int:
    # The sim cannot run an APK; it only checks the pushed file is there, as adbutils' install expects.
    path = next((a for a in reversed(args[2:]) if not a.startswith("-")), "")
    if ctx.device.files.read(path) is None:
        ctx.print(f"Failure [INSTALL_FAILED_INVALID_URI: {path}]")
        return 1
    ctx.print("Success")
    return 0


PM = {"list": _pm_list, "path": _pm_path, "install": _pm_install}


@command("input")
async def input_(ctx: CommandContext, args: list[str]) -> int:
    """input tap X Y | swipe X1 Y1 X2 Y2 [MS] | text T | keyevent [--longpress] K..."""
    words = [a for a in args[1:] if a not in ("touchscreen", "keyboard")]
    phone = ctx.device.phone
    try:
        numbers = [float(a) for a in words[1:]] if words and words[0] in ("tap", "swipe") else []
    except ValueError:
        ctx.error(f"input: bad number in {' '.join(words[1:])}")
        return 1
    await pause_ms(phone.timing.action_ms)
    if words[:1] == ["tap"] and len(numbers) == 2:
        phone.tap(numbers[0], numbers[1])
    elif words[:1] == ["swipe"] and len(numbers) in (4, 5):
        duration = numbers[4] if len(numbers) == 5 else 300.0
        x1, y1, x2, y2 = numbers[:4]
        phone.swipe(x1, y1, x2, y2, steps=max(2, int(duration / 5)))
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
