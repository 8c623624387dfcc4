"""Maiko's kamon-token queries: can a gain come from a tutor card, and can every token be in
players' hands at once so that a gain gives nothing (MK-TOKEN-2)?

**The ledger model** (:class:`Ledger`). A game up to and including the gain asked about, as
whole numbers: the friends revealed ``F`` and the columns completed ``C`` (the gains, MK-TOKEN-1:
``G = F + C``), the visits ``V`` made before that gain, and where each gain's token came from:
the pool ``P``, a tutor card ``T``, or nowhere ``L`` (lost, MK-TOKEN-2). Each constraint is a
property of every real game, tracked by its rule:

* MK-SETUP-2: the pool starts with 16 - N tokens, the hands with one each, the cards empty.
* MK-SETUP-3 / MK-SETUP-4: the friends in play (9; 6 with two players).
* MK-FLIP-5 (with MK-TUTOR-DANNA-3): a revealed friend stays face up, so each gain from a friend
  reveals a different one: ``F`` is at most the friends in play.
* MK-TOKEN-1: ``G = F + C``.
* MK-TOKEN-2: ``G = P + T + L``; the pool never refills (a token leaves a hand only for a card,
  MK-TUTOR-2), so at most 16 - N gains come from it, and a gain from a card or a lost gain comes
  only once it is empty (``P = 16 - N``); a lost gain comes only while every token is in hands,
  so every token put on a card has been taken back (``T = V``).
* MK-TUTOR-2: a visit spends a token its player holds (``V`` at most the tokens that reached
  hands, ``N + P + T``).
* MK-COMP-2: a token is always in one place: the cards hold ``V - T`` tokens, never fewer than
  none.
* MK-COL-2 (the column bound): with no visit, each player completes each of their three columns
  at most once, ``C <= 3N``. Every tile placed without a visit comes with a pair (MK-FLIP-3: two
  tiles on an empty item space), and tiles leave a maiko board only by a row discard (MK-ROW-1;
  Sabanto and Oka-san are visits). A row discards only when its last empty item space is filled,
  so the first discard of a row finds two tiles or more on each of its item spaces and takes at
  most one from each (MK-ROW-3): none is emptied, so the row never discards again (MK-ROW-2),
  and by induction no item space is ever emptied. A column pays again only after one of its
  item spaces was emptied (MK-COL-2), so it pays at most once per player.

z3 finds the fewest gains and the fewest columns each event needs, and one fewer is unsat with
an unsat core; a witness game, written with :class:`.script.Script` and replayed in the engine,
shows the event at that count (its ledger, :func:`ledger`, read step by step from the replay).
Every claim is decided either way: a minimum claimed too high answers "at most" what z3 found,
and a witness with more gains than the proved minimum would be answered "at least" the minimum
with the witness's count.

**Two players** have 6 friends, so 14 gains from the pool and one more need 9 completions: more
than the 6 a visit-free game allows. So a lost gain (every card empty again, ``T = V``) needs a
visit and a gain that takes its token back: at least 16 gains and 10 completions, against 15 and
9 for a gain from a card. The witness games (:func:`event_game`) reach both with one visit: an
Oka-san visit takes a single tile of the visitor's colour from the other board, emptying an item
space on both boards at once, and each board then refills its emptied row by turns (a pair on
the empty item space completes its column and its row, and the row discard empties the item
space beside it, which held one tile), while another item space stays empty so that no board is
ever full (MK-END-1).

>>> from hanamikoji.spec.core.solver import Deadline
>>> fewest(4, "card", "gains", Deadline(30)).value, fewest(3, "lost", "columns", Deadline(30)).value
(13, 5)
>>> fewest(2, "card", "gains", Deadline(30)).value, fewest(2, "lost", "gains", Deadline(30)).value
(15, 16)
"""

from __future__ import annotations

from typing import Any, Iterable

import attrs
import z3
from hanamikoji.engine.maiko import (
    FRIEND,
    Config,
    Danna,
    OkaSan,
    OneSan,
    Phase,
    Sabanto,
    State,
    apply,
    new_game,
)
from hanamikoji.engine.maiko.components import NUM_ITEMS, PLAYER_COUNTS, TOTAL_TOKENS
from hanamikoji.engine.maiko.game import COLUMNS, ROWS, filled
from hanamikoji.spec.core.queries import (
    Counterexample,
    Finding,
    ModelInconsistency,
    Proof,
    WitnessError,
)
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    check_hypothesis,
    solve,
    unknown,
)

from .reach import Builder
from .script import Script
from .witness import FACTS, Witness, _face_up_friends

EVENTS = {"card": "a gain whose token comes from a tutor card",
          "lost": "a gain that gives nothing, every token being in players' hands"}


class Ledger:
    """The ledger model of the games up to the gain ``event`` ("card" or "lost") with
    ``players``, less the rules ``without``. ``parts`` are ``(rule, where, formula)``."""

    def __init__(self, players: int, event: str, *, without: Iterable[str] = ()) -> None:
        if event not in EVENTS:
            raise ValueError(f"event is one of {sorted(EVENTS)}, not {event!r}")
        self.players, self.event = players, event
        self.without = frozenset(without)
        self.parts: list[tuple[str, str, z3.BoolRef]] = []
        n = players
        I = z3.Int
        F, C, G, P, T, L, V = (I(x) for x in ("friends", "columns", "gains", "from_pool",
                                              "from_cards", "lost", "visits"))
        pool0, hands0, friends = I("pool0"), I("hands0"), I("friends_in_play")
        self.terms = {"friends": F, "columns": C, "gains": G, "from_pool": P,
                      "from_cards": T, "lost": L, "visits": V}
        tiles = Config.make(n).tiles
        add = self.parts.append
        add(("definition: counts are whole numbers", "domains",
             z3.And([x >= 0 for x in (F, C, G, P, T, L, V)])))
        add(("MK-SETUP-2", "start", z3.And(pool0 == TOTAL_TOKENS - n, hands0 == n)))
        add(("MK-SETUP-4" if n == 2 else "MK-SETUP-3", "the friends in play",
             friends == sum(1 for code in tiles if code == FRIEND)))
        add(("MK-FLIP-5", "each friend revealed once", F <= friends))
        add(("MK-TOKEN-1", "gains", G == F + C))
        add(("MK-TOKEN-2", "sources", z3.And(
            G == P + T + L, P <= pool0, z3.Implies(T + L >= 1, P == pool0),
            z3.Implies(L >= 1, T == V))))
        add(("MK-TUTOR-2", "visits", V <= hands0 + P + T))
        add(("MK-COMP-2", "tokens on cards", T <= V))
        add(("MK-COL-2", "without a visit no item space is emptied",
             z3.Implies(V == 0, C <= 3 * n)))

    @property
    def event_formula(self) -> z3.BoolRef:
        key = "from_cards" if self.event == "card" else "lost"
        return self.terms[key] >= 1

    def problem(self, deadline: Deadline) -> Problem:
        problem = Problem(deadline, without=self.without)
        for rule, where, formula in self.parts:
            problem.require([Constraint(rule, formula)], where)
        problem.require([Constraint(f"question: {EVENTS[self.event]}", self.event_formula)],
                        "the event")
        return problem


@attrs.frozen
class Fewest:
    """The fewest ``quantity`` ("gains" or "columns") of an event: the value and the claim that
    one fewer is impossible, decided either way (``check``)."""

    players: int
    event: str
    quantity: str
    value: int | None
    check: Proof | Counterexample | None

    @property
    def proved(self) -> bool:
        return isinstance(self.check, Proof)


def fewest(players: int, event: str, quantity: str, deadline: Deadline, *,
           claimed: int | None = None, without: Iterable[str] = ()) -> Fewest:
    """The fewest gains or columns before the ``event`` (z3's optimiser, or ``claimed``), and
    the claim that fewer is impossible decided either way: its unsat core, or the ledger z3
    finds with fewer (whose count is then the value). ``value`` None: no ledger has the event."""
    ledger = Ledger(players, event, without=without)
    term = ledger.terms[quantity]
    if claimed is None:
        optimiser = z3.Optimize()
        for rule, _, formula in ledger.parts:
            if rule not in ledger.without:
                optimiser.add(formula)
        optimiser.add(ledger.event_formula)
        optimiser.minimize(term)
        outcome = solve(optimiser, deadline)
        if outcome == z3.unsat:
            return Fewest(players, event, quantity, None, None)
        if outcome != z3.sat:
            raise unknown(optimiser, f"z3 could not minimise {quantity}", deadline)
        claimed = optimiser.model().eval(term, model_completion=True).as_long()
    problem = ledger.problem(deadline)
    claim = (f"{players} players: {EVENTS[event]} needs at least {claimed} "
             f"{'gains' if quantity == 'gains' else 'column completions'}")
    verdict = check_hypothesis(problem, f"fewer than {claimed} {quantity}", term <= claimed - 1,
                               "the question")
    if verdict.status is Status.UNSAT:
        return Fewest(players, event, quantity, claimed, Proof.of(claim, verdict))
    model = verdict.model
    assert model is not None  # decided, not unsat: sat
    values = tuple((name, model.eval(t, model_completion=True).as_long())
                   for name, t in ledger.terms.items())
    return Fewest(players, event, quantity, dict(values)[quantity],
                  Counterexample(claim, f"fewer than {claimed} {quantity}", values, None,
                                 problem.dropped))


# --- what the engine shows ----------------------------------------------------------------------


def _ledger_steps(state: State) -> list[tuple[Any, State, State]]:
    """Each decision of ``state``'s game with the states before and after it, replayed."""
    replay = new_game(state.config, state.first_player)
    out = []
    for decision in state.history:
        after = apply(replay, decision)
        out.append((decision, replay, after))
        replay = after
    return out


#: The counts :func:`ledger` reads off a game, each also a witness fact (:data:`.witness.FACTS`).
LEDGER_FACTS = ("gains", "friends_revealed", "column_completions", "visits", "pool_gains",
                "card_gains", "lost_gains")


def ledger(state: State) -> dict[str, int]:
    """The kamon tokens' movements over ``state``'s game, replayed step by step in the engine
    and read off its pool, cards, hands, boards and face-up friends: the ``visits`` (a token from
    a hand to a card, MK-TUTOR-2; a One-san look after the first is the same visit), the
    ``gains`` MK-TOKEN-1 pays for (a friend turned face up, ``friends_revealed``, or an empty
    item space filled whose column is then full, ``column_completions``) and where each gain's
    token came from (MK-TOKEN-2): the pool (``pool_gains``), a card (``card_gains``: a card gave
    a token back to a hand) or nowhere (``lost_gains``: no hand gained). A step whose tokens do
    not balance so is a :class:`.witness.WitnessError`."""
    out = dict.fromkeys(LEDGER_FACTS, 0)
    for decision, before, after in _ledger_steps(state):
        if before.phase is Phase.LAYOUT:
            continue
        p = before.current
        visit = int(isinstance(decision, (Danna, OkaSan, Sabanto))
                    or (isinstance(decision, OneSan) and before.phase is not Phase.LOOK))
        friends = _face_up_friends(after) - _face_up_friends(before)
        columns = sum(1 for item in range(NUM_ITEMS)
                      if not filled(before.boards[p], item) and filled(after.boards[p], item)
                      and all(filled(after.boards[p], i) for i in COLUMNS[item % 3]))
        pool = before.pool - after.pool
        card = visit - (sum(after.cards) - sum(before.cards))
        gained = sum(after.hands) - sum(before.hands) + visit
        if pool < 0 or card < 0 or pool + card != gained or gained > friends + columns:
            raise WitnessError(f"the token ledger does not balance at {decision!r}")
        out["visits"] += visit
        out["gains"] += friends + columns
        out["friends_revealed"] += friends
        out["column_completions"] += columns
        out["pool_gains"] += pool
        out["card_gains"] += card
        out["lost_gains"] += friends + columns - gained
    return out


def _fact(name: str) -> Any:
    return lambda state: ledger(state)[name]


FACTS.update((name, _fact(name)) for name in LEDGER_FACTS)


#: The witness plans with 3 and 4 players: per turn, the columns the player completes (0: items
#: 0, 3, 6; 1: items 1, 4, 7: never a row, never a full board) before flipping a friend, which
#: ends the turn.
_PLANS: dict[int, list[tuple[int, ...]]] = {
    3: [(0,), (0,), (0,), (1,), (1,), (), (), (), ()],
    4: [(0,), (0,), (0,), (0,), (), (), (), (), ()],
}


def _sweep(b: Builder, discard: Iterable[int] = (), keep: int | None = None) -> None:
    """The pending row discard (MK-ROW-1, MK-ROW-3): one tile from each item space of
    ``discard`` (never one of colour ``keep`` if there is another), every other item space
    kept."""
    discard = set(discard)
    while b.state.phase is Phase.SWEEP:
        row, index = b.state.sweep_row, b.state.sweep_index
        assert row is not None
        item = ROWS[row][index]
        board = b.state.boards[b.state.current]
        colours = sorted((c for c in range(4) if board[item * 4 + c]), key=lambda c: c == keep)
        b.script.sweep(item, colours[0] if item in discard and colours else None)


def _pair(b: Builder, item: int, discard: Iterable[int] = (),
          colours: tuple[int | None, int | None] = (None, None), keep: int | None = None) -> None:
    """MK-FLIP-3: two tiles of ``item`` (of ``colours`` where given), then the row discard."""
    for colour in colours:
        b.script.flip_at(b.take(item, colour))
    _sweep(b, discard, keep)


def _two_player_game(event: str) -> Builder:
    """Two players, one visit. Row 2 (items 6, 7, 8) is the row both boards refill.

    Player 0 fills every item space but 0 and 8 (column 1 pays); player 1 every one but 1
    (columns 0 and 2), with a tile of player 0's colour on item 8 and row 2's discard leaving a
    single tile on each of 6, 7, 8. Player 0 visits Oka-san and takes that tile: column 2 pays,
    and player 0's row discard empties item 8 again and leaves one tile on 7, while player 1's
    item 8 is now empty. Each player then refills their row 2 twice (each pair pays its column,
    and its row discard empties the item space beside it) and fills their last empty item space
    outside it (one more column): 5 completions each, no board ever full. The six friends
    follow, one a turn: the pool is empty after the 14th gain, the 15th takes the Oka-san token
    back from its card, and the 16th finds every token in a hand. For a gain from a card,
    player 1 leaves item 1 empty (9 completions), and the 15th gain is the last."""
    b = Builder(2)
    own, other = (int(c) for c in b.state.config.colours)
    for item in (6, 7, 1, 2, 4, 5, 3):
        _pair(b, item)
    b.mismatch()
    for item in (0, 2, 3, 5, 4, 6, 7):
        _pair(b, item)
    _pair(b, 8, (6, 7, 8), colours=(own, other), keep=own)
    b.mismatch()
    b.script.oka_san(1, 8)
    _sweep(b, (7, 8))
    _pair(b, 8, (7, 8))
    _pair(b, 7, (7, 8))
    _pair(b, 0)
    b.mismatch()
    _pair(b, 8, (6, 8))
    _pair(b, 6, (6, 8))
    if event == "lost":
        _pair(b, 1)
    b.mismatch()
    for _ in range(6):
        b.friend()
    return b


def event_game(players: int, event: str) -> Witness:
    """A game that ends right after the gain ``event`` with the fewest gains and columns. With
    3 and 4 players every friend is flipped, one a turn, after the column completions of
    :data:`_PLANS`: 16 - N gains empty the pool and fill the hands; the last friend is the gain
    asked about (for a card gain the last player first visits Danna, a tile of their colour on
    an item space no column needs, so a token lies on Danna's card). With 2 players, see
    :func:`_two_player_game`. The witness claims the game's :func:`ledger` and its tokens."""
    if players == 2:
        script = _two_player_game(event).script
    else:
        config = Config.make(players)
        script = Script(config)
        plan = _PLANS[players]
        for turn, columns in enumerate(plan):
            player = script.state.current
            colour = int(config.colours[player])
            if event == "card" and turn == len(plan) - 1:
                script.danna(colour * NUM_ITEMS + 8)
            for column in columns:
                for item in (column, column + 3, column + 6):
                    script.pair(colour * NUM_ITEMS + item, colour * NUM_ITEMS + item)
            script.friend()
    state = script.state
    shows: dict[str, Any] = dict(ledger(state))
    shows.update(pool=state.pool, hands=list(state.hands), cards=list(state.cards))
    return script.witness(f"{players} players: {EVENTS[event]}", **shows)


def _event_query(event: str, deadline: Deadline, claimed: dict[tuple[int, str], int] | None,
                 without: Iterable[str]) -> Finding:
    answer: list[tuple[str, Any]] = []
    proofs: list[Proof] = []
    counterexamples: list[Counterexample] = []
    witnesses: list[Witness] = []
    notes: list[str] = []
    fact = "card_gains" if event == "card" else "lost_gains"
    for n in PLAYER_COUNTS:
        mins = {q: fewest(n, event, q, deadline, without=without,
                          claimed=None if claimed is None else claimed.get((n, q)))
                for q in ("gains", "columns")}
        for found in mins.values():
            if isinstance(found.check, Proof):
                proofs.append(found.check)
            elif found.check is not None:
                counterexamples.append(found.check)
        if mins["gains"].value is None:
            answer.append((f"{n} players", (("possible", False),)))
            continue
        witness = event_game(n, event)
        state = witness.replay()
        shown = dict(witness.shows)
        if shown[fact] < 1 or dict(ledger(state)) != {k: shown[k] for k in LEDGER_FACTS} \
                or state.pool + sum(state.hands) + sum(state.cards) != TOTAL_TOKENS:
            raise ModelInconsistency(f"{witness.label}: the game does not show it")
        witnesses.append(witness)
        row: list[tuple[str, Any]] = [("possible", True)]
        for q, f in (("gains", "gains"), ("columns", "column_completions")):
            found = mins[q]
            if not found.proved:
                row.append((f"fewest {q}", (("at_most", found.value),)))
            elif shown[f] == found.value:
                row.append((f"fewest {q}", found.value))
            else:
                row.append((f"fewest {q}", (("at_least", found.value),
                                            ("in_the_witness", shown[f]))))
                notes.append(f"{n} players: the witness game has {shown[f]} {q}, the model's "
                             f"bound is {found.value}; whether fewer are possible is open")
        row.append(("visits in the witness", shown["visits"]))
        answer.append((f"{n} players", tuple(row)))
    notes.append("the fewest gains are 16 - N to empty the pool, and the one asked about (with "
                 "two players and every token in hands, a visit and the gain that takes its "
                 "token back as well); friends are limited (6 or 9), so the rest are columns, "
                 "and without a visit each player completes each column at most once")
    return Finding(answer=tuple(answer), proofs=tuple(proofs),
                   counterexamples=tuple(counterexamples), witnesses=tuple(witnesses),
                   notes=tuple(notes))


def token_from_tutor(deadline: Deadline, *, claimed: dict[tuple[int, str], int] | None = None,
                     without: Iterable[str] = ()) -> Finding:
    """MK-TOKEN-2: a gain whose token comes from a tutor card."""
    return _event_query("card", deadline, claimed, without)


def all_tokens_in_hands(deadline: Deadline, *,
                        claimed: dict[tuple[int, str], int] | None = None,
                        without: Iterable[str] = ()) -> Finding:
    """MK-TOKEN-2: every token in players' hands, so that a gain gives nothing."""
    return _event_query("lost", deadline, claimed, without)
