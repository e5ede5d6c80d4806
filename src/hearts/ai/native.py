"""Compiled copies of the search's hottest modules, used only while they match their source.

The playout (`rollout`), the deal sampler (`sampling`), the race (`racing`) and the searched
pass with medium's pass (`passing`) are most of a searching player's time. `make` compiles
them with mypyc (`scripts/build_native.py`; mypyc is part of mypy, which the project already
uses) into extension modules beside their source: the same code, run as C, two to three
times faster, with the same results card for card (`tests/test_ai_native.py` plays both side
by side). Python prefers an extension module to a source file of the same name, so an edit
to a source would be shadowed by an older build; the build therefore records each source's
SHA-256 (`native.json`), and `use_current` (which `hearts.ai` runs before it imports
anything else) loads every source instead of the builds when any build does not match its
source. Without a compiler nothing is built and everything runs as Python; HEARTS_NATIVE=0
in the environment runs the sources anyway.
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
    """If any module's build is missing or out of date, load every one from source (with a
    warning), so that the imports that follow find them loaded instead of the builds: all
    or nothing, since the compiled modules use one another's classes. With the environment
    variable HEARTS_NATIVE=0, every one runs from source (to compare)."""
    built = [name for name in MODULES if compiled_file(name) is not None]
    if not built:
        return  # nothing compiled: the sources load as usual
    manifest = read_manifest()
    stale = [name for name in MODULES if not is_current(name, HERE, manifest)]
    if os.environ.get("HEARTS_NATIVE") != "0":
        if not stale:
            return
        names = ", ".join(f"hearts.ai.{name}" for name in stale)
        warnings.warn(
            f"{names}: the compiled copy is missing or older than the source, so every "
            "compiled module runs from source (slower); `make` builds them again.",
            RuntimeWarning,
            stacklevel=2,
        )
    for name in MODULES:
        full = f"hearts.ai.{name}"
        if full in sys.modules:
            continue
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
