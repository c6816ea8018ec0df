"""The deal: 36 gems to seven placeholders A-G, five each, the 36th to X.

The distribution is secret until the game ends. At the start the service
publishes a commitment, SHA-256 over ``salt + ":" + canonical distribution``;
at the end it publishes the distribution and the salt so that anyone can check
that nothing changed during the game.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping

from .gems import GEM_BY_CODE, GEMS, Gem

PLACEHOLDERS = ("A", "B", "C", "D", "E", "F", "G")
NOBODY = "X"
LOCATIONS = PLACEHOLDERS + (NOBODY,)
GEMS_PER_PLACEHOLDER = 5


class DistributionError(ValueError):
    """A distribution text that is not a valid deal."""


class Distribution(Mapping[Gem, str]):
    """Where every gem lies: a read-only mapping gem -> location (A-G or X)."""

    def __init__(self, placement: Mapping[Gem, str]):
        self._placement = dict(placement)
        _check(self._placement)

    def __getitem__(self, gem: Gem) -> str:
        return self._placement[gem]

    def __iter__(self):
        return iter(self._placement)

    def __len__(self) -> int:
        return len(self._placement)

    def __repr__(self) -> str:
        # Never print the secret by accident (logs, tracebacks).
        return "<Distribution (secret)>"

    def holding(self, location: str) -> list[Gem]:
        """The gems at one location, in information-sheet order."""
        return sorted((g for g, loc in self._placement.items() if loc == location),
                      key=lambda g: g.sort_key)

    def canonical(self) -> str:
        """``A=BD1,RP2,...;B=...;...;X=YO3``: the text the commitment hashes."""
        return ";".join(
            f"{loc}=" + ",".join(g.code for g in self.holding(loc)) for loc in LOCATIONS
        )

    @classmethod
    def from_canonical(cls, text: str) -> Distribution:
        placement: dict[Gem, str] = {}
        for part in text.strip().split(";"):
            loc, sep, codes = part.partition("=")
            if not sep or loc not in LOCATIONS:
                raise DistributionError(f"bad part {part!r}")
            for code in filter(None, codes.split(",")):
                if code not in GEM_BY_CODE or GEM_BY_CODE[code] in placement:
                    raise DistributionError(f"bad or repeated gem {code!r}")
                placement[GEM_BY_CODE[code]] = loc
        return cls(placement)


def _check(placement: Mapping[Gem, str]) -> None:
    if set(placement) != set(GEMS):
        raise DistributionError("a distribution places each of the 36 gems exactly once")
    for loc in PLACEHOLDERS:
        if sum(1 for v in placement.values() if v == loc) != GEMS_PER_PLACEHOLDER:
            raise DistributionError(f"placeholder {loc} must hold {GEMS_PER_PLACEHOLDER} gems")
    if sum(1 for v in placement.values() if v == NOBODY) != 1:
        raise DistributionError("exactly one gem goes to nobody (X)")


def deal(seed: int | None = None) -> Distribution:
    """Shuffle and deal. Uses the OS's secure random source; ``seed`` is for tests only."""
    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    gems = list(GEMS)
    rng.shuffle(gems)
    placement = {gem: PLACEHOLDERS[i // GEMS_PER_PLACEHOLDER] for i, gem in enumerate(gems[:35])}
    placement[gems[35]] = NOBODY
    return Distribution(placement)


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(distribution: Distribution, salt: str) -> str:
    """SHA-256 hex digest of ``salt:canonical`` (check with ``sha256sum``)."""
    return hashlib.sha256(f"{salt}:{distribution.canonical()}".encode()).hexdigest()


def verify_commitment(distribution_text: str, salt: str, published: str) -> bool:
    """True if the revealed distribution and salt match the published commitment."""
    try:
        dist = Distribution.from_canonical(distribution_text)
    except DistributionError:
        return False
    # Bytes: compare_digest refuses str with non-ASCII characters (TypeError).
    return hmac.compare_digest(commitment(dist, salt).encode(),
                               published.strip().lower().encode())
