"""Write the golden OpenSpiel playthroughs of tests/integrations/playthroughs/ with OpenSpiel's own
generator (``open_spiel.python.algorithms.generate_playthrough``), as OpenSpiel does for its
games. After a deliberate change of an encoding: ``python tests/integrations/regenerate.py``
(test_openspiel.py fails until the files are regenerated).

Each game's actions are chosen here, then the generator writes the file from them, so that each
playthrough shows a whole game that ends by the rules in a few dozen decisions: chance draws by
their probabilities and Hanamikoji players uniformly at random from a seed picked so that the
game lasts several rounds; Maiko players make pairs as someone who knew the layout would
(:func:`hanamikoji.oracle.maiko.diff.plan`: the first flip of a tile whose item has another tile face down, then
that tile), else play uniformly at random, so a board fills in a few turns instead of hundreds.
"""

from __future__ import annotations

import pathlib
import random

import pyspiel
from open_spiel.python.algorithms import generate_playthrough

from hanamikoji.integrations import openspiel as O

HERE = pathlib.Path(__file__).parent / "playthroughs"
#: file stem -> (game string, seed of the choices)
GAMES = {
    "python_hanamikoji": ("python_hanamikoji", 4),
    "python_hanamikoji_italian": ("python_hanamikoji(variant=italian-three-rounds)", 12),
    "python_maiko_2": ("python_maiko(players=2)", 1),
    "python_maiko_3": ("python_maiko(players=3)", 1),
    "python_maiko_4": ("python_maiko(players=4)", 1),
}


def actions(game_string: str, seed: int) -> list[int]:
    """The whole game's actions, chosen as the module docstring says."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state()
    from hanamikoji.oracle.maiko.diff import plan as maiko_plan

    plan = maiko_plan if O.play_of(state).encoding.game.name == "maiko" else None
    chosen = []
    while not state.is_terminal():
        if state.is_chance_node():
            kinds, weights = zip(*state.chance_outcomes())
            action = rng.choices(kinds, weights)[0]
        else:
            planned = plan(O.engine_state(state)) if plan is not None else None
            legal = state.legal_actions()
            encoding = O.play_of(state).encoding
            action = (encoding.action_to_int(planned) if planned is not None
                      else rng.choice(legal))
            assert action in legal
        chosen.append(action)
        state.apply_action(action)
    return chosen


def playthrough(game_string: str, seed: int) -> str:
    return generate_playthrough.playthrough(game_string, actions(game_string, seed), seed=seed)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for stem, (game_string, seed) in GAMES.items():
        text = playthrough(game_string, seed)
        (HERE / f"{stem}.txt").write_text(text, encoding="utf-8")
        print(f"wrote {stem}.txt ({text.count(chr(10))} lines, {len(text) // 1024} KiB)")
