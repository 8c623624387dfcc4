"""The games ``hanamikoji diff`` plays: the configurations they are drawn from
(:func:`configurations`), one game drawn from a source of choices and compared step by step
(:func:`play_drawn`), and Hypothesis's draws kept to the seed alone while a diff runs
(:func:`seed_only_draws`).

Where the choices come from (a seeded ``random.Random``, or Hypothesis to shrink) is
:mod:`hanamikoji.oracle.core.diff_draw`; what compares each step is the match a caller gives
(:class:`hanamikoji.oracle.core.diff_compare.DiffGame`, or one that writes the game down first,
:mod:`hanamikoji.oracle.core.diff_script`). Part of the harness of
:mod:`hanamikoji.oracle.core.diff`, where the names other modules import are still found.
"""

from __future__ import annotations

import itertools
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from hanamikoji.engine.core.errors import OptionError
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core.protocol import dumps


#: Decisions after which a game of a game with no bound of its own stops being compared: above
#: the length of uniformly random games of Maiko (about 500 to 1,000 decisions with 3 or 4
#: players), so that their ends are compared too.
MAX_DECISIONS = 1200
#: How many of the first and of the last legal decisions of each step are kept as probes.
PROBES = 8


# --- Hypothesis: games ----------------------------------------------------------------------


_draws_lock = threading.Lock()
_draws_depth = 0
_draws_saved: Any = None


@contextmanager
def seed_only_draws() -> Iterator[None]:
    """While it holds, Hypothesis draws games from the seed alone, whatever this process did
    before. Hypothesis (6.170 here) now and then draws an integer from a pool of constants
    read in the source of every module the process has imported from outside the standard
    library and site-packages (``providers._get_local_constants``): a pool that grows as
    modules are imported, and differs between a clone and an installed wheel. A decision's
    index or a chance seed then depended on what the process had imported: a diff shard run
    after another, or in a test's process, drew other games for the same seed. The pool is
    empty while a diff runs (the constants built into Hypothesis stay). Nests, and holds
    across threads (a Dask worker runs shards in threads of one process); a Hypothesis
    without the pool is left as it is."""
    global _draws_depth, _draws_saved
    providers: Any
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # no pool in this version of Hypothesis
        providers = None
    if providers is None or not hasattr(providers, "_get_local_constants"):
        yield
        return

    def cleared() -> None:  # cached draws of constants still hold the pool's
        cache = getattr(providers, "CONSTANTS_CACHE", None)
        if cache is not None and hasattr(cache, "cache"):
            cache.cache.clear()

    empty = Constants()
    with _draws_lock:
        if _draws_depth == 0:
            _draws_saved = providers._get_local_constants
            providers._get_local_constants = lambda: empty
            cleared()
        _draws_depth += 1
    try:
        yield
    finally:
        with _draws_lock:
            _draws_depth -= 1
            if _draws_depth == 0:
                providers._get_local_constants = _draws_saved
                _draws_saved = None
                cleared()


def drawing(data: Any) -> Callable[..., Any]:
    """``data.draw`` (Hypothesis's ``st.data()``) for the draws of a game, taking the same
    ``(strategy, label=...)``: the same choices, so the same games, the same shrinking. The
    public draw wraps each draw in what a game of diff never uses (a note of the value for a
    failing test's report, a span for the explain phase, a check that the strategy left the
    global random alone, two copies of its state per draw), which cost about as much as the
    draw itself over a game's hundreds of draws; so the draw of the data's own
    ``ConjectureData`` is called where there is one (else ``data.draw`` itself)."""
    inner = getattr(getattr(data, "conjecture_data", None), "draw", None)
    if inner is None:
        return data.draw

    def draw(strategy: Any, label: Any = None) -> Any:
        return inner(strategy)

    return draw


def play_drawn(draws: Any, match_for: Callable[[Any, int], Any], game: Game,
               configs: Sequence[Any], plan: Callable[[Any], Any] | None = None) -> None:
    """One game, its choices from ``draws`` (:class:`.diff_draw.Draws`), compared at every step
    by the match ``match_for(config, first_player)`` makes (a :class:`DiffGame`, or one that
    writes the whole game down first): the options among ``configs``, the first player, every
    chance outcome (drawn by the game from a drawn seed) and every decision among the
    reference's legal ones; now and then a probe, a decision legal earlier in the game that the
    rules forbid now.

    ``plan`` (a game's own, optional) gives a decision for a state, or None: what a player who
    knows everything the reference knows would do to bring about what uniform play rarely
    reaches (Maiko: pairs, so that boards fill and games end). Half the games (the first the
    draws shrink to) then follow it for about three decisions in four, the others never."""
    import random

    integer = draws.integer
    config = configs[integer(0, len(configs) - 1)]
    first = integer(0, game.num_players(config) - 1)
    planned = plan is not None and integer(0, 1) == 0
    match = match_for(config, first)
    # the match's, where it has them: the decisions it wrote at this step, not made again
    legal_actions = getattr(match, "legal_actions", game.legal_actions)
    current_player = getattr(match, "current_player", game.current_player)
    pick = draws.pick
    state = match.start()
    # Decisions legal somewhere earlier in this game, each once: the probes. The first and the
    # last few of each legal list are kept (a game lists its kinds of decision in an order of
    # its own: Maiko's flips come first and its tutor visits last).
    seen: list[Any] = []
    known: set[Any] = set()
    # The decision objects met so far, by identity (an engine that makes each decision once
    # offers the same object again and again: it is known without being hashed), each kept so
    # that its id names no other object meanwhile.
    met: dict[int, Any] = {}
    bound = game.max_decisions(config) or MAX_DECISIONS
    for _ in range(bound + 1):
        with draws.step():  # a step is one unit to Hypothesis's shrinker
            match.compare(state)
            if game.is_terminal(state):
                return
            if current_player(state) == CHANCE:
                seed = integer(0, 2 ** 32 - 1)
                state = match.send(state, game.sample_chance(state, random.Random(seed)))
                continue
            legal = legal_actions(state)
            if seen and integer(0, 3) == 0:
                match.probe(state, pick(seen))
            ends = legal if len(legal) <= 2 * PROBES else [*legal[:PROBES], *legal[-PROBES:]]
            # (``met`` keeps each object, so no other object has its id meanwhile)
            for decision in () if all(map(met.__contains__, map(id, ends))) else ends:
                if id(decision) in met:
                    continue
                met[id(decision)] = decision
                key = decision  # its own key when it can be one, else its JSON text
                try:
                    new = key not in known
                except TypeError:
                    key = dumps(game.decision_to_json(decision))
                    new = key not in known
                if new:
                    known.add(key)
                    seen.append(decision)
            decision = None
            if planned and integer(0, 3) < 3:
                decision = plan(state)  # type: ignore[misc]
                try:  # the reference's own object, whose texts are kept
                    decision = legal[legal.index(decision)]
                except ValueError:  # not legal here
                    decision = None
            if decision is None:
                # An index: a uniform choice, shrinking towards the first decision.
                decision = pick(legal)
            state = match.send(state, decision)


#: The most configurations one run draws its games from.
MAX_CONFIGS = 64
#: A whole-number option spanning at most this many values is drawn when not fixed.
MAX_RANGE = 8


def configurations(game: Game, fixed: dict[str, Any]) -> tuple[Any, ...]:
    """The configurations games are drawn from: the options in ``fixed`` as given; every other
    option with choices takes each of them, and one bounded to a small range (``players``) each
    of its values; the rest keep their defaults. The all-defaults one comes first (Hypothesis
    shrinks towards it); combinations the game refuses are left out."""
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for option in game.options:
        if option.name in fixed:
            values: tuple[Any, ...] = (fixed[option.name],)
        elif option.choices is not None:
            values = tuple(option.choices)
        elif option.low is not None and option.high is not None and \
                option.high - option.low < MAX_RANGE:
            values = tuple(range(option.low, option.high + 1))
        else:
            values = (option.default,)
        if option.default in values:  # the defaults first
            values = (option.default,) + tuple(v for v in values if v != option.default)
        axes.append((option.name, values))
    configs: list[Any] = []
    for combination in itertools.product(*(values for _, values in axes)):
        try:
            config = game.configure(dict(zip((name for name, _ in axes), combination)))
        except OptionError:
            continue
        if config not in configs:
            configs.append(config)
        if len(configs) == MAX_CONFIGS:
            break
    return tuple(configs) or (game.configure(fixed),)  # none taken: the game's own error
