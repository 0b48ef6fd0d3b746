"""A simulated Android phone that the unmodified adb stack drives (docs/sim.md).

The sim speaks the device side of the ADB transport (like adbd) on a loopback TCP port and registers
with a real adb server (`host:emulator:<port>`), so adbutils, uiautomator2 and the `adb` CLI drive it
unchanged. Its serial is `emulator-<port-1>` (or `127.0.0.1:<port>` in `connect` mode).

- `starebrain sim start [--scenario S] [--timing fast|real-phone] [--state-dir D]`: one sim in the
  foreground (`python -m starebrain.cli sim start` is the same).
- `starebrain.sim.harness`: `AdbServer` (an isolated adb server), `SimHost.start_sim()` (in-process sims
  with `.serial`, `.phone`, `.call()`, `.reset()`), `SimProcess` (a sim in its own process).
- Layers: `adb/` (packets, streams, registration) -> `services/` (shell, sync, tcp over a byte channel)
  -> `u2server/` (the uiautomator2 HTTP/JSON-RPC server) -> `phone.SimPhone` (the app world, `world/`).
"""
