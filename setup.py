"""The wheel's platform tag: `make wheel` puts the compiled search modules in it.

Everything else about the package is in pyproject.toml. The compiled modules
(`hearts/ai/*.so`, built by `make native`, with the hashes of the sources they were built
from in `native.json`) are package data there, so a wheel built after `make native` carries
them; this file only tells the build that such a wheel is for this platform and this
Python, not for any. Without them the wheel is pure Python, and `hearts.ai.native` runs the
sources wherever a module is missing or does not match its source.
"""

from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped]
from setuptools.dist import Distribution  # type: ignore[import-untyped]

COMPILED = Path(__file__).resolve().parent / "src" / "hearts" / "ai"


class Package(Distribution):  # type: ignore[misc]
    def has_ext_modules(self) -> bool:
        return any(COMPILED.glob("*.so"))


setup(distclass=Package)
