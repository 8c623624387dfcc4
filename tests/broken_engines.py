"""A catalogue of deliberately broken engines: each is the reference engine with one rule broken.

They exist to prove that the property suite bites (tests/test_broken_engines.py) and that the
differential harness reports a divergence. Each engine offers the engine protocol of
:mod:`hanamikoji.properties.hanamikoji.engine_api` (``new_game, apply, legal_actions, observe,
current_player, random_deal``) and is built here, in the tests, by wrapping or patching the
reference's public functions and values: the product has no flag that breaks a rule.

Load one in another process with ``PYTHONPATH=tests`` as ``broken_engines:NAME``: ``NAME`` is a
key of :data:`BROKEN` (``broken_engines:tie-moves-marker``, served by the module's
``__getattr__``) or the module attribute (``broken_engines:TIE_MOVES_MARKER``).

>>> sorted(BROKEN)[:3]
['action-twice', 'gift-gives-two', 'italian-limit-draw']
>>> BROKEN["same-starter"].rules
('UPDATE-4',)

This module imports neither pytest nor hypothesis, and nothing relative, so that it loads alone.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import attrs

import hanamikoji.engine.hanamikoji as ref
from hanamikoji.engine.hanamikoji import (
    ALL_KINDS,
    EMPTY,
    Cards,
    Deal,
    Gift,
    GiftPick,
    Phase,
    Reason,
    Result,
    RoundScore,
    Rules,
    State,
    View,
    action_menu,
    geisha_count,
)

__all__ = ["BrokenEngine", "BROKEN"]


@attrs.frozen(repr=False)
class BrokenEngine:
    """The reference engine with one rule broken: ``bug`` says how, ``rules`` which IDs."""

    name: str
    bug: str
    rules: tuple[str, ...]
    new_game: Callable[..., Any] = ref.new_game
    apply: Callable[[Any, Any], Any] = ref.apply
    legal_actions: Callable[[Any], tuple] = ref.legal_actions
    observe: Callable[[Any, int], Any] = ref.observe
    current_player: Callable[[Any], int] = ref.current_player
    random_deal: Callable[[random.Random], Deal] = ref.random_deal

    @property
    def engine_spec(self) -> str:
        """How :func:`hanamikoji.properties.hanamikoji.engine_api.load_engine` finds this engine."""
        return f"broken_engines:{self.name}"

    def __repr__(self) -> str:
        return f"BROKEN[{self.name!r}]"


# --- patching the scoring: one step of the reference, with the round's end redone here ----------

Score = Callable[[tuple, Cards, Cards], tuple]
Decide = Callable[[Rules, tuple, int], "Result | None"]
Patch = Callable[[State, Any, State], State]


def _reference_score(markers: tuple, side0: Cards, side1: Cards) -> tuple:
    return ref.score_markers(markers, side0, side1)


def _reference_decide(rules: Rules, markers: tuple, round_index: int) -> Result | None:
    return rules.round_result(markers, round_index)


def _unscored(state: State, decision: Any) -> State:
    """The state right after the round's last decision, before its scoring.

    The reference scores inside ``apply``; run the same step under a round limit of this round,
    which makes it stop at the scored state with every card still in place, then undo the scoring.
    """
    probe_rules = Rules(state.rules.name, max_rounds=state.round + 1)
    probe = ref.apply(attrs.evolve(state, rules=probe_rules), decision)
    return attrs.evolve(probe, rules=state.rules, phase=Phase.ACTION, markers=state.markers,
                        scores=state.scores, result=None)


def _add(a: Cards, b: Cards) -> Cards:
    return tuple(x + y for x, y in zip(a, b))


def _score(state: State, score: Score, decide: Decide, new_game: Callable[..., State]) -> State:
    """SCORE-1..3, END-1..4, VAR-IT-2..4, UPDATE-1..4 with the given (possibly broken) parts."""
    side0 = _add(state.sides[0], state.secrets[0])
    side1 = _add(state.sides[1], state.secrets[1])
    markers = score(state.markers, side0, side1)
    scores = state.scores + (RoundScore(state.round, (side0, side1), markers),)
    result = decide(state.rules, markers, state.round)
    if result is not None:
        return attrs.evolve(state, phase=Phase.OVER, markers=markers, scores=scores, result=result)
    fresh = new_game(state.rules, state.first_player)
    return attrs.evolve(fresh, round=state.round + 1, markers=markers, scores=scores,
                        history=state.history)


def _stepper(*, score: Score = _reference_score, decide: Decide = _reference_decide,
             patch: Patch | None = None,
             new_game: Callable[..., State] = ref.new_game) -> Callable[[State, Any], State]:
    """An ``apply`` that validates and moves like the reference, then patches the state after
    the decision (``patch``) and scores a finished round with ``score`` and ``decide``."""

    def apply(state: State, decision: Any) -> State:
        after = ref.apply(state, decision)  # the reference's checks: illegal stays illegal
        if len(after.scores) == len(state.scores):
            return after if patch is None else patch(state, decision, after)
        before_scoring = _unscored(state, decision)
        if patch is not None:
            before_scoring = patch(state, decision, before_scoring)
        return _score(before_scoring, score, decide, new_game)

    return apply


# --- SCORE-3: ties ----------------------------------------------------------------------------


def _ties_go_to_player_0(markers: tuple, side0: Cards, side1: Cards) -> tuple:
    # ">=" written for ">": every tie, even 0 against 0, hands the marker to player 0.
    return tuple(0 if a >= b else 1 for a, b in zip(side0, side1))


def _ties_clear_the_marker(markers: tuple, side0: Cards, side1: Cards) -> tuple:
    # A tie sends the marker back to the centre, forgetting who won it in an earlier round.
    return tuple(0 if a > b else 1 if b > a else None for a, b in zip(side0, side1))


#: SCORE-3 broken: a tie moves the marker (to player 0).
TIE_MOVES_MARKER = BrokenEngine(
    "tie-moves-marker", "a tie gives the geisha's marker to player 0 ('>=' for '>')",
    ("SCORE-3",), apply=_stepper(score=_ties_go_to_player_0))

#: SCORE-3, UPDATE-2 broken: a tie clears a marker won in an earlier round.
TIE_CLEARS_OLD_MARKER = BrokenEngine(
    "tie-clears-old-marker", "a tie puts the marker back in the centre, even one won earlier",
    ("SCORE-3", "UPDATE-2"), apply=_stepper(score=_ties_clear_the_marker))


# --- UPDATE-4: the starting player ------------------------------------------------------------
# Every engine starts round r with first_player when r is even (UPDATE-4). Hand the reference a
# state whose first_player is chosen so that this round's starter is the game's first player,
# and show the true first_player again on the way out.


def _as_reference(state: State) -> State:
    first = (state.first_player + state.round) % 2  # starts round r: (first + r) % 2 == player
    return state if first == state.first_player else attrs.evolve(state, first_player=first)


def _same_starter_apply(state: State, decision: Any) -> State:
    after = ref.apply(_as_reference(state), decision)
    return attrs.evolve(after, first_player=state.first_player)


def _same_starter_legal_actions(state: State) -> tuple:
    return ref.legal_actions(_as_reference(state))


def _same_starter_current_player(state: State) -> int:
    return ref.current_player(_as_reference(state))


def _same_starter_observe(state: State, player: int) -> View:
    return attrs.evolve(ref.observe(_as_reference(state), player), first_player=state.first_player)


#: UPDATE-4 broken: the same player starts every round.
SAME_STARTER = BrokenEngine(
    "same-starter", "the first player starts every round; the start never alternates",
    ("UPDATE-4",), apply=_same_starter_apply, legal_actions=_same_starter_legal_actions,
    current_player=_same_starter_current_player, observe=_same_starter_observe)


# --- END-4: a double finish -------------------------------------------------------------------


def _double_finish_to_geisha(rules: Rules, markers: tuple, round_index: int) -> Result | None:
    result = rules.round_result(markers, round_index)
    if result is not None and result.reason is Reason.CHARM_OVER_GEISHA:
        geisha_player = 0 if geisha_count(markers, 0) >= rules.geisha_goal else 1
        return Result(geisha_player, Reason.GEISHA)
    return result


def _double_finish_to_nobody(rules: Rules, markers: tuple, round_index: int) -> Result | None:
    result = rules.round_result(markers, round_index)
    if result is not None and result.reason is Reason.CHARM_OVER_GEISHA:
        return Result(None, Reason.SHARED)
    return result


#: END-4 broken: 4 geisha against 11 charm goes to the geisha player.
SIMULTANEOUS_TO_GEISHA = BrokenEngine(
    "simultaneous-to-geisha", "4 geisha against 11 charm is won by the geisha player",
    ("END-4",), apply=_stepper(decide=_double_finish_to_geisha))

#: END-4 broken: 4 geisha against 11 charm is won by nobody.
SIMULTANEOUS_TO_NOBODY = BrokenEngine(
    "simultaneous-to-nobody", "4 geisha against 11 charm ends with no winner",
    ("END-4",), apply=_stepper(decide=_double_finish_to_nobody))


# --- ACT-GIFT-2/3: the gift -------------------------------------------------------------------


def _gift_gives_two(before: State, decision: Any, after: State) -> State:
    if not isinstance(decision, GiftPick):
        return after
    gift = before.pending
    assert isinstance(gift, Gift)
    taker = ref.current_player(before)
    giver = 1 - taker
    kept = list(gift.cards)
    kept.remove(decision.card)
    extra = min(kept)  # the giver's side loses it, the taker's side gains it
    sides = [list(after.sides[0]), list(after.sides[1])]
    sides[giver][extra] -= 1
    sides[taker][extra] += 1
    return attrs.evolve(after, sides=(tuple(sides[0]), tuple(sides[1])))


#: ACT-GIFT-2, ACT-GIFT-3 broken: the opponent takes two cards of a gift.
GIFT_GIVES_TWO = BrokenEngine(
    "gift-gives-two", "the opponent of a gift takes the chosen card and one more",
    ("ACT-GIFT-2", "ACT-GIFT-3"), apply=_stepper(patch=_gift_gives_two))


# --- TURN-3: each action once per round -------------------------------------------------------


def _action_twice_legal_actions(state: State) -> tuple:
    if state.phase is not Phase.ACTION:
        return ref.legal_actions(state)
    return action_menu(state.hands[ref.current_player(state)], ALL_KINDS)


def _action_twice_apply(state: State, decision: Any) -> State:
    player = ref.current_player(state)
    kind = getattr(decision, "kind", None)
    if state.phase is not Phase.ACTION or kind not in state.used[player]:
        return ref.apply(state, decision)
    # Forget the earlier use for the check, then remember both uses.
    used = list(state.used)
    used[player] = tuple(k for k in used[player] if k is not kind)
    after = ref.apply(attrs.evolve(state, used=tuple(used)), decision)
    if len(after.scores) != len(state.scores):
        return after  # the round is over; markers are face up again
    used = list(after.used)
    used[player] = state.used[player] + (kind,)
    return attrs.evolve(after, used=tuple(used))


#: TURN-3 broken: an action whose marker is face down can be taken again.
ACTION_TWICE = BrokenEngine(
    "action-twice", "an action already taken this round can be taken again",
    ("TURN-3",), legal_actions=_action_twice_legal_actions, apply=_action_twice_apply)


# --- DEAL-2: the removed card -----------------------------------------------------------------


def _removed_card_returns(state: State, decision: Any) -> State:
    after = ref.apply(state, decision)
    if not isinstance(decision, Deal):
        return after
    # The removed card goes back under the deck and is drawn at turn 7 instead of the last draw.
    return attrs.evolve(after, deck=after.deck[:-1] + (decision.removed,))


#: DEAL-2 broken: the removed card comes back into play in the same round.
REMOVED_CARD_RETURNS = BrokenEngine(
    "removed-card-returns", "the removed card replaces the deck's last card and is drawn",
    ("DEAL-2", "DEAL-1"), apply=_removed_card_returns)


# --- INFO-2: views that leak ------------------------------------------------------------------


@attrs.frozen
class _ViewWithOpponentHand(View):
    opponent_hand: Cards = EMPTY


@attrs.frozen
class _ViewWithDeck(View):
    deck: tuple[int, ...] = ()


@attrs.frozen
class _ViewWithRemovedCard(View):
    removed: int | None = None


@attrs.frozen
class _ViewWithOpponentSecret(View):
    opponent_secret: Cards = EMPTY


def _fields(view: View) -> dict[str, Any]:
    return {f.name: getattr(view, f.name) for f in attrs.fields(View)}


def _observe_opponent_hand(state: State, player: int) -> View:
    view = ref.observe(state, player)
    return _ViewWithOpponentHand(**_fields(view), opponent_hand=state.hands[1 - player])


def _observe_deck(state: State, player: int) -> View:
    view = ref.observe(state, player)
    return _ViewWithDeck(**_fields(view), deck=state.deck)


def _observe_removed(state: State, player: int) -> View:
    view = ref.observe(state, player)
    return _ViewWithRemovedCard(**_fields(view), removed=state.removed)


def _observe_opponent_secret(state: State, player: int) -> View:
    view = ref.observe(state, player)
    return _ViewWithOpponentSecret(**_fields(view), opponent_secret=state.secrets[1 - player])


#: INFO-2, DEAL-3 broken: a player's view shows the opponent's hand.
VIEW_SHOWS_OPPONENT_HAND = BrokenEngine(
    "view-shows-opponent-hand", "observe() includes the opponent's hand",
    ("INFO-2", "DEAL-3"), observe=_observe_opponent_hand)

#: INFO-2, DEAL-4 broken: a player's view shows the deck in order.
VIEW_SHOWS_DECK = BrokenEngine(
    "view-shows-deck", "observe() includes the deck, in draw order",
    ("INFO-2", "DEAL-4"), observe=_observe_deck)

#: INFO-2, DEAL-2 broken: a player's view shows the removed card.
VIEW_SHOWS_REMOVED_CARD = BrokenEngine(
    "view-shows-removed-card", "observe() includes the removed card",
    ("INFO-2", "DEAL-2"), observe=_observe_removed)

#: ACT-SECRET-2 broken: a player's view shows the opponent's secret before scoring.
VIEW_SHOWS_OPPONENT_SECRET = BrokenEngine(
    "view-shows-opponent-secret", "observe() includes the opponent's secret card",
    ("ACT-SECRET-2", "INFO-2"), observe=_observe_opponent_secret)


# --- VAR-IT-2..4: the Italian round limit -----------------------------------------------------


def _limit_draws_on_equal_charm(rules: Rules, markers: tuple, round_index: int) -> Result | None:
    result = rules.round_result(markers, round_index)
    if result is not None and result.reason is Reason.ROUND_LIMIT_HIGHEST_GEISHA:
        return Result(None, Reason.SHARED)  # VAR-IT-3 skipped: equal charm is a draw
    return result


def _limit_breaks_ties_by_geisha_count(rules: Rules, markers: tuple,
                                       round_index: int) -> Result | None:
    result = rules.round_result(markers, round_index)
    if result is not None and result.reason in (Reason.ROUND_LIMIT_HIGHEST_GEISHA, Reason.SHARED):
        g0, g1 = geisha_count(markers, 0), geisha_count(markers, 1)
        if g0 != g1:  # more geisha wins, not the highest-valued geisha
            return Result(0 if g0 > g1 else 1, Reason.ROUND_LIMIT_HIGHEST_GEISHA)
        return Result(None, Reason.SHARED)
    return result


#: VAR-IT-3 broken: at the Italian limit, equal charm is a draw (no highest-geisha tiebreak).
ITALIAN_LIMIT_DRAW = BrokenEngine(
    "italian-limit-draw", "at the round limit, equal charm ends in a draw without the tiebreak",
    ("VAR-IT-3", "VAR-IT-4"), apply=_stepper(decide=_limit_draws_on_equal_charm))

#: VAR-IT-3 broken: at the Italian limit, equal charm goes to the player with more geisha.
ITALIAN_TIEBREAK_WRONG = BrokenEngine(
    "italian-tiebreak-wrong", "at the round limit, equal charm goes to the player with more geisha",
    ("VAR-IT-3",), apply=_stepper(decide=_limit_breaks_ties_by_geisha_count))


# --- reproducibility: the same seed, the same game ---------------------------------------------


def _deal_in_hash_order(rng: random.Random) -> Deal:
    # The cards are named and kept in a set, so the order before the shuffle is the order of
    # string hashes, which PYTHONHASHSEED changes from one process to the next.
    names = {f"geisha {g} card {i}" for g, n in enumerate(ref.FULL_DECK) for i in range(n)}
    cards = [int(name.split()[1]) for name in names]
    rng.shuffle(cards)
    return Deal(cards[0], (cards[1:7], cards[7:13]), cards[13:])


#: Reproducibility broken (no rule ID): the deal of a seed depends on the process's hash seed.
DEAL_DEPENDS_ON_HASH_SEED = BrokenEngine(
    "deal-depends-on-hash-seed", "random_deal shuffles a set of named cards: its order depends "
    "on PYTHONHASHSEED", (), random_deal=_deal_in_hash_order)


# --- chance: the shuffle (caught by diff's seeded-chance check and by audit) -------------------


def _swap_shuffled(rng: random.Random) -> list[int]:
    """The classic biased shuffle, from a sorted deck: every position swapped with any position
    (``randrange(n)``, not ``randrange(i, n)``), which gives n^n equally likely runs for n!
    orders, so some orders come more often than others."""
    deck = [g for g, n in enumerate(ref.FULL_DECK) for _ in range(n)]
    for i in range(len(deck)):
        j = rng.randrange(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _deal_of(deck: list[int]) -> Deal:
    return Deal(deck[0], (deck[1:7], deck[7:13]), deck[13:])


def biased_swap_deal(rng: random.Random) -> Deal:
    """DEAL-1 broken: the deck shuffled by :func:`_swap_shuffled`."""
    return _deal_of(_swap_shuffled(rng))


#: The one deal of the BUAA course's referee, which never shuffles: removed G, the hands
#: EEFFGG and DEFFGG, the draws D D C C B B A A.
COURSE_DEAL = Deal(6, ((4, 4, 5, 5, 6, 6), (3, 4, 5, 5, 6, 6)), (3, 3, 2, 2, 1, 1, 0, 0))


def never_shuffled_deal(rng: random.Random) -> Deal:
    """DEAL-1 broken: the random source is ignored; every round is the course's one deal."""
    return COURSE_DEAL


#: DEAL-1 broken: the deck is shuffled with the wrong swap (audit needs a few thousand rounds).
BIASED_SWAP_SHUFFLE = BrokenEngine(
    "biased-swap-shuffle", "random_deal shuffles a sorted deck by swapping each position with "
    "any position, not a uniform shuffle", ("DEAL-1",), random_deal=biased_swap_deal)

#: DEAL-1 broken: every seed gives the same deal.
DEAL_IGNORES_SEED = BrokenEngine(
    "deal-ignores-seed", "random_deal ignores its random source and returns one deal every "
    "time (the BUAA course's referee)", ("DEAL-1",), random_deal=never_shuffled_deal)


#: Every broken engine by name.
BROKEN: dict[str, BrokenEngine] = {
    engine.name: engine for engine in (
        TIE_MOVES_MARKER, TIE_CLEARS_OLD_MARKER, SAME_STARTER, SIMULTANEOUS_TO_GEISHA,
        SIMULTANEOUS_TO_NOBODY, GIFT_GIVES_TWO, ACTION_TWICE, REMOVED_CARD_RETURNS,
        VIEW_SHOWS_OPPONENT_HAND, VIEW_SHOWS_DECK, VIEW_SHOWS_REMOVED_CARD,
        VIEW_SHOWS_OPPONENT_SECRET, ITALIAN_LIMIT_DRAW, ITALIAN_TIEBREAK_WRONG,
        DEAL_DEPENDS_ON_HASH_SEED, BIASED_SWAP_SHUFFLE, DEAL_IGNORES_SEED)
}


def __getattr__(name: str) -> BrokenEngine:
    """``broken_engines:NAME`` with a kebab-case ``NAME`` from :data:`BROKEN` (PEP 562)."""
    try:
        return BROKEN[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


# --- two defects in one engine, for `check` (not in BROKEN: each of those breaks one rule) ----


def _limit_draws_on_more_charm(rules: Rules, markers: tuple, round_index: int) -> Result | None:
    result = rules.round_result(markers, round_index)
    if result is not None and result.reason is Reason.ROUND_LIMIT_CHARM:
        return Result(None, Reason.SHARED)  # VAR-IT-2 skipped: more charm does not win
    return result


_limit_draw_apply = _stepper(decide=_limit_draws_on_more_charm)


def _second_starts_again(state: State) -> State:
    """UPDATE-4 broken only when player 1 begins the game: then player 1 starts every round."""
    return state if state.first_player == 0 else _as_reference(state)


def _two_defects_apply(state: State, decision: Any) -> State:
    after = _limit_draw_apply(_second_starts_again(state), decision)
    return attrs.evolve(after, first_player=state.first_player)


def _two_defects_legal_actions(state: State) -> tuple:
    return ref.legal_actions(_second_starts_again(state))


def _two_defects_current_player(state: State) -> int:
    return ref.current_player(_second_starts_again(state))


def _two_defects_observe(state: State, player: int) -> View:
    return attrs.evolve(ref.observe(_second_starts_again(state), player),
                        first_player=state.first_player)


#: UPDATE-4 and VAR-IT-2 broken together, as in the TypeScript engine of issue 34: when the
#: second player begins the game, the second player also starts round 2; and after the Italian
#: variant's last round the player with more charm does not win (a draw). ``check`` must report
#: both, each with its reproduction.
TWO_DEFECTS = BrokenEngine(
    "two-defects", "when player 1 begins, player 1 starts every round (UPDATE-4); at the "
    "Italian round limit more charm is a draw (VAR-IT-2)", ("UPDATE-4", "VAR-IT-2"),
    apply=_two_defects_apply, legal_actions=_two_defects_legal_actions,
    current_player=_two_defects_current_player, observe=_two_defects_observe)
