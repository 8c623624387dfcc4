"""Hanamikoji's part of ``hanamikoji diff``: how the harness plays a Hanamikoji game (uniform
and planned rounds, probes of forbidden decisions), the order-free parts of its view, and the
check of seeded deals. The core's harness (:mod:`hanamikoji.oracle.core.diff`) reaches these
through :data:`EXTENSION`, this game's diff hooks."""

from __future__ import annotations

import functools
from typing import Any, Sequence

from hanamikoji.oracle.core.diff import (DiffExtension, DiffGame, Divergence, Engine, check_seeded,
                                        drawing)
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


# --- Hypothesis: games ----------------------------------------------------------------------


@functools.cache
def _strategies() -> Any:
    """Made once: Hypothesis reads the source of a strategy's lambdas to describe it, which
    cost more than a short game when the strategies were made again for every game."""
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
    from hanamikoji.engine.hanamikoji.construct import round_for_sides
    from hanamikoji.oracle.hanamikoji.vectors import IntentError, sides_for

    st, deals, targets, probes = _strategies()
    engine.ensure_started()
    draw = drawing(data)
    rules = draw(st.sampled_from(variants), label="variant")
    first = draw(st.integers(0, 1), label="first_player")
    from hanamikoji.engine.hanamikoji.game_type import GAME

    game = DiffGame(engine, GAME, rules, first)
    # A planned game builds every round to end with a drawn marker row, mostly ties: double
    # finishes, old markers kept, and the Italian round limit come up far more often than in
    # uniform play. The other games deal uniformly and draw every decision.
    planned = draw(st.booleans(), label="planned game")
    game.start()
    state = new_game(rules, first)
    plan: list[Decision] = []
    while True:
        game.compare(state)
        if state.phase is Phase.OVER or state.round >= MAX_ROUNDS:
            if state.phase is Phase.OVER and draw(st.booleans(), label="probe the end"):
                game.probe(state, state.history[-1])
            return
        if state.phase is Phase.DEAL:
            if draw(st.integers(0, 7), label="probe a bad deal") == 0:
                deal = draw(deals)
                game.probe(state, Deal(deal.removed, deal.hands, (deal.removed,) + deal.draws[1:]))
            deal = None
            if planned:
                target = draw(targets, label="marker row")
                try:
                    sides = sides_for(state.markers, target)
                except IntentError:  # one player wins and the other nothing: every geisha ties
                    sides = sides_for(state.markers, "=" * C.NUM_GEISHA)
                deal, decisions = round_for_sides(*sides, starter=state.starter)
                plan = list(decisions)
            if deal is None:
                deal = draw(deals, label="deal")
            state = game.send(state, deal)
            continue
        if draw(st.integers(0, 3), label="probe") == 0:
            game.probe(state, draw(probes, label="forbidden decision"))
        if plan:
            decision = plan.pop(0)
        else:
            decision = draw(st.sampled_from(legal_actions(state)), label="decision")
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


class HanamikojiDiff(DiffExtension):
    """Hanamikoji's diff hooks: protocol 1's requests (an adapter written before the core
    needs no change), views with their multisets in the reference's order, seeded deals, and
    games of uniform and planned rounds."""

    normalises_views = True

    def label(self, config: Rules) -> str:
        return config.name

    def new_game_request(self, config: Rules, first_player: int) -> dict[str, Any]:
        return {"op": "new_game", "variant": config.name, "first_player": first_player}

    def chance_request(self, outcome: Any) -> dict[str, Any]:
        return {"op": "deal", "deal": deal_json(outcome)}

    def normal_view(self, view: Any) -> Any:
        return normal_view(view)

    def check_seeded(self, argv: Sequence[str], timeout: float,
                     configs: Sequence[Any] = ()) -> Divergence | None:
        return check_seeded_deals(argv, timeout)

    def play(self, data: Any, engine: Engine, configs: Sequence[Any]) -> None:
        play(data, engine, tuple(configs))


EXTENSION = HanamikojiDiff
