"""Android system commands of the simulated shell: getprop, wm, dumpsys, settings, ime, ps, content."""

from __future__ import annotations

import zlib

from starebrain.sim.services.device import screen_is_on
from starebrain.sim.services.shell_runtime import CommandContext, command

LISTED_PROPS = ("ro.serialno", "ro.product.name", "ro.product.model", "ro.product.device",
                "ro.product.brand", "ro.product.manufacturer", "ro.product.cpu.abi",
                "ro.build.version.sdk", "ro.build.version.release", "ro.build.type", "ro.sf.lcd_density")
SYSTEM_PROCESSES = ("init", "zygote64", "system_server", "surfaceflinger", "com.android.systemui",
                    "com.android.inputmethod.latin")


def pid_of(name: str) -> int:
    """A stable fake pid for a process name."""
    return 1000 + zlib.crc32(name.encode()) % 30000


@command("getprop")
async def getprop(ctx: CommandContext, args: list[str]) -> int:
    """getprop NAME prints the value; getprop alone lists `[name]: [value]`."""
    phone = ctx.device.phone
    if len(args) > 1:
        value = phone.getprop(args[1])
        ctx.print(value if value or len(args) < 3 else args[2])
        return 0
    for name in LISTED_PROPS:
        ctx.print(f"[{name}]: [{phone.getprop(name)}]")
    return 0


def natural_size(ctx: CommandContext) -> tuple[int, int]:
    """The panel's physical (portrait) size; display_size() follows the rotation."""
    width, height = ctx.device.phone.display_size()
    return (height, width) if ctx.device.phone.rotation() % 2 else (width, height)


@command("wm")
async def wm(ctx: CommandContext, args: list[str]) -> int:
    """wm size | wm density."""
    sub = args[1] if len(args) > 1 else ""
    if sub == "size":
        width, height = natural_size(ctx)
        ctx.print(f"Physical size: {width}x{height}")
    elif sub == "density":
        ctx.print(f"Physical density: {ctx.device.phone.getprop('ro.sf.lcd_density') or '420'}")
    else:
        ctx.error("usage: wm [size|density]")
        return 1
    return 0


@command("dumpsys")
async def dumpsys(ctx: CommandContext, args: list[str]) -> int:
    """dumpsys window|display|activity|power|SurfaceFlinger: the lines u2 and adbutils parse."""
    service = args[1] if len(args) > 1 else ""
    writer = DUMPSYS.get(service)
    if writer is None:
        ctx.print(f"Can't find service: {service}" if service else "Currently running services:")
        return 0
    writer(ctx, args[2:])
    return 0


def _window(ctx: CommandContext, args: list[str]) -> None:
    package, activity = ctx.device.phone.current_focus()
    ctx.print("WINDOW MANAGER WINDOWS (dumpsys window windows)")
    ctx.print(f"  Window #0 Window{{f00dbabe u0 {package}/{activity}}}:")
    ctx.print(f"  mCurrentFocus=Window{{f00dbabe u0 {package}/{activity}}}")
    ctx.print(f"  mFocusedApp=ActivityRecord{{c0ffee u0 {package}/{activity} t7}}")


def _display(ctx: CommandContext, args: list[str]) -> None:
    width, height = natural_size(ctx)
    rotation = ctx.device.phone.rotation()
    ctx.print("DISPLAY MANAGER (dumpsys display)")
    ctx.print(f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
              f"uniqueId='local:0', physicalPort=0, orientation={rotation}, deviceWidth={width}, "
              f"deviceHeight={height}}}]")
    ctx.print(f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:0", {width} x {height}, '
              f"rotation {rotation}, density 420}}")


def _activity(ctx: CommandContext, args: list[str]) -> None:
    package, activity = ctx.device.phone.current_focus()
    if args and args[0] == "top":
        ctx.print("TASK 7:")
        ctx.print(f"  ACTIVITY {package}/{activity} 5d2a1f pid={pid_of(package)}")
        return
    ctx.print("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)")
    ctx.print(f"  mResumedActivity: ActivityRecord{{c0ffee u0 {package}/{activity} t7}}")
    ctx.print(f"  mFocusedActivity: ActivityRecord{{c0ffee u0 {package}/{activity} t7}}")


def _power(ctx: CommandContext, args: list[str]) -> None:
    on = screen_is_on(ctx.device.phone)
    ctx.print("POWER MANAGER (dumpsys power)")
    ctx.print(f"  mWakefulness={'Awake' if on else 'Asleep'}")
    ctx.print(f"  mHoldingDisplaySuspendBlocker={'true' if on else 'false'}")
    ctx.print(f"  Display Power: state={'ON' if on else 'OFF'}")


def _surface_flinger(ctx: CommandContext, args: list[str]) -> None:
    ctx.print('Display 0 (HWC display 0): port=0 pnpId=GGL displayName="Built-in Screen"')


DUMPSYS = {"window": _window, "display": _display, "activity": _activity, "power": _power,
           "SurfaceFlinger": _surface_flinger}


@command("settings")
async def settings(ctx: CommandContext, args: list[str]) -> int:
    """settings get|put|delete|list NAMESPACE [KEY [VALUE]]."""
    if len(args) < 3 or args[2] not in ctx.device.settings:
        ctx.error("usage: settings [get|put|delete|list] [system|secure|global] KEY [VALUE]")
        return 1
    verb, table, rest = args[1], ctx.device.settings[args[2]], args[3:]
    if verb == "get" and rest:
        ctx.print(table.get(rest[0], "null"))
    elif verb == "put" and len(rest) >= 2:
        table[rest[0]] = rest[1]
    elif verb == "delete" and rest:
        table.pop(rest[0], None)
    elif verb == "list":
        for key, value in sorted(table.items()):
            ctx.print(f"{key}={value}")
    else:
        ctx.error(f"settings: bad arguments {' '.join(args[1:])}")
        return 1
    return 0


@command("ime")
async def ime(ctx: CommandContext, args: list[str]) -> int:
    """ime list|set|enable: only the stock keyboard exists (so u2 types via the clipboard RPCs)."""
    sub = args[1] if len(args) > 1 else ""
    current = ctx.device.settings["secure"]["default_input_method"]
    if sub == "list":
        ctx.print(current if "-s" in args else f"{current}:\n  mId={current}")
    elif sub in ("set", "enable") and len(args) > 2:
        ctx.print(f"Input method {args[2]} selected for user #0" if sub == "set"
                  else f"Input method {args[2]}: already enabled for user #0")
    else:
        ctx.error("usage: ime list [-s] [-a] | ime set ID")
        return 1
    return 0


@command("ps")
async def ps(ctx: CommandContext, args: list[str]) -> int:
    """ps [-A]: toybox columns; running apps and a few system processes."""
    ctx.print("USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME")
    names = [*SYSTEM_PROCESSES, *ctx.device.phone.running_packages()]
    for name in dict.fromkeys(names):
        user = "root" if name in ("init", "zygote64") else "system" if "." not in name else "u0_a100"
        ctx.print(f"{user:<12} {pid_of(name):>5} {1:>5} 1234567  65432 0                   0 S {name}")
    return 0


@command("content")
async def content(ctx: CommandContext, args: list[str]) -> int:
    """content query --uri URI: the phone's checkable state (AndroidWorld-style)."""
    if len(args) < 4 or args[1] != "query" or "--uri" not in args:
        ctx.error("usage: content query --uri <URI> [--projection ...] [--where ...]")
        return 1
    position = args.index("--uri")
    if position + 1 >= len(args):
        ctx.error("Error: no URI given")
        return 1
    ctx.print(ctx.device.phone.content_query(args[position + 1]).rstrip("\n"))
    return 0


@command("sim-state")
async def sim_state(ctx: CommandContext, args: list[str]) -> int:
    """Not on a real phone: the sim's world state as JSON (for `starebrain sim state`)."""
    import json

    ctx.print(json.dumps(ctx.device.phone.state(), sort_keys=True, default=str))
    return 0
