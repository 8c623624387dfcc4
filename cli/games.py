"""``hanamikoji games``: the registered games, their players and their options
(:func:`hanamikoji.cli.options.describe_games`)."""

from __future__ import annotations

import argparse
import json

from hanamikoji.cli.options import describe_games
from hanamikoji.engine.core.words import value_text


def games(args: argparse.Namespace) -> int:
    """``hanamikoji games [--json]``: the registered games."""
    from hanamikoji.engine.core.registry import available

    described = describe_games(list(available()))
    if args.json:
        print(json.dumps({"games": described}))
        return 0
    for game in described:
        players = game["players"]
        seats = (str(players["min"]) if players["min"] == players["max"]
                 else f"{players['min']} to {players['max']}")
        print(f"{game['name']}: {game['title']}, {seats} players, records {game['record_format']}, "
              f"spec {game['spec']}, length in {game['length_unit']}")
        for option in game["options"]:
            print(f"  --option {option['name']}=...  {option['help']} "
                  f"(default {value_text(option['default'])}; {option['takes']})")
    return 0
