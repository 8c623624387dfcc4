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

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items`` (:func:`choice`): the item at a drawn index."""
        return items[self.integer(0, len(items) - 1)]


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

    def pick(self, items: Sequence[T]) -> T:
        # :meth:`Draws.pick` with the draw written out: a game picks at almost every step
        high = len(items) - 1
        if high <= 0:
            return items[self.integer(0, high)]
        random = self._random
        value = 0 if random() < SIMPLEST else int(random() * (high + 1))
        self.choices.append(value)
        return items[value]


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


class Overrun(Exception):
    """A game of :class:`ReplayedDraws` drew more choices than it was given (as Hypothesis
    ends a replayed example that does): a game cut short of the divergence it was cut from,
    not played on at length with made-up choices."""


class ReplayedDraws(Draws):
    """``given`` choices drawn again in turn, as Hypothesis replays an example: a choice out of
    the range drawn is that range's low end; a draw once they have run out is an
    :class:`Overrun`. An item of
    ``meant`` (by the position of its choice) is picked again (:meth:`pick`) wherever it is
    among the items offered, whatever its index now. What it draws is recorded as
    :class:`SeededDraws` records it (``choices``), with each draw's range (``ranges``, None
    for a pick), the items picked (``picked``) and the number of choices drawn before each
    step began (``steps``): where a game's steps lie in its choices, for :func:`cut_steps`."""

    def __init__(self, given: Sequence[int], meant: dict[int, Any] | None = None) -> None:
        self._given = given
        self._meant = meant or {}
        self.choices: list[int] = []
        self.ranges: list[tuple[int, int] | None] = []
        self.picked: dict[int, Any] = {}
        self.steps: list[int] = []

    def integer(self, low: int, high: int) -> int:
        if low == high:
            return low
        at = len(self.choices)
        if at >= len(self._given):
            raise Overrun
        value = self._given[at]
        if not low <= value <= high:
            value = low
        self.choices.append(value)
        self.ranges.append((low, high))
        return value

    def pick(self, items: Sequence[T]) -> T:
        if len(items) < 2:
            return items[self.integer(0, len(items) - 1)]
        at = len(self.choices)
        if at >= len(self._given):
            raise Overrun
        if at in self._meant:
            try:
                index = list(items).index(self._meant[at])
            except ValueError:  # not offered now: the index as given
                index = None
            if index is not None:
                self.choices.append(index)
                self.ranges.append(None)
                self.picked[at] = items[index]
                return items[index]
        item = items[self.integer(0, len(items) - 1)]
        self.ranges[at] = None
        self.picked[at] = item
        return item

    def step(self) -> Any:
        self.steps.append(len(self.choices))
        return _NOTHING


def cut_steps(attempt: Callable[[ReplayedDraws], bool], played: ReplayedDraws,
              games: int) -> tuple[ReplayedDraws, int]:
    """Whole runs of steps cut out of the game ``played`` drew, from one step to a later one
    that draws alike (the same ranges, a pick among any items), so that the game after the cut
    draws its choices as it did, and makes the same decisions where they are still legal (a
    round of a card game cut out, and the next one dealt in its place; the turns before a
    decision cut out, and that decision made at once). The cuts from the most distinctive
    steps (the most draws) first, the longest first among those, then those nearest the
    start. ``attempt(draws)`` plays a game from ``draws`` (an :class:`Overrun` of it is
    ``attempt``'s to catch) and says whether it still fails, with a smaller report: the game
    then kept is that one, and the cuts start again from it. Hypothesis's shrinker cuts at
    most a few choices at a time, so a failing game of many rounds stays one of many rounds;
    this cuts rounds (or any repeated stretch) in a game each. At most ``games`` games: the
    game kept, and the games played."""
    tried = 0
    seen: set[tuple[int, ...]] = set()
    while True:
        starts, choices, ranges = played.steps, played.choices, played.ranges
        ends = starts[1:] + [len(choices)]
        shapes = [tuple(ranges[a:b]) for a, b in zip(starts, ends)]
        cuts = sorted(((a, b) for a in range(len(starts)) for b in range(a + 1, len(starts))
                       if shapes[a] == shapes[b]),
                      key=lambda cut: (-len(shapes[cut[0]]),
                                       -(starts[cut[1]] - starts[cut[0]]), cut[0]))
        for a, b in cuts:
            low, high = starts[a], starts[b]
            given = tuple(choices[:low] + choices[high:])
            if given in seen:
                continue
            seen.add(given)
            if tried >= games:
                return played, tried
            tried += 1
            meant = {at if at < low else at - (high - low): item
                     for at, item in played.picked.items() if not low <= at < high}
            draws = ReplayedDraws(given, meant)
            if attempt(draws):
                played = draws
                break
        else:
            return played, tried


def lower_last(attempt: Callable[[ReplayedDraws], bool], played: ReplayedDraws,
               games: int) -> tuple[ReplayedDraws, int]:
    """The last item the game ``played`` drew picked (the decision the divergence followed),
    replaced by each item offered before it in turn, the first first; the game ends at that
    decision's divergence, so what it drew after it is left out (and a game that draws more is
    an :class:`Overrun`). ``attempt`` as for
    :func:`cut_steps`: the first game that still fails, smaller, is kept. Hypothesis lowers a
    choice by halves and steps, so the lowest of the few items that make the same divergence
    (the one friend of a board at a space with one digit) is rarely among those it tries. At
    most ``games`` games: the game kept, and the games played."""
    if not played.picked:
        return played, 0
    at = max(played.picked)
    tried = 0
    for index in range(min(played.choices[at], games)):
        tried += 1
        draws = ReplayedDraws(played.choices[:at] + [index],
                              {k: v for k, v in played.picked.items() if k < at})
        if attempt(draws):
            return draws, tried
    return played, tried


def choice(draws: Draws, items: Sequence[T]) -> T:
    """One of ``items``, uniformly (shrinks towards the first): a decision among the legal
    ones, say, which a game replayed after a cut (:func:`cut_steps`) takes again where it is
    still among them."""
    return draws.pick(items)


def permutation(draws: Draws, items: Sequence[T]) -> list[T]:
    """``items`` in an order drawn uniformly (Fisher and Yates; shrinks towards their order)."""
    out = list(items)
    for i in range(len(out) - 1):
        j = draws.integer(i, len(out) - 1)
        out[i], out[j] = out[j], out[i]
    return out


#: The key under which :func:`shrink` hands a game's choices to Hypothesis's database.
_KEY = b"diff-found"


def shrink_in_stages(test: Callable[[Draws], None], best: Callable[[], Any],
                     choices: Sequence[int], seed: int, budget: int,
                     differs: type[BaseException]) -> None:
    """``diff``'s shrinking of the game of ``choices``: replayed once (where its steps lie),
    whole stretches of steps cut (:func:`cut_steps`) and the last decision lowered
    (:func:`lower_last`) in at most a quarter of ``budget`` games each, then Hypothesis
    (:func:`shrink`) from what is left. ``test`` plays a game and raises ``differs`` when it
    shows the divergence, keeping the smallest found, which ``best()`` gives: a game is
    smaller when it changes it. What ``test`` and Hypothesis raise comes through."""
    def smaller(draws: ReplayedDraws) -> bool:
        before = best()
        try:
            test(draws)
        except differs:
            return best() is not before
        except Overrun:  # it drew past the choices it was given: not that divergence
            pass
        return False

    kept, start = choices, ReplayedDraws(choices)
    try:
        test(start)  # where its steps lie
    except differs:
        start, _ = cut_steps(smaller, start, budget // 4)
        start, _ = lower_last(smaller, start, budget // 4)
        kept = start.choices
    except Overrun:  # it no longer differs: Hypothesis says so (Flaky)
        pass
    shrink(test, kept, seed, budget + 1)


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
