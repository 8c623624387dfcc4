"""Hanamikoji's part of ``hanamikoji diff``: how the harness plays a Hanamikoji game (uniform
and planned rounds, probes of forbidden decisions), the order-free parts of its view, and the
check of seeded deals. The core's harness (:mod:`hanamikoji.engine.core.diff`) reaches these
through the game's optional methods."""

from __future__ import annotations

from typing import Any, Sequence

from ..core.diff import Divergence, Engine, EngineFailure, DiffGame
from ..core.protocol import MalformedJSONError, dumps
from . import cards as C
from .actions import (
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
from .errors import HanamikojiError
from .game import Phase, apply, legal_actions, new_game
from .protocol import decision_json, parse_decision
from .rules import PRESETS, Rules

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
        out["sets"] = sorted(sets) if all(isinstance(s, list) for s in sets) else sets
    if isinstance(out.get("pick"), list):
        out["pick"] = _sorted(out["pick"])
    return out


# --- Hypothesis: games ----------------------------------------------------------------------


def _strategies() -> Any:
    from hypothesis import strategies as st

    deck = C.cards_of(C.FULL_DECK)
    deals = st.permutations(deck).map(
        lambda cards: Deal(cards[0], (cards[1:7], cards[7:13]), cards[13:]))
    targets = st.lists(st.sampled_from("==01"), min_size=C.NUM_GEISHA,
                       max_size=C.NUM_GEISHA).map("".join)
    pairs = st.tuples(st.integers(0, 6), st.integers(0, 6))
    probes = st.one_of(
        st.builds(Secret, st.integers(0, 6)),
        st.builds(TradeOff, st.lists(st.integers(0, 6), min_size=2, max_size=2)),
        st.builds(Gift, st.lists(st.integers(0, 6), min_size=3, max_size=3)),
        st.builds(Competition, st.tuples(pairs, pairs)),
        st.builds(GiftPick, st.integers(0, 6)),
        st.builds(CompetitionPick, pairs),
    )
    return st, deals, targets, probes


def play(data: Any, engine: Engine, variants: tuple[Rules, ...]) -> None:
    """One Hanamikoji game, drawn by Hypothesis from ``data``, compared at every step."""
    from .construct import round_for_sides
    from .vectors import IntentError, sides_for

    st, deals, targets, probes = _strategies()
    engine.ensure_started()
    rules = data.draw(st.sampled_from(variants), label="variant")
    first = data.draw(st.integers(0, 1), label="first_player")
    from .game_type import GAME

    game = DiffGame(engine, GAME, rules, first)
    # A planned game builds every round to end with a drawn marker row, mostly ties: double
    # finishes, old markers kept, and the Italian round limit come up far more often than in
    # uniform play. The other games deal uniformly and draw every decision.
    planned = data.draw(st.booleans(), label="planned game")
    game.start()
    state = new_game(rules, first)
    plan: list[Decision] = []
    while True:
        game.compare(state)
        if state.phase is Phase.OVER or state.round >= MAX_ROUNDS:
            if state.phase is Phase.OVER and data.draw(st.booleans(), label="probe the end"):
                game.probe(state, state.history[-1])
            return
        if state.phase is Phase.DEAL:
            if data.draw(st.integers(0, 7), label="probe a bad deal") == 0:
                deal = data.draw(deals)
                game.probe(state, Deal(deal.removed, deal.hands, (deal.removed,) + deal.draws[1:]))
            deal = None
            if planned:
                target = data.draw(targets, label="marker row")
                try:
                    sides = sides_for(state.markers, target)
                except IntentError:  # one player wins and the other nothing: every geisha ties
                    sides = sides_for(state.markers, "=" * C.NUM_GEISHA)
                deal, decisions = round_for_sides(*sides, starter=state.starter)
                plan = list(decisions)
            if deal is None:
                deal = data.draw(deals, label="deal")
            state = game.send(state, deal)
            continue
        if data.draw(st.integers(0, 3), label="probe") == 0:
            game.probe(state, data.draw(probes, label="forbidden decision"))
        if plan:
            decision = plan.pop(0)
        else:
            decision = data.draw(st.sampled_from(legal_actions(state)), label="decision")
        state = game.send(state, decision)


#: The seeds of the check of seeded deals.
DEAL_SEEDS = (0, 1, 2, 3)


def check_seeded_deals(argv: Sequence[str], timeout: float) -> Divergence | None:
    """DEAL-1 and reproducibility: the optional request ``{"op": "random_deal", "seed": s}``
    must give a deal of the 21 cards, the same one when asked again, and the same one in a
    second process of the engine. The two processes get different ``PYTHONHASHSEED`` values, so
    that a deal that depends on hash order (a set iterated, say) shows. The deals are not
    compared with the reference's: each engine may have its own random source. An engine that
    answers the first request with an error does not offer seeded deals: nothing is checked."""
    engines = [Engine(argv, timeout, env={"PYTHONHASHSEED": str(n)}) for n in (1, 2)]

    def fail(request: Any, reference: Any, other: Any, message: str) -> Divergence:
        return Divergence(None, None, (), request, reference, other, message)

    try:
        for engine in engines:
            engine.ensure_started()
        for seed in DEAL_SEEDS:
            request = {"op": "random_deal", "seed": seed}
            answers = []
            for engine in (engines[0], engines[1], engines[0]):
                try:
                    answers.append(engine.request(request))
                except EngineFailure as failure:
                    return fail(request, None, None, failure.message)
            first = answers[0]
            if isinstance(first, dict) and "error" in first and seed == DEAL_SEEDS[0]:
                return None
            try:
                deal = parse_decision({"deal": first.get("deal")}, "$")
                apply(new_game(), deal)
            except (AttributeError, MalformedJSONError, HanamikojiError) as error:
                return fail(request, None, first, f"random_deal does not give a legal deal: {error}")
            if dumps(answers[2]) != dumps(first):
                return fail(request, first, answers[2], f"random_deal of seed {seed} gives "
                            "another deal when asked again")
            if dumps(answers[1]) != dumps(first):
                return fail(request, first, answers[1], f"random_deal of seed {seed} gives "
                            "different deals in two processes (PYTHONHASHSEED 1 and 2): the "
                            "deal depends on something besides the seed")
    finally:
        for engine in engines:
            engine.stop()
    return None


