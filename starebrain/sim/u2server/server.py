"""The in-sim uiautomator2 server: HTTP routes over a channel, JSON-RPC methods, latencies, faults."""

from __future__ import annotations

from starebrain.sim.services.channel import Channel
from starebrain.sim.services.device import SimDevice
from starebrain.sim.u2server.device_methods import DeviceMethods
from starebrain.sim.u2server.gesture_methods import GestureMethods
from starebrain.sim.u2server.http import HttpRequest, HttpResponse, serve_http
from starebrain.sim.u2server.input_methods import InputMethods
from starebrain.sim.u2server.jsonrpc import dispatch
from starebrain.sim.u2server.method_base import collect_methods
from starebrain.sim.u2server.object_methods import ObjectMethods
from starebrain.sim.u2server.query_methods import QueryMethods
from starebrain.sim.u2server.scroll_methods import ScrollMethods


class U2Methods(ObjectMethods, QueryMethods, InputMethods, ScrollMethods, GestureMethods, DeviceMethods):
    """All JSON-RPC methods of one running server process."""


class U2Server:
    """What app_process runs: answers /ping, /jsonrpc/0, /screenshot/0, /stop; 404 otherwise."""

    def __init__(self, device: SimDevice, port: int) -> None:
        self.device = device
        self.port = port
        self.impl = U2Methods(device, port)
        self.methods = collect_methods(self.impl)

    async def serve(self, channel: Channel) -> None:
        """Serve one accepted `tcp:<port>` connection."""
        await serve_http(channel, self.handle)

    async def handle(self, request: HttpRequest) -> HttpResponse:
        """Route one request (the routes of u2.jar's AutomatorHttpServer.serve)."""
        path = request.path.split("?", 1)[0]
        if path == "/ping":
            return HttpResponse(200, b"pong")
        if path == "/jsonrpc/0":
            return await self._jsonrpc(request)
        if path == "/screenshot/0":
            await self.impl.pause(self.device.phone.timing.screencap_ms)
            return HttpResponse(200, self.device.phone.screenshot("PNG"), "image/png")
        if path == "/stop":
            self.device.stop_listener(self.port)
            return HttpResponse(200, b"Server stopped!!!")
        return HttpResponse(404, b"Not Found!!!")

    async def _jsonrpc(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not request.body:
            return HttpResponse(500, b"Invalid http post data!")
        await self.impl.pause(self.device.phone.timing.rpc_ms)
        body = await dispatch(request.body, self.methods)
        self.device.count_rpc(self.port)
        return HttpResponse(200, body, "application/json")
