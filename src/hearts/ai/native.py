"""Compiled copies of the search's hottest modules, used only while they match their source.

The playout (`rollout`), the deal sampler (`sampling`), the race (`racing`) and the searched
pass with medium's pass (`passing`) are most of a searching player's time. `make` compiles
them with mypyc (`scripts/build_native.py`; mypyc is part of mypy, which the project already
uses) into extension modules beside their source: the same code, run as C, two to three
times faster, with the same results card for card
(`tests/test_ai_native.py` plays both side by side). Python prefers an extension module to a
source file of the same name, so an edit to a source would be shadowed by an older build;
the build therefore records each source's SHA-256 (`native.json`), and `use_current` (which
`hearts.ai` runs before it imports anything else) loads the source instead of any build that
does not match it. Without a compiler nothing is built and everything runs as Python;
HEARTS_NATIVE=0 in the environment runs the sources anyway.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

MODULES = ("rollout", "sampling", "racing", "passing")
"""The modules compiled, in `hearts.ai`."""
HERE = Path(__file__).parent
MANIFEST = HERE / "native.json"
"""Each compiled module's source hash, written by the build."""
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
"""The file endings of extension modules this Python loads."""


def source_hash(name: str, folder: Path = HERE) -> str:
    return hashlib.sha256((folder / f"{name}.py").read_bytes()).hexdigest()


def compiled_file(name: str, folder: Path = HERE) -> Path | None:
    """The module's extension file for this Python, if one was built."""
    for suffix in SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """The build's source hashes; empty when there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def is_current(name: str, folder: Path = HERE, manifest: dict[str, str] | None = None) -> bool:
    """Whether the module has a build and the build was made from its source as it is."""
    if compiled_file(name, folder) is None:
        return False
    known = read_manifest(folder / MANIFEST.name) if manifest is None else manifest
    return known.get(name) == source_hash(name, folder)


def use_current() -> None:
    """Load from source every module whose build is out of date (with a warning), so that
    the import that follows finds it already loaded instead of the old build. With the
    environment variable HEARTS_NATIVE=0, every one runs from source (to compare)."""
    manifest = read_manifest()
    package = "hearts.ai"
    off = os.environ.get("HEARTS_NATIVE") == "0"
    for name in MODULES:
        full = f"{package}.{name}"
        if full in sys.modules or compiled_file(name) is None:
            continue
        if not off:
            if is_current(name, HERE, manifest):
                continue
            warnings.warn(
                f"{full}: the compiled copy is older than its source, so the source runs "
                "(slower); `make` builds it again.",
                RuntimeWarning,
                stacklevel=2,
            )
        spec = importlib.util.spec_from_file_location(full, HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        spec.loader.exec_module(module)


def compiled(module: object) -> bool:
    """Whether a loaded module is a compiled one (an extension, not a source file)."""
    return str(getattr(module, "__file__", "")).endswith(SUFFIXES)


__all__ = [
    "MODULES",
    "SUFFIXES",
    "compiled",
    "compiled_file",
    "is_current",
    "source_hash",
    "use_current",
]
