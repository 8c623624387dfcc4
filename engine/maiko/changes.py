"""A Maiko player's views in one game as what changed from view to view: protocol 4's
``view_changes`` (:class:`hanamikoji.engine.core.codec.ViewChanges`), byte for byte, written
faster than from the whole JSON of each view. A view has perfect recall: its log grows by a
step at each decision, so its text is the texts of the steps before and of the new ones; the
rest of the view is small. ``tests/properties/test_fast_engines.py`` checks the texts are the
generic code's."""

from __future__ import annotations

import json
from typing import Any

import attrs

from hanamikoji.engine.core import codec as core
from hanamikoji.engine.core.codec import dumps

from .components import tile_name
from .game import DOWN, EMPTY, State, current_player
from .record import options_of, result_to_json
from .view import View, _board_text, _log, _seen_to_json, observe, view_to_json

#: The keys whose texts are made here from the view's own values rather than from its JSON.
_GROWN = ("log", "maiko_boards")


class ViewChanges(core.ViewChanges):
    """:class:`hanamikoji.engine.core.codec.ViewChanges` for the engine's own :class:`View`:
    the view without its log and maiko boards is written as JSON (a few hundred bytes), the
    log's new steps and the boards that changed are written alone. Any other view is written
    by the generic code."""

    def __init__(self) -> None:
        super().__init__(view_to_json, observe)
        self.last: Any = None  # the view before, or the state and player it was read from
        #: Of the view before, for each key: its JSON value (None for the two grown keys) or,
        #: read from a state, what it is made of; its text and, for a list, its items' texts
        #: where they were needed; None when the generic code wrote it.
        self.parts: dict[str, tuple[Any, ...]] | None = None
        self.log: tuple[Any, tuple[str, ...]] = ((), ())  # the log before and its items' texts

    def text(self, view: Any) -> str:
        last = observe(*self.last) if type(self.last) is tuple else self.last
        if type(view) is not View or (last is not None and self.parts is None):
            if self.parts is not None:  # the generic code compares with the view before
                self.values = view_to_json(last)
                self.texts = {key: dumps(value) for key, value in self.values.items()}
                self.parts = None
            self.last = view
            return super().text(view)
        before = self.parts
        if type(self.last) is tuple:  # the view before was read from its state: made again
            before = self._view_parts(last, None)
        parts = self._view_parts(view, before)
        append: list[str] = []
        change: list[str] = []
        for key in sorted(parts):
            value, text, items = parts[key]
            old = None if before is None else before.get(key)
            if old is not None:
                if old[1] is text or old[1] == text:
                    continue
                known = old[2]
                if items is None and isinstance(value, list) and isinstance(old[0], list) \
                        and len(value) > len(old[0]):  # it may have grown at its end
                    items = tuple(dumps(item) for item in value)
                    known = tuple(dumps(item) for item in old[0])
                if (items is not None and known is not None and len(items) > len(known)
                        and items[:len(known)] == known):
                    append.append(f'{dumps(key)}:[{",".join(items[len(known):])}]')
                    continue
            change.append(f"{dumps(key)}:{text}")
        dropped = [] if before is None else [dumps(key) for key in sorted(set(before) - set(parts))]
        self.parts, self.last = parts, view
        return core.changes_text(append, dropped, change)

    def _view_parts(self, view: View, before: Any) -> dict[str, Any]:
        """:attr:`parts` of ``view``: those of ``before`` that hold an equal value."""
        small = view_to_json(attrs.evolve(view, log=(), boards=()))
        parts: dict[str, tuple[Any, ...]] = {}
        for key, value in small.items():
            if key not in _GROWN:
                old = None if before is None else before.get(key)
                # An equal value of the same type has the same text (the engine's views hold
                # no bool where a number was, so 1 never stands for true below the top).
                parts[key] = (old if old is not None and type(old[0]) is type(value)
                              and old[0] == value else (value, dumps(value), None))
        parts["log"] = (None, *_listed(self._log_items(view.log)))
        parts["maiko_boards"] = (None, *_listed(tuple(map(_board_text, view.boards))))
        return parts

    def text_at(self, state: Any, player: int) -> str:
        """``text(observe(state, player))``, byte for byte, read from the state itself: a key
        whose parts are the very objects of the state before (or equal numbers) is unchanged
        without being written, and only the log's new steps are. Any other state, a player
        not in the game, or a view written before by the generic code goes through
        :meth:`text`."""
        if type(state) is not State or type(player) is not int or not \
                0 <= player < state.config.players or \
                (self.last is not None and (self.parts is None or type(self.last) is not tuple)):
            return self.text(observe(state, player))
        before = self.parts
        parts: dict[str, tuple[Any, ...]] = dict(before) if before is not None else {}
        append: list[str] = []
        change: list[str] = []
        for key, source, json_of in zip(_STATE_KEYS, _sources(state, player), _STATE_JSON):
            old = None if before is None else before[key]
            if old is not None and (old[0] is source or old[0] == source):
                continue
            value: Any = None
            items: tuple[str, ...] | None
            if key == "log":
                text, items = _listed(self._log_items(_log(state, player)))
            else:
                # Every key but the log and the player is the state's alone, the same for
                # every player: the players' views of a step write it once.
                last = _LAST.get(key)
                if last is not None and (last[0] is source or last[0] == source):
                    _, text, items, value = last
                else:
                    if key == "maiko_boards":
                        text, items = _listed(tuple(map(_board_text, state.boards)))
                    elif key == "board":
                        text, items = _board_text_at(state), None
                    else:
                        value = json_of(state, player)
                        text, items = _text(value), None
                    if key != "player":
                        _LAST[key] = (source, text, items, value)
                if key == "board" and old is not None and old[1] == "[]" and text != "[]":
                    # laid out now (as many spaces from then on: never appended to again)
                    items, old = tuple(map(dumps, json.loads(text))), (*old[:2], (), None)
            parts[key] = (source, text, items, value)
            if old is None:
                change.append(f'"{key}":{text}')
                continue
            if old[1] == text:
                continue
            known = old[2]
            if isinstance(value, list) and isinstance(old[3], list) and \
                    len(value) > len(old[3]):  # it may have grown at its end
                known = tuple(dumps(item) for item in old[3])
                items = tuple(dumps(item) for item in value)
            if (items is not None and known is not None and len(items) > len(known)
                    and items[:len(known)] == known):
                append.append(f'"{key}":[{",".join(items[len(known):])}]')
            else:
                change.append(f'"{key}":{text}')
        self.parts, self.last = parts, (state, player)
        return core.changes_text(append, [], change)

    def _log_items(self, log: tuple[Any, ...]) -> tuple[str, ...]:
        """The texts of the steps of ``log``: those of the log before, when it begins
        ``log``, and of the steps after them."""
        known, items = self.log
        n = len(known)
        if log is known:
            return items
        if not (len(log) >= n and log[:n] == known):
            n, items = 0, ()
        items = (*items, *(dumps(_seen_to_json(seen)) for seen in log[n:]))
        self.log = (log, items)
        return items


def _listed(items: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    return "[" + ",".join(items) + "]", items


def _text(value: Any) -> str:
    """``dumps(value)``, a number or null without the encoder."""
    kind = type(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    return dumps(value)


def _board_text_at(state: State) -> str:
    """The text of the board of ``state``'s views (:func:`.view.view_to_json`): each space
    ``"down"``, ``"empty"`` or its tile's name, from the texts of the layout's names, kept for
    the last layouts met."""
    layout = state.layout
    kept = _LAYOUT_NAMES.get(id(layout))
    if kept is None or kept[0] is not layout:
        if len(_LAYOUT_NAMES) >= 64:
            _LAYOUT_NAMES.clear()
        kept = _LAYOUT_NAMES[id(layout)] = (layout, tuple(dumps(tile_name(t)) for t in layout))
    names = kept[1]
    return "[" + ",".join([_DOWN if v == DOWN else _EMPTY if v == EMPTY else names[s]
                           for s, v in enumerate(state.spaces)]) + "]"


_DOWN, _EMPTY = dumps("down"), dumps("empty")
#: The last text written for each key but the log, with what it was made of: a function of
#: that alone, so a text is written once for all the players' views of a step.
_LAST: dict[str, tuple[Any, str, tuple[str, ...] | None, Any]] = {}
_LAYOUT_NAMES: dict[int, tuple[Any, tuple[str, ...]]] = {}


def _sources(s: State, p: int) -> tuple[Any, ...]:
    """What each key of :data:`_STATE_PARTS` is made of in ``s``, in its order, in one call:
    compared with the state before's by identity, then ``==``."""
    return ((s.spaces, s.layout), s.config, current_player(s), s.discarded, s.triggered_by,
            s.first_player, s.steps, s.looks, s.boards, s.config, s.pending, s.phase, p,
            s.result, (s.sweep_row, s.sweep_index), (s.hands, s.pool, s.cards), s.turn,
            s.visited)


#: A view's keys in their JSON order, each with its JSON from a state and player, as
#: :func:`.view.observe` and :func:`.view.view_to_json` make it (the board, the log and the
#: maiko boards are written by :meth:`ViewChanges.text_at` itself).
#: ``tests/test_diff_changes.py`` checks the texts.
_STATE_PARTS: tuple[tuple[str, Any], ...] = (
    ("board", None),
    ("box", lambda s, p: [tile_name(t) for t in s.config.box]),
    ("current_player", lambda s, p: current_player(s)),
    ("discarded", lambda s, p: [tile_name(t) for t in s.discarded]),
    ("end_triggered_by", lambda s, p: s.triggered_by),
    ("first_player", lambda s, p: s.first_player),
    ("log", None),
    ("looks", lambda s, p: list(s.looks)),
    ("maiko_boards", None),
    ("options", lambda s, p: options_of(s.config)),
    ("pending", lambda s, p: s.pending),
    ("phase", lambda s, p: s.phase.value),
    ("player", lambda s, p: p),
    ("result", lambda s, p: None if s.result is None else result_to_json(s.result)),
    ("row_discard",
     lambda s, p: None if s.sweep_row is None else {"row": s.sweep_row, "next": s.sweep_index}),
    ("tokens", lambda s, p: {"hands": list(s.hands), "pool": s.pool, "tutor_cards": list(s.cards)}),
    ("turn", lambda s, p: s.turn),
    ("visited", lambda s, p: s.visited),
)
_STATE_KEYS = tuple(key for key, _ in _STATE_PARTS)
_STATE_JSON = tuple(json_of for _, json_of in _STATE_PARTS)
