"""Proof that the checks bite on Maiko: each broken engine of tests/maiko/broken.py is caught by
the check named for it (a generic property of properties/core/ or a Maiko invariant of
properties/maiko/invariants.py), and only by a violation of that very check, while the
reference engine passes the same check under the same settings (the same seeded games, the same
scripted positions).

The Maiko invariants take states, not a game; here they run on the states that the broken game
produces with its own ``apply`` (``before, decision, after`` for a step invariant), so they see
exactly what the broken engine does.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import Phase as HypothesisPhase
from hypothesis import settings

from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.engine.maiko import GAME, MaikoGame, State
from hanamikoji.properties.core import invariants as core_inv
from hanamikoji.properties.core.suite import PROPERTIES_BY_NAME
from hanamikoji.properties.maiko import invariants as mk_inv
from hanamikoji.properties.maiko.scenarios import arrange, configure, decision
from hanamikoji.properties.profiles import SUPPRESSED
from hanamikoji.properties.core.cite import checks

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:  # the broken games are the module maiko.broken of tests/
    sys.path.insert(0, str(TESTS))

from maiko.broken import BROKEN, BrokenMaiko  # noqa: E402

RULE_ID = re.compile(r"MK-[A-Z]+(?:-[A-Z]+)*-\d+")

#: Deterministic and quick, as tests/test_core_properties.py hunts the test game's bugs.
HUNT = settings(max_examples=30, deadline=None, database=None, derandomize=True,
                phases=(HypothesisPhase.generate,), report_multiple_bugs=False,
                suppress_health_check=SUPPRESSED)

#: The seeded games every check plays: (players, seed); the broken and the reference alike.
SEEDED = [(players, seed) for seed in range(3) for players in (2, 3, 4)]


class Caught(Exception):
    """A Maiko invariant failed on a broken engine's play: its function name, the rules its
    docstring cites and its message (the invariants' own Violation names neither)."""

    def __init__(self, check: str, rules: tuple[str, ...], message: str) -> None:
        super().__init__(f"{check} ({', '.join(rules)}): {message}")
        self.check, self.rules = check, rules


def _cited(invariant: Callable[..., Any]) -> tuple[str, ...]:
    from hanamikoji.properties.core.cite import cited

    return cited(invariant)


def _checker(name: str) -> Callable[[Any, Any, State], None]:
    """The Maiko invariant ``name`` as a check of one step (``before`` is None for the first
    state): a state invariant on the state after, a step invariant on the step. A failure is
    raised as :class:`Caught`, naming the invariant and the rules its docstring cites."""
    invariant = getattr(mk_inv, name)
    rules = _cited(invariant)

    def check(before: Any, d: Any, after: State) -> None:
        try:
            if invariant in mk_inv.STEP_INVARIANTS:
                if before is not None:
                    invariant(before, d, after)
            else:
                invariant(after)
        except mk_inv.Violation as violation:
            raise Caught(name, rules, str(violation)) from None
    return check


def _seeded_steps(game: Game, players: int, seed: int) -> Iterator[tuple[Any, Any, State]]:
    """Every step ``(before, decision, after)`` of one seeded random game played with ``game``'s
    own methods (``before`` and ``decision`` None for the first state)."""
    rng = random.Random(f"maiko-broken/{players}/{seed}")
    config = game.configure({"players": players})
    state = game.new_game(config, seed % players)
    yield None, None, state
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            d = game.sample_chance(state, rng)
        else:
            d = rng.choice(game.legal_actions(state))
        before, state = state, game.apply(state, d)
        yield before, d, state
        assert state.turn < 2_000, "a seeded game went on too long"


def hunt(game: Game, check: str, games: list[tuple[int, int]] = SEEDED) -> None:
    """Run ``check`` on every step of the seeded ``games`` played with ``game``; raise
    :class:`Caught` at the first failure."""
    run = _checker(check)
    for players, seed in games:
        for before, d, after in _seeded_steps(game, players, seed):
            run(before, d, after)


def play_checked(game: Game, check: str, config: Any, front: list[str], first_player: int,
                 moves: list[str]) -> State:
    """A scripted position played with ``game``'s own ``apply``, ``check`` run on every step."""
    run = _checker(check)
    state = game.apply(game.new_game(config, first_player), arrange(config, front))
    run(None, None, state)
    for text in moves:
        d = decision(text)
        before, state = state, game.apply(state, d)
        run(before, d, state)
    return state


# --- scripted positions: where random play is slow to go ------------------------------------

#: Two players, pink (player 0) and green; white in the box, purple on the board.
TWO = configure(2, "pink,green")

#: MK-COL-1, MK-COL-2: pink completes column 0 (items 0, 3, 6) with three pairs, a token; then a
#: fourth pair on item 0, a second layer, which pays nothing.
COLUMN_SCRIPT = (["pink-0", "pink-0", "pink-3", "pink-3", "pink-6", "pink-6", "purple-0",
                  "purple-0", "green-1", "green-2"],
                 0, ["flip 0", "flip 1", "flip 2", "flip 3", "flip 4", "flip 5",
                     "flip 6", "flip 7", "flip 8", "flip 9"])

#: MK-SCORE-2, MK-SCORE-3: green mismatches; pink, the player before the first player, fills her
#: board with nine pairs of one pink and one purple tile (no discard), ends her turn and the game:
#: pink 9 - 9 = 0 points with 9 own tiles, green 0 points with none: pink alone wins.
TIE_SCRIPT = (["green-0", "green-1"] + [t for i in range(9) for t in (f"pink-{i}", f"purple-{i}")],
              1, ["flip 0", "flip 1"]
              + [f"flip {s}" for s in range(2, 8)] + ["sweep 0 -", "sweep 1 -", "sweep 2 -"]
              + [f"flip {s}" for s in range(8, 14)] + ["sweep 3 -", "sweep 4 -", "sweep 5 -"]
              + [f"flip {s}" for s in range(14, 20)] + ["sweep 6 -", "sweep 7 -", "sweep 8 -"]
              + ["end"])

#: Where each catch must say it went wrong (the check's message), so that a broken engine is
#: caught for its own bug and not for something else the check also tests.
SAYS = {
    "maiko-peek-leaks": "log differ",
    "maiko-pair-ends-turn": "which should go on",
    "maiko-column-paid-twice": "expected a change of 0",
    "maiko-friend-keeps-turn": "should end player",
    "maiko-tie-break-ignores-own": r"winners \(0, 1\), expected \(0,\)",
}

#: The broken engines that random play catches on :data:`SEEDED` games (the tie-break needs a
#: tie on points with different own-colour counts, rare in random play: it is scripted).
BY_SEEDED_PLAY = ["maiko-pair-ends-turn", "maiko-column-paid-twice", "maiko-friend-keeps-turn"]
BY_PROPERTY = sorted(name for name, g in BROKEN.items() if g.caught_by in PROPERTIES_BY_NAME)
CHECKS = sorted({g.caught_by for g in BROKEN.values()} - set(PROPERTIES_BY_NAME))


def _assert_caught(broken: BrokenMaiko, caught: pytest.ExceptionInfo) -> None:
    """The violation is of the check named for ``broken``, for ``broken``'s own bug, and (for a
    Maiko invariant) cites a rule that ``broken`` breaks."""
    assert caught.value.check == broken.caught_by, str(caught.value)
    assert re.search(SAYS[broken.name], str(caught.value)), str(caught.value)
    if broken.caught_by not in PROPERTIES_BY_NAME:
        assert set(caught.value.rules) & set(broken.rules), str(caught.value)


# --- the catalogue ------------------------------------------------------------------------------


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-2", "MK-FLIP-3", "MK-TURN-2", "MK-COL-2", "MK-TOKEN-1",
       "MK-FLIP-5", "MK-SCORE-3", "MK-SCORE-4")
def test_the_catalogue_names_rules_and_checks_that_exist():
    """MK-TUTOR-ONESAN-2, MK-INFO-2, MK-FLIP-3, MK-TURN-2, MK-COL-2, MK-TOKEN-1, MK-FLIP-5,
    MK-SCORE-3, MK-SCORE-4: the five broken engines of the issue, each breaking rules of the spec
    and named for a check that exists and (for a Maiko invariant) cites one of those rules."""
    import doctest

    from hanamikoji.spec.core.coverage import rule_ids_in

    assert doctest.testmod(sys.modules[BrokenMaiko.__module__]).failed == 0
    spec = (Path(__file__).resolve().parents[2] / "spec" / "maiko" / "rules.md").read_text("utf-8")
    known = {rule for rule, _ in rule_ids_in(spec)}
    assert set(BROKEN) == set(SAYS)
    for broken in BROKEN.values():
        assert isinstance(broken, MaikoGame) and broken.bug and broken.rules, broken.name
        assert set(broken.rules) <= known, broken.name
        if broken.caught_by in PROPERTIES_BY_NAME:
            continue
        invariant = getattr(mk_inv, broken.caught_by)
        assert invariant in mk_inv.STATE_INVARIANTS + mk_inv.STEP_INVARIANTS
        assert set(_cited(invariant)) & set(broken.rules), broken.name


# --- each broken engine is caught ---------------------------------------------------------------


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-2")
@pytest.mark.parametrize("name", BY_PROPERTY)
def test_each_broken_maiko_is_caught_by_its_generic_property(name):
    """MK-TUTOR-ONESAN-2, MK-INFO-2: a view that shows another player's One-san look changes when
    the tiles that player never saw are redrawn: views-leak-nothing fails, and says so."""
    broken = BROKEN[name]
    with pytest.raises(core_inv.Violation) as caught:
        PROPERTIES_BY_NAME[broken.caught_by].test(broken, settings=HUNT)()
    assert caught.value.property == broken.caught_by
    assert re.search(SAYS[name], str(caught.value)), str(caught.value)


@checks("MK-FLIP-3", "MK-TURN-2", "MK-FLIP-5", "MK-COL-2", "MK-TOKEN-1")
@pytest.mark.parametrize("name", BY_SEEDED_PLAY)
def test_each_broken_maiko_is_caught_in_seeded_games(name):
    """MK-FLIP-3, MK-TURN-2, MK-FLIP-5, MK-COL-2, MK-TOKEN-1: seeded random games played with the
    broken engine's own ``apply``; its Maiko invariant fails on one of their steps."""
    broken = BROKEN[name]
    with pytest.raises(Caught) as caught:
        hunt(broken, broken.caught_by)
    _assert_caught(broken, caught)


@checks("MK-COL-1", "MK-COL-2", "MK-TOKEN-1")
def test_a_column_paid_twice_is_caught_at_the_second_layer():
    """MK-COL-1, MK-COL-2, MK-TOKEN-1: pink completes column 0 (a token), then lays a second layer
    on item 0; the broken engine pays the column again, and tokens_follow_friends_and_columns
    fails on that very pair (the flip of space 7, in turn 0)."""
    broken = BROKEN["maiko-column-paid-twice"]
    front, first, moves = COLUMN_SCRIPT
    with pytest.raises(Caught) as caught:
        play_checked(broken, broken.caught_by, TWO, front, first, moves)
    _assert_caught(broken, caught)
    assert str(caught.value).count('turn 0: {"kind":"flip","space":7}') == 1


@checks("MK-SCORE-1", "MK-SCORE-2", "MK-SCORE-3", "MK-SCORE-4", "MK-END-2")
def test_a_tie_break_ignoring_own_colour_tiles_is_caught():
    """MK-SCORE-1, MK-SCORE-2, MK-SCORE-3, MK-SCORE-4, MK-END-2: pink and green tie on 0 points,
    pink with 9 own-colour tiles and green with none; the broken engine makes both winners and
    result_follows_the_boards fails on the final state."""
    broken = BROKEN["maiko-tie-break-ignores-own"]
    front, first, moves = TIE_SCRIPT
    with pytest.raises(Caught) as caught:
        play_checked(broken, broken.caught_by, TWO, front, first, moves)
    _assert_caught(broken, caught)


# --- the reference passes the same checks with the same settings --------------------------------


@checks("MK-TUTOR-ONESAN-2", "MK-INFO-2")
@pytest.mark.parametrize("name", sorted({BROKEN[n].caught_by for n in BY_PROPERTY}))
def test_the_reference_passes_the_generic_catchers_with_the_same_settings(name):
    """MK-TUTOR-ONESAN-2, MK-INFO-2: the reference engine's views pass views-leak-nothing under
    the settings that catch the leaking one."""
    PROPERTIES_BY_NAME[name].test(GAME, settings=HUNT)()


@checks("MK-FLIP-3", "MK-FLIP-5", "MK-TURN-2", "MK-COL-2", "MK-TOKEN-1", "MK-SCORE-3")
@pytest.mark.parametrize("check", CHECKS)
def test_the_reference_passes_each_maiko_catcher_on_the_same_seeded_games(check):
    """MK-FLIP-3, MK-FLIP-5, MK-TURN-2, MK-COL-2, MK-TOKEN-1, MK-SCORE-3: every Maiko invariant
    that catches a broken engine holds on every step of the same seeded games played by the
    reference engine."""
    hunt(GAME, check)


@checks("MK-COL-1", "MK-COL-2")
def test_the_reference_pays_one_column_token_in_the_same_script():
    """MK-COL-1, MK-COL-2: the same scripted position passes tokens_follow_friends_and_columns
    with the reference engine: one token for the column, none for the second layer."""
    front, first, moves = COLUMN_SCRIPT
    final = play_checked(GAME, BROKEN["maiko-column-paid-twice"].caught_by, TWO, front, first,
                         moves)
    assert final.hands == (2, 1) and final.boards[0][0 * 4 + 1] == 2  # two purple kimonos
    assert final.current == 1


@checks("MK-SCORE-2", "MK-SCORE-3", "MK-END-2")
def test_the_reference_breaks_the_tie_by_own_colour_tiles_in_the_same_script():
    """MK-SCORE-2, MK-SCORE-3, MK-END-2: the same scripted game passes result_follows_the_boards
    with the reference engine: pink wins alone on own-colour tiles."""
    front, first, moves = TIE_SCRIPT
    final = play_checked(GAME, BROKEN["maiko-tie-break-ignores-own"].caught_by, TWO, front,
                         first, moves)
    assert final.result is not None
    assert (final.result.scores, final.result.own, final.result.winners) == ((0, 0), (9, 0), (0,))


@checks("MK-COL-1", "MK-COL-2", "MK-SCORE-3", "MK-END-1", "MK-END-2", "MK-ROW-1")
def test_the_reference_passes_every_maiko_invariant_in_both_scripts():
    """MK-COL-1, MK-COL-2, MK-SCORE-3, MK-END-1, MK-END-2, MK-ROW-1: the two scripted positions
    are legal play that every Maiko state and step invariant accepts (so the catches above are
    the broken engines' doing, not the scripts')."""
    for front, first, moves in (COLUMN_SCRIPT, TIE_SCRIPT):
        state = GAME.apply(GAME.new_game(TWO, first), arrange(TWO, front))
        mk_inv.check_state(state)
        for text in moves:
            d = decision(text)
            before, state = state, GAME.apply(state, d)
            mk_inv.check_step(before, d, state)
            mk_inv.check_state(state)
