"""The fast paths of the engines agree with their plain immutable references at every step.

Hanamikoji plays random games and record replays in one mutable
:class:`~hanamikoji.engine.hanamikoji.game.Draft`; its reference is the immutable ``apply``.

Maiko plays a whole game in one mutable :class:`~hanamikoji.engine.maiko.game.Draft` (random
games, record replays) with an incremental index of the face-down spaces; its reference
(:mod:`hanamikoji.engine.maiko.reference`) copies the state at every decision and rescans every
space. On games drawn by Hypothesis (2, 3 and 4 players, uniform play or play that makes pairs so
that boards fill, rows and columns complete and the last turns are reached), every step must give
the same state, the same legal decisions, the same views and the same result, and a decision
the rules refuse must be refused with the same error and leave the draft as it was. Hanamikoji's
view text, which the oracle builds from the texts of the view's parts, is the codec's JSON of the
view, byte for byte.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.engine.core.codec import dumps
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.hanamikoji import codec as hk_codec
from hanamikoji.engine.hanamikoji import cards as hk_cards
from hanamikoji.engine.hanamikoji import game as hk
from hanamikoji.engine.hanamikoji.actions import ALL_KINDS, CompetitionPick, GiftPick
from hanamikoji.engine.hanamikoji.record import read_record as hk_read_record
from hanamikoji.engine.hanamikoji.record import to_record as hk_to_record
from hanamikoji.engine.hanamikoji.rules import PRESETS
from hanamikoji.engine.maiko import GAME as MAIKO
from hanamikoji.engine.maiko import game as fast
from hanamikoji.engine.maiko import reference
from hanamikoji.engine.maiko.components import Config, PLAYER_COUNTS
from hanamikoji.engine.maiko.record import read_record, to_record
from hanamikoji.engine.maiko.view import observe
from hanamikoji.oracle.maiko.diff import plan as pair_plan
from hanamikoji.properties.core.cite import checks

#: Decisions of every kind, legal or not, tried against both paths.
_ANY_DECISION = (fast._FLIPS + fast._DANNAS + fast._LOOKS + sum(fast._OKASANS, ()) + fast._SABANTOS
                 + sum(fast._SWEEPS, ()) + (fast._STOP, fast._END_TURN))


def _outcome(play, *args):
    """What a transition gives: its state, or the error it raises (type, message, rule)."""
    try:
        return play(*args), None
    except GameError as error:
        return None, (type(error), error.message, error.rule)


def _scanned_down(state: fast.State) -> list[int]:
    return [s for s, v in enumerate(state.spaces) if v == fast.DOWN]


@checks("MK-TUTOR-3", "MK-END-4", "MK-STATIC-2")
@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), first=st.integers(0, 3), seed=st.integers(0, 2**32),
       pairs=st.booleans(), probes=st.integers(1, 8))
def test_maiko_draft_agrees_with_the_reference_at_every_step(players, first, seed, pairs, probes):
    """Same states, legal decisions (MK-TUTOR-3: the menu of visits), views and results (MK-END-4,
    MK-STATIC-2 among the ends) along a whole game; refusals identical and harmless."""
    config = Config.make(players)
    first %= players
    rng = random.Random(seed)
    state = fast.new_game(config, first)
    draft = fast.Draft.of(state)
    layout = fast.random_layout(config, rng)
    state = reference.apply(state, layout)
    draft.play(layout)
    step = 0
    while True:
        frozen = draft.freeze()
        assert frozen == state
        assert draft.down == _scanned_down(state)
        menu = reference.legal_actions(state)
        assert tuple(draft.legal()) == menu == fast.legal_actions(state)
        if menu:
            assert draft.choose(random.Random(step)) == random.Random(step).choice(menu)
        if step % 50 == 0 or not menu:
            for player in range(players):
                assert observe(frozen, player) == observe(state, player)
        if not menu:
            break
        for _ in range(probes if step % 7 == 0 else 0):
            probe = rng.choice(_ANY_DECISION)
            expected = _outcome(reference.apply, state, probe)
            assert _outcome(fast.apply, state, probe) == expected
            if expected[1] is not None:
                before = draft.freeze()
                assert _outcome(draft.play, probe)[1] == expected[1]
                assert draft.freeze() == before and draft.down == _scanned_down(before)
        decision = (pairs and pair_plan(state)) or rng.choice(menu)
        state = reference.apply(state, decision)
        draft.play(decision)
        step += 1
    assert state.result is not None and draft.result == state.result
    assert read_record(to_record(state)) == state


@checks("MK-SETUP-5")
@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), first=st.integers(0, 3), seed=st.integers(0, 2**32),
       limit=st.none() | st.integers(0, 400))
def test_maiko_random_game_is_the_generic_loop_over_the_reference(players, first, seed, limit):
    """MK-SETUP-5: the one-draft random game draws the same layout and the same decisions from
    the same ``rng`` as the core's loop over the reference's apply, so simulate's games (and their
    records) are the same."""
    config = Config.make(players)
    first %= players
    expected = fast.new_game(config, first)
    rng = random.Random(seed)
    expected = reference.apply(expected, fast.random_layout(config, rng))
    count = 1
    while expected.result is None and (limit is None or count < limit):
        expected = reference.apply(expected, rng.choice(reference.legal_actions(expected)))
        count += 1
    if limit == 0:
        expected = fast.new_game(config, first)
    assert MAIKO.random_game(random.Random(seed), config, first, limit) == expected


# --- Hanamikoji -----------------------------------------------------------------------------

#: Every action of any hand, every answer to any offer: tried against both paths.
_HK_ANY = (hk.action_menu(hk_cards.FULL_DECK, ALL_KINDS)
           + tuple(GiftPick(g) for g in hk_cards.GEISHA)
           + tuple(CompetitionPick(p) for p in hk_cards.sub_multisets(hk_cards.FULL_DECK, 2)))


@checks("TURN-3", "ACT-GIFT-2", "ACT-COMP-2", "DEAL-1", "END-2")
@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(PRESETS)), first=st.integers(0, 1),
       seed=st.integers(0, 2**32), probes=st.integers(1, 6))
def test_hanamikoji_draft_agrees_with_apply_at_every_step(variant, first, seed, probes):
    """The one-draft path of random games and record replays against the immutable ``apply``:
    the same states, legal decisions (TURN-3, ACT-GIFT-2, ACT-COMP-2), views (and their text, the
    quick one against the codec's) and result, and the same refusals (DEAL-1, END-2 among
    them), leaving the draft as it was."""
    rules = PRESETS[variant]
    rng = random.Random(seed)
    state = hk.new_game(rules, first)
    draft = hk.Draft.of(state)
    while True:
        frozen = draft.freeze()
        assert frozen == state
        menu = hk.legal_actions(state)
        assert draft.legal() == menu
        for player in (0, 1):
            view = hk.observe(frozen, player)
            assert view == hk.observe(state, player)
            # the text the oracle compares, from its parts' texts, is the codec's text
            assert hk_codec.view_text(view) == dumps(hk_codec.view_json(view))
        pool = _HK_ANY + (hk.random_deal(rng),)
        for _ in range(probes):
            probe = rng.choice(pool)
            expected = _outcome(hk.apply, state, probe)
            if expected[1] is not None:
                assert _outcome(draft.play, probe)[1] == expected[1]
                assert draft.freeze() == frozen
        if state.phase is hk.Phase.OVER:
            break
        decision = hk.random_deal(rng) if state.phase is hk.Phase.DEAL else rng.choice(menu)
        state = hk.apply(state, decision)
        draft.play(decision)
    assert state.result is not None and draft.result == state.result
    assert hk_read_record(hk_to_record(state)) == state
    assert hk.random_game(random.Random(seed), rules, first) == _plain_random_game(seed, rules, first)


def _plain_random_game(seed: int, rules, first: int) -> hk.State:
    """The random game as the immutable path plays it (the same draws from the same seed)."""
    rng = random.Random(seed)
    state = hk.new_game(rules, first)
    while state.phase is not hk.Phase.OVER:
        if state.phase is hk.Phase.DEAL:
            state = hk.apply(state, hk.random_deal(rng))
        else:
            state = hk.apply(state, rng.choice(hk.legal_actions(state)))
    return state


_JSON_VALUES = (st.none() | st.booleans() | st.integers(-2, 90) | st.floats(allow_nan=False)
                | st.sampled_from(["flip", "danna", "one-san", "one-san-stop", "end-turn", "sweep",
                                   "sabanto", "oka-san", "layout", "white", "pink", "Pink",
                                   "GREEN", "purple", "", "friend"])
                | st.lists(st.integers(0, 3), max_size=2))


@checks("MK-COMP-5")
@settings(max_examples=300, deadline=None)
@given(obj=st.dictionaries(st.sampled_from(["kind", "space", "item", "colour", "owner", "tiles",
                                            "x"]), _JSON_VALUES, max_size=4)
       | _JSON_VALUES)
def test_maiko_decisions_parse_the_same_by_the_quick_and_the_checked_path(obj):
    """MK-COMP-5 (spaces in range) and the rest of a decision's JSON: the quick lookup of
    decisions in their usual form gives what the checked path gives, and anything else is
    refused with the checked path's error."""
    from hanamikoji.engine.maiko import record

    assert _outcome(record.decision_from_json, obj) == _outcome(record._checked_decision, obj, "$")


@checks("DEAL-1")
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), shuffle=st.booleans())
def test_hanamikoji_checked_deals_are_the_deals_the_converters_build(seed, shuffle):
    """DEAL-1: a deal a record reader has checked, built without the converters, is equal to
    (and hashes as, and writes as) the deal the public constructor builds."""
    from hanamikoji.engine.hanamikoji.actions import Deal

    rng = random.Random(seed)
    deal = hk.random_deal(rng)
    hands = [list(hand) for hand in deal.hands]
    if shuffle:
        for hand in hands:
            rng.shuffle(hand)
    built = Deal(deal.removed, hands, list(deal.draws))
    checked = Deal.checked(deal.removed, hands, list(deal.draws))
    assert checked == built and hash(checked) == hash(built) and repr(checked) == repr(built)


_HK_TURN_VALUES = (st.none() | st.booleans() | st.integers(-1, 8) | st.sampled_from([0.0, 1.0, 2.5])
                   | st.sampled_from(["secret", "trade-off", "gift", "competition", "Gift", ""])
                   | st.lists(st.integers(-1, 7) | st.booleans() | st.just(3.0), max_size=5)
                   | st.lists(st.lists(st.integers(0, 7) | st.booleans(), max_size=3), max_size=3))


@st.composite
def _hk_turns(draw):
    """Turn objects near the shapes of the record: mostly the four actions with their keys, with
    any JSON values where numbers and card lists go."""
    action = draw(st.sampled_from(["secret", "trade-off", "gift", "competition"]))
    size = {"secret": 1, "trade-off": 2, "gift": 3, "competition": 4}[action]
    cards = st.lists(st.integers(0, 6), min_size=size, max_size=size)
    turn = {"player": draw(st.integers(0, 1)), "action": action}
    if action == "competition":
        turn["sets"] = [list(pair) for pair in draw(st.tuples(
            st.lists(st.integers(0, 6), min_size=2, max_size=2),
            st.lists(st.integers(0, 6), min_size=2, max_size=2)))]
        turn["pick"] = draw(st.integers(0, 1))
    else:
        turn["cards"] = draw(cards)
        if action == "gift":
            turn["pick"] = draw(st.sampled_from(turn["cards"]))
    for key in draw(st.lists(st.sampled_from(["player", "action", "cards", "sets", "pick", "x"]),
                             max_size=2)):
        if draw(st.booleans()):
            turn.pop(key, None)
        else:
            turn[key] = draw(_HK_TURN_VALUES)
    return turn


@checks("COMP-2")
@settings(max_examples=300, deadline=None)
@given(obj=_hk_turns() | _HK_TURN_VALUES)
def test_hanamikoji_turns_parse_the_same_looked_up_and_checked(obj):
    """COMP-2 (cards are geisha numbers) and the rest of a turn's shape: a turn looked up among
    those already parsed gives what the checked path gives, the first time and the next, and
    anything else is refused with the checked path's error and JSON path."""
    from hanamikoji.engine.hanamikoji import record

    def outcome(parse, *args):
        try:
            return parse(*args), None
        except record.MalformedRecordError as error:
            return None, (str(error), error.path)

    expected = outcome(record._checked_turn, obj, "$.rounds[0].turns[3]")
    assert outcome(record._parse_turn, obj, "$.rounds[0]", 3) == expected
    assert outcome(record._parse_turn, obj, "$.rounds[0]", 3) == expected


def test_hanamikoji_view_text_of_other_values_is_the_codecs():
    """A view that is not the engine's own (a bool where a number goes, a subclass with a field
    of its own) gets the codec's text too, not a text kept for an equal value."""
    import attrs

    from hanamikoji.engine.hanamikoji import View

    state = hk.random_game(random.Random(3), PRESETS["standard"], 0)
    view = hk.observe(state, 1)
    assert hk_codec.view_text(view) == dumps(hk_codec.view_json(view))

    @attrs.frozen
    class Wider(View):
        peek: int = 7

    hk_codec.view_text(attrs.evolve(view, markers=(1,) * 7))  # an equal row's text, kept
    odd = [attrs.evolve(view, player=True), attrs.evolve(view, markers=(True,) * 7),
           Wider(**attrs.asdict(view, recurse=False))]
    for other in odd:
        assert hk_codec.view_text(other) == dumps(hk_codec.view_json(other))
