"""Hanamikoji's part of ``hanamikoji diff``: how the harness plays a Hanamikoji game (uniform
and planned rounds, probes of forbidden decisions), the order-free parts of its view, and the
check of seeded deals. The core's harness (:mod:`hanamikoji.oracle.core.diff`) reaches these
through :data:`EXTENSION`, this game's diff hooks."""

from __future__ import annotations

import functools

from typing import Any, Callable, Sequence

from hanamikoji.oracle.core.diff import (DiffExtension, DiffGame, Divergence, Engine, check_seeded)
from hanamikoji.oracle.core.diff_draw import Draws, HypothesisDraws, choice, permutation
from hanamikoji.oracle.core.protocol import MalformedJSONError
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import (
    ALL_KINDS,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from hanamikoji.engine.hanamikoji.errors import HanamikojiError
from hanamikoji.engine.hanamikoji.game import Phase, legal_actions, new_game
from hanamikoji.engine.hanamikoji.codec import deal_json, decision_json, parse_decision
from hanamikoji.engine.hanamikoji.rules import Rules

#: Rounds after which a game stops being compared (standard games rarely last this long).
MAX_ROUNDS = 8


_MULTISETS = ("hand", "secret", "trade_off")


def normal_view(view: dict[str, Any]) -> dict[str, Any]:
    """The other engine's view with its multisets sorted, the order the protocol leaves free;
    anything unexpected is left as it is, to be reported."""
    out = dict(view)
    for key in _MULTISETS:
        out[key] = _sorted(out.get(key))
    if isinstance(out.get("sides"), list):
        out["sides"] = [_sorted(s) for s in out["sides"]]
    if isinstance(out.get("used"), list):
        order = [k.value for k in ALL_KINDS]
        out["used"] = [sorted(u, key=lambda k: order.index(k) if k in order else 9)
                       if isinstance(u, list) and all(isinstance(k, str) for k in u) else u
                       for u in out["used"]]
    if out.get("pending") is not None:
        try:
            out["pending"] = decision_json(parse_decision(out["pending"]))
        except (MalformedJSONError, HanamikojiError):
            pass
    if isinstance(out.get("log"), list):
        out["log"] = [_normal_entry(e) for e in out["log"]]
    if isinstance(out.get("scores"), list):
        out["scores"] = [dict(s, sides=[_sorted(x) for x in s["sides"]])
                         if isinstance(s, dict) and isinstance(s.get("sides"), list) else s
                         for s in out["scores"]]
    return out


def _sorted(value: Any) -> Any:
    if isinstance(value, list) and all(type(v) is int for v in value):
        return sorted(value)
    return value


def _normal_entry(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    if "cards" in out:
        out["cards"] = _sorted(out["cards"])
    if isinstance(out.get("sets"), list):
        sets = [_sorted(s) for s in out["sets"]]
        # Only sets of card numbers are put in order: lists of anything else may not compare.
        out["sets"] = sorted(sets) if all(isinstance(s, list) and all(type(v) is int for v in s)
                                          for s in sets) else sets
    if isinstance(out.get("pick"), list):
        out["pick"] = _sorted(out["pick"])
    return out


# --- games -----------------------------------------------------------------------------------


def _deal(draws: Draws) -> Deal:
    """A deal drawn uniformly: the 21 cards in a drawn order."""
    cards = permutation(draws, C.cards_of(C.FULL_DECK))
    return Deal(cards[0], (cards[1:7], cards[7:13]), cards[13:])


def _target(draws: Draws) -> str:
    """A marker row to end a round with, per geisha ``=`` (a tie, twice as often), 0 or 1.
    A won geisha comes first, so that a game shrinks towards rounds that decide geisha (and
    end the game sooner): a round of ties keeps the markers of the rounds before it, so a
    game that shrank towards ties needed all its rounds to reach the same end."""
    return "".join(choice(draws, "01==") for _ in range(C.NUM_GEISHA))


#: Every marker row a round can be planned to end with (a choice of ``0``, ``1`` or ``=`` for
#: each geisha), for either starter: the most rounds :func:`_planned_round` keeps.
_PLANNED_KEPT = 2 * 3 ** C.NUM_GEISHA


@functools.lru_cache(maxsize=_PLANNED_KEPT)
def _planned_round(target: str, starter: int) -> tuple[Deal, tuple[Decision, ...]]:
    """The deal and decisions of a round that ends with the marker row ``target``, ``starter``
    first: a function of those alone, kept (the decisions are immutable). The markers before
    the round are not needed: a geisha whose two sides tie keeps her marker where it was
    (SCORE-3), and one that either side wins goes to that side (SCORE-2), from wherever it
    was, so the same sides give the row from any markers (:func:`sides_for`)."""
    from hanamikoji.engine.hanamikoji.construct import round_for_sides
    from hanamikoji.oracle.hanamikoji.vectors import IntentError, sides_for

    try:
        sides = sides_for(target)
    except IntentError:  # one player wins and the other nothing: every geisha ties
        sides = sides_for("=" * C.NUM_GEISHA)
    deal, decisions = round_for_sides(*sides, starter=starter)
    return deal, tuple(map(_one, decisions))


#: Each decision of a player that a planned round or a probe makes, kept once: the same value
#: is then the same object from round to round, and what is kept by decision object (the log's
#: turn texts, the decisions' JSON) is found again. A few hundred at most (so many decisions
#: of a player there are).
_DECISIONS: dict[Decision, Decision] = {}


def _one(decision: Decision) -> Decision:
    """The decision kept for ``decision``'s value (:data:`_DECISIONS`)."""
    return _DECISIONS.setdefault(decision, decision)


def _probe(draws: Draws) -> Decision:
    """A decision of any kind on any cards, most of them forbidden where they are offered
    (each value made once: :func:`_made`)."""
    integer = draws.integer

    def pair() -> tuple[int, int]:
        return (integer(0, 6), integer(0, 6))

    kind = integer(0, 5)
    if kind == 0:
        return _made(Secret, integer(0, 6))
    if kind == 1:
        return _made(TradeOff, (integer(0, 6), integer(0, 6)))
    if kind == 2:
        return _made(Gift, (integer(0, 6), integer(0, 6), integer(0, 6)))
    if kind == 3:
        return _made(Competition, (pair(), pair()))
    if kind == 4:
        return _made(GiftPick, integer(0, 6))
    return _made(CompetitionPick, pair())


@functools.lru_cache(maxsize=None)
def _made(kind: Any, value: Any) -> Decision:
    """``kind(value)``, made once for each kind and value (a few thousand at most): the
    decision kept for its value (:func:`_one`)."""
    return _one(kind(value))


def play(data: Any, engine: Engine, variants: tuple[Rules, ...]) -> None:
    """One Hanamikoji game, drawn by Hypothesis from ``data``, compared at every step."""
    from hanamikoji.engine.hanamikoji.game_type import GAME

    engine.ensure_started()
    play_drawn(HypothesisDraws(data), lambda rules, first: DiffGame(engine, GAME, rules, first),
               variants)


def play_drawn(draws: Draws, match_for: Callable[[Any, int], Any],
               variants: tuple[Rules, ...]) -> None:
    """One Hanamikoji game, its choices from ``draws``, compared at every step by the match
    ``match_for(rules, first_player)`` makes."""
    integer = draws.integer
    rules = choice(draws, variants)
    first = integer(0, 1)
    game = match_for(rules, first)
    # A planned game builds every round to end with a drawn marker row, mostly ties: double
    # finishes, old markers kept, and the Italian round limit come up far more often than in
    # uniform play. The other games deal uniformly and draw every decision.
    planned = integer(0, 1) == 1
    game.start()
    state = new_game(rules, first)
    plan: list[Decision] = []
    while True:
        with draws.step():  # a step is one unit to Hypothesis's shrinker
            game.compare(state)
            if state.phase is Phase.OVER or state.round >= MAX_ROUNDS:
                if state.phase is Phase.OVER and integer(0, 1) == 1:
                    game.probe(state, state.history[-1])
                return
            if state.phase is Phase.DEAL:
                if integer(0, 7) == 0:
                    bad = _deal(draws)
                    game.probe(state, Deal(bad.removed, bad.hands, (bad.removed,) + bad.draws[1:]))
                deal: Deal | None = None
                if planned:
                    deal, decisions = _planned_round(_target(draws),
                                                     state.starter)
                    plan = list(decisions)
                if deal is None:
                    deal = _deal(draws)
                state = game.send(state, deal)
                continue
            if integer(0, 3) == 0:
                game.probe(state, _probe(draws))
            if plan:
                decision = plan.pop(0)
            else:
                decision = choice(draws, legal_actions(state))
            state = game.send(state, decision)


def check_seeded_deals(argv: Sequence[str], timeout: float) -> Divergence | None:
    """DEAL-1 and reproducibility, in the request Hanamikoji adapters have always had:
    ``{"op": "random_deal", "seed": s}`` must give a deal of the 21 cards, the same one when
    asked again, and the same one in a second process (the core's check, :func:`check_seeded`,
    with Hanamikoji's words for it)."""
    from hanamikoji.engine.hanamikoji.game_type import GAME

    return check_seeded(GAME, GAME.configure(), argv, timeout,
                        request_for=lambda seed: {"op": "random_deal", "seed": seed},
                        outcome_of=lambda answer: {"deal": answer.get("deal")}, path="$",
                        noun="deal", short="deal")


#: The rule that decides each result's reason (END-3, END-4, VAR-IT-2..4).
_RESULT_RULES = {"geisha": "END-3", "charm": "END-3", "charm-over-geisha": "END-4",
                 "round-limit-charm": "VAR-IT-2", "round-limit-highest-geisha": "VAR-IT-3",
                 "shared": "VAR-IT-4"}


def rules_followed(state: Any, request: Any, reference: Any, other: Any) -> tuple[str, ...]:
    """The rule IDs the reference's answer follows where the other engine's differs, when the
    answer is who is to move or how the game ended (in ``current_player``, ``result`` or a
    view): who starts a round (SETUP-1, UPDATE-4), who moves within it (TURN-1, TURN-4), a
    round's deal (DEAL-1), the result's reason (END-3, END-4, VAR-IT-2..4). Nothing for the
    other answers: their rules are many and the message already says what differs."""
    op = request.get("op")
    if op == "current_player":
        return _who_moves(state)
    if op == "result":
        return _ended(state)
    if op != "observe" or not isinstance(reference, dict) or not isinstance(other, dict):
        return ()
    mine, theirs = reference.get("view"), other.get("view")
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return ()
    theirs = normal_view(theirs)
    differs = {key for key in mine if theirs.get(key, ...) != mine[key]}
    return (_who_moves(state) if "current_player" in differs
            else _ended(state) if "result" in differs else ())


def _who_moves(state: Any) -> tuple[str, ...]:
    if state.phase is Phase.DEAL:
        return ("DEAL-1",)
    if state.phase is Phase.RESPONSE:
        return ("TURN-4",)
    if state.phase is Phase.OVER:
        return _ended(state)
    if state.turn:
        return ("TURN-1",)
    return ("UPDATE-4",) if state.round else ("SETUP-1",)


def _ended(state: Any) -> tuple[str, ...]:
    result = state.result
    return () if result is None else (_RESULT_RULES[result.reason.value],)


class HanamikojiDiff(DiffExtension):
    """Hanamikoji's diff hooks: protocol 1's requests (an adapter written before the core
    needs no change), views with their multisets in the reference's order, seeded deals, and
    games of uniform and planned rounds."""

    normalises_views = True
    #: Some 300 games a second against the reference adapter (protocol 4): 25-game shards
    #: were mostly the start of their adapter.
    shard_size = 500

    def label(self, config: Rules) -> str:
        return config.name

    def new_game_request(self, config: Rules, first_player: int) -> dict[str, Any]:
        return {"op": "new_game", "variant": config.name, "first_player": first_player}

    def chance_request(self, outcome: Any) -> dict[str, Any]:
        return {"op": "deal", "deal": deal_json(outcome)}

    def normal_view(self, view: Any) -> Any:
        return normal_view(view)

    def rules_followed(self, state: Any, request: Any, reference: Any,
                       other: Any) -> tuple[str, ...]:
        return rules_followed(state, request, reference, other)

    def check_seeded(self, argv: Sequence[str], timeout: float,
                     configs: Sequence[Any] = ()) -> Divergence | None:
        return check_seeded_deals(argv, timeout)

    def play_drawn(self, draws: Any, match_for: Callable[[Any, int], Any],
                   configs: Sequence[Any]) -> None:
        play_drawn(draws, match_for, tuple(configs))


EXTENSION = HanamikojiDiff
