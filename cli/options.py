"""The game and its configuration, from a command's arguments.

Every game command takes ``--game NAME`` (default: the registry's default), ``--players N``,
``--variant V`` and ``--option KEY=VALUE`` (repeatable). ``--players`` and ``--variant`` are
the options most games have, spelled as flags; any option of any game can be given with
``--option``. The game checks every value (:meth:`Game.configure`), so the CLI knows no game's
options.
"""

from __future__ import annotations

import argparse
from typing import Any

from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import Game
from hanamikoji.engine.core.registry import DEFAULT, get


def add_game_arguments(parser: argparse.ArgumentParser, *, variant_help: str | None = None) -> None:
    """``--game``, ``--players``, ``--variant`` and ``--option`` on ``parser``."""
    group = parser.add_argument_group("game")
    group.add_argument("--game", default=DEFAULT, metavar="NAME",
                       help=f"the game (default {DEFAULT}; see 'hanamikoji games')")
    group.add_argument("--players", type=str, default=None, metavar="N",
                       help="number of players (the game's default if not given)")
    group.add_argument("--variant", default=None, metavar="V",
                       help=variant_help or "rules preset, for a game that has a variant "
                                            "option (see 'hanamikoji games')")
    group.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="any option of the game (repeatable; see 'hanamikoji games')")


class GameArgumentError(OptionError):
    """A ``--game``/``--players``/``--variant``/``--option`` the game does not take."""


def option_values(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, parsed by the game's own :class:`Option`\\ s."""
    known = {option.name: option for option in game.options}
    given: list[tuple[str, str, str]] = []  # (name, text, how it was written)
    for item in getattr(args, "option", None) or []:
        key, equals, text = item.partition("=")
        if not equals or not key:
            raise GameArgumentError(f"--option {item!r}: expected KEY=VALUE")
        given.append((key, text, f"--option {key}"))
    if getattr(args, "variant", None) is not None:
        given.append(("variant", args.variant, "--variant"))
    values: dict[str, Any] = {}
    players = getattr(args, "players", None)
    if players is not None:
        if "players" in known:
            given.append(("players", players, "--players"))
        else:
            from hanamikoji.runtime.base import integer

            try:
                count = integer(players)
            except argparse.ArgumentTypeError as error:
                raise GameArgumentError(f"--players {error}") from None
            if not game.min_players <= count <= game.max_players:
                seats = (str(game.min_players) if game.min_players == game.max_players
                         else f"{game.min_players} to {game.max_players}")
                raise GameArgumentError(f"{game.name} is played by {seats} players, not {count}")
    for key, text, how in given:
        option = known.get(key)
        if option is None:
            raise GameArgumentError(f"{how}: game {game.name} has no option {key!r}; its options: "
                                    + (", ".join(known) or "none"))
        if key in values:
            raise GameArgumentError(f"{how}: option {key} given twice")
        try:
            values[key] = option.parse(text)
        except OptionError as error:
            raise GameArgumentError(f"{how}: {error.message}") from None
    return values


def game_and_config(args: argparse.Namespace) -> tuple[Game, Any]:
    """The game ``args`` names and its configuration (:class:`OptionError` if either is
    wrong: the CLI reports it as a usage error)."""
    game = get(getattr(args, "game", None) or DEFAULT)
    return game, game.configure(option_values(game, args))


def describe_games(names: list[str]) -> list[dict[str, Any]]:
    """What ``hanamikoji games --json`` prints: each game's type information."""
    out = []
    for name in names:
        game = get(name)
        out.append({
            "name": game.name, "title": game.title,
            "players": {"min": game.min_players, "max": game.max_players},
            "options": [{"name": o.name, "default": o.default, "takes": o.describe(),
                         "help": o.help} for o in game.options],
            "record_format": game.record_format, "rulebooks": list(game.rulebooks),
            "length_unit": game.length_unit,
            "spec": game.spec_file,
        })
    return out
