"""`dumpsys SERVICE`: the Android 13-15 formats of the services clients parse.

Formats follow AOSP's dump code (WindowManagerService/DisplayContent, ActivityTaskManagerService,
PackageManagerService's DumpHelper, DisplayManagerService, PowerManagerService, InputMethodManagerService,
BatteryService) as real Android 13-15 phones print them; only the lines clients read are filled in.
Notably, `dumpsys window windows` has no `mCurrentFocus=` line from Android 13 on (uiautomator2 #952,
#1148): adbutils' `app_current()` then reads `dumpsys activity activities` and `dumpsys activity top`.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable

from starebrain.sim.services.android_release import short_component
from starebrain.sim.services.device import SimDevice, screen_is_on
from starebrain.sim.services.packages import PackageRecord, app_uid
from starebrain.sim.services.shell_runtime import CommandContext, command

IME_SHOWN_PACKAGE = "com.google.android.inputmethod.latin"


def _hash(*parts: object) -> str:
    """An identityHashCode-like hex id, stable for the same object."""
    return f"{zlib.crc32(' '.join(map(str, parts)).encode()):x}"


def task_id(package: str) -> int:
    """A stable task id per app."""
    return 10 + zlib.crc32(package.encode()) % 90


@command("dumpsys")
async def dumpsys(ctx: CommandContext, args: list[str]) -> int:
    """dumpsys [-t TIMEOUT] SERVICE [ARGS]."""
    from starebrain.sim.services.app_commands import pause_ms

    words = args[1:]
    if words[:1] == ["-t"]:
        words = words[2:]
    service = words[0] if words else ""
    writer = DUMPSYS.get(service)
    if writer is None:
        if service:
            ctx.error(f"Can't find service: {service}")
            return 0
        ctx.print("Currently running services:\n" + "\n".join(f"  {name}" for name in sorted(DUMPSYS)))
        return 0
    await pause_ms(ctx.device.phone.timing.dumpsys_ms)
    writer(ctx, words[1:])
    return 0


def _focus(device: SimDevice) -> tuple[str, str, int]:
    """(package, short component, pid) of the focused activity."""
    package, activity = device.phone.current_focus()
    device.processes.sync(device.phone)
    return package, short_component(package, activity), device.processes.apps.get(package, 0)


def _window(ctx: CommandContext, args: list[str]) -> None:
    device = ctx.device
    package, component = device.phone.current_focus()
    name = f"{package}/{component}"
    window = f"Window{{{_hash('win', name)} u0 {name}}}"
    record = device.release.activity_record(_hash("rec", name), short_component(package, component),
                                            task_id(package))
    section = args[0] if args else ""
    if section in ("", "windows"):
        ctx.print("WINDOW MANAGER WINDOWS (dumpsys window windows)")
        ctx.print(f"  Window #0 {window}:")
        uid = app_uid(package)
        ctx.print(f"    mDisplayId=0 rootTaskId={task_id(package)} mSession=Session{{{_hash('s', package)} "
                  f"{_focus(device)[2]}:u0a{uid - 10000}}}")
        ctx.print(f"    mOwnerUid={uid} showForAllUsers=false package={package} appop=NONE")
        ctx.print(f"    mActivityRecord={record}")
        ctx.print("    mViewVisibility=0x0 mHaveFrame=true mObscured=false")
    if section in ("", "displays"):
        width, height = natural_size(ctx)
        ctx.print("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)")
        ctx.print(f"  Display: mDisplayId=0 rootTasks=3\n    init={width}x{height} 420dpi "
                  f"cur={width}x{height} app={width}x{height} rng={width}x{width}-{height}x{height}")
        ctx.print(f"  mCurrentFocus={window}")
        ctx.print(f"  mFocusedApp={record}")


def _activity(ctx: CommandContext, args: list[str]) -> None:
    device = ctx.device
    package, component, pid = _focus(device)
    record = device.release.activity_record(_hash("rec", component), component, task_id(package))
    uid = app_uid(package)
    section = args[0] if args else "activities"
    if section == "top":
        ctx.print(f"TASK {uid}:{package} id={task_id(package)} userId=0")
        ctx.print(f"  ACTIVITY {component} {_hash('act', component)} pid={pid}")
        ctx.print("    Local Activity State:\n      mResumed=true mStopped=false mFinished=false")
        return
    if section not in ("activities", "a"):
        ctx.print(f"ACTIVITY MANAGER {section.upper()} (dumpsys activity {section})")
        return
    ctx.print("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)")
    ctx.print("Display #0 (activities from top to bottom):")
    ctx.print(f"  * Task{{{_hash('task', package)} #{task_id(package)} type=standard A={uid}:{package} U=0 "
              "visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}")
    ctx.print(f"    topResumedActivity={record}")
    ctx.print(f"    * Hist  #0: {record}")
    ctx.print(f"      packageName={package} processName={package}")
    ctx.print(f"      app=ProcessRecord{{{_hash('proc', package)} {pid}:{package}/u0a{uid - 10000}}}")
    ctx.print("  Resumed activities in task display areas (from top to bottom):")
    ctx.print(f"    Resumed: {record}")
    ctx.print(f"  ResumedActivity: {record}")


def natural_size(ctx: CommandContext) -> tuple[int, int]:
    """The panel's physical (portrait) size; display_size() follows the rotation."""
    width, height = ctx.device.phone.display_size()
    return (height, width) if ctx.device.phone.rotation() % 2 else (width, height)


def _display(ctx: CommandContext, args: list[str]) -> None:
    width, height = natural_size(ctx)
    rotation = ctx.device.phone.rotation()
    state = "ON" if screen_is_on(ctx.device.phone) else "OFF"
    ctx.print("DISPLAY MANAGER (dumpsys display)")
    ctx.print(f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
              f"uniqueId='local:4619827259835644672', physicalPort=0, orientation={rotation}, "
              f"logicalFrame=Rect(0, 0 - {width}, {height}), physicalFrame=Rect(0, 0 - {width}, {height}), "
              f"deviceWidth={width}, deviceHeight={height}}}]")
    ctx.print(f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:4619827259835644672", {width} x {height}, '
              f"modeId 1, renderFrameRate 60.0, defaultModeId 1, density 420, 420.0 x 420.0 dpi, "
              f"rotation {rotation}, state {state}, committedState {state}}}")
    ctx.print(f"  mDisplayState={state}")


def _power(ctx: CommandContext, args: list[str]) -> None:
    on = screen_is_on(ctx.device.phone)
    ctx.print("POWER MANAGER (dumpsys power)")
    ctx.print(f"  mWakefulness={'Awake' if on else 'Asleep'}")
    ctx.print("  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mStayOn=false")
    ctx.print(f"  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker={'true' if on else 'false'}")
    ctx.print(f"  Display Power: state={'ON' if on else 'OFF'}")


def _input_method(ctx: CommandContext, args: list[str]) -> None:
    device = ctx.device
    current = device.settings["secure"]["default_input_method"]
    shown = any(n.attrs.get("package") == IME_SHOWN_PACKAGE and n.parent is not None
                and n.parent.parent is None for n in device.phone.root().iter())
    package, component = device.phone.current_focus()
    ctx.print("Current Input Method Manager state:")
    for ime in device.packages.input_methods(device.phone):
        ctx.print(f"  InputMethod #{ime}:\n    mId={ime} mSettingsActivity=null mIsVrOnly=false")
    ctx.print(f"  mCurMethodId={current}")
    ctx.print(f"  mCurFocusedWindowName={package}/{component}")
    ctx.print(f"  mInputShown={'true' if shown else 'false'}")
    ctx.print(f"  mSystemReady=true mInteractive={'true' if screen_is_on(device.phone) else 'false'}")


def _battery(ctx: CommandContext, args: list[str]) -> None:
    ctx.print("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
              "  Wireless powered: false\n  Dock powered: false\n  Max charging current: 500000\n"
              "  Max charging voltage: 5000000\n  Charge counter: 3000000\n  status: 2\n  health: 2\n"
              "  present: true\n  level: 87\n  scale: 100\n  voltage: 4231\n  temperature: 281\n"
              "  technology: Li-ion")


def _package(ctx: CommandContext, args: list[str]) -> None:
    device = ctx.device
    names = [a for a in args if not a.startswith("-")]
    if not names:
        ctx.print("Packages:")
        for each in device.packages.records(device.phone):
            ctx.print(f"  Package [{each.name}] ({_hash('pkg', each.name)}):")
        return
    record = device.packages.get(device.phone, names[0])
    if record is None:
        return  # Android prints nothing at all for a package it does not know
    _activity_resolver(ctx, record)
    _package_entry(ctx, record, device)


def _activity_resolver(ctx: CommandContext, record: PackageRecord) -> None:
    if record.launcher is None:
        return
    component = short_component(record.name, record.launcher)
    ctx.print("Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:")
    ctx.print(f"        {_hash('ar', component)} {component} filter {_hash('f', component)}")
    ctx.print('          Action: "android.intent.action.MAIN"\n'
              '          Category: "android.intent.category.LAUNCHER"')
    ctx.print("")


def _stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def _package_entry(ctx: CommandContext, record: PackageRecord, device: SimDevice) -> None:
    flags = "SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA" if record.system else "HAS_CODE ALLOW_CLEAR_USER_DATA"
    code_path = record.path.rsplit("/", 1)[0]
    lines = [
        "Packages:", f"  Package [{record.name}] ({_hash('pkg', record.name)}):", f"    appId={record.uid}",
        f"    pkg=Package{{{_hash('p', record.name)} {record.name}}}", f"    codePath={code_path}",
        f"    resourcePath={code_path}", "    primaryCpuAbi=arm64-v8a", "    secondaryCpuAbi=null",
        f"    versionCode={record.version_code} minSdk={record.min_sdk} targetSdk={record.target_sdk}",
        f"    versionName={record.version_name}", "    splits=[base]", "    apkSigningVersion=2",
        f"    flags=[ {flags} ]", f"    dataDir=/data/user/0/{record.name}",
        f"    timeStamp={_stamp(record.updated_at)}", f"    lastUpdateTime={_stamp(record.updated_at)}",
        f"    firstInstallTime={_stamp(record.installed_at)}",
        f"    installerPackageName={'null' if record.system else 'com.android.shell'}",
        f"    signatures=PackageSignatures{{{_hash('sig', record.name)} version:2, "
        f"signatures:[{_hash('cert', record.name)}], past signatures:[]}}",
        f"    pkgFlags=[ {flags} ]",
    ]
    if record.permissions:
        lines.append("    requested permissions:")
        lines.extend(f"      {perm}" for perm in record.permissions)
        install = [p for p in record.permissions if p not in record.runtime_permissions()]
        if install:
            lines.append("    install permissions:")
            lines.extend(f"      {perm}: granted=true" for perm in install)
    lines.append(f"    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 "
                 f"stopped=false notLaunched=false enabled={2 if record.name in device.packages.disabled else 0} "
                 "instant=false virtual=false")
    runtime = record.runtime_permissions()
    if runtime:
        lines.append("      runtime permissions:")
        lines.extend(f"        {perm}: granted={str(device.packages.is_granted(record.name, perm)).lower()}, "
                     "flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]" for perm in runtime)
    ctx.print("\n".join(lines))


def _surface_flinger(ctx: CommandContext, args: list[str]) -> None:
    ctx.print('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="Built-in Screen"')


DUMPSYS: dict[str, Callable[[CommandContext, list[str]], None]] = {
    "window": _window, "display": _display, "activity": _activity, "power": _power, "package": _package,
    "input_method": _input_method, "battery": _battery, "SurfaceFlinger": _surface_flinger,
}
