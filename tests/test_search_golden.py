"""The searching levels decide exactly as recorded in tests/data/search_golden.json.

The record was made by `tests/search_golden.py` before the playout was made faster; every
change meant only to speed the search up must leave every card and every digest (each
candidate's result in each sampled deal, to the last bit) as it was. A change that is meant
to change decisions rewrites the record with that script and says so.
"""

from __future__ import annotations

import json

from search_golden import PATH, decide, positions, searched


def test_every_searching_level_decides_as_recorded() -> None:
    recorded = json.loads(PATH.read_text())
    assert searched(recorded) >= 300, "the record must hold at least 300 searched positions"
    now = positions()
    assert sorted(name for name, _ in now) == sorted(recorded)
    differ = []
    for index, (name, view) in enumerate(now):
        if decide(view, f"golden:{name}", index) != recorded[name]:
            differ.append(name)
    assert not differ, f"{len(differ)} positions decided differently, first {differ[:5]}"
