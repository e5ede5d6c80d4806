"""Compile the search's hottest modules with mypyc (`hearts.ai.native`), beside their source.

Usage: python scripts/build_native.py

Builds every module of `native.MODULES` in build/native/, moves the extension files into
src/hearts/ai/ (each by a rename, so a server running the old ones keeps them intact), then
writes `native.json` with the SHA-256 of each source built (last, so that a build stopped
half way is never taken for current). Does nothing when `native.json` already matches the
sources. Without mypyc or a C compiler it says so and builds nothing: the modules then run
as Python. With HEARTS_REQUIRE_NATIVE=1 (CI) that is an error instead.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "hearts" / "ai"
OUT = ROOT / "build" / "native"


def load_native() -> ModuleType:
    """`hearts.ai.native` alone: importing `hearts.ai` would load the files being replaced."""
    spec = importlib.util.spec_from_file_location("hearts_native_build", PACKAGE / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(native: ModuleType) -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    OUT.mkdir(parents=True, exist_ok=True)
    os.chdir(OUT)  # not the project's folder: setuptools would read its pyproject.toml
    names: tuple[str, ...] = native.MODULES
    hashes = {name: native.source_hash(name) for name in names}
    native.MANIFEST.unlink(missing_ok=True)
    log = io.StringIO()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        modules = mypycify(
            [str(PACKAGE / f"{name}.py") for name in names],
            opt_level="3",
            separate=True,
            target_dir=str(OUT / "c"),
        )
        setup(
            name="hearts-native",
            ext_modules=modules,
            package_dir={"": str(ROOT / "src")},
            script_args=[
                "build_ext",
                "--build-temp",
                str(OUT / "temp"),
                "--build-lib",
                str(OUT / "lib"),
            ],
        )
    built = sorted((OUT / "lib" / "hearts" / "ai").glob("*.so"))
    wanted = {f"{name}{suffix}" for name in names for suffix in native.SUFFIXES}
    if not wanted & {path.name for path in built}:
        raise RuntimeError(f"no extension was written:\n{log.getvalue()[-3000:]}")
    for path in built:  # a rename: a process that has the old file open keeps it
        os.replace(path, PACKAGE / path.name)
    missing = [name for name in names if native.compiled_file(name) is None]
    if missing:
        raise RuntimeError(f"no extension for {', '.join(missing)}:\n{log.getvalue()[-3000:]}")
    native.MANIFEST.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")


def main() -> int:
    native = load_native()
    if all(native.is_current(name) for name in native.MODULES):
        return 0
    started = time.monotonic()
    try:
        build(native)
    except (Exception, SystemExit) as error:  # setuptools reports a failed compile by exit
        print(f"hearts: the search runs as Python; compiling it failed: {error}", file=sys.stderr)
        return 1 if os.environ.get("HEARTS_REQUIRE_NATIVE") == "1" else 0
    took = time.monotonic() - started
    print(f"hearts: compiled {', '.join(native.MODULES)} with mypyc in {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
