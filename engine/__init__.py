"""The immutable reference engine for Hanamikoji (spec/rules.md).

>>> import random
>>> from hanamikoji.engine import random_game, ITALIAN_THREE_ROUNDS
>>> final = random_game(random.Random(1), ITALIAN_THREE_ROUNDS)
>>> final.round < 3 and final.result is not None
True
"""

from .actions import (
    ALL_KINDS,
    Action,
    ActionKind,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Response,
    Secret,
    TradeOff,
)
from .cards import CHARM, EMPTY, FULL_DECK, GEISHA, NUM_CARDS, NUM_GEISHA, Cards
from .errors import HanamikojiError, IllegalActionError, InvalidActionError
from .game import (
    CHANCE,
    TERMINAL,
    TURNS_PER_ROUND,
    ObservedTurn,
    Phase,
    RoundScore,
    State,
    View,
    action_menu,
    apply,
    current_player,
    legal_actions,
    new_game,
    observe,
    random_deal,
    random_game,
    replay,
    score_markers,
)
from .rules import (
    ITALIAN_THREE_ROUNDS,
    PRESETS,
    STANDARD,
    Markers,
    Reason,
    Result,
    Rules,
    charm,
    geisha_count,
    held_values,
)

__all__ = [name for name in dir() if not name.startswith("_") and name not in {
    "actions", "cards", "errors", "game", "rules"}]
