"""Canonical JSON forms of single decisions, deals, views and results, for the oracle's tools.

A record (:mod:`.record`) writes a whole game. The oracle also speaks of one decision at a time
(the ``diff`` protocol, the conformance vectors, ``perft --divide``) and of what one player sees,
so it needs JSON forms for those. The shapes follow the record format: a card is a geisha number
0..6, a multiset of cards is a sorted list. Each decision has exactly one key that says what it is:

* a deal: ``{"deal": {"removed": g, "hands": [[6 cards], [6 cards]], "draws": [8 cards]}}``;
* an action: ``{"action": "secret" | "trade-off" | "gift", "cards": [...]}`` or
  ``{"action": "competition", "sets": [[g, g], [g, g]]}``;
* an answer: ``{"response": "gift", "pick": g}`` (the geisha taken) or
  ``{"response": "competition", "pick": [g, g]}`` (the set taken).

Every form written here is canonical: cards sorted, a competition's sets each sorted and the two
in sorted order, so equal values give equal text under :func:`dumps`. Reading is lenient about
order (the decision constructors sort) and strict about everything else; a fault raises
:class:`MalformedJSONError` with the JSON path.

>>> from .actions import Competition
>>> decision_json(Competition(((6, 0), (3, 1))))
{'action': 'competition', 'sets': [[0, 6], [1, 3]]}
>>> parse_decision({"response": "gift", "pick": 4})
GiftPick(card=4)
>>> dumps({"b": [1], "a": None})
'{"a":null,"b":[1]}'
"""

from __future__ import annotations

import enum
import json
import operator
from typing import Any

import attrs

from hanamikoji.engine.core import codec as _core
from hanamikoji.engine.core import game as _game
from hanamikoji.engine.hanamikoji import cards as C
from hanamikoji.engine.hanamikoji.actions import (
    ALL_KINDS,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
    deal_json as deal_json,  # the codec's, written beside the decisions
    decision_json,
)
from hanamikoji.engine.hanamikoji.game import (Phase, State, View, _round_decisions,
                                              current_player, observed_turn)
from hanamikoji.engine.hanamikoji.rules import Reason, Result


# The core's, shared by every game's codecs.
MalformedJSONError = _core.MalformedJSONError
dumps = _core.dumps


# --- writing -------------------------------------------------------------------------------


def cards_json(multiset: C.Cards) -> list[int]:
    """A multiset (counts per geisha) as its sorted list of geisha numbers."""
    return list(C.cards_of(multiset))


def decision_text(decision: Decision) -> str:
    """A short human form: ``gift 0 2 6``, ``competition 0 1 | 5 6``, ``take 3``, ``take 5 6``."""
    if isinstance(decision, Deal):
        return (f"deal removed {decision.removed}, hands {' '.join(map(str, decision.hands[0]))}"
                f" / {' '.join(map(str, decision.hands[1]))}, draws "
                + " ".join(map(str, decision.draws)))
    if isinstance(decision, Competition):
        a, b = decision.pairs
        return f"competition {a[0]} {a[1]} | {b[0]} {b[1]}"
    if isinstance(decision, (Secret, TradeOff, Gift)):
        return f"{decision.kind.value} " + " ".join(map(str, decision.cards))
    if isinstance(decision, GiftPick):
        return f"take {decision.card}"
    if isinstance(decision, CompetitionPick):
        return f"take {decision.pair[0]} {decision.pair[1]}"
    raise TypeError(f"not a decision: {_core.value_text(decision)}")


def result_json(result: Result | None) -> dict[str, Any] | None:
    """``{"winner": 0 | 1 | null, "reason": ...}``, or None while the game goes on."""
    if result is None:
        return None
    return {"winner": result.winner, "reason": result.reason.value}


player_json = _game.player_json


def _generic(value: Any) -> Any:
    """Plain JSON for a value of unknown meaning (a field the reference view does not have)."""
    if isinstance(value, enum.Enum):
        return value.value
    if attrs.has(type(value)):
        return {f.name: _generic(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [_generic(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _generic(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _log_entry(entry: Any) -> dict[str, Any]:
    kind = ActionKind(entry.kind)
    out: dict[str, Any] = {"player": entry.player, "action": kind.value}
    if kind is ActionKind.COMPETITION:
        out["sets"] = None if entry.cards is None else [sorted(p) for p in sorted(entry.cards)]
    else:
        out["cards"] = None if entry.cards is None else sorted(entry.cards)
    if kind in (ActionKind.GIFT, ActionKind.COMPETITION):
        pick = entry.pick
        out["pick"] = pick if pick is None or isinstance(pick, int) else sorted(pick)
    return out


#: The keys of a view's JSON form, from the reference :class:`~hanamikoji.engine.View`.
VIEW_FIELDS = ("player", "variant", "first_player", "round", "phase", "turn", "current_player",
               "markers", "hand", "secret", "trade_off", "sides", "used", "pending",
               "opponent_hand_size", "opponent_secret_size", "opponent_trade_off_size",
               "deck_size", "log", "scores", "result")


def view_json(view: Any) -> dict[str, Any]:
    """INFO-1: the canonical JSON form of what a player sees (an engine ``View``).

    Any attribute beyond the reference view's is written too, as plain JSON under its own name:
    a view that shows more than the rules allow (INFO-2) must not hide it from a comparison.
    """
    out: dict[str, Any] = {
        "player": view.player,
        "variant": view.rules.name,
        "first_player": view.first_player,
        "round": view.round,
        "phase": Phase(view.phase).value,
        "turn": view.turn,
        "current_player": player_json(view.current_player),
        "markers": list(view.markers),
        "hand": cards_json(view.hand),
        "secret": cards_json(view.secret),
        "trade_off": cards_json(view.trade_off),
        "sides": [cards_json(view.sides[0]), cards_json(view.sides[1])],
        "used": [[k.value for k in ALL_KINDS if k in view.used[p]] for p in (0, 1)],
        "pending": None if view.pending is None else decision_json(view.pending),
        "opponent_hand_size": view.opponent_hand_size,
        "opponent_secret_size": view.opponent_secret_size,
        "opponent_trade_off_size": view.opponent_trade_off_size,
        "deck_size": view.deck_size,
        "log": [_log_entry(e) for e in view.log],
        "scores": [{"round": s.round, "sides": [cards_json(s.sides[0]), cards_json(s.sides[1])],
                    "markers": list(s.markers)} for s in view.scores],
        "result": result_json(view.result),
    }
    known = {"rules", *VIEW_FIELDS}
    names = ([f.name for f in attrs.fields(type(view))] if attrs.has(type(view))
             else sorted(vars(view)))
    for name in names:
        if name not in known:
            out[name] = _generic(getattr(view, name))
    return out


def view_text(view: Any) -> str:
    """``dumps(view_json(view))``, byte for byte, built from the texts of its parts.

    The oracle renders every player's view at every step, in the harness and in the reference
    adapter alike. A view's parts repeat from step to step and game to game (a hand, a marker
    row, a turn of the log), so the text of each part is kept, by its value, the first time it
    is written by :func:`view_json`'s own code; a view is then its keys, in sorted order, and
    those texts. Anything but the engine's own :class:`View` (a subclass, with fields of its
    own) is written by :func:`view_json`. ``tests/properties/test_fast_engines.py`` checks the
    two texts are the same on drawn games."""
    if type(view) is not View:
        return dumps(view_json(view))
    numbers = (view.deck_size, view.first_player, view.opponent_hand_size,
               view.opponent_secret_size, view.opponent_trade_off_size, view.player,
               view.round, view.turn)
    if not all(type(n) is int for n in numbers):  # bools and others: JSON's own text
        return dumps(view_json(view))
    cards = _CARDS
    hand, secret, trade_off, sides, log = (view.hand, view.secret, view.trade_off, view.sides,
                                           view.log)
    return (
        f'{{"current_player":{_part(_PLAYERS, view.current_player, player_json)}'
        f',"deck_size":{view.deck_size},"first_player":{view.first_player}'
        f',"hand":{cards.get(hand) or _cards_text(hand)}'
        f',"log":[{",".join([_part(_LOG, e, _log_entry) for e in log]) if log else ""}]'
        f',"markers":{_markers_text(view.markers)}'
        f',"opponent_hand_size":{view.opponent_hand_size}'
        f',"opponent_secret_size":{view.opponent_secret_size}'
        f',"opponent_trade_off_size":{view.opponent_trade_off_size}'
        f',"pending":{_part(_PENDING, view.pending, _pending_json)}'
        f',"phase":{_part(_PHASES, view.phase, _phase_json)}'
        f',"player":{view.player}'
        f',"result":{_part(_RESULTS, view.result, result_json)}'
        f',"round":{view.round}'
        f',"scores":[{",".join([_part(_SCORES, s, _score_json) for s in view.scores])}]'
        f',"secret":{cards.get(secret) or _cards_text(secret)}'
        f',"sides":[{cards.get(sides[0]) or _cards_text(sides[0])}'
        f',{cards.get(sides[1]) or _cards_text(sides[1])}]'
        f',"trade_off":{cards.get(trade_off) or _cards_text(trade_off)}'
        f',"turn":{view.turn}'
        f',"used":{_part(_USED, view.used, _used_json)}'
        f',"variant":{_part(_VARIANTS, view.rules.name, str)}}}')



class ViewChanges(_core.ViewChanges):
    """:class:`hanamikoji.engine.core.codec.ViewChanges` for the engine's own :class:`View`,
    byte for byte, from the texts of its parts (as :func:`view_text`): a part that is the very
    object it was in the view before is unchanged without being written, and most are (the
    state's hands, markers and sides are shared from step to step); the log, made afresh for
    every view, is a few turns whose texts are kept. Any other view is written by the generic
    code. ``tests/properties/test_fast_engines.py`` checks the two texts are the same."""

    def __init__(self) -> None:
        super().__init__(view_json, _observe)
        self.last: Any = None  # the view before (or the state and player it was read from)
        #: The log of the view before, for text_at: the history it was read from, its last
        #: offer and who made it, its turns' texts, and the player who makes the next turn.
        self.log: tuple[tuple[Any, ...], Any, tuple[str, ...], int] | None = None
        #: The view before's parts in key order: their values, texts and (for a list) items'
        #: texts; None when the view before was written by the generic code.
        self.parts: tuple[list[Any], list[str], list[tuple[str, ...] | None]] | None = None

    def text(self, view: Any) -> str:
        fast = type(view) is View and all(
            type(n) is int for n in (view.deck_size, view.first_player, view.opponent_hand_size,
                                     view.opponent_secret_size, view.opponent_trade_off_size,
                                     view.player, view.round, view.turn))
        if fast and (self.last is None or self.parts is not None):
            text = self._fast(_VIEW_VALUES(view), _VIEW_TEXTS)
        else:
            if self.parts is not None:  # the generic code compares with the view before
                last = self.last if type(self.last) is not tuple else _observe(*self.last)
                self.values = view_json(last)
                self.texts = {key: _core.dumps(value) for key, value in self.values.items()}
                self.parts = None
            text = super().text(view)
        self.last = view
        return text

    def text_at(self, state: Any, player: int) -> str:
        """``text(observe(state, player))``, byte for byte, read from the state itself: no
        view is made, and the log is extended by the decisions since the state before rather
        than written again. Any other state, or a player not 0 or 1, goes through
        :meth:`text`."""
        if type(state) is not State or player not in (0, 1) or (
                self.last is not None and self.parts is None):
            return self.text(_observe(state, player))
        if type(state.first_player) is not int or type(state.round) is not int or \
                type(state.turn) is not int:  # bools and others: JSON's own text
            return self.text(_observe(state, player))
        log = self._log_at(state, player)
        other = 1 - player
        hands, secrets, trade_offs = state.hands, state.secrets, state.trade_offs
        if self.parts is None:  # the first view of the game: every key is set
            text = self._fast((current_player(state), len(state.deck), state.first_player,
                               hands[player], log, state.markers, C.size(hands[other]),
                               C.size(secrets[other]), C.size(trade_offs[other]),
                               state.pending, state.phase, player, state.result, state.round,
                               state.scores, secrets[player], state.sides, trade_offs[player],
                               state.turn, state.used, state.rules.name), _STATE_TEXTS)
            self.last = (state, player)
            return text
        # Each key in its JSON order: a number compared by value, anything else by identity
        # first (most parts are the state's own objects, shared from step to step).
        values = self.parts[0]
        append: list[str] = []
        change: list[str] = []
        step, number = self._step, self._number
        value: Any = current_player(state)
        if value != values[0]:
            step(0, value, append, change)
        value = len(state.deck)
        if value != values[1]:
            number(1, value, change)
        if state.first_player != values[2]:
            number(2, state.first_player, change)
        if hands[player] is not values[3]:
            step(3, hands[player], append, change)
        if log is not values[4]:
            step(4, log, append, change)
        if state.markers is not values[5]:
            step(5, state.markers, append, change)
        value = C.size(hands[other])
        if value != values[6]:
            number(6, value, change)
        value = C.size(secrets[other])
        if value != values[7]:
            number(7, value, change)
        value = C.size(trade_offs[other])
        if value != values[8]:
            number(8, value, change)
        if state.pending is not values[9]:
            step(9, state.pending, append, change)
        if state.phase is not values[10]:
            step(10, state.phase, append, change)
        if player != values[11]:
            number(11, player, change)
        if state.result is not values[12]:
            step(12, state.result, append, change)
        if state.round != values[13]:
            number(13, state.round, change)
        if state.scores is not values[14]:
            step(14, state.scores, append, change)
        if secrets[player] is not values[15]:
            step(15, secrets[player], append, change)
        if state.sides is not values[16]:
            step(16, state.sides, append, change)
        if trade_offs[player] is not values[17]:
            step(17, trade_offs[player], append, change)
        if state.turn != values[18]:
            number(18, state.turn, change)
        if state.used is not values[19]:
            step(19, state.used, append, change)
        if state.rules.name is not values[20]:
            step(20, state.rules.name, append, change)
        self.last = (state, player)
        return _core.changes_text(append, [], change)

    def _number(self, index: int, value: int, change: list[str]) -> None:
        """Key ``index``, a number, now holds ``value``, another number: its text changed."""
        values, texts, _ = self.parts  # type: ignore[misc]
        values[index] = value
        texts[index] = text = str(value)
        change.append(f'"{_VIEW_KEYS[index]}":{text}')

    def _step(self, index: int, value: Any, append: list[str], change: list[str]) -> None:
        """Key ``index`` now holds ``value``, not the value before: its text, added to
        ``append`` (a list that grew at its end) or ``change`` (anything else) unless it is
        the same text."""
        values, texts, items = self.parts  # type: ignore[misc]
        text, listed = _STATE_TEXTS[index](value)
        values[index] = value
        if text == texts[index]:
            return
        known = items[index]
        texts[index], items[index] = text, listed
        if (listed is not None and known is not None and len(listed) > len(known)
                and listed[:len(known)] == known):
            append.append(f'"{_VIEW_KEYS[index]}":[{",".join(listed[len(known):])}]')
        else:
            change.append(f'"{_VIEW_KEYS[index]}":{text}')

    def _log_at(self, state: Any, player: int) -> tuple[str, ...]:
        """The texts of the log of ``player``'s view of ``state`` (INFO-2), as
        :func:`~.game.observe` makes it: the turns of the round's decisions, a pick written
        into the offer it answers; extended from the state before when ``state`` follows it
        in the same round (the same tuple when nothing was added)."""
        if state.phase is Phase.DEAL:
            self.log = None
            return ()
        history = state.history
        known = self.log
        if known is not None and len(history) >= len(known[0]) and \
                history[:len(known[0])] == known[0] and \
                not any(isinstance(d, Deal) for d in history[len(known[0]):]):
            _, offer, items, mover = known
            new = history[len(known[0]):]
            if not new:
                return items
        else:
            new, offer, items, mover = _round_decisions(history), None, (), state.starter
        for decision in new:
            if isinstance(decision, (GiftPick, CompetitionPick)):
                assert offer is not None  # a pick answers the offer before it (TURN-3)
                items = (*items[:-1], _turn_text(offer[0], offer[1], player, decision))
            else:
                offer = (decision, mover)
                items = (*items, _turn_text(decision, mover, player, None))
                mover = 1 - mover
        self.log = (history, offer, items, mover)
        return items

    def _fast(self, values: tuple[Any, ...], texts_of: tuple[Any, ...]) -> str:
        if self.parts is None:  # the first view of the game: every key is set
            written = [text_of(value) for value, text_of in zip(values, texts_of)]
            self.parts = (list(values), [t for t, _ in written], [i for _, i in written])
            return _core.changes_text([], [], [f'"{key}":{text}' for key, (text, _) in
                                               zip(_VIEW_KEYS, written)])
        old_values, old_texts, old_items = self.parts
        texts, items = old_texts.copy(), old_items.copy()
        append: list[str] = []
        change: list[str] = []
        for index, value in enumerate(values):
            if value is old_values[index]:  # the very object: the same text
                continue
            text, listed = texts_of[index](value)
            texts[index], items[index] = text, listed
            if text == old_texts[index]:
                continue
            known = old_items[index]
            if (listed is not None and known is not None and len(listed) > len(known)
                    and listed[:len(known)] == known):
                append.append(f'"{_VIEW_KEYS[index]}":[{",".join(listed[len(known):])}]')
            else:
                change.append(f'"{_VIEW_KEYS[index]}":{text}')
        self.parts = (list(values), texts, items)
        return _core.changes_text(append, [], change)


def _turn_text(action: Any, mover: int, player: int, pick: Any) -> str:
    """The text of a turn of the log (:func:`_log_entry`): ``mover``'s ``action`` as ``player``
    sees it (:func:`~.game.observed_turn`), answered by ``pick`` (None: not yet). Kept by the
    decision objects themselves (with them, so that their ``id`` names no other), which an
    engine that makes each decision once shares from game to game."""
    key = (id(action), mover, player, id(pick))
    kept = _TURNS.get(key)
    if kept is not None and kept[0] is action and kept[1] is pick:
        return kept[2]
    turn = observed_turn(action, mover, player)
    if pick is not None:
        turn = attrs.evolve(turn, pick=pick.card if isinstance(pick, GiftPick) else pick.pair)
    text = _part(_LOG, turn, _log_entry)
    if len(_TURNS) >= 4 * _PARTS:
        _TURNS.clear()
    _TURNS[key] = (action, pick, text)
    return text


_TURNS: dict[tuple[int, int, int, int], tuple[Any, Any, str]] = {}


def _listed(items: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    return "[" + ",".join(items) + "]", items


def _kept(kept: dict[Any, tuple[str, tuple[str, ...]]], value: Any,
          write: Any) -> tuple[str, tuple[str, ...]]:
    # Keyed by type and value, as _part: a row of bools is not a row of numbers.
    try:
        key = (type(value), value)
        found = kept.get(key)
    except TypeError:  # not hashable
        return _listed(write(value))
    if found is None:
        if len(kept) >= _PARTS:
            kept.clear()
        found = kept[key] = _listed(write(value))
    return found


def _markers_items(markers: Any) -> tuple[str, ...]:
    return tuple(_core.dumps(m) for m in markers)


def _used_items(used: Any) -> tuple[str, ...]:
    return tuple(_core.dumps(u) for u in _used_json(used))


_MARKER_ITEMS: dict[Any, tuple[str, tuple[str, ...]]] = {}
_USED_ITEMS: dict[Any, tuple[str, tuple[str, ...]]] = {}


def _cards_part(multiset: Any) -> tuple[str, tuple[str, ...]]:
    # Keyed by value alone, as _cards_text.
    try:
        found = _CARD_ITEMS.get(multiset)
    except TypeError:  # not hashable
        return _listed(tuple(map(str, C.cards_of(multiset))))
    if found is None:
        if len(_CARD_ITEMS) >= _PARTS:
            _CARD_ITEMS.clear()
        found = _CARD_ITEMS[multiset] = _listed(tuple(map(str, C.cards_of(multiset))))
    return found


_CARD_ITEMS: dict[Any, tuple[str, tuple[str, ...]]] = {}


def _texts(text_of: Any) -> Any:
    return lambda value: (text_of(value), None)


#: A view's keys in their JSON order, each with the attribute of a :class:`View` that holds its
#: value, and the function that writes that value's text (and, for a list, its items' texts)
#: as :func:`view_text` writes it.
_VIEW_PARTS: tuple[tuple[str, str, Any], ...] = (
    ("current_player", "current_player",
     _texts(lambda value: _part(_PLAYERS, value, player_json))),
    ("deck_size", "deck_size", _texts(str)),
    ("first_player", "first_player", _texts(str)),
    ("hand", "hand", _cards_part),
    ("log", "log", lambda log: _listed(tuple([_part(_LOG, e, _log_entry) for e in log]))),
    ("markers", "markers", lambda markers: (
        _kept(_MARKER_ITEMS, markers, _markers_items)
        if not any(m is True or m is False for m in markers) else _listed(_markers_items(markers)))),
    ("opponent_hand_size", "opponent_hand_size", _texts(str)),
    ("opponent_secret_size", "opponent_secret_size", _texts(str)),
    ("opponent_trade_off_size", "opponent_trade_off_size", _texts(str)),
    ("pending", "pending", _texts(lambda value: _part(_PENDING, value, _pending_json))),
    ("phase", "phase", _texts(lambda value: _part(_PHASES, value, _phase_json))),
    ("player", "player", _texts(str)),
    ("result", "result", _texts(lambda value: _part(_RESULTS, value, result_json))),
    ("round", "round", _texts(str)),
    ("scores", "scores",
     lambda scores: _listed(tuple([_part(_SCORES, s, _score_json) for s in scores]))),
    ("secret", "secret", _cards_part),
    ("sides", "sides", lambda sides: _listed((_cards_text(sides[0]), _cards_text(sides[1])))),
    ("trade_off", "trade_off", _cards_part),
    ("turn", "turn", _texts(str)),
    ("used", "used", lambda used: _kept(_USED_ITEMS, used, _used_items)),
    ("variant", "rules.name", _texts(lambda value: _part(_VARIANTS, value, str))),
)
_VIEW_KEYS = tuple(key for key, _, _ in _VIEW_PARTS)
_VIEW_VALUES = operator.attrgetter(*(name for _, name, _ in _VIEW_PARTS))
_VIEW_TEXTS = tuple(text_of for _, _, text_of in _VIEW_PARTS)
#: The same, for :meth:`ViewChanges.text_at`, whose log is already its items' texts.
_STATE_TEXTS = tuple(_listed if key == "log" else text_of for key, _, text_of in _VIEW_PARTS)


def _observe(state: Any, player: int) -> Any:
    from .game import observe

    return observe(state, player)


# The texts of a view's parts by value, each filled by view_json's own code for that part
# (a part that is not hashable is written afresh). Each is emptied when it reaches _PARTS
# values; a few hundred are met in practice.
_PARTS = 4096
_PLAYERS: dict[Any, str] = {}
_CARDS: dict[Any, str] = {}
_LOG: dict[Any, str] = {}
_MARKERS: dict[Any, str] = {}
_PENDING: dict[Any, str] = {}
_PHASES: dict[Any, str] = {}
_RESULTS: dict[Any, str] = {}
_SCORES: dict[Any, str] = {}
_USED: dict[Any, str] = {}
_VARIANTS: dict[Any, str] = {}


def _cards_text(multiset: Any) -> str:
    # Keyed by value alone: a multiset's text depends on its counts' values (True counts 1).
    try:
        return _CARDS[multiset]
    except KeyError:
        if len(_CARDS) >= _PARTS:
            _CARDS.clear()
        text = _CARDS[multiset] = dumps(cards_json(multiset))
        return text
    except TypeError:  # not hashable
        return dumps(cards_json(multiset))


def _part(texts: dict[Any, str], value: Any, to_json: Any) -> str:
    # Keyed by type and value: 1 and True are equal keys but not the same JSON.
    try:
        key = (type(value), value)
        text = texts.get(key)
    except TypeError:  # not hashable
        return dumps(to_json(value))
    if text is None:
        if len(texts) >= _PARTS:
            texts.clear()
        text = texts[key] = dumps(to_json(value))
    return text


def _markers_text(markers: Any) -> str:
    # A marker row is the same key as a row of bools (1 == True): those are written afresh.
    if type(markers) is tuple and not any(m is True or m is False for m in markers):
        return _part(_MARKERS, markers, list)
    return dumps(list(markers))


def _pending_json(pending: Any) -> Any:
    return None if pending is None else decision_json(pending)


def _phase_json(phase: Any) -> Any:
    return Phase(phase).value


def _score_json(s: Any) -> Any:
    return {"round": s.round, "sides": [cards_json(s.sides[0]), cards_json(s.sides[1])],
            "markers": list(s.markers)}


def _used_json(used: Any) -> Any:
    return [[k.value for k in ALL_KINDS if k in used[p]] for p in (0, 1)]


# --- reading -------------------------------------------------------------------------------


def _expect(cond: bool, path: str, message: str) -> None:
    if not cond:
        raise MalformedJSONError(path, message)


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _keys(obj: Any, path: str, keys: set[str]) -> None:
    if isinstance(obj, dict) and obj.keys() == keys:
        return  # the messages below are written only for an object that fails
    _expect(isinstance(obj, dict), path, f"expected an object, got {_show(obj)}")
    missing = sorted(keys - obj.keys())
    _expect(not missing, path, f'missing key "{missing[0]}"' if missing else "")
    extra = sorted(obj.keys() - keys)
    _expect(not extra, f"{path}.{extra[0]}" if extra else path,
            f"unexpected key; expected only {', '.join(sorted(keys))}")


def _geisha(value: Any, path: str) -> int:
    if type(value) is int and 0 <= value < C.NUM_GEISHA:
        return value
    _expect(type(value) is int and 0 <= value < C.NUM_GEISHA, path,
            f"expected a geisha number from 0 to {C.NUM_GEISHA - 1}, got {_show(value)}")
    return value


def _card_list(value: Any, path: str, n: int) -> list[int]:
    if isinstance(value, list) and len(value) == n and \
            all(type(v) is int and 0 <= v < C.NUM_GEISHA for v in value):
        return list(value)  # the messages below are written only for a list that fails
    _expect(isinstance(value, list) and len(value) == n, path,
            f"expected a list of {n} geisha numbers, got {_show(value)}")
    return [_geisha(v, f"{path}[{i}]") for i, v in enumerate(value)]


def parse_deal(obj: Any, path: str = "$") -> Deal:
    """A :class:`Deal` from ``{"removed", "hands", "draws"}``; the 21 cards are a rule
    (DEAL-1), checked by ``apply``, not here."""
    _keys(obj, path, {"removed", "hands", "draws"})
    removed = _geisha(obj["removed"], f"{path}.removed")
    hands = obj["hands"]
    if not (isinstance(hands, list) and len(hands) == 2):
        raise MalformedJSONError(f"{path}.hands", f"expected two hands, got {_show(hands)}")
    parsed = [_card_list(h, f"{path}.hands[{i}]", 6) for i, h in enumerate(hands)]
    draws = _card_list(obj["draws"], f"{path}.draws", 8)
    return Deal(removed, parsed, draws)


_ACTIONS: dict[str, tuple[type[Secret | TradeOff | Gift], int]] = {
    "secret": (Secret, 1), "trade-off": (TradeOff, 2), "gift": (Gift, 3)}


def parse_decision(obj: Any, path: str = "$") -> Decision:
    """Any decision from its JSON form (see the module docstring)."""
    if not isinstance(obj, dict):
        raise MalformedJSONError(path, f"expected a decision object, got {_show(obj)}")
    if "deal" in obj:
        _keys(obj, path, {"deal"})
        return parse_deal(obj["deal"], f"{path}.deal")
    if "action" in obj:
        action = obj["action"]
        if action == "competition":
            _keys(obj, path, {"action", "sets"})
            sets = obj["sets"]
            if not (isinstance(sets, list) and len(sets) == 2):
                raise MalformedJSONError(f"{path}.sets",
                                         f"expected two sets of 2 cards, got {_show(sets)}")
            return Competition([_card_list(s, f"{path}.sets[{i}]", 2) for i, s in enumerate(sets)])
        if not (isinstance(action, str) and action in _ACTIONS):
            raise MalformedJSONError(f"{path}.action", "expected one of secret, trade-off, "
                                     "gift, competition, got " + _show(action))
        _keys(obj, path, {"action", "cards"})
        cls, n = _ACTIONS[action]
        cards = _card_list(obj["cards"], f"{path}.cards", n)
        return cls(cards[0]) if cls is Secret else cls(cards)
    if "response" in obj:
        _keys(obj, path, {"response", "pick"})
        response = obj["response"]
        if response == "gift":
            return GiftPick(_geisha(obj["pick"], f"{path}.pick"))
        if response != "competition":
            raise MalformedJSONError(f"{path}.response",
                                     f"expected gift or competition, got {_show(response)}")
        return CompetitionPick(_card_list(obj["pick"], f"{path}.pick", 2))
    raise MalformedJSONError(path, 'expected a decision: an object with "deal", "action" or '
                                   f'"response", got {_show(obj)}')


def parse_result(obj: Any, path: str = "$") -> Result | None:
    """The inverse of :func:`result_json`."""
    if obj is None:
        return None
    _keys(obj, path, {"winner", "reason"})
    winner = obj["winner"]
    _expect(winner is None or (type(winner) is int and winner in (0, 1)), f"{path}.winner",
            f"expected 0, 1 or null, got {_show(winner)}")
    reasons = [r.value for r in Reason]
    _expect(isinstance(obj["reason"], str) and obj["reason"] in reasons, f"{path}.reason",
            f"expected one of {', '.join(reasons)}, got {_show(obj['reason'])}")
    return Result(winner, Reason(obj["reason"]))
