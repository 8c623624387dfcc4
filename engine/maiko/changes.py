"""A Maiko player's views in one game as what changed from view to view: protocol 4's
``view_changes`` (:class:`hanamikoji.engine.core.codec.ViewChanges`), byte for byte, written
faster than from the whole JSON of each view. A view has perfect recall: its log grows by a
step at each decision, so its text is the texts of the steps before and of the new ones; the
rest of the view is small. ``tests/properties/test_fast_engines.py`` checks the texts are the
generic code's."""

from __future__ import annotations

from typing import Any

import attrs

from hanamikoji.engine.core import codec as core
from hanamikoji.engine.core.codec import dumps

from .view import View, _board_text, _seen_to_json, observe, view_to_json

#: The keys whose texts are made here from the view's own values rather than from its JSON.
_GROWN = ("log", "maiko_boards")


class ViewChanges(core.ViewChanges):
    """:class:`hanamikoji.engine.core.codec.ViewChanges` for the engine's own :class:`View`:
    the view without its log and maiko boards is written as JSON (a few hundred bytes), the
    log's new steps and the boards that changed are written alone. Any other view is written
    by the generic code."""

    def __init__(self) -> None:
        super().__init__(view_to_json, observe)
        self.last: Any = None  # the view before
        #: Of the view before, for each key: its JSON value (None for the two grown keys), its
        #: text and, for a list, its items' texts; None when the generic code wrote it.
        self.parts: dict[str, tuple[Any, str, tuple[str, ...] | None]] | None = None
        self.log: tuple[Any, tuple[str, ...]] = ((), ())  # the log before and its items' texts

    def text(self, view: Any) -> str:
        if type(view) is not View or (self.last is not None and self.parts is None):
            if self.parts is not None:  # the generic code compares with the view before
                self.values = view_to_json(self.last)
                self.texts = {key: dumps(value) for key, value in self.values.items()}
                self.parts = None
            self.last = view
            return super().text(view)
        small = view_to_json(attrs.evolve(view, log=(), boards=()))
        before = self.parts
        parts: dict[str, tuple[Any, str, tuple[str, ...] | None]] = {}
        for key, value in small.items():
            if key not in _GROWN:
                old = None if before is None else before.get(key)
                # An equal value of the same type has the same text (the engine's views hold
                # no bool where a number was, so 1 never stands for true below the top).
                parts[key] = (old if old is not None and type(old[0]) is type(value)
                              and old[0] == value else (value, dumps(value), None))
        parts["log"] = (None, *_listed(self._log_items(view.log)))
        parts["maiko_boards"] = (None, *_listed(tuple(map(_board_text, view.boards))))
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
