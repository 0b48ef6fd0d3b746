"""`pm` and `ime`: the package manager's and input method manager's shell commands (Android 13-15 wording).

Messages follow AOSP's PackageManagerShellCommand and InputMethodManagerService's shell command:
`Success`, `Failure [DELETE_FAILED_INTERNAL_ERROR]`, `Exception occurred while executing 'grant':`, ...
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starebrain.sim.services.apk import ApkError, read_apk
from starebrain.sim.services.packages import GBOARD, PackageRecord
from starebrain.sim.services.shell_runtime import CommandContext, command

PmVerb = Callable[[CommandContext, list[str]], Awaitable[int]]


@command("pm")
async def pm(ctx: CommandContext, args: list[str]) -> int:
    """pm list packages|path|install|uninstall|clear|grant|revoke|disable-user|enable|dump|resolve-activity."""
    verb = args[1] if len(args) > 1 else ""
    sub = PM.get(verb)
    if sub is None:
        ctx.error(f"Unknown command: {verb}" if verb else "usage: pm [list|path|install|uninstall|clear|grant] ...")
        return 1
    return await sub(ctx, without_user(args[2:]))


@command("cmd")
async def cmd(ctx: CommandContext, args: list[str]) -> int:
    """cmd package ... (as pm) | cmd input_method ... (as ime)."""
    service = args[1] if len(args) > 1 else ""
    if service == "package":
        return await pm(ctx, ["pm", *args[2:]])
    if service == "input_method":
        return await ime(ctx, ["ime", *args[2:]])
    ctx.error(f"cmd: Can't find service: {service}")
    return 20


def without_user(args: list[str]) -> list[str]:
    """The arguments less a `--user ID` option (the sim has only user 0)."""
    out: list[str] = []
    skip = False
    for arg in args:
        if not skip and arg == "--user":
            skip = True
            continue
        if not skip:
            out.append(arg)
        skip = False
    return out


def _operands(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


async def _list(ctx: CommandContext, args: list[str]) -> int:
    if args[:1] not in (["packages"], ["package"]):
        ctx.error(f"Error: unknown list type '{args[0] if args else ''}'")
        return 1
    flags = "".join(a[1:] for a in args[1:] if a.startswith("-"))
    needle = next(iter(_operands(args[1:])), "")
    device = ctx.device
    for record in device.packages.records(device.phone):
        if needle not in record.name or ("3" in flags and record.system) or ("s" in flags and not record.system):
            continue
        if "d" in flags and record.name not in device.packages.disabled:
            continue
        ctx.print(f"package:{record.path}={record.name}" if "f" in flags else f"package:{record.name}")
    return 0


def _record(ctx: CommandContext, package: str) -> PackageRecord | None:
    return ctx.device.packages.get(ctx.device.phone, package)


async def _path(ctx: CommandContext, args: list[str]) -> int:
    record = _record(ctx, next(iter(_operands(args)), ""))
    if record is None:
        return 1
    ctx.print(f"package:{record.path}")
    return 0


async def _install(ctx: CommandContext, args: list[str]) -> int:
    paths = _operands(args)
    path = paths[-1] if paths else ""
    entry = ctx.device.files.read(path)
    on_fuse = path.startswith(("/sdcard/", "/storage/"))  # system_server may not read FUSE (Android 11+)
    if entry is None or on_fuse:
        if on_fuse and entry is not None:
            real = path.replace("/sdcard/", "/storage/emulated/0/", 1)
            ctx.error("System server has no access to read file context u:object_r:fuse:s0 (from path "
                      f"{real}, context u:r:system_server:s0)")
        ctx.error(f"Error: Unable to open file: {path}")
        if not path.startswith("/data/local/tmp/"):
            ctx.error("Consider using a file under /data/local/tmp/")
        ctx.error(f"Error: Can't open file: {path}\nException occurred while executing 'install':\n"
                  f"java.lang.IllegalArgumentException: Error: Can't open file: {path}")
        return 255
    try:
        record = read_apk(entry.data)
    except ApkError as exc:
        ctx.print(f"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed parse during installPackageLI: {path}: {exc}]")
        return 1
    device = ctx.device
    old = _record(ctx, record.name)
    if old is not None and old.system:
        ctx.print(f"Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package {record.name} signatures "
                  "do not match newer version; ignoring!]")
        return 1
    if old is not None and old.version_code > record.version_code and "-d" not in args:
        ctx.print(f"Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code "
                  f"{record.version_code} is older than current {old.version_code}]")
        return 1
    device.phone.stop_app(record.name)
    device.processes.died(record.name)
    device.packages.install(record)
    if "-g" in args:
        for permission in record.runtime_permissions():
            device.packages.set_granted(record.name, permission, True)
    ctx.print("Success")
    return 0


async def _uninstall(ctx: CommandContext, args: list[str]) -> int:
    package = next(iter(_operands(args)), "")
    device = ctx.device
    if not device.packages.uninstall(package):
        ctx.print("Failure [DELETE_FAILED_INTERNAL_ERROR]")
        return 1
    device.processes.died(package)
    secure = device.settings["secure"]
    if secure["default_input_method"].startswith(package + "/"):
        secure["default_input_method"] = GBOARD
    secure["enabled_input_methods"] = ":".join(
        i for i in secure["enabled_input_methods"].split(":") if not i.startswith(package + "/")) or GBOARD
    ctx.print("Success")
    return 0


async def _clear(ctx: CommandContext, args: list[str]) -> int:
    package = next(iter(_operands(args)), "")
    if _record(ctx, package) is None:
        ctx.error("Failed")
        return 1
    # The app's process dies, its data and its runtime grants go, as `pm clear` does.
    ctx.device.phone.clear_app_data(package)
    ctx.device.processes.died(package)
    ctx.device.packages.granted.pop(package, None)
    ctx.print("Success")
    return 0


async def _grant(ctx: CommandContext, args: list[str]) -> int:
    return await _change_grant(ctx, args, "grant")


async def _revoke(ctx: CommandContext, args: list[str]) -> int:
    return await _change_grant(ctx, args, "revoke")


async def _change_grant(ctx: CommandContext, args: list[str], verb: str) -> int:
    operands = _operands(args)
    if len(operands) < 2:
        ctx.error(f"Error: no {'package' if not operands else 'permission'} specified")
        return 1
    package, permission = operands[:2]
    record = _record(ctx, package)
    problem = None
    if record is None:
        problem = f"java.lang.IllegalArgumentException: Unknown package: {package}"
    elif permission not in record.permissions:
        problem = f"java.lang.SecurityException: Package {package} has not requested permission {permission}"
    elif permission not in record.runtime_permissions():
        problem = (f"java.lang.SecurityException: Permission {permission} requested by {package} "
                   "is not a changeable permission type")
    if problem is not None:
        ctx.error(f"Exception occurred while executing '{verb}':\n{problem}")
        return 255
    ctx.device.packages.set_granted(package, permission, verb == "grant")
    return 0


async def _set_enabled(ctx: CommandContext, args: list[str], enabled: bool) -> int:
    package = next(iter(_operands(args)), "")
    if _record(ctx, package) is None:
        ctx.error(f"Exception occurred while executing '{'enable' if enabled else 'disable-user'}':\n"
                  f"java.lang.IllegalArgumentException: Unknown package: {package}")
        return 255
    (ctx.device.packages.disabled.discard if enabled else ctx.device.packages.disabled.add)(package)
    ctx.print(f"Package {package} new state: {'enabled' if enabled else 'disabled-user'}")
    return 0


async def _enable(ctx: CommandContext, args: list[str]) -> int:
    return await _set_enabled(ctx, args, True)


async def _disable(ctx: CommandContext, args: list[str]) -> int:
    return await _set_enabled(ctx, args, False)


async def _dump(ctx: CommandContext, args: list[str]) -> int:
    from starebrain.sim.services.dumpsys import DUMPSYS

    DUMPSYS["package"](ctx, args)
    return 0


async def _resolve_activity(ctx: CommandContext, args: list[str]) -> int:
    record = _record(ctx, next(iter(_operands(args)), ""))
    if record is None or record.launcher is None:
        ctx.print("No activity found")
        return 0
    short = record.launcher[len(record.name):] if record.launcher.startswith(record.name + ".") else record.launcher
    if "--brief" in args:
        ctx.print(f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n{record.name}/{short}")
    else:
        ctx.print(f"Activity Resolver: name={record.launcher} packageName={record.name}")
    return 0


PM: dict[str, PmVerb] = {
    "list": _list, "path": _path, "install": _install, "uninstall": _uninstall, "clear": _clear,
    "grant": _grant, "revoke": _revoke, "enable": _enable, "disable-user": _disable, "disable": _disable,
    "dump": _dump, "resolve-activity": _resolve_activity,
}


@command("ime")
async def ime(ctx: CommandContext, args: list[str]) -> int:
    """ime list [-a] [-s] | enable ID | disable ID | set ID | reset."""
    args = without_user(args)
    sub = args[1] if len(args) > 1 else ""
    device = ctx.device
    known = device.packages.input_methods(device.phone)
    secure = device.settings["secure"]
    enabled = [i for i in secure["enabled_input_methods"].split(":") if i in known]
    target = args[2] if len(args) > 2 else ""
    if sub == "list":
        for ime_id in (known if "-a" in args else enabled):
            ctx.print(ime_id if "-s" in args else _ime_entry(ime_id))
        return 0
    if sub in ("enable", "set") and target not in known:
        ctx.error(f"Unknown input method {target} cannot be {'enabled' if sub == 'enable' else 'selected'} "
                  "for user #0")
        return 255
    if sub == "enable":
        state = "already enabled" if target in enabled else "now enabled"
        secure["enabled_input_methods"] = ":".join(dict.fromkeys([*enabled, target]))
        ctx.print(f"Input method {target}: {state} for user #0")
    elif sub == "disable":
        state = "now disabled" if target in enabled else "already disabled"
        secure["enabled_input_methods"] = ":".join(i for i in enabled if i != target)
        if secure["default_input_method"] == target:
            secure["default_input_method"] = next((i for i in enabled if i != target), GBOARD)
        ctx.print(f"Input method {target}: {state} for user #0")
    elif sub == "set":
        secure["default_input_method"] = target
        ctx.print(f"Input method {target} selected for user #0")
    elif sub == "reset":
        secure["default_input_method"] = secure["enabled_input_methods"] = GBOARD
        ctx.print(f"Reset current and enabled IMEs for user #0\n  Selected: {GBOARD}\n   Enabled: {GBOARD}")
    else:
        ctx.error("ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n"
                  "  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]")
        return 255
    return 0


def _ime_entry(ime_id: str) -> str:
    package, _, service = ime_id.partition("/")
    name = package + service if service.startswith(".") else service
    return (f"{ime_id}:\n  mId={ime_id} mSettingsActivity=null mIsVrOnly=false "
            f"mSupportsSwitchingToNextInputMethod=false\n  Service:\n    ServiceInfo:\n      name={name}\n"
            f"      packageName={package}\n      enabled=true exported=true directBootAware=false\n"
            "      permission=android.permission.BIND_INPUT_METHOD")
