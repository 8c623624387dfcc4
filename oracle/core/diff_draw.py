"""How ``diff`` draws its games: from a plain seeded source in the hot loop, from Hypothesis only
to shrink a divergence.

A game of diff is a function of a sequence of choices, each a whole number in a range
(:class:`Draws`). :class:`SeededDraws` makes them from ``random.Random`` seeded by the run's seed
and the game's index, and records them: the same games in any process and on any number of
workers, at the cost of a random number each. :class:`HypothesisDraws` takes them from a
Hypothesis ``ConjectureData`` (``draw_integer`` of the same range), so a recorded sequence is a
Hypothesis example as it stands: :func:`shrink` hands it to Hypothesis (its example database,
replayed and then shrunk), which plays the same game first and then shorter ones.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


_NOTHING = _Nothing()


class Draws:
    """A source of choices: :meth:`integer` is the one kind of draw a game makes."""

    def integer(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` (both included)."""
        raise NotImplementedError

    def step(self) -> Any:
        """A context around the draws of one step of a game (Hypothesis shrinks a step's
        choices as a unit: it can drop a whole step); nothing for a seeded source."""
        return _NOTHING


#: The share of draws that take the simplest value of their range (its low end), as
#: Hypothesis's own generation often does: simple games come up, and the shrinking of a game
#: that differs starts nearer the bottom (a Maiko engine that keeps the turn after a friend is
#: flipped was shrunk to 13 decisions from uniform games, in the same budget, and to 2 so).
SIMPLEST = 1 / 8


class SeededDraws(Draws):
    """Choices from a seeded ``random.Random``, each the low end of its range one time in
    eight (:data:`SIMPLEST`) and otherwise uniform in it, each recorded (``choices``) as a
    Hypothesis ``ConjectureData`` records them: a range of one value is no choice, so neither
    draws one."""

    def __init__(self, seed: int, index: int) -> None:
        # A string seed is hashed with SHA-512 by random: the same source in any process,
        # whatever PYTHONHASHSEED.
        self._random = random.Random(f"diff/{seed}/{index}").random
        self.choices: list[int] = []

    def integer(self, low: int, high: int) -> int:
        if low == high:
            return low
        random = self._random
        value = low if random() < SIMPLEST else low + int(random() * (high - low + 1))
        self.choices.append(value)
        return value


class HypothesisDraws(Draws):
    """Choices from Hypothesis's ``st.data()``: the draws of its ``ConjectureData`` itself
    where there is one (the public ``data.draw`` wraps each in what diff never uses)."""

    def __init__(self, data: Any) -> None:
        inner = getattr(data, "conjecture_data", None)
        draw_integer = getattr(inner, "draw_integer", None)
        if draw_integer is None:
            from hypothesis import strategies as st

            def draw_integer(low: int, high: int) -> int:
                return data.draw(st.integers(low, high))
        self._draw_integer = draw_integer
        self._step = _Span(inner) if hasattr(inner, "start_span") else _NOTHING

    def integer(self, low: int, high: int) -> int:
        if low == high:
            return low
        return self._draw_integer(low, high)

    def step(self) -> Any:
        return self._step


#: The label of a step's span among Hypothesis's spans (any number of 64 bits).
_STEP_LABEL = 0x6469666673746570


class _Span:
    """A span of Hypothesis's ``ConjectureData`` around one step's draws."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def __enter__(self) -> None:
        self.data.start_span(_STEP_LABEL)

    def __exit__(self, *exc: Any) -> None:
        self.data.stop_span()


def choice(draws: Draws, items: Sequence[T]) -> T:
    """One of ``items``, uniformly (shrinks towards the first)."""
    return items[draws.integer(0, len(items) - 1)]


def permutation(draws: Draws, items: Sequence[T]) -> list[T]:
    """``items`` in an order drawn uniformly (Fisher and Yates; shrinks towards their order)."""
    out = list(items)
    for i in range(len(out) - 1):
        j = draws.integer(i, len(out) - 1)
        out[i], out[j] = out[j], out[i]
    return out


#: The key under which :func:`shrink` hands a game's choices to Hypothesis's database.
_KEY = b"diff-found"


def shrink(test: Callable[[Draws], None], choices: Sequence[int], seed: int,
           examples: int) -> None:
    """Hypothesis replays ``choices`` through ``test`` (which raises on a divergence) and
    shrinks them: phases reuse and shrink of a test whose example database holds them. What
    ``test`` raises ends it as Hypothesis ends a failing test (the smallest failure raised
    again, ``Flaky`` when it did not fail again); ``examples`` bounds the games it plays."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

    database = InMemoryExampleDatabase()

    # settings after seed: seed() clears the database of the settings it finds.
    @settings(max_examples=max(1, examples), database=database, deadline=None,
              phases=[Phase.reuse, Phase.shrink], report_multiple_bugs=False,
              verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck),
              print_blob=False)
    @hypothesis_seed(seed)
    @given(st.data())
    def replayed(data: Any) -> None:
        test(HypothesisDraws(data))

    # Hypothesis reads a test's database key from this attribute where it is set; an example
    # under the key's secondary corpus is replayed and then shrunk (one under the key itself
    # would be taken as shrunk already).
    replayed._hypothesis_internal_database_key = _KEY  # type: ignore[attr-defined]
    database.save(_KEY + b".secondary", choices_to_bytes(tuple(choices)))
    replayed()
