"""The page of a divergence (``diff --save DIR``): the two engines' answers side by side at the
first differing step, key by key with the keys that differ marked, above a replay of the game
so far as the reference plays it, opened at that step.
"""

from __future__ import annotations

import html
import json
from typing import Any

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game

from .page import game_entry, page


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False, sort_keys=True)


def answer_rows(reference: Any, other: Any) -> list[tuple[str, str, str, bool]]:
    """(key, the reference's value, the other engine's, whether they differ), a row per key of
    the two answers (a view's keys when both answers hold a view), the differing keys first.

    >>> answer_rows({"view": {"a": 1, "b": 2}}, {"view": {"a": 1, "b": 3}})
    [('view.b', '2', '3', True), ('view.a', '1', '1', False)]
    """
    prefix = ""
    if isinstance(reference, dict) and isinstance(other, dict) and \
            isinstance(reference.get("view"), dict) and isinstance(other.get("view"), dict):
        reference, other, prefix = reference["view"], other["view"], "view."
    if not (isinstance(reference, dict) and isinstance(other, dict)):
        return [("answer", _compact(reference), _compact(other), reference != other)]
    missing = object()
    rows = []
    for key in sorted(set(reference) | set(other)):
        a, b = reference.get(key, missing), other.get(key, missing)
        rows.append((prefix + key, "(no such key)" if a is missing else _compact(a),
                     "(no such key)" if b is missing else _compact(b),
                     a is missing or b is missing or _compact(a) != _compact(b)))
    return sorted(rows, key=lambda row: not row[3])


def replayed(game: Game, divergence: dict[str, Any]) -> tuple[Any, GameError | None]:
    """The game so far, as the reference plays the decisions sent (None if it cannot), and
    the reference's error when it refuses the last of them: the other engine accepted a
    decision the rules forbid, so the game so far is the one before that decision."""
    decisions = divergence.get("decisions") or []
    try:
        config = game.configure(divergence.get("options") or {})
        state = game.new_game(config, divergence.get("first_player") or 0)
        for i, decision in enumerate(decisions):
            try:
                state = game.apply(state, game.decision_from_json(decision, f"$.decisions[{i}]"))
            except GameError as error:
                if i != len(decisions) - 1:
                    raise
                return state, error
    except (GameError, TypeError, ValueError):
        return None, None
    return state, None


def _refused(divergence: dict[str, Any], error: GameError) -> str:
    """The paragraph showing the decision the reference refused, apart from the replay."""
    e = html.escape
    texts = divergence.get("decisions_text") or []
    decisions = divergence.get("decisions") or []
    shown = texts[-1] if len(texts) == len(decisions) else _compact(decisions[-1])
    rule = f" (it breaks {error.rule})" if error.rule else ""
    return (f'<p class="refused">the decision the reference refuses{e(rule)}, decision '
            f'{len(decisions) - 1}, which the other engine accepted: <code>{e(shown)}</code>; '
            "the game so far stops before it</p>\n")


def divergence_page(game: Game, divergence: dict[str, Any], command: str) -> tuple[str, Any]:
    """The page, and the final state of the game so far (for its record; None if the
    reference cannot replay it)."""
    state, refused = replayed(game, divergence)
    e = html.escape
    rows = "\n".join(
        f'<tr class="{"differs" if differs else "same"}"><th scope="row">{e(key)}</th>'
        f'<td class="reference">{e(a)}</td><td class="other">{e(b)}</td></tr>'
        for key, a, b, differs in answer_rows(divergence.get("reference"),
                                              divergence.get("other")))
    decisions = divergence.get("decisions") or []
    body = f"""<section class="divergence" aria-label="The divergence">
<p class="status-divergence"><b>{e(divergence.get("message") or "")}</b></p>
<p>engine: <code>{e(command)}</code><br>game: {e(game.title)} ({e(_compact(divergence.get("options") or {}))}),
first player {e(str(divergence.get("first_player")))}; {len(decisions)} decisions sent</p>
<p>first differing step: <code class="request">{e(_compact(divergence.get("request")))}</code></p>
<table class="diff"><caption>The two answers, key by key (the keys that differ first, marked)</caption>
<thead><tr><th scope="col">key</th><th scope="col">reference</th><th scope="col">other engine</th></tr></thead>
<tbody>
{rows}
</tbody></table>
{"" if refused is None or state is None else _refused(divergence, refused)}</section>
"""
    games = []
    if state is not None:
        body += (f'<h2>The game so far, as the reference plays it</h2>\n'
                 f'<div data-replay="0" data-step="{len(game.history(state))}"></div>\n')
        games = [game_entry(game, state, "the game so far")]
    text = page("diff", f"Divergence: {game.title}", {"kind": "diff", "games": games,
                                                      "divergence": divergence},
                [game] if games else [], body)
    return text, state
