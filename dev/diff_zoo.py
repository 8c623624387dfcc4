"""The verdicts of ``diff`` on both bug zoos, and the size of each shrunk report, as JSON lines:
run it under two installs and compare (``--shrink`` as the command's default).

    PYTHONPATH=tests python dev/diff_zoo.py > new.jsonl
    PYTHONPATH=tests OLD_PYTHON dev/diff_zoo.py > old.jsonl

Each line: the engine, the status, where it was found (the request's ``op``), the decisions of
the shrunk game and the length of their JSON (:meth:`Divergence.size`), the games compared and
replayed while shrinking. Hanamikoji's engines (tests/broken_engines.py) are run through
docs/examples/adapter.py, Maiko's (tests/maiko/broken.py) through the reference adapter, as
tests/test_diff_batch.py runs them; ``--only NAME`` runs some.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = [sys.executable, str(ROOT / "docs" / "examples" / "adapter.py")]
CORE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]
MAIKO = {"maiko-column-paid-twice": "COLUMN_PAID_TWICE",
         "maiko-friend-keeps-turn": "FRIEND_KEEPS_TURN",
         "maiko-pair-ends-turn": "PAIR_ENDS_TURN",
         "maiko-peek-leaks": "PEEK_LEAKS",
         "maiko-tie-break-ignores-own": "TIE_BREAK_IGNORES_OWN"}


def cases() -> list[tuple[str, list[str], dict]]:
    from broken_engines import BROKEN
    from hanamikoji.engine.core.registry import get
    from hanamikoji.oracle.core.diff import hooks

    out = [(name, [*EXAMPLE, "--engine", f"broken_engines:{name}"], {"games": 60})
           for name in sorted(BROKEN)]
    game = get("maiko")
    for name, attribute in sorted(MAIKO.items()):
        players = 2 if name == "maiko-tie-break-ignores-own" else 3
        configs = tuple(c for c in hooks(game).configs(None) if game.num_players(c) == players)
        out.append((name, [*CORE, "--engine", f"maiko=maiko.broken:{attribute}"],
                    {"games": 30, "game": game, "variants": configs}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--shrink", type=int, default=200)
    args = parser.parse_args()
    from hanamikoji.oracle.core.diff import compare_engines

    for name, argv, options in cases():
        if args.only and name not in args.only:
            continue
        report = compare_engines(argv, seed=0, shrink=args.shrink, timeout=600.0, **options)
        d = report.divergence
        print(json.dumps({"engine": name, "status": "agree" if d is None else "divergence",
                          "op": None if d is None or not isinstance(d.request, dict)
                          else d.request.get("op"),
                          "decisions": None if d is None else len(d.decisions),
                          "size": None if d is None else d.size()[1],
                          "games": report.games, "shrink_games": report.shrink_games}),
              flush=True)


if __name__ == "__main__":
    main()
