"""Errors a u2 RPC answers with, shaped like u2.jar's jsonrpc4j ErrorResolver (docs/sim.md, JSON-RPC errors)."""

from __future__ import annotations

from typing import Any

JAVA_ERROR_CODE = -32001
UI_OBJECT_NOT_FOUND = "androidx.test.uiautomator.UiObjectNotFoundException"


class JavaException(Exception):
    """A Java exception thrown by the server: message = class name, data = its message or stack trace."""

    def __init__(self, java_class: str, data: str) -> None:
        super().__init__(f"{java_class}: {data}")
        self.java_class = java_class
        self.data = data

    def error(self) -> dict[str, Any]:
        """The JSON-RPC `error` object."""
        return {"code": JAVA_ERROR_CODE, "message": self.java_class, "data": self.data}


class RpcFault(Exception):
    """A jsonrpc4j built-in error: parse error, invalid request, method not found, invalid params."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def error(self) -> dict[str, Any]:
        """The JSON-RPC `error` object."""
        return {"code": self.code, "message": self.message}


def not_found(selector_text: str) -> JavaException:
    """What u2 maps to UiObjectNotFoundError."""
    return JavaException(UI_OBJECT_NOT_FOUND, selector_text)


def stack_trace(java_class: str, message: str) -> str:
    """A plausible stack-trace string for `data` (u2 only needs a string)."""
    return (f"{java_class}: {message}\n\tat com.wetest.uia2.stub.AutomatorServiceImpl.invoke(Unknown Source)\n"
            "\tat com.googlecode.jsonrpc4j.JsonRpcBasicServer.invoke(JsonRpcBasicServer.java:467)\n")
