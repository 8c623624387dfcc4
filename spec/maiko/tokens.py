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

z3 finds the fewest gains and the fewest columns each event needs, and one fewer is unsat with
an unsat core; a witness game, written with :class:`.script.Script` and replayed in the engine,
shows the event at that count (the fact ``card_gains`` or ``lost_gains`` of the replay). Every
claim is decided either way: a minimum claimed too high answers "at most" what z3 found.

**Two players** have 6 friends, so either event needs at least 9 column completions, while a
board completes each column once until one of its item spaces is emptied (MK-COL-2), and a
board whose three columns are complete is full and triggers the end (MK-END-1). Emptying an item
space takes a Sabanto or Oka-san visit, or a row discard of an item space holding a single tile,
which itself comes from a visit or an earlier discard. The model does not count those, and the
toolkit has no game that reaches either event with two players: that count is answered
**unknown** (the bound stands; whether a game reaches it is open), never "possible".

>>> from hanamikoji.spec.core.solver import Deadline
>>> fewest(4, "card", "gains", Deadline(30)).value, fewest(3, "lost", "columns", Deadline(30)).value
(13, 5)
"""

from __future__ import annotations

from typing import Any, Iterable

import attrs
import z3

from hanamikoji.engine.maiko import FRIEND, Config, Flip, State, apply, new_game
from hanamikoji.engine.maiko.components import NUM_ITEMS, TOTAL_TOKENS
from hanamikoji.spec.core.queries import Counterexample, Finding, Proof
from hanamikoji.spec.core.solver import (
    Constraint,
    Deadline,
    Problem,
    Status,
    Undecided,
    check_hypothesis,
)

from .script import Script
from .witness import FACTS, Witness

PLAYER_COUNTS = (2, 3, 4)
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
        optimiser.set("timeout", deadline.timeout_ms())
        for rule, _, formula in ledger.parts:
            if rule not in ledger.without:
                optimiser.add(formula)
        optimiser.add(ledger.event_formula)
        optimiser.minimize(term)
        outcome = optimiser.check()
        if outcome == z3.unsat:
            return Fewest(players, event, quantity, None, None)
        if outcome != z3.sat:
            raise Undecided(Status.UNKNOWN, f"z3 could not minimise {quantity}: "
                            f"{optimiser.reason_unknown()}")
        claimed = optimiser.model().eval(term, model_completion=True).as_long()
    problem = ledger.problem(deadline)
    claim = (f"{players} players: {EVENTS[event]} needs at least {claimed} "
             f"{'gains' if quantity == 'gains' else 'column completions'}")
    verdict = check_hypothesis(problem, f"fewer than {claimed} {quantity}", term <= claimed - 1,
                               "the question")
    if verdict.status is Status.UNSAT:
        return Fewest(players, event, quantity, claimed, Proof.of(claim, verdict))
    model = verdict.model
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


def card_gains(state: State) -> int:
    """Steps in which a hand took a token from a tutor card (the pool empty before it, a card
    one token fewer and the hands one more after it)."""
    return sum(1 for _, before, after in _ledger_steps(state)
               if before.pool == 0 and sum(after.cards) == sum(before.cards) - 1
               and sum(after.hands) == sum(before.hands) + 1)


def lost_gains(state: State) -> int:
    """Friends flipped while every token was in players' hands (a gain that gives nothing)."""
    return sum(1 for decision, before, after in _ledger_steps(state)
               if isinstance(decision, Flip) and before.layout[decision.space] == FRIEND
               and sum(before.hands) == TOTAL_TOKENS and sum(after.hands) == TOTAL_TOKENS)


FACTS["card_gains"] = card_gains
FACTS["lost_gains"] = lost_gains


#: The witness plans: per turn, the columns the player completes (0: items 0, 3, 6; 1: items
#: 1, 4, 7: never a row, never a full board) before flipping a friend, which ends the turn.
_PLANS: dict[int, list[tuple[int, ...]]] = {
    3: [(0,), (0,), (0,), (1,), (1,), (), (), (), ()],
    4: [(0,), (0,), (0,), (0,), (), (), (), (), ()],
}


def event_game(players: int, event: str) -> Witness:
    """Every friend flipped, one a turn, after the column completions of :data:`_PLANS`: 16 - N
    gains empty the pool and fill the hands; the last friend is the gain asked about. For a
    card gain the last player first visits Danna (a tile of their colour on an item space no
    column needs), so a token lies on Danna's card when the last friend is flipped."""
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
    shows = {"card_gains": card_gains(script.state), "lost_gains": lost_gains(script.state),
             "pool": script.state.pool, "hands": list(script.state.hands),
             "cards": list(script.state.cards)}
    return script.witness(f"{players} players: {EVENTS[event]}", **shows)


def _event_query(event: str, deadline: Deadline, claimed: dict[tuple[int, str], int] | None,
                 without: Iterable[str]) -> Finding:
    answer, proofs, counterexamples, witnesses, notes = [], [], [], [], []
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
        shown = {q: (f.value if f.proved else (("at_most", f.value),)) for q, f in mins.items()}
        if n in _PLANS and not without:
            witness = event_game(n, event)
            state = witness.replay()
            if dict(witness.shows)[fact] < 1 or sum(state.hands) + state.pool + sum(
                    state.cards) != TOTAL_TOKENS:
                from hanamikoji.spec.core.queries import ModelInconsistency

                raise ModelInconsistency(f"{witness.label}: the game does not show it")
            witnesses.append(witness)
            possible: Any = True
        else:
            possible = "unknown"
            notes.append(f"{n} players: the ledger allows it from {mins['gains'].value} gains "
                         f"({mins['columns'].value} columns), but no game of the toolkit "
                         "reaches it (see spec/maiko/tokens.py): unknown, not possible")
        answer.append((f"{n} players", (("possible", possible),
                                        ("fewest gains", shown["gains"]),
                                        ("fewest columns", shown["columns"]))))
    notes.append("the fewest gains are 16 - N to empty the pool, and the one asked about; "
                 "friends are limited (6 or 9), so the rest are columns")
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
