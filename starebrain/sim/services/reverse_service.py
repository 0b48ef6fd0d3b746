"""adbd's `reverse:` service: the device side of `adb reverse` (bookkeeping; the sim's apps never dial out).

Replies as adbd's handle_forward_request does on the device: `OKAY` for forward/killforward, the
listener list as a length-prefixed block (no OKAY) for list-forward, `FAIL`+message on errors.
"""

from __future__ import annotations

from starebrain.sim.services.channel import Channel
from starebrain.sim.services.device import SimDevice


def _block(text: str) -> bytes:
    data = text.encode()
    return f"{len(data):04x}".encode() + data


def reverse_reply(device: SimDevice, request: str) -> bytes:
    """The bytes adbd answers to `reverse:<request>`."""
    reverses = device.reverses
    if request == "list-forward":
        return _block("".join(f"(reverse) {remote} {local}\n" for remote, local in reverses.items()))
    if request == "killforward-all":
        reverses.clear()
        return b"OKAY"
    if request.startswith("killforward:"):
        remote = request[len("killforward:"):]
        if reverses.pop(remote, None) is None:
            return b"FAIL" + _block(f"listener '{remote}' not found")
        return b"OKAY"
    if request.startswith("forward:"):
        spec = request[len("forward:"):]
        norebind = spec.startswith("norebind:")
        remote, _, local = spec.removeprefix("norebind:").partition(";")
        if not remote or not local:
            return b"FAIL" + _block(f"bad forward: {spec}")
        if norebind and remote in reverses:
            return b"FAIL" + _block("cannot rebind existing socket")
        reverses[remote] = local
        return b"OKAY"
    return b"FAIL" + _block(f"unknown reverse request: {request}")


async def serve_reverse(channel: Channel, device: SimDevice, request: str) -> None:
    """Answer one reverse request and close the stream."""
    await channel.write(reverse_reply(device, request))
    await channel.close()
