"""Hanamikoji's notations for ``--notation`` and ``convert`` (:mod:`hanamikoji.oracle.core.notation`):
``buaa``, the history strings of the BUAA 2026 course (:mod:`.buaa`), one game a line, played
under the course's rules, the variant ``italian-three-rounds`` (VAR-IT-1)."""

from __future__ import annotations

import re
from typing import Any

from hanamikoji.engine.hanamikoji.rules import ITALIAN_THREE_ROUNDS
from hanamikoji.oracle.core.notation import NotationExtension
from hanamikoji.oracle.hanamikoji import buaa


#: A line of moves in the notation's shape: an optional first player, then moves (a digit and
#: letters, perhaps a pick) and round separators; what the rules say of it is not asked.
_SHAPE = re.compile(r"\s*(\d\s*:)?(\s*([1-4][A-GX]+(-[A-G]*)?|\|))+\s*")


class HanamikojiNotation(NotationExtension):
    names = ("buaa",)

    def render(self, name: str, state: Any, player: int | None) -> list[str]:
        return buaa.render_game(state, player)

    def looks_like(self, name: str, line: str) -> bool:
        return _SHAPE.fullmatch(line) is not None

    def title(self, name: str) -> str:
        return "the course's notation"

    def read(self, name: str, line: str) -> Any:
        return buaa.parse_game(line)

    def write(self, name: str, state: Any) -> str:
        if state.rules != ITALIAN_THREE_ROUNDS:
            raise buaa.NotationError(
                f"the course's notation has only the italian three-round rules (the variant "
                f"{ITALIAN_THREE_ROUNDS.name}); this game is of the variant {state.rules.name}",
                "VAR-IT-1")
        return buaa.game_text(state)


EXTENSION = HanamikojiNotation
