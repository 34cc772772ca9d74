"""The campaign's verifiable random stream (docs/randomness.md is the specification).

Every chance event of a campaign reads from a stream named by the turn and a
purpose label. Stream bytes are HMAC-SHA256(key=seed, msg="<turn>/<purpose>/<i>")
for block i = 0, 1, 2, ... concatenated. Numbers are taken 8 bytes at a time,
big-endian, with rejection so every outcome is exactly equally likely. Anyone
holding the revealed seed can recompute every draw in a few lines of any language.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as _os_secrets
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_SPAN = 1 << 64


def new_seed() -> str:
    """A fresh 256-bit seed from the operating system, as 64 hex digits."""
    return _os_secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The published SHA-256 of the seed: binds the GM to it without revealing it."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Stream:
    """One named stream of uniformly random bytes and the draws built on them."""

    def __init__(self, seed: str, turn: int, purpose: str) -> None:
        self._key = seed.encode("utf-8")
        self._prefix = f"{turn}/{purpose}/".encode("utf-8")
        self._block = 0
        self._buffer = b""

    def _bytes(self, count: int) -> bytes:
        while len(self._buffer) < count:
            message = self._prefix + str(self._block).encode("ascii")
            self._buffer += hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            x = int.from_bytes(self._bytes(8), "big")
            if x < limit:
                return x % n

    def die(self, sides: int = 6) -> int:
        """A die roll, 1..sides."""
        return 1 + self.below(sides)

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, from the last position down, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Rng:
    """The streams of one turn; each purpose label gives an independent stream."""

    def __init__(self, seed: str, turn: int) -> None:
        self.seed = seed
        self.turn = turn

    def stream(self, purpose: str) -> Stream:
        return Stream(self.seed, self.turn, purpose)
