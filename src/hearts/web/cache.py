"""A least-recently-used cache bounded by the total weight of what it holds, not by count.

Games differ in size by a factor of a thousand (a few actions to 5,000 for a game to 1,000
points), so a cache of N games is either tiny or unbounded in bytes. Weighing each game by
its number of actions bounds memory by what the games hold.

>>> cache = SizedCache[str, str](max_weight=10)
>>> cache.put("a", "short", weight=4); cache.put("b", "long", weight=7)
>>> "a" in cache, "b" in cache, cache.weight
(False, True, 7)
>>> cache.put("huge", "x", weight=11)   # more than the whole budget: not kept
>>> "huge" in cache
False
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    def __init__(self, max_weight: int) -> None:
        self.max_weight = max_weight
        self.weight = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V, weight: int) -> None:
        self.discard(key)
        weight = max(1, weight)
        if weight > self.max_weight:
            return
        self._items[key] = (value, weight)
        self.weight += weight
        while self.weight > self.max_weight:
            _, (_, dropped) = self._items.popitem(last=False)
            self.weight -= dropped

    def discard(self, key: K) -> None:
        found = self._items.pop(key, None)
        if found is not None:
            self.weight -= found[1]

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)
