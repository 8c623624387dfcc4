"""Adapters whose ``view_changes`` (protocol 4) misbehave while every view they give whole with
``observe`` is right, as a hand-written delta encoder does: each is the reference adapter with
one slip. ``python tests/changes_adapters.py NAME`` serves one (tests/ on ``PYTHONPATH``)."""

from __future__ import annotations

import json
import sys
from typing import Any

from hanamikoji.oracle.core.adapter import Adapter
from hanamikoji.oracle.core.protocol import CHANGES_PROTOCOL


class _Changes(Adapter):
    def __init__(self) -> None:
        super().__init__(protocol=CHANGES_PROTOCOL)
        self.seen = 0  # view_changes answered, over the process

    def view_changes(self, request: dict) -> dict:
        answer = super().view_changes(request)
        self.seen += 1
        answer["view_changes"] = self.slip(answer["view_changes"])
        return answer

    def slip(self, changes: dict[str, Any]) -> dict[str, Any]:
        return changes


class ForgetsTheHand(_Changes):
    """Leaves the hand out of every change after the first view of a game."""

    def slip(self, changes: dict[str, Any]) -> dict[str, Any]:
        if "turn" not in changes.get("set", {}) or "log" in changes.get("set", {}):
            changes.get("set", {}).pop("hand", None)
            changes.get("append", {}).pop("hand", None)
        return changes


class AppendsTwice(_Changes):
    """Writes every appended item twice."""

    def slip(self, changes: dict[str, Any]) -> dict[str, Any]:
        for key, items in changes.get("append", {}).items():
            changes["append"][key] = items + items
        return changes


class SetsListsWhole(_Changes):
    """Sets a list that grew whole rather than appending its new items: not the reference's
    text, but the same views (it must agree)."""

    def slip(self, changes: dict[str, Any]) -> dict[str, Any]:
        appended = changes.pop("append", {})
        if appended:
            state_view = self.game.view_to_json(self.game.observe(self.state, self.player))
            changes.setdefault("set", {}).update({key: state_view[key] for key in appended})
            changes["set"] = dict(sorted(changes["set"].items()))
        return changes

    def view_changes(self, request: dict) -> dict:
        self.player = request["player"]
        return super().view_changes(request)


class KeepsAcrossGames(_Changes):
    """Does not start afresh at new_game: the first views of a game are changes from the last
    views of the game before."""

    def new_game(self, request: dict) -> dict:
        kept = self.changes
        answer = super().new_game(request)
        self.changes = kept
        return answer


class DropsWhatIsThere(_Changes):
    """Says a key is gone that the view still has, once a game is under way."""

    def slip(self, changes: dict[str, Any]) -> dict[str, Any]:
        if self.seen > 4 and "set" in changes and "turn" in changes["set"]:
            changes["drop"] = ["turn"]
        return changes


ADAPTERS = {"forgets-the-hand": ForgetsTheHand, "appends-twice": AppendsTwice,
            "sets-lists-whole": SetsListsWhole, "keeps-across-games": KeepsAcrossGames,
            "drops-what-is-there": DropsWhatIsThere}


if __name__ == "__main__":
    adapter = ADAPTERS[sys.argv[1]]()
    # Every answer as JSON text (the subclasses change the decoded answer, so no fast path).
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(adapter.answer(line), sort_keys=True,
                                        separators=(",", ":")) + "\n")
            sys.stdout.flush()
