"""Only `starebrain/device/u2_device.py` may import uiautomator2/adbutils, and only when asked for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("uiautomator2", "adbutils")
ALLOWED = {Path("starebrain/device/u2_device.py")}


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_other_product_module_imports_the_device_libraries() -> None:
    offenders = []
    for package in ("starebrain", "cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] == ("starebrain", "sim"):
                continue  # the sim is a phone, not a client of these libraries
            if rel not in ALLOWED and _imported_modules(path) & set(LIBRARIES):
                offenders.append(str(rel))
    assert offenders == []


def test_importing_the_device_and_context_packages_loads_neither_library() -> None:
    code = ("import sys, starebrain.device, starebrain.context\n"
            f"print([m for m in {LIBRARIES!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
