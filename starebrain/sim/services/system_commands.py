"""Android system commands of the simulated shell: getprop, wm, settings, content."""

from __future__ import annotations

from starebrain.sim.services.dumpsys import natural_size
from starebrain.sim.services.shell_runtime import CommandContext, command

LISTED_PROPS = ("ro.serialno", "ro.product.name", "ro.product.model", "ro.product.device",
                "ro.product.brand", "ro.product.manufacturer", "ro.product.cpu.abi",
                "ro.build.version.sdk", "ro.build.version.release", "ro.build.id", "ro.build.fingerprint",
                "ro.build.version.security_patch", "ro.build.type", "ro.sf.lcd_density")


@command("getprop")
async def getprop(ctx: CommandContext, args: list[str]) -> int:
    """getprop NAME prints the value; getprop alone lists `[name]: [value]`."""
    device = ctx.device
    if len(args) > 1:
        value = device.getprop(args[1])
        ctx.print(value if value or len(args) < 3 else args[2])
        return 0
    for name in LISTED_PROPS:
        ctx.print(f"[{name}]: [{device.getprop(name)}]")
    return 0


@command("wm")
async def wm(ctx: CommandContext, args: list[str]) -> int:
    """wm size | wm density."""
    sub = args[1] if len(args) > 1 else ""
    if sub == "size":
        width, height = natural_size(ctx)
        ctx.print(f"Physical size: {width}x{height}")
    elif sub == "density":
        ctx.print(f"Physical density: {ctx.device.getprop('ro.sf.lcd_density') or '420'}")
    else:
        ctx.error("usage: wm [size|density]")
        return 1
    return 0


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


@command("svc")
async def svc(ctx: CommandContext, args: list[str]) -> int:
    """svc wifi|data|bluetooth enable|disable, svc power stayon true|false: the global settings they set."""
    keys = {"wifi": "wifi_on", "data": "mobile_data", "bluetooth": "bluetooth_on"}
    if len(args) == 3 and args[1] in keys and args[2] in ("enable", "disable"):
        ctx.device.settings["global"][keys[args[1]]] = "1" if args[2] == "enable" else "0"
        return 0
    if len(args) == 4 and args[1:3] == ["power", "stayon"]:
        ctx.device.settings["global"]["stay_on_while_plugged_in"] = "0" if args[3] == "false" else "7"
        return 0
    ctx.error("Available commands:\n    help\n    power\n    data\n    wifi\n    usb\n    nfc\n    bluetooth")
    return 1
