"""The requests of the oracle's line protocol that every game shares (docs/oracle.md, "The
protocol"): ``new_game``, ``chance`` and ``random_chance`` in their general form (protocol 2),
``batch``, several requests in one line and their answers in one line (protocol 3), and
``view_changes``, a view as what changed since the one before (protocol 4).
The canonical text and the JSON error every codec shares are :mod:`hanamikoji.engine.core.codec`'s,
named here too for the tools that speak the protocol."""

from __future__ import annotations

from json.encoder import encode_basestring_ascii as _string_text
from typing import Any

from hanamikoji.engine.core.codec import MalformedJSONError, dumps
from hanamikoji.engine.core.game import player_json

__all__ = ["BATCH_PROTOCOL", "CHANGES_PROTOCOL", "GENERAL_PROTOCOL", "MalformedJSONError",
           "answer_text", "batch_request", "chance_request", "decision_json", "decision_text",
           "dumps", "legal_actions_text", "new_game_request", "player_json", "random_chance_request",
           "refusal", "refusal_text"]


#: The protocol an adapter speaks when it says nothing: 1, the requests of before the core
#: (for the registry's default game, its own ``new_game`` and chance request). An adapter that
#: answers ``new_game`` with ``"protocol": 2`` gets the general requests below for every game.
GENERAL_PROTOCOL = 2
#: An adapter that answers ``new_game`` with ``"protocol": 3`` speaks protocol 2 and also
#: answers ``batch``: the harness then asks for a whole step (the decision, whose turn it is,
#: the legal decisions, every view, the result) in one line instead of one line each.
BATCH_PROTOCOL = 3
#: An adapter that answers ``new_game`` with ``"protocol": 4`` speaks protocol 3 and also
#: answers ``view_changes``: a player's view as what changed since the view it last gave that
#: player in this game (:class:`hanamikoji.engine.core.codec.ViewChanges`), so a step's
#: answers hold what the step changed rather than every view whole.
CHANGES_PROTOCOL = 4


def new_game_request(game: Any, config: Any, first_player: int) -> dict[str, Any]:
    """The general ``new_game`` request: the game, its player count, options, first player."""
    return {"op": "new_game", "game": game.name, "players": game.num_players(config),
            "options": game.options_of(config), "first_player": first_player}


def chance_request(game: Any, outcome: Any) -> dict[str, Any]:
    """The general request that tells an adapter a chance outcome, in the game's JSON form."""
    return {"op": "chance", "outcome": game.decision_to_json(outcome)}


def random_chance_request(game: Any, config: Any, seed: int) -> dict[str, Any]:
    """The optional request for the first chance outcome of a new game (first player 0) drawn
    from a random source seeded with ``seed``: the seeded-chance check of ``diff``."""
    return {"op": "random_chance", "game": game.name, "players": game.num_players(config),
            "options": game.options_of(config), "seed": seed}


def refusal(error: Exception) -> dict[str, Any]:
    """The answer to a request the rules refuse: the error's words and the ID of the rule it
    cites (None when it cites none)."""
    return {"error": str(error), "rule": getattr(error, "rule", None)}


def refusal_text(error: Exception) -> str:
    """``dumps(refusal(error))``, its two strings written by the encoder's own string writer
    (the harness writes one for every probe)."""
    rule = getattr(error, "rule", None)
    if rule is not None and type(rule) is not str:
        return dumps(refusal(error))
    return (f'{{"error":{_string_text(str(error))},"rule":'
            f'{"null" if rule is None else _string_text(rule)}}}')


def batch_request(requests: list[dict[str, Any]]) -> dict[str, Any]:
    """Several requests in one line (protocol 3): answered ``{"answers": [...]}``, the answer
    each request would get alone, in order, each answered after the one before it."""
    return {"op": "batch", "requests": requests}


#: The most lists :func:`legal_actions_text` keeps (emptied when full).
_LEGAL_KEPT = 4096
_LEGAL_TEXTS: dict[int, tuple[Any, Any, str]] = {}


def legal_actions_text(game: Any, legal: Any) -> str:
    """``{"legal_actions": [...]}`` for the decisions ``legal`` of ``game``, as canonical
    text: the answer to ``legal_actions``, which the harness and the reference adapter both
    write at every step. An engine that gives the same list object for the same menu (a cached
    menu: Hanamikoji's) has its text written once; the list is kept with its text, so its
    ``id`` names no other list meanwhile."""
    kept = _LEGAL_TEXTS.get(id(legal))
    if kept is not None and kept[0] is legal and kept[1] is game:
        return kept[2]
    text = '{"legal_actions":[' + ",".join([decision_text(game, d) for d in legal]) + "]}"
    if isinstance(legal, tuple):  # a list could change; a tuple of decisions does not
        if len(_LEGAL_TEXTS) >= _LEGAL_KEPT:
            _LEGAL_TEXTS.clear()
        _LEGAL_TEXTS[id(legal)] = (legal, game, text)
    return text


#: The JSON and texts of decisions :func:`decision_text` wrote, by the decision object (kept
#: with it, so its ``id`` names no other object meanwhile) and the game.
_DECISION_TEXTS: dict[int, tuple[Any, Any, str, Any]] = {}


def decision_text(game: Any, decision: Any) -> str:
    """``dumps(game.decision_to_json(decision))``. An engine that makes each decision once (a
    menu's decisions, Maiko's every flip and sweep) has its text written once; a decision
    met for the first time is kept only while fewer than ``4 * _LEGAL_KEPT`` are."""
    kept = _DECISION_TEXTS.get(id(decision))
    if kept is not None and kept[0] is decision and kept[1] is game:
        return kept[2]
    return _decision_written(game, decision)[2]


def decision_json(game: Any, decision: Any) -> Any:
    """``game.decision_to_json(decision)``, made once with :func:`decision_text`: the same
    object for the same decision, to be read and never changed (the requests of a scripted
    game hold it)."""
    kept = _DECISION_TEXTS.get(id(decision))
    if kept is not None and kept[0] is decision and kept[1] is game:
        return kept[3]
    return _decision_written(game, decision)[3]


def _decision_written(game: Any, decision: Any) -> tuple[Any, Any, str, Any]:
    obj = game.decision_to_json(decision)
    if len(_DECISION_TEXTS) >= 4 * _LEGAL_KEPT:
        _DECISION_TEXTS.clear()
    kept = _DECISION_TEXTS[id(decision)] = (decision, game, dumps(obj), obj)
    return kept


#: The texts of :func:`answer_text`'s small answers, by key, type and value.
_SMALL_TEXTS: dict[tuple[str, type, Any], str] = {}


def answer_text(key: str, value: Any) -> str:
    """``dumps({key: value})``: the answer ``{"current_player": 1}``, ``{"result": null}`` or
    ``{"ok": true}``, which the harness and the reference adapter both write at every step.
    Those whose value is None, a bool or an int are written once (by type: ``1`` and ``true``
    are different texts); any other is written each time."""
    kind = type(value)
    if value is not None and kind is not bool and kind is not int:
        return dumps({key: value})
    text = _SMALL_TEXTS.get((key, kind, value))
    if text is None:
        if len(_SMALL_TEXTS) >= _LEGAL_KEPT:
            _SMALL_TEXTS.clear()
        text = _SMALL_TEXTS[(key, kind, value)] = dumps({key: value})
    return text
