"""What every game's JSON codecs share: the canonical text the oracle compares, the error for a
JSON value that is not the form expected."""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidActionError


class MalformedJSONError(InvalidActionError):
    """Not the JSON form expected, at JSON path ``path``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


#: The encoder of :func:`dumps`, made once (``json.dumps`` with these options makes one a call).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> str:
    """Canonical text: sorted keys, no spaces; what the oracle's comparisons compare
    (``json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)``)."""
    return _CANONICAL.encode(value)


def value_text(value: Any) -> str:
    """A value as a message shows it: its JSON text (a tuple as a list, keys sorted) when it has
    one, else the name of its type, never a Python repr (a message speaks the record's
    language).

    >>> value_text((0, "a", None)), value_text({1, 2})
    ('[0,"a",null]', 'a set object')
    """
    for sort_keys in (True, False):  # keys sorted as dumps sorts them, where they sort
        try:
            return json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError):
            pass
    return f"a {type(value).__name__} object"


class ViewChanges:
    """One player's views in one game, taken in turn, each written as what changed since the
    one before: the answer to protocol 4's ``view_changes`` (docs/oracle.md), canonical text
    (:func:`dumps`). The first view of a game is set whole. Then the changes are an object of
    up to three members, each left out when it would be empty:

    - ``"append"``: ``{key: [item, ...]}`` for a key whose value was a list and is now a
      longer list that starts with the items it had: the items after those;
    - ``"drop"``: the keys the view had and has no longer, sorted;
    - ``"set"``: ``{key: value}`` for every other key whose value is new or differs.

    Values are compared as canonical texts (``1`` and ``true`` differ). This is the generic
    form, from the views' JSON (``to_json``); a game may write the same text faster
    (:meth:`hanamikoji.engine.core.game.Game.view_changes`).

    >>> changes = ViewChanges(lambda view: view)
    >>> changes.text({"hand": [1, 2], "log": [], "turn": 0})
    '{"set":{"hand":[1,2],"log":[],"turn":0}}'
    >>> changes.text({"hand": [2], "log": ["a"], "turn": 0})
    '{"append":{"log":["a"]},"set":{"hand":[2]}}'
    >>> changes.text({"hand": [2], "log": ["a"]})
    '{"drop":["turn"]}'
    """

    def __init__(self, to_json: Any, observe: Any = None) -> None:
        self.to_json = to_json
        self.observe = observe  # (state, player) -> view, for text_at
        self.values: dict[str, Any] | None = None  # the last view's JSON
        self.texts: dict[str, str] = {}  # and the text of each of its values

    def text_at(self, state: Any, player: int) -> str:
        """:meth:`text` of ``player``'s view of ``state`` (a game may read it from the state
        without making the view)."""
        return self.text(self.observe(state, player))

    def text(self, view: Any) -> str:
        value = self.to_json(view)
        if not isinstance(value, dict):
            raise TypeError(f"a view's JSON must be an object, not {value_text(value)}")
        texts = {key: dumps(item) for key, item in value.items()}
        before, before_texts = self.values, self.texts
        append: list[str] = []
        change: list[str] = []
        for key in sorted(texts):
            text = texts[key]
            if before is not None and key in before_texts:
                if before_texts[key] == text:
                    continue
                old, new = before[key], value[key]
                if (isinstance(old, list) and isinstance(new, list) and len(new) > len(old)
                        and all(dumps(a) == dumps(b) for a, b in zip(old, new))):
                    append.append(f"{dumps(key)}:[{','.join(dumps(v) for v in new[len(old):])}]")
                    continue
            change.append(f"{dumps(key)}:{text}")
        dropped = [] if before is None else sorted(set(before) - set(value))
        self.values, self.texts = value, texts
        return changes_text(append, [dumps(key) for key in dropped], change)


def changes_text(append: list[str], drop: list[str], change: list[str]) -> str:
    """The text of a ``view_changes`` answer's object from its members' parts: ``append``'s
    and ``change``'s ``"key":text`` in key order, ``drop``'s key texts in order."""
    parts = []
    if append:
        parts.append('"append":{' + ",".join(append) + "}")
    if drop:
        parts.append('"drop":[' + ",".join(drop) + "]")
    if change:
        parts.append('"set":{' + ",".join(change) + "}")
    return "{" + ",".join(parts) + "}"


def apply_view_changes(before: dict[str, Any] | None, changes: Any) -> dict[str, Any]:
    """The view that ``changes`` (a ``view_changes`` answer's object, decoded) makes of
    ``before`` (None: the first view of a game); :class:`ValueError` saying what is wrong for
    changes that are not of that form or do not fit ``before``.

    >>> apply_view_changes({"log": ["a"], "turn": 0}, {"append": {"log": ["b"]}, "drop": ["turn"]})
    {'log': ['a', 'b']}
    """
    if not isinstance(changes, dict):
        raise ValueError(f"view_changes must be an object, not {value_text(changes)}")
    unknown = sorted(set(changes) - {"append", "drop", "set"})
    if unknown:
        raise ValueError(f'view_changes has "{unknown[0]}", not one of "append", "drop", "set"')
    view = dict(before or {})
    for key in _member(changes, "drop", list):
        if not isinstance(key, str) or key not in view:
            raise ValueError(f"view_changes drops {value_text(key)}, which the view before "
                             "did not have")
        del view[key]
    for key, items in _member(changes, "append", dict).items():
        if not isinstance(items, list):
            raise ValueError(f'view_changes appends {value_text(items)} to "{key}", not a '
                             "list of items")
        if not isinstance(view.get(key), list):
            raise ValueError(f'view_changes appends to "{key}", which is not a list in the '
                             "view before")
        view[key] = [*view[key], *items]
    view.update(_member(changes, "set", dict))
    return view


def _member(changes: dict[str, Any], name: str, kind: type) -> Any:
    value = changes.get(name, kind())
    if not isinstance(value, kind):
        raise ValueError(f'view_changes has "{name}" {value_text(value)}, not '
                         f"{'a list' if kind is list else 'an object'}")
    return value
