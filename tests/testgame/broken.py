"""Two deliberately broken versions of the test game, to prove that the generic properties of
properties/core/ bite on a game they have never heard of.

Each is a subclass of :class:`~.game.TestGame` with one rule broken, named in ``bug`` and
``rules``, and the generic property that must catch it in ``caught_by``. Load one in another
process as ``testgame.broken:LEAKY_VIEW`` (with tests/ on the import path).

The two the issue asks for are :data:`LEAKY_VIEW` and :data:`CHIP_FROM_NOTHING`;
:data:`HASH_SEEDED` breaks the engine's contract (the same seed, the same game) rather than a rule.

>>> sorted(BROKEN)
['testgame-chip-from-nothing', 'testgame-hash-seeded', 'testgame-leaky-view']
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import attrs

from .game import Deal, Move, State, TestGame, View

__all__ = ["LeakyView", "ChipFromNothing", "HashSeeded", "LEAKY_VIEW", "CHIP_FROM_NOTHING",
           "HASH_SEEDED", "BROKEN"]


class LeakyView(TestGame):
    """TG-INFO-1 broken: a player's view also shows the card of the player to their left."""

    name = "testgame-leaky-view"
    bug: ClassVar[str] = "a view shows the card of the player to the left"
    rules: ClassVar[tuple[str, ...]] = ("TG-INFO-1",)
    caught_by: ClassVar[str] = "views-leak-nothing"

    def observe(self, state: State, player: int) -> View:
        view = super().observe(state, player)
        if state.cards is None:
            return view
        left = (player + 1) % state.config.players
        shown = list(view.shown)
        shown[left] = state.cards[left]
        return attrs.evolve(view, shown=tuple(shown))


class ChipFromNothing(TestGame):
    """TG-SETUP-1, TG-BET-1 broken: a bet puts a chip into the pot without taking it from the
    bettor's stack."""

    name = "testgame-chip-from-nothing"
    bug: ClassVar[str] = "a bet adds a chip to the pot but takes none from the bettor"
    rules: ClassVar[tuple[str, ...]] = ("TG-SETUP-1", "TG-BET-1")
    caught_by: ClassVar[str] = "ledger-is-conserved"

    def apply(self, state: State, decision: Any) -> State:
        after = super().apply(state, decision)
        if decision is Move.BET:
            bettor = state.to_move
            stacks = tuple(s + 1 if p == bettor else s for p, s in enumerate(after.stacks))
            after = attrs.evolve(after, stacks=stacks)
        return after


class HashSeeded(TestGame):
    """(The engine's contract, no rule.) The deal is ordered by ``hash`` of text, which changes
    with PYTHONHASHSEED: the same seed gives another game in another process."""

    name = "testgame-hash-seeded"
    bug: ClassVar[str] = "the deal depends on the process's hash seed"
    rules: ClassVar[tuple[str, ...]] = ()
    caught_by: ClassVar[str] = "seeded-games-are-reproducible"

    def sample_chance(self, state: State, rng: random.Random) -> Deal:
        salt = str(rng.random())
        cards = sorted(range(state.config.cards), key=lambda card: hash(f"{salt}/{card}"))
        return Deal(tuple(cards[:state.config.players]))


LEAKY_VIEW = LeakyView()
CHIP_FROM_NOTHING = ChipFromNothing()
HASH_SEEDED = HashSeeded()
BROKEN: dict[str, TestGame] = {game.name: game
                               for game in (LEAKY_VIEW, CHIP_FROM_NOTHING, HASH_SEEDED)}
