import sys
from pathlib import Path

# Test helpers live beside the tests; make them importable as a plain module.
sys.path.insert(0, str(Path(__file__).parent))
