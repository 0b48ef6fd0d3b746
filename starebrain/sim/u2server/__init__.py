"""The simulated uiautomator2 on-device server (u2.jar): HTTP and JSON-RPC."""
