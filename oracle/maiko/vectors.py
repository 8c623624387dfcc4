"""Maiko's conformance corpus (tests/vectors/maiko/), in the manner of Wycheproof's test vectors:
the hand-built cases that ``hanamikoji vectors --game maiko``
(:mod:`hanamikoji.oracle.core.vectors`) writes for this game, through :data:`EXTENSION`, this game's
vectors hooks.

The four files of every corpus (``records.json``, ``decisions.json``, ``views.json``,
``perft.json``), for 2, 3 and 4 players. The core builds a corpus for any game from seeded games
alone, but random play seldom reaches what the rules are most often got wrong on: a row and a
column completed by one placement, a token taken from a tutor card when the pool is empty, a
Danna friend, the ending step and the last turns, a shared victory. So most cases come from
*constructed* games: a layout chosen by the case (the chance outcome: :func:`arrange`) and
decisions chosen to reach the position; the rest from seeded games (game ``i`` of seed 1, as
``hanamikoji simulate`` plays it), for the three ends as random play reaches them.

Every expected answer is computed by the core's ``expected_*`` functions, the ones every game's
corpus is written with; nothing is typed by hand. A case cites the rules it exercises: an
illegal case the rule the engine names; a legal decision the rules that make it legal and that
shape the legal list at its position; a view the rules that decide what it shows or hides.
Each case also states what it is built to show (the rule refused, whose turn comes next, the
end, a token, a hidden tile), and :func:`~hanamikoji.oracle.core.vectors.intend` stops
generation when the engine says otherwise, so a citation never outlives the behaviour it
names. Generation is deterministic and takes a few seconds: each perft case's depth is chosen
so that its deepest count stays under :data:`PERFT_CAP` nodes.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable, Sequence

import attrs

from hanamikoji.engine.core.game import CHANCE, TERMINAL
from hanamikoji.oracle.core.protocol import player_json
from hanamikoji.engine.core.seeded import play_game
from hanamikoji.oracle.core.vectors import (
    FILES,
    NOTES as CORE_NOTES,
    Case,
    IntentError,
    VectorFile,
    VectorsExtension,
    expected_decision,
    expected_perft,
    expected_record,
    expected_view,
    intend,
    mutations,
    seeded_games,
)
from hanamikoji.engine.maiko.actions import (
    Danna,
    Decision,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    Sweep,
)
from hanamikoji.engine.maiko.components import PLAYER_COUNTS, ROWS, Colour, Config, parse_tile
from hanamikoji.engine.maiko.game import DOWN, EMPTY, UP, Phase, Reason, State
from hanamikoji.engine.maiko.game_type import GAME

__all__ = ["files", "arrange", "PLAYER_COUNTS"]

#: The seed of the seeded games (game i of it, as ``hanamikoji simulate --seed 1`` plays it).
SEED = 1
#: The most games of :data:`SEED` searched for an end that random play reaches rarely.
SEARCH = 200
#: No perft case counts more nodes than this at its deepest depth (the depths are chosen so).
PERFT_CAP = 100_000

WHITE, PURPLE, PINK, GREEN = Colour.WHITE, Colour.PURPLE, Colour.PINK, Colour.GREEN

NOTES = {
    **CORE_NOTES,
    "Constructed": "A game built for the case: its layout (the chance outcome) puts chosen tiles "
                   "on the first spaces and the other tiles in play after them in tile order "
                   "(white-0 ... green-8, then the friends); then chosen decisions reach the "
                   "position.",
    "EdgeCase": "A situation uniform random play seldom reaches.",
    "Text": "The input is raw text (`text`, or `hex` for bytes that are not UTF-8), not a JSON "
            "value.",
    "HiddenInformation": "The players' views of this position differ: One-san's looks are seen "
                         "only by the player who looked (MK-TUTOR-ONESAN-2, MK-INFO-2).",
    "Unfinished": "A record of a game that is not over and claims no result: replayed as far as "
                  "it goes (a limit on turns belongs to a tool, MK-END-5).",
}


# --- building positions ------------------------------------------------------------------


def options(players: int, colours: str = "") -> Config:
    """The configuration of ``players`` with the ``colours`` option (empty: the book's order)."""
    return GAME.configure({"players": players, "colours": colours})


def arrange(config: Config, front: Sequence[str]) -> Layout:
    """The layout a constructed case chooses: ``front[i]`` (``pink-0``, ``friend``) on space
    ``i``, the other tiles in play after them in tile-code order, so that a case names the spaces
    it plays. The same convention as properties/maiko/scenarios.py's ``arrange``, which the
    engine cannot import (engine/ never imports properties/, docs/architecture.md)."""
    rest = list(config.tiles)
    chosen = []
    for name in front:
        code = parse_tile(name)
        if code not in rest:
            raise IntentError(f"the layout asks for one {name} more than the game has")
        rest.remove(code)
        chosen.append(code)
    return Layout(tuple(chosen + rest))


def begin(config: Config, front: Sequence[str], first_player: int = 0) -> State:
    """A game under ``config`` laid out by :func:`arrange`, before its first decision."""
    return GAME.apply(GAME.new_game(config, first_player), arrange(config, front))


def play(state: State, *decisions: Decision) -> State:
    for decision in decisions:
        state = GAME.apply(state, decision)
    return state


def flips(*spaces: int) -> tuple[Flip, ...]:
    return tuple(Flip(s) for s in spaces)


def no_sweeps(row: int) -> tuple[Sweep, ...]:
    """A row discard that keeps every tile (MK-ROW-3: one decision per item space)."""
    return tuple(Sweep(item, None) for item in ROWS[row])


def _players(state: State) -> int:
    return state.config.players


def _tag(state: State) -> str:
    return f"p{_players(state)}"


def _menu_kinds(state: State) -> set[str]:
    return {GAME.decision_to_json(d)["kind"] for d in GAME.legal_actions(state)}


def _cited(case_id: str, rules: tuple[str, ...]) -> tuple[str, ...]:
    """``rules``, checked to name each rule once."""
    if len(set(rules)) != len(rules):
        raise IntentError(f"{case_id}: cites a rule twice: {rules}")
    return rules


def _check(case_id: str, what: str, holds: bool) -> None:
    """Stop generation when a case's position is not the one it was built for."""
    intend(case_id, what, True, holds)


# --- the corpus being built --------------------------------------------------------------


@attrs.define
class Corpus:
    """The cases of the four files, in the order the scenarios add them."""

    record_cases: list[Case] = attrs.Factory(list)
    decision_cases: list[Case] = attrs.Factory(list)
    view_cases: list[Case] = attrs.Factory(list)
    perft_cases: list[Case] = attrs.Factory(list)

    def decision(self, case_id: str, comment: str, rules: tuple[str, ...], state: State,
                 decision: Any, *, rule: str | None = None, then: int | None = None,
                 reason: str | None = None, flags: tuple[str, ...] = ("Constructed",)) -> None:
        """A position and one more decision; ``rule`` is the rule it is meant to break (None:
        legal), ``then`` the player meant to decide next, ``reason`` the end it is meant to
        cause."""
        case_id = f"decision/{_tag(state)}/{case_id}"
        given = {**GAME.position_to_json(state), "decision": GAME.decision_to_json(decision)}
        expected = expected_decision(GAME, given)
        intend(case_id, "status", "legal" if rule is None else "illegal", expected["status"])
        intend(case_id, "rule", rule, expected["rule"])
        if rule is not None and rule not in rules:
            raise IntentError(f"{case_id}: cites {rules} but not the rule it breaks, {rule}")
        if then is not None:
            intend(case_id, "next player", player_json(then), expected["next_player"])
        if reason is not None:
            intend(case_id, "end", reason, (expected["result"] or {}).get("reason"))
        player = GAME.current_player(state)
        where = ("Chance",) if player == CHANCE else ("End",) if player == TERMINAL else ()
        verdict = ("Legal",) if rule is None else ("Illegal",)
        self.decision_cases.append(Case(case_id, comment, verdict + where + flags,
                                        _cited(case_id, rules), given, expected))

    def views(self, case_id: str, comment: str, rules: tuple[str, ...], state: State,
              flags: tuple[str, ...] = ("Constructed",), *, hidden: bool | None = None) -> None:
        """Every player's view of ``state``; ``hidden`` whether the views are meant to differ
        in what One-san showed one player (checked, and flagged HiddenInformation)."""
        shown = [GAME.view_to_json(GAME.observe(state, p)) for p in GAME.players(state)]
        differ = len({json.dumps({**v, "player": None}, sort_keys=True) for v in shown}) > 1
        if hidden is not None:
            intend(f"view/{_tag(state)}/{case_id}", "views that differ", hidden, differ)
        flags += ("HiddenInformation",) if differ else ()
        for player in GAME.players(state):
            given = {**GAME.position_to_json(state), "player": player}
            self.view_cases.append(Case(f"view/{_tag(state)}/{case_id}/player-{player}", comment,
                                        flags, _cited(case_id, rules), given,
                                        expected_view(GAME, given)))

    def record(self, case_id: str, comment: str, rules: tuple[str, ...], record: Any, *,
               rule: str | None = None, status: str | None = None, reason: str | None = None,
               flags: tuple[str, ...] = ("Constructed",), raw: dict[str, str] | None = None
               ) -> dict[str, Any]:
        """A record (or ``raw`` text) and its verdict; ``rule`` the rule it is meant to break,
        ``status`` the verdict meant (default: illegal with a rule, else valid), ``reason`` the
        end a valid record is meant to reach."""
        case_id = f"record/{case_id}"
        given = raw if raw is not None else {"record": record}
        expected = expected_record(GAME, given)
        meant = status or ("illegal" if rule is not None else "valid")
        intend(case_id, "status", meant, expected["status"])
        intend(case_id, "rule", rule, expected["rule"])
        if rule is not None and rule not in rules:
            raise IntentError(f"{case_id}: cites {rules} but not the rule it breaks, {rule}")
        if reason is not None:
            intend(case_id, "end", reason, (expected["result"] or {}).get("reason"))
        kind = {"valid": "Valid", "illegal": "Illegal", "malformed": "Malformed"}[meant]
        self.record_cases.append(Case(case_id, comment, (kind,) + flags, _cited(case_id, rules),
                                      given, expected))
        return expected

    def perft_case(self, case_id: str, comment: str, rules: tuple[str, ...], state: State,
                   depth: int, *, divide: bool = False,
                   flags: tuple[str, ...] = ("Constructed",)) -> None:
        """perft from ``state`` to ``depth`` (split by first decision if ``divide``)."""
        case_id = f"perft/{_tag(state)}/{case_id}"
        given = {**GAME.position_to_json(state), "depth": depth}
        if divide:
            given["divide"] = depth
        expected = expected_perft(GAME, given)
        deepest = expected["depths"][str(depth)]
        _check(case_id, f"a count of at most {PERFT_CAP} at depth {depth} (got {deepest})",
               0 < deepest <= PERFT_CAP)
        self.perft_cases.append(Case(case_id, comment, flags, _cited(case_id, rules), given,
                                     expected))


# --- the scenarios -------------------------------------------------------------------------
#
# Each scenario builds one game and adds the cases of every file that its positions show.
# ``PG`` is the 2-player game the rules tests use: pink (player 0) against green (player 1),
# white in the box.


PG = "pink,green"


def chance(c: Corpus) -> None:
    """MK-SETUP-*: the layout, the only chance outcome, for each player count."""
    two, three, four = options(2, PG), options(3), options(4)
    c.decision("layout", "MK-SETUP-1, MK-SETUP-4, MK-SETUP-5: a 2-player layout of pink "
               "(player 0) against green: the 60 tiles in play (pink, green, purple and 6 "
               "friends; the first unplayed colour, white, and 3 friends in the box), one per "
               "space.", ("MK-SETUP-1", "MK-SETUP-4", "MK-SETUP-5", "MK-COMP-1"),
               GAME.new_game(two), arrange(two, []), then=0)
    c.decision("layout-of-the-box-colour", "MK-SETUP-4: a 2-player layout with the tiles of "
               "the colour that went back to the box (the default white-purple game's tiles, "
               "in a pink-green game).", ("MK-SETUP-4",), GAME.new_game(two),
               arrange(options(2), []), rule="MK-SETUP-4")
    c.decision("layout", "MK-SETUP-3, MK-SETUP-5, MK-COMP-1: a 3-player layout: all 81 tiles "
               "(the unplayed green stays), player 2 begins.",
               ("MK-SETUP-3", "MK-SETUP-5", "MK-SETUP-6", "MK-COMP-1"),
               GAME.new_game(three, 2), arrange(three, []), then=2)
    short = Layout(arrange(three, []).tiles[:-1])
    c.decision("layout-of-80-tiles", "MK-SETUP-3: a 3-player layout one tile short.",
               ("MK-SETUP-3", "MK-COMP-1"), GAME.new_game(three), short, rule="MK-SETUP-3")
    c.decision("flip-before-the-layout", "MK-SETUP-5: the layout comes first.",
               ("MK-SETUP-5",), GAME.new_game(four), Flip(0), rule="MK-SETUP-5")
    laid = begin(four, [], first_player=3)
    c.decision("layout-twice", "MK-SETUP-5: the layout is made once.", ("MK-SETUP-5",), laid,
               arrange(four, []), rule="MK-SETUP-5")


def start_of_a_game(c: Corpus) -> None:
    """The first decision of a 4-player game begun by player 3, every view of it, and perft
    from the start of each player count."""
    four = options(4)
    start = begin(four, ["white-0", "green-5", "friend"], first_player=3)
    menu = GAME.legal_actions(start)
    _check("start", "flips, Danna and One-san only",
           _menu_kinds(start) == {"flip", "danna", "one-san"} and len(menu) == 3 * 81)
    c.decision("start/flip", "MK-FLIP-1, MK-TUTOR-1..3, MK-SETUP-2: the first decision of a "
               "game: any face-down tile, or a visit paid with the starting token (Danna or "
               "One-san; Oka-san and Sabanto have nothing to act on yet).",
               ("MK-FLIP-1", "MK-TUTOR-1", "MK-TUTOR-2", "MK-TUTOR-3", "MK-SETUP-2",
                "MK-SETUP-6"), start, Flip(0), then=3)
    c.decision("start/sabanto-on-an-empty-board", "MK-TUTOR-3: Sabanto with nothing on the "
               "player's board.", ("MK-TUTOR-3",), start, Sabanto(0, GREEN), rule="MK-TUTOR-3")
    c.decision("start/oka-san-with-no-tile-to-take", "MK-TUTOR-3: Oka-san with no tile of the "
               "player's colour on another board.", ("MK-TUTOR-3",), start, OkaSan(0, 0),
               rule="MK-TUTOR-3")
    c.decision("start/sweep-with-no-row", "MK-ROW-3: a row discard that no row asked for.",
               ("MK-ROW-3",), start, Sweep(0, None), rule="MK-ROW-3")
    c.decision("start/end-turn", "MK-TURN-2: a turn is not ended at will.", ("MK-TURN-2",),
               start, EndTurn(), rule="MK-TURN-2")
    c.decision("start/stop-without-a-visit", "MK-TUTOR-ONESAN-1: stopping a One-san visit "
               "that did not begin.", ("MK-TUTOR-ONESAN-1",), start, OneSanStop(),
               rule="MK-TUTOR-ONESAN-1")
    first = play(start, Flip(0))
    c.decision("start/mismatch-passes-to-player-0", "MK-FLIP-4, MK-TURN-1: player 3's "
               "mismatch: both tiles go back and the turn passes clockwise to player 0.",
               ("MK-FLIP-4", "MK-TURN-1"), first, Flip(1), then=0)
    c.views("start", "MK-SETUP-2, MK-COMP-2, MK-SETUP-5, MK-INFO-2: every tile face down, one "
            "token in each hand and 12 in the pool, the tutor cards empty; nobody sees the "
            "layout.", ("MK-SETUP-2", "MK-COMP-2", "MK-SETUP-5", "MK-SETUP-6", "MK-INFO-2"),
            start, hidden=False)
    rules = ("MK-FLIP-1", "MK-FLIP-2", "MK-TUTOR-1", "MK-TUTOR-2", "MK-TUTOR-3",
             "MK-TUTOR-DANNA-1", "MK-TUTOR-ONESAN-1")
    comment = ("MK-FLIP-1, MK-TUTOR-*: from the first decision of a game: flips, Danna and "
               "One-san visits, and their sequels (a second flip, the looks).")
    c.perft_case("start", comment, rules, start, 2)
    c.perft_case("start", comment, rules, begin(options(2, PG), ["pink-0", "green-0"]), 2)
    pending = play(begin(options(3), ["purple-4", "purple-4"]), Flip(0))
    c.perft_case("second-flip", "MK-FLIP-3, MK-FLIP-4, MK-TUTOR-*: from the second flip of "
                 "a turn: the one pair (purple-4) goes on, with Sabanto now offered; every "
                 "mismatch passes the turn.", ("MK-FLIP-2", "MK-FLIP-3", "MK-FLIP-4",
                                               "MK-TUTOR-1", "MK-TUTOR-SABANTO-1",
                                               "MK-TUTOR-DANNA-2", "MK-TUTOR-ONESAN-1"),
                 pending, 2)
    two = begin(options(2, PG), [])
    c.decision("start/flip-of-a-space-that-does-not-exist", "MK-COMP-5: a 2-player board has "
               "spaces 0 to 59.", ("MK-COMP-5", "MK-SETUP-4"), two, Flip(70), rule="MK-COMP-5")
    c.views("start", "MK-SETUP-4, MK-INFO-1: a 2-player game: 60 spaces, and the box (white "
            "and 3 friends) known to all.", ("MK-SETUP-4", "MK-SETUP-2", "MK-INFO-1"), two,
            hidden=False)


def flips_and_friends(c: Corpus) -> None:
    """MK-FLIP-1..5 and MK-TURN-1..2 in one 2-player game."""
    state = begin(options(2, PG), ["pink-0", "green-0", "friend", "pink-1", "green-3", "friend"])
    pending = play(state, Flip(0))
    c.decision("flips/first-tile-again", "MK-FLIP-2: the first tile of the flip in progress "
               "lies face up and cannot be flipped again.", ("MK-FLIP-2",), pending, Flip(0),
               rule="MK-FLIP-2")
    c.decision("flips/danna-on-the-first-tile", "MK-TUTOR-DANNA-1: Danna reveals a face-down "
               "tile, never the first tile of the flip in progress.", ("MK-TUTOR-DANNA-1",),
               pending, Danna(0), rule="MK-TUTOR-DANNA-1")
    c.decision("flips/pair-of-two-colours", "MK-FLIP-3, MK-TURN-2: pink-0 and green-0 are a "
               "pair whatever their colours: both go onto player 0's item space 0 and she "
               "flips again.", ("MK-FLIP-1", "MK-FLIP-3", "MK-TURN-2"), pending, Flip(1), then=0)
    c.views("flips/second-flip-due", "MK-FLIP-1, MK-INFO-1: the first tile lies face up for "
            "all to see while the second flip is due.", ("MK-FLIP-1", "MK-INFO-1"), pending,
            hidden=False)
    paired = play(pending, Flip(1))
    c.decision("flips/end-turn-after-a-pair", "MK-TURN-2: after a pair the turn goes on; "
               "ending it is not a decision.", ("MK-TURN-2", "MK-FLIP-3"), paired, EndTurn(),
               rule="MK-TURN-2")
    c.decision("flips/flip-of-an-empty-space", "MK-FLIP-2: the pair left spaces 0 and 1 "
               "empty.", ("MK-FLIP-2",), paired, Flip(1), rule="MK-FLIP-2")
    first = play(paired, Flip(3))
    c.decision("flips/mismatch", "MK-FLIP-4, MK-TURN-1: pink-1 and green-3 differ: both go "
               "back face down and player 1 plays.", ("MK-FLIP-4", "MK-TURN-1"), first,
               Flip(4), then=1)
    mismatched = play(first, Flip(4))
    c.views("flips/after-a-mismatch", "MK-INFO-3, MK-FLIP-4: the two tiles are face down "
            "again, and stay in every player's view (the log shows them with their spaces).",
            ("MK-INFO-3", "MK-FLIP-4", "MK-INFO-1", "MK-COMP-4"), mismatched, hidden=False)
    c.decision("flips/friend-as-first-tile", "MK-FLIP-5, MK-TOKEN-1: a friend as the first "
               "tile: it stays face up, player 1 gains a token and the turn ends at once.",
               ("MK-FLIP-5", "MK-TOKEN-1", "MK-TURN-1"), mismatched, Flip(2), then=0)
    friend = play(mismatched, Flip(2))
    _check("flips/friend", "a token gained from the pool", friend.hands == (1, 2)
           and friend.pool == 13)
    c.decision("flips/flip-of-a-face-up-friend", "MK-FLIP-2: a face-up friend cannot be "
               "flipped.", ("MK-FLIP-2", "MK-FLIP-5"), friend, Flip(2), rule="MK-FLIP-2")
    again = play(friend, Flip(3))
    c.decision("flips/friend-as-second-tile", "MK-FLIP-5, MK-TOKEN-1: a friend as the second "
               "tile: the first (pink-1) goes back face down, player 0 gains a token, the turn "
               "ends.", ("MK-FLIP-5", "MK-TOKEN-1"), again, Flip(5), then=1)
    second = play(again, Flip(5))
    _check("flips/second-friend", "the first tile back face down", second.spaces[3] == DOWN
           and second.spaces[5] == UP and second.hands == (2, 2))
    c.views("flips/two-friends", "MK-FLIP-5, MK-TOKEN-1, MK-COMP-2: two friends face up for "
            "the rest of the game, a token from the pool for each (12 left).",
            ("MK-FLIP-5", "MK-TOKEN-1", "MK-COMP-2", "MK-INFO-1"), second, hidden=False)


def danna(c: Corpus) -> None:
    """MK-TUTOR-DANNA-1..3, MK-TUTOR-1..2 in a 2-player game."""
    state = begin(options(2, PG), ["pink-0", "green-6", "pink-0", "friend", "pink-1",
                                   "green-2", "pink-3", "green-4"])
    pending = play(state, Flip(0))
    c.decision("danna/item-between-the-flips", "MK-TUTOR-DANNA-1, MK-TUTOR-DANNA-2, "
               "MK-TUTOR-2: between the flips, Danna reveals green-6 for a token: it goes onto "
               "the board at once, and the second flip is still due.",
               ("MK-TUTOR-DANNA-1", "MK-TUTOR-DANNA-2", "MK-TUTOR-1", "MK-TUTOR-2"), pending,
               Danna(1), then=0)
    revealed = play(pending, Danna(1))
    _check("danna/item", "the second flip still due", revealed.phase is Phase.SECOND
           and revealed.pending == 0)
    c.views("danna/item", "MK-TUTOR-DANNA-2, MK-TUTOR-2, MK-INFO-1: green-6 on player 0's "
            "board, space 1 empty, her token on Danna's card, the first tile still face up.",
            ("MK-TUTOR-DANNA-2", "MK-TUTOR-2", "MK-INFO-1"), revealed, hidden=False)
    c.decision("danna/second-visit-in-a-turn", "MK-TUTOR-1: one visit per turn (and the legal "
               "list holds flips only).", ("MK-TUTOR-1",), revealed, OneSan(3), rule="MK-TUTOR-1")
    c.decision("danna/friend", "MK-TUTOR-DANNA-3, MK-TOKEN-1: between the flips Danna reveals "
               "a friend: it stays face up, player 0 gains a token, the first tile goes back "
               "face down and the turn ends.", ("MK-TUTOR-DANNA-3", "MK-TOKEN-1", "MK-TUTOR-2"),
               pending, Danna(3), then=1)
    friend = play(pending, Danna(3))
    _check("danna/friend", "first tile back, a token", friend.spaces[0] == DOWN
           and friend.spaces[3] == UP and friend.hands == (1, 1) and friend.cards[0] == 1)
    c.views("danna/friend", "MK-TUTOR-DANNA-3, MK-TOKEN-1: the friend face up, pink-0 face "
            "down again, player 0 paid a token and gained one.",
            ("MK-TUTOR-DANNA-3", "MK-TOKEN-1", "MK-INFO-1", "MK-INFO-3"), friend, hidden=False)
    broke = play(revealed, Flip(2), Flip(4), Flip(5), Flip(6), Flip(7))
    _check("danna/no-token", "player 0 to play with no token", broke.current == 0
           and broke.hands[0] == 0 and _menu_kinds(broke) == {"flip"})
    c.decision("danna/visit-without-a-token", "MK-TUTOR-2: player 0 spent her only token; "
               "she cannot visit (the legal list holds flips only).", ("MK-TUTOR-2",), broke,
               Danna(3), rule="MK-TUTOR-2")


def one_san(c: Corpus) -> None:
    """MK-TUTOR-ONESAN-1..2, MK-INFO-2 in a 3-player game begun by player 2."""
    state = begin(options(3), ["white-0", "friend", "purple-2", "pink-3", "green-4",
                               "white-5", "white-6", "purple-7"], first_player=2)
    c.decision("one-san/first-look", "MK-TUTOR-ONESAN-1, MK-TUTOR-2, MK-SETUP-6: player 2 "
               "begins, and pays her token to look at space 1.",
               ("MK-TUTOR-ONESAN-1", "MK-TUTOR-2", "MK-SETUP-6"), state, OneSan(1), then=2)
    looking = play(state, OneSan(1))
    _check("one-san/look", "a friend looked at stays face down and gives nothing",
           looking.spaces[1] == DOWN and looking.hands == (1, 1, 0) and looking.phase is Phase.LOOK)
    c.decision("one-san/flip-during-the-visit", "MK-TUTOR-ONESAN-1, MK-TUTOR-1: inside the "
               "visit only another look or the stop (the legal list).",
               ("MK-TUTOR-ONESAN-1", "MK-TUTOR-1"), looking, Flip(0), rule="MK-TUTOR-ONESAN-1")
    c.decision("one-san/same-tile-twice", "MK-TUTOR-ONESAN-1: the looks are at different "
               "tiles.", ("MK-TUTOR-ONESAN-1",), looking, OneSan(1), rule="MK-TUTOR-ONESAN-1")
    c.decision("one-san/stop-after-one-look", "MK-TUTOR-ONESAN-1: at least one look, then the "
               "player may stop; the turn goes on.", ("MK-TUTOR-ONESAN-1",), looking,
               OneSanStop(), then=2)
    five = play(looking, OneSan(2), OneSan(3), OneSan(4), OneSan(5))
    c.decision("one-san/sixth-look", "MK-TUTOR-ONESAN-1: the sixth look ends the visit by "
               "itself.", ("MK-TUTOR-ONESAN-1",), five, OneSan(6), then=2)
    six = play(five, OneSan(6))
    _check("one-san/six", "the visit over", six.phase is Phase.FIRST and not six.looks)
    c.decision("one-san/stop-after-six-looks", "MK-TUTOR-ONESAN-1, MK-TUTOR-1: after the "
               "sixth look the visit is over: no stop, no other visit (flips only).",
               ("MK-TUTOR-ONESAN-1", "MK-TUTOR-1"), six, OneSanStop(), rule="MK-TUTOR-ONESAN-1")
    c.views("one-san/six-looks", "MK-TUTOR-ONESAN-2, MK-INFO-2, MK-INFO-1: player 2 sees the "
            "six tiles she looked at (a friend among them, still face down, no token); the "
            "others see only which spaces.", ("MK-TUTOR-ONESAN-2", "MK-TUTOR-ONESAN-1",
                                               "MK-INFO-1", "MK-INFO-2", "MK-INFO-3"),
            six, hidden=True)
    c.perft_case("one-san/looking", "MK-TUTOR-ONESAN-1: inside a One-san visit: a look at any "
                 "other face-down tile, or the stop.", ("MK-TUTOR-ONESAN-1", "MK-TUTOR-1"),
                 looking, 2)


def oka_san_and_sabanto(c: Corpus) -> None:
    """MK-TUTOR-OKASAN-1, MK-TUTOR-SABANTO-1, MK-TUTOR-3 in 3- and 2-player games."""
    state = begin(options(3), ["white-3", "purple-3", "white-5", "pink-6", "pink-1",
                               "white-2", "purple-0", "white-8"])
    purple = play(state, *flips(0, 1, 2, 3))
    _check("oka-san", "Oka-san offered once", [d for d in GAME.legal_actions(purple)
                                                if isinstance(d, OkaSan)] == [OkaSan(0, 3)])
    c.decision("oka-san/take", "MK-TUTOR-OKASAN-1, MK-TUTOR-2: purple (player 1) takes the "
               "purple-3 from player 0's board (the only one offered), and goes on.",
               ("MK-TUTOR-OKASAN-1", "MK-TUTOR-2", "MK-TUTOR-3"), purple, OkaSan(0, 3), then=1)
    c.decision("oka-san/not-her-colour", "MK-TUTOR-OKASAN-1: no purple tile on player 0's "
               "item space 5.", ("MK-TUTOR-OKASAN-1",), purple, OkaSan(0, 5),
               rule="MK-TUTOR-OKASAN-1")
    c.decision("oka-san/own-board", "MK-TUTOR-OKASAN-1: Oka-san takes from another player's "
               "board.", ("MK-TUTOR-OKASAN-1",), purple, OkaSan(1, 3), rule="MK-TUTOR-OKASAN-1")
    taken = play(purple, OkaSan(0, 3))
    c.views("oka-san/taken", "MK-TUTOR-OKASAN-1, MK-COMP-4, MK-INFO-1: the purple-3 moved "
            "from player 0's board to player 1's; every board is public.",
            ("MK-TUTOR-OKASAN-1", "MK-COMP-4", "MK-INFO-1"), taken, hidden=False)
    pink = play(taken, *flips(4, 5))
    _check("oka-san/pink", "player 2 with nothing for Oka-san or Sabanto", pink.current == 2
           and not {"oka-san", "sabanto"} & _menu_kinds(pink))
    c.decision("oka-san/nothing-to-take", "MK-TUTOR-3: no pink tile on another board.",
               ("MK-TUTOR-3",), pink, OkaSan(1, 3), rule="MK-TUTOR-3")

    two = begin(options(2, PG), ["pink-3", "green-3", "pink-4", "green-5"])
    paired = play(two, *flips(0, 1))
    sweeps = [d for d in GAME.legal_actions(paired) if isinstance(d, Sabanto)]
    _check("sabanto", "one Sabanto per colour present", sweeps == [Sabanto(3, PINK),
                                                                   Sabanto(3, GREEN)])
    c.decision("sabanto/discard", "MK-TUTOR-SABANTO-1, MK-COMP-1: Sabanto discards the green-3 "
               "of player 0's item space 3 (one choice per colour there), and the turn goes "
               "on.", ("MK-TUTOR-SABANTO-1", "MK-TUTOR-2", "MK-COMP-1"), paired,
               Sabanto(3, GREEN), then=0)
    c.decision("sabanto/colour-not-there", "MK-TUTOR-SABANTO-1: no purple tile on item space "
               "3.", ("MK-TUTOR-SABANTO-1",), paired, Sabanto(3, PURPLE),
               rule="MK-TUTOR-SABANTO-1")
    c.decision("sabanto/empty-item-space", "MK-TUTOR-SABANTO-1: nothing on item space 4.",
               ("MK-TUTOR-SABANTO-1",), paired, Sabanto(4, PINK), rule="MK-TUTOR-SABANTO-1")
    swept = play(paired, Sabanto(3, GREEN))
    c.views("sabanto/discarded", "MK-TUTOR-SABANTO-1, MK-INFO-1: the green-3 is out of the "
            "game, on view to all among the discarded tiles.",
            ("MK-TUTOR-SABANTO-1", "MK-INFO-1", "MK-TUTOR-2"), swept, hidden=False)


def rows(c: Corpus) -> None:
    """MK-ROW-1..3, MK-COMP-3..4 in a 2-player game: a row completed by a Danna single, its
    discard one item space at a time, a discard that empties an item space, the row again when
    it is filled again, and no discard for a second layer."""
    state = begin(options(2, PG), ["pink-0", "pink-0", "pink-1", "green-1", "green-2",
                                   "pink-2", "pink-2", "purple-2", "green-2"])
    before = play(state, *flips(0, 1, 2, 3))
    c.decision("row/completed-by-a-single-tile", "MK-ROW-1, MK-COMP-3, MK-COMP-4: Danna's "
               "green-2 alone fills item space 2 and completes row 0 (items 0, 1, 2): a row "
               "discard is due before anything else.",
               ("MK-ROW-1", "MK-COMP-3", "MK-COMP-4", "MK-TUTOR-DANNA-2"), before, Danna(4),
               then=0)
    discard = play(before, Danna(4))
    _check("row", "a row discard of row 0", discard.phase is Phase.SWEEP
           and discard.sweep_row == 0)
    _check("row", "one choice per colour present", GAME.legal_actions(discard)
           == (Sweep(0, None), Sweep(0, PINK)))
    c.decision("row/keep", "MK-ROW-1, MK-ROW-3, MK-COMP-1: item space 0 first; it holds two "
               "pink tiles, alike: keep them, or discard one pink.",
               ("MK-ROW-1", "MK-ROW-3", "MK-COMP-1", "MK-COMP-4"), discard, Sweep(0, None),
               then=0)
    c.decision("row/colour-not-there", "MK-ROW-1: no green tile on item space 0.",
               ("MK-ROW-1",), discard, Sweep(0, GREEN), rule="MK-ROW-1")
    c.decision("row/item-space-out-of-order", "MK-ROW-3: the discard decides item space 0 "
               "first.", ("MK-ROW-3",), discard, Sweep(1, PINK), rule="MK-ROW-3")
    c.decision("row/flip-during-the-discard", "MK-ROW-3: the discard is decided at once, "
               "before any flip.", ("MK-ROW-3",), discard, Flip(5), rule="MK-ROW-3")
    c.decision("row/visit-during-the-discard", "MK-ROW-3, MK-TUTOR-1: no tutor visit inside "
               "a row discard.", ("MK-ROW-3", "MK-TUTOR-1"), discard, OneSan(5), rule="MK-ROW-3")
    c.views("row/discard-due", "MK-ROW-1, MK-ROW-3, MK-INFO-1: the row discard in progress "
            "(row 0, item space 0 next) is public.", ("MK-ROW-1", "MK-ROW-3", "MK-INFO-1"),
            discard, hidden=False)
    c.perft_case("row/discard-due", "MK-ROW-1, MK-ROW-3: the three decisions of a row discard "
                 "(2 x 3 x 2 choices), then the turn goes on with flips only (Danna was this "
                 "turn's visit).", ("MK-ROW-1", "MK-ROW-3", "MK-TUTOR-1", "MK-FLIP-1"),
                 discard, 4, divide=True)
    last = play(discard, Sweep(0, None), Sweep(1, PINK))
    c.decision("row/discard-empties-an-item-space", "MK-ROW-3: discarding the only tile of "
               "item space 2 empties it and pays nothing; the turn goes on.",
               ("MK-ROW-3", "MK-ROW-1"), last, Sweep(2, GREEN), then=0)
    emptied = play(last, Sweep(2, GREEN))
    _check("row/emptied", "item 2 empty, no token", emptied.boards[0][2 * 4 + 3] == 0
           and emptied.hands == (0, 1) and emptied.phase is Phase.FIRST)
    refilled = play(emptied, *flips(5, 6))
    _check("row/again", "row 0 again", refilled.phase is Phase.SWEEP and refilled.sweep_row == 0)
    c.decision("row/again-after-an-emptied-item-space", "MK-ROW-2, MK-ROW-3: item space 2 was "
               "emptied and is filled again: row 0 gives a discard again.",
               ("MK-ROW-2", "MK-ROW-3"), refilled, Sweep(0, PINK), then=0)
    layered = play(refilled, *no_sweeps(0), *flips(7, 8))
    _check("row/layer", "no discard for a second layer", layered.phase is Phase.FIRST
           and _menu_kinds(layered) == {"flip"})
    c.decision("row/no-discard-for-a-second-layer", "MK-ROW-2: purple-2 and green-2 made a "
               "second layer on item space 2: no row discard (the legal list holds flips "
               "only).", ("MK-ROW-2", "MK-FLIP-1"), layered, Flip(9), then=0)


def columns(c: Corpus) -> None:
    """MK-COL-1..2, MK-TOKEN-1: a column's token, and none for a second layer."""
    state = begin(options(2, PG), ["pink-1", "green-2", "pink-4", "green-5", "pink-0",
                                   "green-0", "pink-3", "green-3", "pink-6", "green-6",
                                   "purple-0", "purple-0"])
    broke = play(state, OneSan(20), OneSanStop(), *flips(0, 1, 2, 3, 4, 5, 6, 7, 8))
    _check("column", "player 0 with no token", broke.hands[0] == 0
           and _menu_kinds(broke) == {"flip"})
    c.decision("column/completed", "MK-COL-1: green-6 fills item space 6, the last empty one "
               "of column 0 (items 0, 3, 6): a token.", ("MK-COL-1", "MK-COMP-3", "MK-FLIP-3"),
               broke, Flip(9), then=0)
    paid = play(broke, Flip(9))
    _check("column/token", "the column's token", paid.hands == (1, 1) and paid.pool == 13)
    c.decision("column/token-pays-a-visit", "MK-COL-1, MK-TOKEN-1, MK-TUTOR-2: the column's "
               "token is player 0's only token: with it she may visit (the legal list offers "
               "Danna, One-san and Sabanto again).",
               ("MK-COL-1", "MK-TOKEN-1", "MK-TUTOR-2", "MK-TUTOR-3"), paid, Danna(30), then=0)
    c.views("column/token", "MK-COL-1, MK-TOKEN-1: column 0 complete, a token from the pool "
            "in player 0's hand (her One-san look of turn 0 is hers alone).",
            ("MK-COL-1", "MK-TOKEN-1", "MK-COMP-2", "MK-TUTOR-ONESAN-2"), paid, hidden=True)
    layer = play(paid, OneSan(30), OneSanStop(), *flips(10, 11))
    _check("column/layer", "no token for a second layer", layer.hands == (0, 1)
           and layer.pool == 13 and layer.boards[0][0] == 0 and layer.boards[0][1] == 2)
    c.views("column/second-layer", "MK-COL-2: two purple-0 on item space 0, a second layer: "
            "column 0 pays nothing again (player 0 spent her token on One-san, and has none).",
            ("MK-COL-2", "MK-TOKEN-1", "MK-TUTOR-ONESAN-2"), layer, hidden=True)


def row_and_column(c: Corpus) -> None:
    """MK-ROW-4: one placement completes row 2 and column 2: the token first, then the discard."""
    state = begin(options(2, PG), ["pink-2", "pink-2", "pink-5", "pink-5", "pink-6", "pink-6",
                                   "pink-7", "pink-7", "green-8", "green-8"])
    before = play(state, *flips(0, 1, 2, 3, 4, 5, 6, 7, 8))
    c.decision("row-and-column/placement", "MK-ROW-4, MK-COL-1, MK-ROW-1: the pair of green-8 "
               "fills item space 8, the last of row 2 (6, 7, 8) and of column 2 (2, 5, 8).",
               ("MK-ROW-4", "MK-COL-1", "MK-ROW-1"), before, Flip(9), then=0)
    both = play(before, Flip(9))
    _check("row-and-column", "the token, then the discard", both.hands == (2, 1)
           and both.phase is Phase.SWEEP and both.sweep_row == 2)
    c.decision("row-and-column/discard", "MK-ROW-4, MK-ROW-3: the token is already in hand; "
               "the row discard of row 2 comes next, item space 6 first.",
               ("MK-ROW-4", "MK-ROW-3", "MK-ROW-1"), both, Sweep(6, PINK), then=0)
    c.views("row-and-column", "MK-ROW-4, MK-COL-1, MK-TOKEN-1: player 0 holds the column's "
            "token (2 tokens) while the discard of row 2 is pending.",
            ("MK-ROW-4", "MK-COL-1", "MK-TOKEN-1", "MK-ROW-1"), both, hidden=False)


def token_from_a_tutor_card(c: Corpus) -> None:
    """MK-TOKEN-2 in a 4-player game: nine friends and three columns empty the pool; the next
    column's token comes from the One-san card, the only card holding one."""
    four = options(4)
    lines = [f"{colour}-{item}" for item in (0, 3, 6, 1, 4, 7) for colour in ("white", "purple")]
    second = [f"{colour}-{item}" for item in (0, 3, 6, 1, 4, 7) for colour in ("pink", "green")]
    state = begin(four, ["friend"] * 9 + lines + ["white-2", "white-5"] + second)
    state = play(state, OneSan(80), OneSanStop(), *flips(*range(9)))
    _check("token", "nine friends: the pool down to 3", state.pool == 3 and state.current == 1
           and state.cards == (0, 0, 1, 0))
    state = play(state, *flips(*range(9, 23)), *flips(*range(23, 33)))
    _check("token", "pool empty, player 2 one pair from her second column",
           state.pool == 0 and state.current == 2 and state.cards == (0, 0, 1, 0))
    c.views("token/pool-empty", "MK-TOKEN-2, MK-COMP-2, MK-COL-1: nine friends and three "
            "columns emptied the pool; one token lies on One-san's card.",
            ("MK-TOKEN-2", "MK-COMP-2", "MK-COL-1", "MK-TOKEN-1", "MK-TUTOR-ONESAN-2"), state,
            hidden=True)
    after = play(state, *flips(33, 34))
    _check("token", "from the tutor card", after.cards == (0, 0, 0, 0) and after.pool == 0
           and after.hands[2] == state.hands[2] + 1)
    c.views("token/from-a-tutor-card", "MK-TOKEN-2: column 1 complete with the pool empty: "
            "player 2's token comes from the One-san card.",
            ("MK-TOKEN-2", "MK-COL-1", "MK-TOKEN-1", "MK-COMP-2"), after, hidden=True)


def _both_fill(sweeps: tuple[Colour | None, Colour | None, Colour | None]
               ) -> tuple[State, State, State]:
    """The 2-player end: pink (player 0, first) fills her board in one turn (nine pairs of pink
    and purple), then green fills hers in her last turn (nine pairs of green and purple),
    discarding ``sweeps`` from row 0. The states: pink's ending step, green's ending step, the
    end."""
    pink = [t for i in range(9) for t in (f"pink-{i}", f"purple-{i}")]
    green = [t for i in range(9) for t in (f"green-{i}", f"purple-{i}")]
    state = begin(options(2, PG), pink + green)
    ends = []
    for base, chosen in ((0, (None, None, None)), (18, sweeps)):
        for i in range(9):
            state = play(state, *flips(base + 2 * i, base + 2 * i + 1))
            if i % 3 == 2:
                row = ROWS[i // 3]
                kept = chosen if i == 2 else (None, None, None)
                state = play(state, *(Sweep(item, colour) for item, colour in zip(row, kept)))
        ends.append(state)
        state = play(state, EndTurn())
        ends.append(state)
    return ends[0], ends[2], ends[3]


def the_end(c: Corpus) -> None:
    """MK-END-1..3, MK-SCORE-1..4: a full board in a 2-player game and in a 3-player one."""
    trigger, last_ending, shared = _both_fill((None, None, None))
    _check("end", "the ending step", trigger.phase is Phase.ENDING and trigger.triggered_by == 0
           and _menu_kinds(trigger) == {"danna", "one-san", "sabanto", "end-turn"})
    c.decision("end/flip-in-the-ending-step", "MK-END-1: player 0's board is full: she flips "
               "no more (the legal list: a last visit, or the end of the turn).", ("MK-END-1",),
               trigger, Flip(40), rule="MK-END-1")
    c.decision("end/last-visit", "MK-END-1, MK-TUTOR-1: in the ending step a tutor visit is "
               "still open (here Sabanto, which empties no item space).",
               ("MK-END-1", "MK-TUTOR-1", "MK-TUTOR-SABANTO-1"), trigger, Sabanto(0, PURPLE),
               then=1)
    c.decision("end/end-the-triggering-turn", "MK-END-1, MK-END-2: player 0 ends her turn; "
               "player 1, the last before the first player, takes one last turn.",
               ("MK-END-1", "MK-END-2"), trigger, EndTurn(), then=1)
    c.views("end/triggered", "MK-END-1, MK-COL-1, MK-ROW-4: player 0's board is full (three "
            "column tokens: 4 in hand); the end is triggered.",
            ("MK-END-1", "MK-COL-1", "MK-ROW-4", "MK-INFO-1"), trigger, hidden=False)
    c.perft_case("end/ending-step", "MK-END-1, MK-END-2: from the ending step: a last visit "
                 "or the end of the turn, then player 1's last turn.",
                 ("MK-END-1", "MK-END-2", "MK-TUTOR-1"), trigger, 2)
    c.decision("end/full-board-in-the-last-turn", "MK-END-3, MK-END-2, MK-SCORE-4, "
               "MK-SCORE-1: player 1 also filled her board, in her last turn: she flips no "
               "more; her turn ends the game, 0 points each, 9 own tiles each: a victory "
               "shared.", ("MK-END-3", "MK-END-2", "MK-SCORE-1", "MK-SCORE-3", "MK-SCORE-4"),
               last_ending, EndTurn(), then=TERMINAL, reason="full-board")
    c.decision("end/flip-after-the-end", "MK-END-5: nothing after the end.", ("MK-END-5",),
               shared, Flip(40), rule="MK-END-5")
    c.views("end/shared-victory", "MK-SCORE-1, MK-SCORE-4, MK-END-2: both boards full, the "
            "result names both winners.", ("MK-SCORE-1", "MK-SCORE-4", "MK-END-2", "MK-END-3"),
            shared, hidden=False)
    rules = ("MK-END-1", "MK-END-2", "MK-END-3", "MK-ROW-4", "MK-COL-1", "MK-SCORE-1")
    record = GAME.to_record(shared)
    c.record("valid/p2-shared-victory", "MK-SCORE-4: both players fill their boards (the "
             "second in her last turn, MK-END-3): equal points and equal own tiles, a shared "
             "victory.", rules + ("MK-SCORE-4",), record, reason="full-board")
    *_, points = _both_fill((PURPLE, None, None))
    c.record("valid/p2-most-points", "MK-SCORE-2: as the shared victory, but player 1 "
             "discards a purple tile in her row discard: 1 point against 0.",
             rules + ("MK-SCORE-2", "MK-ROW-1"), GAME.to_record(points), reason="full-board")
    *_, tie = _both_fill((GREEN, PURPLE, None))
    c.record("valid/p2-own-colour-tie-break", "MK-SCORE-3: player 1 discards a green and a "
             "purple tile: 0 points each, and player 0's 9 own tiles beat player 1's 8.",
             rules + ("MK-SCORE-3", "MK-ROW-1"), GAME.to_record(tie), reason="full-board")
    assert shared.result and points.result and tie.result, "the three games end"
    _check("end/results", "the three results", shared.result.winners == (0, 1)
           and points.result.winners == (1,) and tie.result.winners == (0,)
           and tie.result.scores == (0, 0))
    wrong = copy.deepcopy(record)
    wrong["result"]["winners"] = [0]
    c.record("illegal/winners-of-a-shared-victory", "MK-SCORE-4: the shared victory's record "
             "names one winner.", ("MK-SCORE-4",), wrong, rule="MK-SCORE-4", flags=("Mutated",))
    wrong = GAME.to_record(points)
    wrong["result"]["winners"] = [0]
    c.record("illegal/winner-with-fewer-points", "MK-SCORE-2: the record names the player "
             "with fewer points.", ("MK-SCORE-2",), wrong, rule="MK-SCORE-2", flags=("Mutated",))
    wrong = GAME.to_record(tie)
    wrong["result"]["winners"] = [1]
    c.record("illegal/winner-with-fewer-own-tiles", "MK-SCORE-3: equal points; the record "
             "names the player with fewer own tiles.", ("MK-SCORE-3",), wrong,
             rule="MK-SCORE-3", flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["result"]["scores"][1] += 1
    c.record("illegal/scores", "MK-SCORE-1: a score that is not the board's.", ("MK-SCORE-1",),
             wrong, rule="MK-SCORE-1", flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["result"]["own_colour"][0] -= 1
    c.record("illegal/own-colour-count", "MK-SCORE-3: an own-colour count that is not the "
             "board's.", ("MK-SCORE-3",), wrong, rule="MK-SCORE-3", flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["result"]["reason"] = "static"
    c.record("illegal/reason-of-a-full-board", "MK-END-2: the game ended by the last turns "
             "(full-board), not static.", ("MK-END-2",), wrong, rule="MK-END-2",
             flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["turns"][0]["steps"].insert(-1, {"kind": "flip", "space": 40})
    c.record("illegal/flip-after-filling-the-board", "MK-END-1: a flip in the ending step of "
             "the triggering turn.", ("MK-END-1",), wrong, rule="MK-END-1", flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["turns"].append({"player": 0, "steps": [{"kind": "flip", "space": 40}]})
    c.record("illegal/turn-after-the-end", "MK-END-5: a turn after the last turns.",
             ("MK-END-5", "MK-END-2"), wrong, rule="MK-END-5", flags=("Mutated",))
    unfinished = copy.deepcopy(record)
    del unfinished["result"]
    unfinished["turns"] = unfinished["turns"][:1]
    c.record("valid/unfinished", "MK-END-5: the record stops after the triggering turn and "
             "claims no result: valid as far as it goes, with no result.", ("MK-END-5",),
             unfinished, flags=("Constructed", "Unfinished"))
    claimed = copy.deepcopy(unfinished)
    claimed["result"] = record["result"]
    c.record("illegal/result-of-an-unfinished-game", "MK-END-5: the same record claims the "
             "result of the finished game.", ("MK-END-5",), claimed, rule="MK-END-5",
             flags=("Mutated",))
    _last_turns(c)


def _last_turns(c: Corpus) -> None:
    """MK-END-1..2 with 3 players: player 1 fills her board with a Danna single between two
    flips; the first tile goes back face down; player 2 takes the only last turn."""
    pairs = [t for i in range(8) for t in (f"purple-{i}", f"white-{i}")]
    state = begin(options(3), ["pink-0", "pink-1", *pairs, "pink-4", "purple-8", "pink-5",
                               "pink-6"])
    state = play(state, *flips(0, 1))
    for i in range(8):
        state = play(state, *flips(2 + 2 * i, 3 + 2 * i))
        if i in (2, 5):
            state = play(state, *no_sweeps(i // 3))
    pending = play(state, Flip(18))
    c.decision("end/danna-fills-the-board", "MK-TUTOR-DANNA-1, MK-TUTOR-1: between two flips "
               "player 1 visits Danna, whose purple-8 fills her ninth item space.",
               ("MK-TUTOR-DANNA-1", "MK-TUTOR-DANNA-2", "MK-TUTOR-1"), pending, Danna(19),
               then=1)
    full = play(pending, Danna(19))
    _check("end/danna", "the first tile back, a token, row 2's discard, the end triggered",
           full.spaces[18] == DOWN and full.pending is None and full.phase is Phase.SWEEP
           and full.triggered_by == 1 and full.hands == (1, 3, 1))
    c.views("end/board-filled-between-flips", "MK-END-1, MK-ROW-4, MK-COL-1: player 1's "
            "board is full: the first tile of her flip (pink-4) went back face down; column "
            "2's token is in her hand and row 2's discard is due.",
            ("MK-END-1", "MK-ROW-4", "MK-COL-1", "MK-TUTOR-DANNA-2", "MK-INFO-3"), full,
            hidden=False)
    c.decision("end/row-discard-of-the-end", "MK-END-1, MK-ROW-3: the board full, the row "
               "discard of that moment is still taken.", ("MK-END-1", "MK-ROW-3"), full,
               Sweep(6, None), then=1)
    swept = play(full, Sweep(6, None), Sweep(7, None))
    c.decision("end/ending-step-with-the-visit-used", "MK-END-1, MK-TUTOR-1, MK-END-2: the "
               "last item space of the discard; with this turn's visit used there is nothing "
               "left to choose: the turn ends and player 2 takes the last turn.",
               ("MK-END-1", "MK-TUTOR-1", "MK-END-2", "MK-ROW-3"), swept, Sweep(8, None),
               then=2)
    last = play(swept, Sweep(8, None))
    c.perft_case("end/last-turn", "MK-END-2: player 2's last turn: the game ends after it "
                 "(player 0 began).", ("MK-END-2", "MK-FLIP-1", "MK-FLIP-4", "MK-TUTOR-1"),
                 last, 2)
    second = play(last, Flip(20))
    c.decision("end/after-the-last-turn", "MK-END-2, MK-SCORE-1, MK-SCORE-2: player 2's "
               "mismatch ends the last turn and the game: player 1 wins (1 point).",
               ("MK-END-2", "MK-FLIP-4", "MK-SCORE-1", "MK-SCORE-2"), second, Flip(21),
               then=TERMINAL, reason="full-board")
    over = play(second, Flip(21))
    c.views("end/after-the-last-turn", "MK-END-2, MK-SCORE-1, MK-SCORE-2: the last turn was "
            "player 2's; the result.", ("MK-END-2", "MK-SCORE-1", "MK-SCORE-2"), over,
            hidden=False)
    record = GAME.to_record(over)
    c.record("valid/p3-last-turns", "MK-END-1, MK-END-2: a 3-player game: player 1's Danna "
             "fills her board between two flips, player 2 takes the last turn, player 1 wins.",
             ("MK-END-1", "MK-END-2", "MK-TUTOR-DANNA-2", "MK-ROW-4", "MK-SCORE-1",
              "MK-SCORE-2"), record, reason="full-board")
    _near_misses(c, record, over)


# --- seeded games: the three ends as random play reaches them ---------------------------------


def _reason_rules(state: State) -> tuple[str, ...]:
    """The rules a finished game's end and result exercise: its end, then the scoring rules
    its result needed (a tie-break, a shared victory)."""
    result = state.result
    assert result is not None
    ends = {Reason.FULL_BOARD: ("MK-END-1", "MK-END-2"), Reason.STATIC: ("MK-STATIC-1",
                                                                          "MK-STATIC-2"),
            Reason.NO_FACE_DOWN: ("MK-END-4",)}[result.reason]
    if result.reason is Reason.NO_FACE_DOWN and state.triggered_by is not None:
        ends += ("MK-END-1", "MK-END-2")  # the tiles ran out in a last turn
    best = max(result.scores)
    tied = [p for p, s in enumerate(result.scores) if s == best]
    scoring = ("MK-SCORE-1", "MK-SCORE-2") + (("MK-SCORE-3",) if len(tied) > 1 else ()) + (
        ("MK-SCORE-4",) if len(result.winners) > 1 else ())
    return ends + scoring


def _search(config: Config, reason: Reason) -> tuple[int, State]:
    """The first game of :data:`SEED` under ``config`` (begun by player 0) that ends by
    ``reason``."""
    for index in range(SEARCH):
        final = play_game(GAME, config, SEED, index)
        if final.result.reason is reason:
            return index, final
    raise IntentError(f"no game of seed {SEED} in {SEARCH} ends by {reason.value}")


def seeded(c: Corpus) -> None:
    """Valid records of seeded games for each player count, the static end and the end with no
    face-down tile, and near-misses of them."""
    configs = [({"players": n}, options(n)) for n in PLAYER_COUNTS]
    games = seeded_games(GAME, configs)
    for played in games:
        layout = "MK-SETUP-4" if played.config.players == 2 else "MK-SETUP-3"
        c.record(f"valid/{played.stem}", f"The record of {played.description}: "
                 f"{GAME.describe_end(played.final)}.",
                 (layout, "MK-SETUP-5", "MK-TURN-1") + _reason_rules(played.final),
                 GAME.to_record(played.final), reason=played.final.result.reason.value,
                 flags=("Seeded",))
    static = next(p.final for p in games if p.final.result.reason is Reason.STATIC)
    _ends(c, static, "static", ("MK-STATIC-1", "MK-STATIC-2"),
          "MK-STATIC-1, MK-STATIC-2: the decision that leaves a static position: no token in "
          "any hand, no face-down friend, no two face-down tiles of one item: the game ends "
          "at once.")
    c.views("static/end", "MK-STATIC-1..3: the static end; whether it is static follows from "
            "what every player sees (the tiles in play minus those on view).",
            ("MK-STATIC-1", "MK-STATIC-2", "MK-STATIC-3", "MK-INFO-1", "MK-INFO-3"), static,
            flags=("Seeded",))
    record = GAME.to_record(static)
    wrong = copy.deepcopy(record)
    wrong["result"]["reason"] = "full-board"
    c.record("illegal/reason-of-a-static-end", "MK-STATIC-2: the game ended static, not by a "
             "full board.", ("MK-STATIC-2",), wrong, rule="MK-STATIC-2", flags=("Mutated",))

    index, empty = _search(options(2), Reason.NO_FACE_DOWN)
    last = empty.steps[-1]
    how = ("the last face-down tile is flipped as the first of a pair: the second flip is due "
           "and none can be made" if empty.pending is not None else
           "the last face-down tiles are gone and a first flip is due")
    if empty.triggered_by is not None:
        how += (f", in player {last.player}'s last turn after player {empty.triggered_by} "
                "filled her board: the game ends by MK-END-4 before the last turns are over")
    rules = _reason_rules(empty)
    c.record(f"valid/seed-{SEED}-game-{index}-players-2-no-face-down-tile",
             f"MK-END-4: game {index} of seed {SEED} (2 players, player 0 begins): {how}.",
             ("MK-SETUP-4", "MK-SETUP-5", "MK-TURN-1") + rules, GAME.to_record(empty),
             reason="no-face-down-tile", flags=("Seeded", "EdgeCase"))
    wrong = GAME.to_record(empty)
    wrong["result"]["reason"] = "static"
    c.record("illegal/reason-of-an-end-with-no-face-down-tile", "MK-END-4: the game ended "
             "with no face-down tile, not static.", ("MK-END-4",), wrong, rule="MK-END-4",
             flags=("Mutated",))
    _ends(c, empty, "no-face-down-tile",
          ("MK-END-4",) + (("MK-END-2",) if empty.triggered_by is not None else ()),
          f"MK-END-4: {how}.")
    c.views("no-face-down-tile/end", "MK-END-4, MK-INFO-1: the end with no face-down tile"
            + (": the first tile of the flip that could not be completed lies face up."
               if empty.pending is not None else "."),
            ("MK-END-4", "MK-INFO-1", "MK-SCORE-1"), empty, flags=("Seeded", "EdgeCase"))
    late = _late(empty, 3)
    reasons = _leaf_reasons(late, 8)
    _check("no-face-down-tile/perft", "the end with no face-down tile within 8 decisions",
           "no-face-down-tile" in reasons)
    c.perft_case("no-face-down-tile/late", f"MK-END-4: 3 face-down tiles left in game {index} "
                 f"of seed {SEED}: within 8 decisions some lines end with no face-down tile "
                 "(ends reached: " + ", ".join(sorted(reasons)) + ").",
                 ("MK-FLIP-1", "MK-FLIP-2") + _end_rules(reasons), late, 8,
                 flags=("Seeded", "EdgeCase"))
    four = next(p.final for p in games if p.final.config.players == 4
                and p.final.result.reason is Reason.STATIC)
    late = _late(four, 4)
    reasons = _leaf_reasons(late, 6)
    _check("static/perft", "a static end within 6 decisions", "static" in reasons)
    _check("static/perft", "no token in any hand", not any(late.hands))
    c.perft_case("static/late", "MK-STATIC-1, MK-STATIC-2: the last turn of a 4-player game "
                 "that ends static: 4 face-down tiles and no token in any hand (no visit), so "
                 "flips only; within 6 decisions some lines end static (ends reached: "
                 + ", ".join(sorted(reasons)) + ").",
                 ("MK-FLIP-1", "MK-FLIP-4", "MK-TUTOR-2") + _end_rules(reasons), late, 6,
                 flags=("Seeded",))


def _end_rules(reasons: set[str]) -> tuple[str, ...]:
    """The rules of the ends a perft tree reaches (its leaves), by reason."""
    by_reason = {"full-board": ("MK-END-2",), "static": ("MK-STATIC-1", "MK-STATIC-2"),
                 "no-face-down-tile": ("MK-END-4",)}
    return tuple(rule for reason in sorted(reasons) for rule in by_reason[reason])


def _late(final: State, tiles: int) -> State:
    """The last position of a game's first flips with at least ``tiles`` face-down tiles."""
    return next(s for s in reversed(list(GAME.states(final)))
                if s.phase is Phase.FIRST and len(s.face_down()) >= tiles)


def _ends(c: Corpus, final: State, stem: str, rules: tuple[str, ...], comment: str) -> None:
    """The decision that ended a seeded game, at the position before it."""
    states = list(GAME.states(final))
    assert final.result is not None, "a finished game"
    c.decision(f"{stem}/last-decision", comment, rules + ("MK-SCORE-1",), states[-2],
               GAME.history(final)[-1], then=TERMINAL, reason=final.result.reason.value,
               flags=("Seeded", "EdgeCase"))


def _leaf_reasons(state: State, depth: int) -> set[str]:
    """The ends reached within ``depth`` decisions of ``state`` (a walk of its small tree)."""
    found: set[str] = set()

    def visit(node: State, left: int) -> None:
        if node.result is not None:
            found.add(node.result.reason.value)
        elif left:
            for decision in GAME.legal_actions(node):
                visit(GAME.apply(node, decision), left - 1)

    visit(state, depth)
    return found


def _near_misses(c: Corpus, record: dict[str, Any], final: State) -> None:
    """One-change near-misses of the 3-player record of :func:`_last_turns` (short, so the
    file stays small): its options, first player, layout and turns; then malformed ones (the
    first few of the core's :func:`mutations` that are, one per JSON path)."""
    flags = ("Constructed", "Mutated")
    wrong = copy.deepcopy(record)
    wrong["options"]["colours"] = "white,white,pink"
    c.record("illegal/two-players-of-one-colour", "MK-SETUP-1: two players of one colour.",
             ("MK-SETUP-1",), wrong, rule="MK-SETUP-1", flags=flags)
    wrong = copy.deepcopy(record)
    wrong["first_player"] = 3
    c.record("illegal/first-player-who-does-not-exist", "MK-SETUP-6: player 3 in a 3-player "
             "game.", ("MK-SETUP-6",), wrong, rule="MK-SETUP-6", flags=flags)
    wrong = copy.deepcopy(record)
    wrong["layout"][wrong["layout"].index("friend")] = "green-0"
    c.record("illegal/layout-not-the-tiles-in-play", "MK-SETUP-3: a friend replaced by a "
             "third green-0.", ("MK-SETUP-3", "MK-COMP-1"), wrong, rule="MK-SETUP-3",
             flags=flags)
    two = GAME.to_record(begin(options(2, PG), []))
    two["options"]["removed_colour"] = "purple"
    c.record("illegal/box-colour-on-the-board", "MK-SETUP-4: the record of a pink-green game "
             "says purple went to the box, and its layout holds purple tiles (and no white).",
             ("MK-SETUP-4",), two, rule="MK-SETUP-4", flags=flags)
    wrong = copy.deepcopy(record)
    wrong["turns"][-1]["player"] = 0
    c.record("illegal/last-turn-of-the-wrong-player", "MK-TURN-1: the last turn is player "
             "2's.", ("MK-TURN-1", "MK-END-2"), wrong, rule="MK-TURN-1", flags=flags)
    wrong = copy.deepcopy(record)
    wrong["turns"][0]["steps"] += wrong["turns"][1]["steps"]
    del wrong["turns"][1]
    c.record("illegal/two-turns-as-one", "MK-TURN-2: turn 0 ended with a mismatch; the record "
             "goes on with it.", ("MK-TURN-2",), wrong, rule="MK-TURN-2", flags=flags)
    wrong = copy.deepcopy(record)
    wrong["turns"][1]["steps"].append({"kind": "end-turn"})
    c.record("illegal/end-turn-after-the-turn-ended", "MK-TURN-2: player 1's turn ended by "
             "itself after her row discard.", ("MK-TURN-2",), wrong, rule="MK-TURN-2",
             flags=flags)
    mid = next(s for s in GAME.states(final) if s.phase is Phase.FIRST and EMPTY in s.spaces)
    step = sum(1 for s in mid.steps if s.turn == mid.turn)
    wrong = copy.deepcopy(record)
    wrong["turns"][mid.turn]["steps"].insert(step, {"kind": "flip",
                                                    "space": mid.spaces.index(EMPTY)})
    c.record("illegal/flip-of-an-empty-space", f"MK-FLIP-2: turn {mid.turn}, step {step} flips "
             f"space {mid.spaces.index(EMPTY)}, emptied by the pair just before.",
             ("MK-FLIP-2",), wrong, rule="MK-FLIP-2", flags=flags)
    steps = record["turns"][1]["steps"]
    sweep = next(k for k, d in enumerate(steps) if d["kind"] == "sweep")
    wrong = copy.deepcopy(record)
    wrong["turns"][1]["steps"][sweep]["colour"] = "green"
    c.record("illegal/row-discard-of-a-colour-not-there", f"MK-ROW-1: turn 1, step {sweep}: "
             "the row discard names a green tile that item space 0 does not hold.",
             ("MK-ROW-1", "MK-ROW-3"), wrong, rule="MK-ROW-1", flags=flags)
    visit = next(k for k, d in enumerate(steps) if d["kind"] == "danna")
    wrong = copy.deepcopy(record)
    wrong["turns"][1]["steps"][visit]["space"] = steps[visit - 1]["space"]
    c.record("illegal/danna-on-the-first-tile", f"MK-TUTOR-DANNA-1: turn 1, step {visit}: "
             "Danna on the first tile of the flip in progress, which lies face up.",
             ("MK-TUTOR-DANNA-1",), wrong, rule="MK-TUTOR-DANNA-1", flags=flags)
    kept: dict[str, tuple[str, Any]] = {}
    for path, what, changed in mutations(record):
        verdict = expected_record(GAME, {"record": changed})
        if verdict["status"] == "malformed" and verdict["path"] not in kept:
            kept[verdict["path"]] = (f"{path} {what}", changed)
            if len(kept) == 3:
                break
    for where, (change, changed) in kept.items():
        c.record(f"malformed/{re.sub('[^a-z0-9]+', '-', where).strip('-') or 'document'}",
                 f"Malformed: the record with {change}.", (), changed,
                 status="malformed", flags=("Mutated",))
    wrong = copy.deepcopy(record)
    wrong["layout"][0] = "gold-3"
    c.record("malformed/layout-tile", "Malformed: a tile of no colour of Maiko's.", (), wrong,
             status="malformed", flags=("Mutated",))
    c.record("malformed/not-json", "Malformed: not JSON at all.", (), None, status="malformed",
             raw={"text": '{"format": "maiko-record/1", "options": '}, flags=("Text",))
    c.record("malformed/not-utf-8", "Malformed: bytes that are not UTF-8.", (), None,
             status="malformed", raw={"hex": "7b22666f726d6174223a20ff7d"}, flags=("Text",))


# --- the files -------------------------------------------------------------------------------

HEADERS = {
    "records.json": "Records of maiko-record/1 and their verdicts, as `hanamikoji validate "
                    "--json` gives them: valid with the result and the number of legal "
                    "decisions at each decision; illegal with the rule and where (turn, step: "
                    "from 0, as the record's arrays); malformed with the JSON path. For 2, 3 "
                    "and 4 players.",
    "decisions.json": "A position (the options, the first player and every decision from the "
                      "start, the layout first, in the JSON forms of docs/maiko.md) and one "
                      "more decision: whose turn it is, the legal decisions at the position "
                      "(all of them, in the engine's order), and whether that decision is "
                      "legal (if not, the rule it breaks; if so, who decides next and the "
                      "result).",
    "views.json": "A position and a player: what that player may see (MK-INFO-1..3), one case "
                  "per player of each position.",
    "perft.json": "A position (the layout fixed) and the number of decision sequences from it "
                  "at each depth to `depth` (the end of the game is a leaf); for some, `divide` "
                  "splits the deepest count by the first decision.",
}

SCENARIOS: tuple[Callable[[Corpus], None], ...] = (
    chance, start_of_a_game, flips_and_friends, danna, one_san, oka_san_and_sabanto, rows,
    columns, row_and_column, token_from_a_tutor_card, the_end, seeded)


def files() -> dict[str, VectorFile]:
    """Every file of Maiko's corpus, by name (:data:`EXTENSION`)."""
    corpus = Corpus()
    for scenario in SCENARIOS:
        scenario(corpus)
    built = {"records.json": corpus.record_cases, "decisions.json": corpus.decision_cases,
             "views.json": corpus.view_cases, "perft.json": corpus.perft_cases}
    return {name: VectorFile(HEADERS[name], tuple(NOTES.items()), tuple(built[name]))
            for name in FILES}


class MaikoVectors(VectorsExtension):
    """Maiko's vectors hooks: the hand-built corpus (:func:`files`)."""

    def files(self) -> dict[str, Any]:
        return files()


EXTENSION = MaikoVectors
