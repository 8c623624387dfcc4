"""The rules as a configuration value, and every decision that depends on the variant.

Both presets share the components, the deal, the turns and the scoring; they differ only in
``max_rounds`` (VAR-IT-1). The goal test (END-2..4) and the round limit (VAR-IT-2..4) live here so
that nothing about a variant is decided anywhere else.
"""

from __future__ import annotations

import enum

import attrs

from .cards import CHARM, NUM_GEISHA, TOTAL_CHARM

Markers = tuple["int | None", ...]


class Reason(enum.Enum):
    """Why a game ended (END-3, END-4, VAR-IT-2..4)."""

    GEISHA = "geisha"
    CHARM = "charm"
    CHARM_OVER_GEISHA = "charm-over-geisha"
    ROUND_LIMIT_CHARM = "round-limit-charm"
    ROUND_LIMIT_HIGHEST_GEISHA = "round-limit-highest-geisha"
    SHARED = "shared"

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


@attrs.frozen
class Result:
    """The end of a game: the winner (0 or 1; None for a shared victory) and why."""

    winner: int | None
    reason: Reason

    def describe(self) -> str:
        """For people: ``a win for player 1 by charm``, ``a shared victory by shared``."""
        who = "a shared victory" if self.winner is None else f"a win for player {self.winner}"
        return f"{who} by {self.reason.value}"


def geisha_count(markers: Markers, player: int) -> int:
    """SCORE-4: the number of victory markers on ``player``'s side."""
    return sum(1 for m in markers if m == player)


def charm(markers: Markers, player: int) -> int:
    """SCORE-4: the charm of the geisha whose markers are on ``player``'s side."""
    return sum(c for c, m in zip(CHARM, markers) if m == player)


def held_values(markers: Markers, player: int) -> tuple[int, ...]:
    """The charm values of the geisha ``player`` holds, highest first (VAR-IT-3)."""
    return tuple(sorted((c for c, m in zip(CHARM, markers) if m == player), reverse=True))


def _check_goals(instance: "Rules", attribute: attrs.Attribute, value: int) -> None:
    # END-4 presumes the two goals can't be reached twice over: two players with 4+ geisha each
    # need 8 of 7 geisha, two with 11+ charm need 22 of 21 charm. Other goals would need rules
    # no rulebook gives.
    if attribute.name == "geisha_goal" and not NUM_GEISHA < 2 * value <= 2 * NUM_GEISHA:
        raise ValueError(f"geisha_goal must be from {NUM_GEISHA // 2 + 1} to {NUM_GEISHA}, not {value}")
    if attribute.name == "charm_goal" and not TOTAL_CHARM < 2 * value <= 2 * TOTAL_CHARM:
        raise ValueError(f"charm_goal must be from {TOTAL_CHARM // 2 + 1} to {TOTAL_CHARM}, not {value}")


@attrs.frozen
class Rules:
    """A variant of the rules. Use the presets :data:`STANDARD` and :data:`ITALIAN_THREE_ROUNDS`.

    >>> Rules.named("italian-three-rounds").max_rounds
    3
    """

    name: str
    #: VAR-IT-1: the most rounds a game lasts; None for no limit (UPDATE-5).
    max_rounds: int | None = None
    #: END-2: geisha that reach the goal.
    geisha_goal: int = attrs.field(default=4, validator=_check_goals)
    #: END-2: charm that reaches the goal.
    charm_goal: int = attrs.field(default=11, validator=_check_goals)

    @classmethod
    def named(cls, name: str) -> "Rules":
        """The preset called ``name`` (``standard`` or ``italian-three-rounds``)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown variant {name!r}; expected one of: {', '.join(PRESETS)}"
            ) from None

    def reaches_goal(self, markers: Markers, player: int) -> bool:
        """END-2: 4+ geisha or 11+ charm."""
        return (geisha_count(markers, player) >= self.geisha_goal
                or charm(markers, player) >= self.charm_goal)

    def goal_result(self, markers: Markers) -> Result | None:
        """END-2, END-3, END-4: the result if a goal is reached after scoring, else None.

        Scored after every round of every game: each side's geisha and charm are counted in one
        pass over the markers (what :func:`geisha_count` and :func:`charm` count).
        """
        g0 = g1 = c0 = c1 = 0
        for value, marker in zip(CHARM, markers):
            if marker == 0:
                g0 += 1
                c0 += value
            elif marker == 1:
                g1 += 1
                c1 += value
        by_charm = (c0 >= self.charm_goal, c1 >= self.charm_goal)
        by_geisha = (g0 >= self.geisha_goal, g1 >= self.geisha_goal)
        reached = [p for p in (0, 1) if by_charm[p] or by_geisha[p]]
        if not reached:
            return None
        if len(reached) == 2:
            # END-4: one has the geisha goal, the other the charm goal; charm wins.
            (winner,) = [p for p in (0, 1) if by_charm[p]]
            return Result(winner, Reason.CHARM_OVER_GEISHA)
        (winner,) = reached
        if by_charm[winner]:
            return Result(winner, Reason.CHARM)
        return Result(winner, Reason.GEISHA)

    def limit_result(self, markers: Markers) -> Result:
        """VAR-IT-2..4: who wins when the round limit is reached with no goal."""
        c0, c1 = charm(markers, 0), charm(markers, 1)
        if c0 != c1:
            return Result(0 if c0 > c1 else 1, Reason.ROUND_LIMIT_CHARM)
        h0, h1 = held_values(markers, 0), held_values(markers, 1)
        if h0 != h1:
            return Result(0 if h0 > h1 else 1, Reason.ROUND_LIMIT_HIGHEST_GEISHA)
        return Result(None, Reason.SHARED)

    def round_result(self, markers: Markers, round_index: int) -> Result | None:
        """END-1: checked after the scoring of round ``round_index`` (from 0); None to go on.

        A goal (END-2) takes precedence over the limit (VAR-IT-2).
        """
        result = self.goal_result(markers)
        if result is None and self.max_rounds is not None and round_index + 1 >= self.max_rounds:
            result = self.limit_result(markers)
        return result


STANDARD = Rules("standard")
ITALIAN_THREE_ROUNDS = Rules("italian-three-rounds", max_rounds=3)
PRESETS: dict[str, Rules] = {r.name: r for r in (STANDARD, ITALIAN_THREE_ROUNDS)}
