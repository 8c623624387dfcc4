"""An OpenSpiel algorithm on Hanamikoji: OpenSpiel's MCTS bot against a uniform random bot.

    pip install '.[openspiel]'
    python docs/examples/mcts_vs_random.py --games 300 --workers 2

MCTS needs the whole state, so the bot plays fair by determinizing: before each decision it
draws again everything hidden from it with the toolkit's resampler
(``hanamikoji.integrations.openspiel.determinized``: the opponent's hand, secret and trade-off,
the removed card, the deck) and searches that game (perfect-information Monte Carlo). Its leaf
values come from random games played on the reference engine from the leaf
(:class:`EngineRollouts`), faster than stepping through OpenSpiel. Seats alternate from game to
game; each game is drawn from its own seed, so a run is the same whatever ``--workers``.
Ctrl-C stops it with one line, ``interrupted``, and exit code 130.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import signal
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from hanamikoji.runtime.processes import sigint_deferred
from hanamikoji.engine.core.game import CHANCE
from hanamikoji.integrations import openspiel as O


class EngineRollouts(mcts.Evaluator):
    """MCTS leaf values: one random game from the leaf, played on the reference engine."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        play = O.play_of(state)
        rng, game = self._rng, play.encoding.game
        while play.drawn:  # a deal being drawn card by card: finish it
            kinds, weights = zip(*play.chance_outcomes())
            play = play.apply_kind(rng.choices(kinds, weights)[0])
        while not play.is_terminal():
            if play.current_player() == CHANCE:
                play = play.apply_chance(game.sample_chance(play.state, rng))
            else:
                play = play.apply_action(rng.choice(play.legal_actions()))
        return np.array(play.returns())

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def play_one(job: tuple[int, int, int, str]) -> float:
    """Game ``index`` of the run: the MCTS bot's return."""
    index, simulations, seed, variant = job
    game = pyspiel.load_game(f"python_hanamikoji(variant={variant})")
    rng = random.Random(f"{seed}/{index}")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                       evaluator=EngineRollouts(random.Random(rng.random())),
                       random_state=np.random.RandomState(rng.randrange(2**31)))
    seat = index % 2
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            kinds, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(kinds, weights)[0])
        elif state.current_player() == seat:
            state.apply_action(bot.step(O.determinized(state, seat, rng)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()[seat]


def ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C reaches every process of the terminal's group; only the
    main one answers it (it stops the pool), so the workers print no traceback of their own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations a move")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="standard",
                        choices=["standard", "italian-three-rounds"])
    args = parser.parse_args(argv)
    jobs = [(index, args.simulations, args.seed, args.variant) for index in range(args.games)]
    start = time.perf_counter()
    try:
        if args.workers > 1:
            with contextlib.ExitStack() as stack:
                # Made with Ctrl-C held back (the toolkit's sigint_deferred): one that landed
                # while the pool forks could be lost in a fork hook, or leave a half-made pool
                # that makes a new worker as the process ends. Held, it comes once the pool is
                # in the stack, whose exit ends it.
                with sigint_deferred():
                    pool = stack.enter_context(
                        multiprocessing.Pool(args.workers, initializer=ignore_interrupts))
                running = pool.map_async(play_one, jobs,
                                         chunksize=max(1, len(jobs) // (8 * args.workers)))
                # Waited for in short spells: Python runs a signal's handler in the main thread,
                # but the kernel may give Ctrl-C to any thread (numpy starts one, the pool three),
                # and a wait for the whole run would never wake to see it.
                while not running.ready():
                    running.wait(0.2)
                results = running.get()
        else:
            results = [play_one(job) for job in jobs]
    except KeyboardInterrupt:  # leaving the ``with`` has terminated the workers
        print("mcts_vs_random: interrupted", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    won, lost = sum(r > 0 for r in results), sum(r < 0 for r in results)
    print(f"MCTS ({args.simulations} simulations a move) against uniform random, {args.games} "
          f"games of {args.variant} Hanamikoji, seed {args.seed}: MCTS won {won} of "
          f"{args.games} ({100 * won / args.games:.1f}%), lost {lost}, "
          f"shared {args.games - won - lost}; {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
