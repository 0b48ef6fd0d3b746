"""More toybox commands: head, tail, wc, date, and the network view (ip, ifconfig) of a phone on Wi-Fi."""

from __future__ import annotations

import time

from starebrain.sim.services.shell_runtime import CommandContext, command

WLAN_IP = "192.168.1.57"
WLAN_MAC = "02:00:5e:10:00:57"


def _inputs(ctx: CommandContext, files: list[str]) -> list[bytes] | None:
    """stdin, or each file's bytes; None after printing an error for a missing file."""
    if not files:
        return [ctx.stdin]
    out = []
    for path in files:
        entry = ctx.device.files.read(path)
        if entry is None:
            ctx.error(f"{path}: No such file or directory")
            return None
        out.append(entry.data)
    return out


def _count_and_files(args: list[str], default: int) -> tuple[int, list[str]]:
    count, files, i = default, [], 1
    while i < len(args):
        arg = args[i]
        if arg in ("-n", "-c") and i + 1 < len(args):
            count, i = abs(int(args[i + 1].lstrip("+"))), i + 2
            continue
        if arg.startswith("-") and arg[1:].isdigit():
            count = int(arg[1:])
        elif arg.startswith("-n") and arg[2:].isdigit():
            count = int(arg[2:])
        elif not arg.startswith("-"):
            files.append(arg)
        i += 1
    return count, files


@command("head")
async def head(ctx: CommandContext, args: list[str]) -> int:
    """head [-n N | -N] [FILE...]: the first lines."""
    count, files = _count_and_files(args, 10)
    chunks = _inputs(ctx, files)
    if chunks is None:
        return 1
    for data in chunks:
        ctx.write_bytes(b"".join(data.splitlines(keepends=True)[:count]))
    return 0


@command("tail")
async def tail(ctx: CommandContext, args: list[str]) -> int:
    """tail [-n N | -N] [FILE...]: the last lines."""
    count, files = _count_and_files(args, 10)
    chunks = _inputs(ctx, files)
    if chunks is None:
        return 1
    for data in chunks:
        lines = data.splitlines(keepends=True)
        ctx.write_bytes(b"".join(lines[-count:] if count else []))
    return 0


@command("wc")
async def wc(ctx: CommandContext, args: list[str]) -> int:
    """wc [-l|-w|-c] [FILE...]."""
    flags = "".join(a[1:] for a in args[1:] if a.startswith("-")) or "lwc"
    files = [a for a in args[1:] if not a.startswith("-")]
    chunks = _inputs(ctx, files)
    if chunks is None:
        return 1
    for name, data in zip(files or [""], chunks, strict=False):
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        numbers = [str(counts[f]) for f in "lwc" if f in flags]
        text = numbers[0] if len(numbers) == 1 and not name else " ".join(n.rjust(7) for n in numbers)
        ctx.print(f"{text} {name}".rstrip())
    return 0


@command("date")
async def date(ctx: CommandContext, args: list[str]) -> int:
    """date [+FORMAT]: the phone's clock (UTC)."""
    formats = [a for a in args[1:] if a.startswith("+")]
    fmt = formats[0][1:] if formats else "%a %b %e %H:%M:%S %Z %Y"
    ctx.print(time.strftime(fmt.replace("%N", "000000000"), time.gmtime()).replace("GMT", "UTC"))
    return 0


INTERFACES = {
    "lo": ("127.0.0.1", "255.0.0.0", "00:00:00:00:00:00", "Local Loopback"),
    "wlan0": (WLAN_IP, "255.255.255.0", WLAN_MAC, "UNSPEC"),
}


@command("ifconfig")
async def ifconfig(ctx: CommandContext, args: list[str]) -> int:
    """ifconfig [IFACE]: toybox's net-tools layout."""
    names = [a for a in args[1:] if not a.startswith("-")] or list(INTERFACES)
    for name in names:
        if name not in INTERFACES:
            ctx.error(f"ifconfig: {name}: No such device")
            return 1
        address, mask, mac, _ = INTERFACES[name]
        encap = "Local Loopback" if name == "lo" else "UNSPEC    Driver icnss2"
        ctx.print(f"{name:<10}Link encap:{encap}" + ("" if name == "lo" else f" HWaddr {mac}"))
        bcast = "" if name == "lo" else "  Bcast:192.168.1.255"
        ctx.print(f"          inet addr:{address}{bcast}  Mask:{mask}")
        ctx.print("          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1")
        ctx.print("          RX packets:48211 errors:0 dropped:0 overruns:0 frame:0\n")
    return 0


@command("ip")
async def ip(ctx: CommandContext, args: list[str]) -> int:
    """ip addr [show [dev] IFACE] | ip route: iproute2's layout."""
    words = args[1:]
    if words[:1] in (["route"], ["r"]):
        ctx.print(f"192.168.1.0/24 dev wlan0 proto kernel scope link src {WLAN_IP}")
        return 0
    if words[:1] not in (["addr"], ["a"], ["address"]):
        ctx.error('Object "{}" is unknown, try "ip help".'.format(words[0] if words else ""))
        return 1
    wanted = [w for w in words[1:] if w not in ("show", "dev", "list")]
    names = wanted or list(INTERFACES)
    for index, name in enumerate(names, 1):
        if name not in INTERFACES:
            ctx.error(f'Device "{name}" does not exist.')
            return 1
        address, _, mac, _ = INTERFACES[name]
        prefix = 8 if name == "lo" else 24
        kind = "loopback" if name == "lo" else "ether"
        ctx.print(f"{index}: {name}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default "
                  "qlen 3000")
        ctx.print(f"    link/{kind} {mac} brd ff:ff:ff:ff:ff:ff")
        ctx.print(f"    inet {address}/{prefix} scope {'host' if name == 'lo' else 'global'} {name}")
    return 0
