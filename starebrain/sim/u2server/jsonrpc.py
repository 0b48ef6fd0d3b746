"""JSON-RPC 2.0 dispatch as jsonrpc4j does it: positional params, `result` always present.

See docs/sim.md, "JSON-RPC errors".
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable
from typing import Any

from starebrain.sim.u2server.rpc_errors import JavaException, RpcFault, stack_trace

log = logging.getLogger(__name__)


def _envelope(request_id: Any, **body: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, **body}).encode()


def _parse(body: bytes) -> tuple[Any, str, list[Any]]:
    """(id, method, positional args); RpcFault for anything jsonrpc4j would reject."""
    try:
        request = json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RpcFault(-32700, "JSON parse error") from exc
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        raise RpcFault(-32600, "invalid request")
    params = request.get("params")
    if params is None or params == {}:
        args: list[Any] = []  # u2 sends {} for zero-argument calls
    elif isinstance(params, list):
        args = params
    else:
        raise RpcFault(-32602, "method parameters invalid")
    return request.get("id"), request["method"], args


async def dispatch(body: bytes, methods: dict[str, Callable[..., Any]]) -> bytes:
    """Run one request body against `methods`; always returns a JSON-RPC response body."""
    request_id: Any = None
    try:
        request_id, name, args = _parse(body)
        fn = methods.get(name)
        if fn is None:
            raise RpcFault(-32601, "method not found")
        _check_arity(fn, args)
        result = await fn(*args)
        return _envelope(request_id, result=result)
    except RpcFault as exc:
        return _envelope(request_id, error=exc.error())
    except JavaException as exc:
        return _envelope(request_id, error=exc.error())
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as exc:
        name = "java.lang.IllegalArgumentException"
        error = JavaException(name, stack_trace(name, str(exc)))
        return _envelope(request_id, error=error.error())
    except Exception as exc:  # a bug in the sim answers like a Java RuntimeException, never a dead stream
        log.exception("u2 RPC failed")
        error = JavaException("java.lang.RuntimeException", stack_trace("java.lang.RuntimeException", repr(exc)))
        return _envelope(request_id, error=error.error())


def _check_arity(fn: Callable[..., Any], args: list[Any]) -> None:
    try:
        inspect.signature(fn).bind(*args)
    except TypeError as exc:
        raise RpcFault(-32602, "method parameters invalid") from exc
