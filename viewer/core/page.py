"""One self-contained HTML page: the data as JSON in a ``<script type="application/json">``
block, with its own CSS and script inline, and nothing fetched (no server, no network, no CDN).

A game on a page is its steps and, for each step, the views a person may switch between:
"everything" (the game's whole state, from the game's viewer part, when it has one) and each
player's view, exactly what :meth:`Game.observe` gives (INFO-1, MK-INFO-1), turned into JSON by
:meth:`Game.view_to_json` here in Python. The page never recomputes a view: it draws the JSON
it is given. Each view is stored as its first value and then, step by step, only the keys that
changed (a list that grew by its end only as what was added); each game's steps are
deflate-compressed and base64-encoded, and the page inflates a game only when it is opened, so
a file of ten thousand games loads as a list at once.

The JSON is escaped so that no text in it can end the script block: ``<``, ``>`` and ``&`` are
written ``\\u003c``, ``\\u003e``, ``\\u0026`` (and the line separators U+2028, U+2029 likewise).
"""

from __future__ import annotations

import base64
import html
import importlib
import json
import zlib
from importlib import resources
from typing import Any, Iterable, Sequence

from hanamikoji.engine.core.game import CHANCE, Game, player_json
from hanamikoji.engine.core.words import plural

#: The page's own assets (this package's files).
_ASSETS = ("page.css", "page.js")

#: Nothing may be fetched: only the page's own inline script and style run.
_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
            0x2028: "\\u2028", 0x2029: "\\u2029"}


def embed(value: Any) -> str:
    """``value`` as JSON text safe inside a ``<script type="application/json">`` block.

    >>> embed({"a": "</script><b>&"})
    '{"a":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).translate(_ESCAPES)


def delta(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """What turns view ``before`` into view ``after``: ``s`` the keys set to a new value,
    ``a`` the lists that grew by their end (only what was added), ``d`` the keys removed.

    >>> delta({"n": 1, "log": [1]}, {"n": 2, "log": [1, 2]})
    {'s': {'n': 2}, 'a': {'log': [2]}}
    """
    out: dict[str, Any] = {}
    if not isinstance(after, dict):
        return {"v": after}
    sets: dict[str, Any] = {}
    appends: dict[str, Any] = {}
    for key, value in after.items():
        if before is not None and key in before:
            old = before[key]
            if old == value:
                continue
            if (isinstance(old, list) and isinstance(value, list) and old
                    and len(value) > len(old) and value[:len(old)] == old):
                appends[key] = value[len(old):]
                continue
        sets[key] = value
    if sets:
        out["s"] = sets
    if appends:
        out["a"] = appends
    gone = [k for k in (before or {}) if k not in after]
    if gone:
        out["d"] = gone
    return out


def undelta(deltas: Sequence[dict[str, Any]]) -> list[Any]:
    """The views ``deltas`` stand for (the page's script does the same; the tests compare)."""
    views: list[Any] = []
    current: dict[str, Any] = {}
    for d in deltas:
        if "v" in d:
            views.append(d["v"])
            continue
        current = dict(current)
        current.update(d.get("s", {}))
        for key, items in d.get("a", {}).items():
            current[key] = current[key] + items
        for key in d.get("d", []):
            current.pop(key, None)
        views.append(current)
    return views


def _viewer_part(game: Game) -> Any:
    """The game's viewer part (``hanamikoji.viewer.<game>.frames``), or None."""
    name = f"{__package__.rpartition('.')[0]}.{game.name}.frames"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            return None  # the game has no part here (not an import that fails inside one)
        raise


def _board_script(game: Game) -> str:
    try:
        return (resources.files(f"{__package__.rpartition('.')[0]}.{game.name}")
                / "board.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return ""


def _deltas(views: Iterable[Any]) -> list[dict[str, Any]]:
    out, before = [], None
    for view in views:
        out.append(delta(before, view))
        before = view if isinstance(view, dict) else None
    return out


def standing(game: Game, final: Any) -> dict[str, list[int]] | None:
    """What the end of ``final``'s game shows beside the winners, per player (Hanamikoji:
    geisha and charm), from the game's viewer part; None for a game without one."""
    part = _viewer_part(game)
    return part.standing(final) if hasattr(part, "standing") else None


def end_json(game: Game, final: Any) -> dict[str, Any] | None:
    """The end of ``final``'s game: winners, reason, scores and a line for people."""
    outcome = game.outcome(final)
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "reason": outcome.reason,
            "scores": None if outcome.scores is None else list(outcome.scores),
            "standing": standing(game, final), "text": game.describe_end(final)}


def game_steps(game: Game, final: Any) -> dict[str, Any]:
    """Every step of ``final``'s game: who decided, the decision, the rules it applied, and
    each view at each step (step 0: the start).

    A step's ``text`` is the decision in full (what "everything" shows); ``seen[p]`` is the
    decision as player ``p`` saw it (:meth:`Game.decision_text_seen`, made from their views:
    an opponent's secret is ``secret ?``), what the page shows in ``p``'s view (INFO-1,
    MK-INFO-1)."""
    part = _viewer_part(game)
    players = list(game.players(final))
    states = list(game.states(final))
    decisions = game.history(final)
    steps = []
    for k, decision in enumerate(decisions):
        before, after = states[k], states[k + 1]
        mover = game.current_player(before)
        steps.append({"who": player_json(mover) if mover != CHANCE else "chance",
                      "text": game.decision_text(decision),
                      "seen": [game.decision_text_seen(before, decision, after, p)
                               for p in players],
                      "decision": game.decision_to_json(decision),
                      "rules": [] if part is None else list(part.rules(before, decision, after))})
    views: dict[str, Any] = {}
    if part is not None:
        views["all"] = _deltas(part.everything(s) for s in states)
    for p in players:
        # A game whose views grow with it (Maiko's log, with perfect recall) may make them
        # all at once (its viewer part's ``views``), the same as the engine's one by one.
        views[str(p)] = _deltas(part.views(states, p) if hasattr(part, "views") else
                                (game.view_to_json(game.observe(s, p)) for s in states))
    return {"steps": steps, "views": views}


def pack(value: Any) -> str:
    """``value`` as compact JSON, deflated and base64-encoded (the page inflates it with the
    browser's own ``DecompressionStream``)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(zlib.compress(text, 9)).decode("ascii")


def unpack(text: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))


def game_entry(game: Game, final: Any, label: str) -> dict[str, Any]:
    """One game for a page: what its line in the list says, and its packed steps."""
    unit, length = game.length(final)
    end = end_json(game, final)
    return {"label": label, "game": game.name, "title": game.title,
            "options": game.options_of(game.config_of(final)),
            "players": len(game.players(final)), "first_player": game.first_player(final),
            "length": plural(length, unit.removesuffix("s"), unit), "end": end,
            "z": pack(game_steps(game, final))}


def unreadable_entry(label: str, verdict: str) -> dict[str, Any]:
    """A record the engine did not accept: its line in the list says why (``validate``'s
    verdict); it has no steps."""
    return {"label": label, "game": None, "verdict": verdict}


def _asset(name: str) -> str:
    return (resources.files(__package__) / name).read_text(encoding="utf-8")


def page(kind: str, title: str, data: dict[str, Any], games: Sequence[Game] = (),
         body: str = "") -> str:
    """The whole page: ``data`` embedded, the scripts that draw ``games``' boards, and
    ``body`` (HTML made here, escaped) before the replay."""
    boards = "\n".join(f"<script>\n{_board_script(g)}\n</script>"
                       for g in sorted(set(games), key=lambda g: g.name) if _board_script(g))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_POLICY}">
<title>{html.escape(title)}</title>
<style>
{_asset("page.css")}
</style>
</head>
<body data-kind="{html.escape(kind)}">
<header><h1>{html.escape(title)}</h1></header>
<main id="main">
{body}
</main>
<script type="application/json" id="hk-data">{embed(data)}</script>
<script>
{_asset("page.js")}
</script>
{boards}
<script>HK.start();</script>
</body>
</html>
"""
