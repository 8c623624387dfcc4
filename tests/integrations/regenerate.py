"""Regenerate the golden OpenSpiel playthroughs of tests/integrations/playthroughs/ with
OpenSpiel's generator (open_spiel.python.algorithms.generate_playthrough), as OpenSpiel does
for its own games: ``python tests/integrations/regenerate.py``."""

import pathlib

import hanamikoji.integrations.openspiel  # noqa: F401  (registers the games)
from open_spiel.python.algorithms import generate_playthrough

HERE = pathlib.Path(__file__).parent / "playthroughs"
#: file stem -> (game string, seed of the generator's random choices)
GAMES = {
    "python_hanamikoji": ("python_hanamikoji", 7),
    "python_hanamikoji_italian": ("python_hanamikoji(variant=italian-three-rounds)", 7),
    "python_maiko_3": ("python_maiko(players=3)", 7),
}

if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for stem, (game, seed) in GAMES.items():
        text = generate_playthrough.playthrough(game, None, seed=seed)
        (HERE / f"{stem}.txt").write_text(text, encoding="utf-8")
        print(f"wrote {stem}.txt ({text.count(chr(10))} lines)")
