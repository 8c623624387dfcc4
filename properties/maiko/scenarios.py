"""Positions built by decisions: a layout with chosen tiles on chosen spaces, then play.

>>> config = configure(2, "pink,green")
>>> state = start(config, ["pink-0", "green-0"])
>>> state = play(state, "flip 0", "flip 1")
>>> state.boards[0][0 * 4 + 2], state.boards[0][0 * 4 + 3]   # item 0: one pink, one green
(1, 1)
"""

from __future__ import annotations

import random
from typing import Iterator, Sequence

from hanamikoji.engine.maiko import (
    Colour,
    Config,
    Danna,
    Decision,
    EndTurn,
    Flip,
    Layout,
    OkaSan,
    OneSan,
    OneSanStop,
    Sabanto,
    State,
    Sweep,
    apply,
    legal_actions,
    new_game,
    parse_tile,
    random_layout,
)
from hanamikoji.engine.maiko.game import Phase

__all__ = ["configure", "arrange", "start", "play", "decision", "random_states", "random_game",
           "KIMONO", "COMB", "BONSAI"]

#: The three items the book names (spec conventions).
KIMONO, COMB, BONSAI = 0, 1, 2


def configure(players: int = 2, colours: str | None = None, removed: str | None = None) -> Config:
    names = colours.split(",") if colours else None
    return Config.make(players, names, removed)


def arrange(config: Config, front: Sequence[str]) -> Layout:
    """A layout with ``front[i]`` on space ``i`` and the other tiles in play after them, in
    code order (a deterministic rest, so tests can name the spaces they use)."""
    rest = list(config.tiles)
    chosen = []
    for name in front:
        code = parse_tile(name)
        rest.remove(code)  # ValueError: the test asked for a tile that is not in play
        chosen.append(code)
    return Layout(tuple(chosen + rest))


def start(config: Config, front: Sequence[str], first_player: int = 0) -> State:
    """A game under ``config`` laid out by :func:`arrange`, before its first decision."""
    return apply(new_game(config, first_player), arrange(config, front))


def decision(text: str) -> Decision:
    """A decision written for people: ``flip 3``, ``danna 3``, ``one-san 3``, ``stop``,
    ``oka-san 2 3`` (owner, item), ``sabanto 2 green``, ``sweep 4 pink``, ``sweep 4 -``,
    ``end``."""
    word, *args = text.split()
    if word == "flip":
        return Flip(int(args[0]))
    if word == "danna":
        return Danna(int(args[0]))
    if word == "one-san":
        return OneSan(int(args[0]))
    if word == "stop":
        return OneSanStop()
    if word == "oka-san":
        return OkaSan(int(args[0]), int(args[1]))
    if word == "sabanto":
        return Sabanto(int(args[0]), Colour[args[1].upper()])
    if word == "sweep":
        return Sweep(int(args[0]), None if args[1] == "-" else Colour[args[1].upper()])
    if word == "end":
        return EndTurn()
    raise ValueError(f"unknown decision {text!r}")


def play(state: State, *decisions: str | Decision) -> State:
    """``state`` after each decision in turn (text as :func:`decision` reads it, or values)."""
    for item in decisions:
        state = apply(state, decision(item) if isinstance(item, str) else item)
    return state


def random_states(config: Config, seed: int, max_turns: int = 1_500) -> Iterator[State]:
    """Every state of one uniformly random game, the layout first (seeded)."""
    rng = random.Random(seed)
    state = new_game(config, rng.randrange(config.players))
    yield state
    state = apply(state, random_layout(config, rng))
    yield state
    while state.phase is not Phase.OVER and state.turn < max_turns:
        state = apply(state, rng.choice(legal_actions(state)))
        yield state


def random_game(config: Config, seed: int, max_turns: int = 1_500) -> State:
    """The last state of :func:`random_states`."""
    state = new_game(config)
    for state in random_states(config, seed, max_turns):  # noqa: B007  (the last one is kept)
        pass
    return state
