"""Maiko's part of the bot protocol: a decision JSON whose field is out of range names the rule
the engine's own checks of that field cite (the codec says where the JSON is wrong, not which
rule): a space that is no space of the board MK-COMP-5, an item or colour that is none
MK-COMP-1, an Oka-san owner that is no player MK-SETUP-1.

>>> from hanamikoji.engine.core.registry import get
>>> try:
...     EXTENSION(get("maiko")).read_decision(None, {"kind": "flip", "space": 99})
... except ValueError as error:
...     print(error.rule)
MK-COMP-5
"""

from __future__ import annotations

import re
from typing import Any

from hanamikoji.engine.core.errors import InvalidActionError
from hanamikoji.oracle.core.bot import BotExtension

#: The rule of each field, as the engine's checks of that field cite it.
FIELD_RULES = {"space": "MK-COMP-5", "item": "MK-COMP-1", "colour": "MK-COMP-1",
               "owner": "MK-SETUP-1"}
_FIELD = re.compile(r"^\$\.decision\.(\w+):")


class MaikoBots(BotExtension):
    """The field's rule for a decision JSON out of range."""

    def read_decision(self, state: Any, answer: Any) -> Any:
        try:
            return super().read_decision(state, answer)
        except InvalidActionError as error:
            found = _FIELD.match(error.message)
            rule = error.rule or (FIELD_RULES.get(found.group(1)) if found else None)
            raise InvalidActionError(error.message, rule) from None


EXTENSION = MaikoBots
