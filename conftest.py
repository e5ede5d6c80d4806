"""Collection: the compiled search modules' doctests run from their source
(`tests/test_ai_native.py`), since the import of one finds its compiled copy."""

from hearts.ai.native import MODULES

collect_ignore = [f"src/hearts/ai/{name}.py" for name in MODULES]
