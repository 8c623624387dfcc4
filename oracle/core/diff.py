"""``hanamikoji diff [--game NAME] -- COMMAND...``: compare another engine with the reference,
step by step, for any game.

The other engine runs as a separate process (``COMMAND``) that speaks the oracle protocol on its
standard input and output: one JSON object per line each way (docs/oracle.md). Hypothesis plays
games: it chooses the options (those not fixed on the command line), the first player, the chance
outcomes and every decision among the reference's legal ones, and now and then offers a decision
the rules forbid (a game may play its own way, :meth:`DiffExtension.play`: Hanamikoji's also
builds rounds to end with chosen sides). At every step the harness asks the other engine whose
turn it is, the legal decisions, every player's view and the result, and compares them with the
reference's through the game's codecs. The first difference fails the game; Hypothesis then
shrinks it to a shortest game that still differs, and the report shows that game and the first
differing step with both answers.

Requests: the general ones (``new_game`` naming the game, ``chance``) to an adapter that
declares protocol 2 in its answer to ``new_game``, and to any adapter of a game that has no
requests of its own; otherwise the game's own (:meth:`DiffExtension.new_game_request`,
:meth:`DiffExtension.chance_request`), so that adapters written before the core keep working.
What the harness knows of one game beyond its interface is that game's :class:`DiffExtension`
(``EXTENSION`` of ``hanamikoji.oracle.<game>.diff``; :mod:`hanamikoji.oracle.core.extension`).

An engine that crashes, prints something that is not a JSON line, or does not answer in time is
reported the same way, with what it printed on its standard error; an answer of any other shape
is a divergence, never an error of the harness.

This module holds the runs: :func:`compare_engines` (and :func:`compare_drawn`, its games drawn
from a seeded source and sent in batches, a divergence replayed step by step and shrunk by
Hypothesis) and :func:`check_leaks` (``diff --leaks``). Each part of the harness is a module of
its own, whose names this one re-exports: the other engine's process and the protocol's
exchange (:mod:`.diff_engine`), one game compared step by step and what the harness knows of a
game (:mod:`.diff_compare`), the games played and the configurations they are drawn from
(:mod:`.diff_games`), the check of seeded chance (:mod:`.diff_seeded`), the divergence and the
reports (:mod:`.diff_report`); the sources of choices (:mod:`.diff_draw`), a game sent in batches
(:mod:`.diff_script`), a diff past its first divergence (:mod:`.diff_groups`), ``--save``
(:mod:`.diff_save`) and a campaign's shards (:mod:`.diff_campaign`).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

from hanamikoji.runtime import interrupt
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.diff_compare import DiffGame, hooks
from hanamikoji.oracle.core.diff_engine import Engine, EngineFailure, cannot_start
from hanamikoji.oracle.core.diff_games import MAX_DECISIONS, play_drawn, seed_only_draws
from hanamikoji.oracle.core.diff_report import (Divergence, DivergenceFound, Leak, LeakReport,
                                              Report, _canonical, _Stop, _Unstarted)

# What other modules, the games' hooks and the tests import from here, each kept where it is
# used (the module docstring names the parts).
from hanamikoji.oracle.core.diff_compare import DiffExtension as DiffExtension
from hanamikoji.oracle.core.diff_compare import _following as _following
from hanamikoji.oracle.core.diff_engine import KEEPER as KEEPER
from hanamikoji.oracle.core.diff_engine import LINE_LIMIT as LINE_LIMIT
from hanamikoji.oracle.core.diff_engine import CannotStart as CannotStart
from hanamikoji.oracle.core.diff_engine import _short as _short
from hanamikoji.oracle.core.diff_games import configurations as configurations
from hanamikoji.oracle.core.diff_games import drawing as drawing
from hanamikoji.oracle.core.diff_report import _printable as _printable
from hanamikoji.oracle.core.diff_report import render as render
from hanamikoji.oracle.core.diff_report import render_leaks as render_leaks
from hanamikoji.oracle.core.diff_seeded import check_seeded as check_seeded
from hanamikoji.oracle.core.diff_seeded import end_ahead as end_ahead
from hanamikoji.oracle.core.diff_seeded import seeded_engines as seeded_engines

#: ``progress(description, done, total, decisions)``: told as each game (or pair) ends.
Progress = Callable[[str, int, int, int], None]


def play(data: Any, engine: Engine, game: Game, configs: Sequence[Any],
         plan: Callable[[Any], Any] | None = None) -> None:
    """One game, drawn by Hypothesis from ``data`` (``st.data()``), compared at every step on
    ``engine`` (:func:`play_drawn`)."""
    from hanamikoji.oracle.core.diff_draw import HypothesisDraws

    engine.ensure_started()
    play_drawn(HypothesisDraws(data), lambda config, first: DiffGame(engine, game, config, first),
               game, configs, plan)


def _settled(engine: Engine, game: Game, divergence: Divergence | None,
             hung: bool) -> tuple[Divergence | None, bool]:
    """Read the engine's output to its end once the games are done: a line nobody asked for is
    the diagnosis, whatever the answers before it looked like (a request answered twice shifts
    every later answer). The divergence and whether the engine hung, that line's if any."""
    extra = engine.settle()
    if extra is not None and not (divergence is not None and hung and
                                  divergence.message == extra.message):
        return Divergence(None, None, (), extra.request, None, None, extra.message, game.name,
                          where="when the engine was stopped after the games"), True
    return divergence, hung


def compare_engines(argv: Sequence[str], *, games: int = 100, seed: int = 0,
                    variants: Sequence[Any] | None = None, timeout: float = 10.0,
                    shrink: int = 200, game: Game | None = None,
                    progress: Progress | None = None, seeded_check: bool = True,
                    engine: Engine | None = None) -> Report:
    """Play up to ``games`` games of ``game`` (default: the registry's default) against the
    engine run by ``argv``, under the configurations ``variants`` (default: the game's own
    choice, :meth:`DiffExtension.configs`); the first divergence, shrunk towards a shortest game
    with at most ``shrink`` more games, or None. ``progress`` is told as each game ends.
    ``seeded_check``: first check that the engine's seeded chance depends on the seed alone
    (a campaign checks it in its first shard only). ``engine``: the engine of ``argv``,
    already launched (:meth:`Engine.launch`), which the run then owns and stops."""
    from hanamikoji.engine.core.registry import get

    game = get() if game is None else game
    configs = tuple(hooks(game).configs(None)) if variants is None else tuple(variants)

    engine = Engine(argv, timeout) if engine is None else engine
    try:  # whatever ends the run here (Ctrl-C while the engine starts too) stops the engine
        engine.ensure_started()  # CannotStart: reported before any game
        start = time.perf_counter()
        divergence = (hooks(game).check_seeded(argv, timeout, configs=configs)
                      if seeded_check else None)
        if divergence is None and hooks(game).draws_its_games():
            # a seeded source, Hypothesis only to shrink
            return compare_drawn(engine, game, configs, games=games, seed=seed, shrink=shrink,
                                 progress=progress, start=start)
    except BaseException:
        engine.stop()
        raise
    if divergence is not None:
        engine.stop()
        return Report(0, divergence, engine.starts, time.perf_counter() - start, False)
    # Only games that Hypothesis draws need it imported (about 0.2 s): not a seeded source's.
    from hypothesis import HealthCheck, Phase as HPhase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
    from hypothesis.errors import Flaky, StopTest
    # Games compared, as asked (each played to its end, or to the divergence found in it);
    # games Hypothesis cut short when its budget of draws for one game ran out (compared as
    # far as they went, not counted); games replayed while shrinking.
    compared = cut_short = shrinking = 0
    best: Divergence | None = None
    since_first = 0
    if progress is not None:
        progress("comparing", 0, games, engine.decisions)
    phases = [HPhase.explicit, HPhase.generate] + ([HPhase.shrink] if shrink > 0 else [])

    @hypothesis_seed(seed)
    @settings(max_examples=games, database=None, deadline=None, phases=phases,
              report_multiple_bugs=False, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(st.data())
    def one_game(data: Any) -> None:
        nonlocal compared, cut_short, shrinking, best, since_first
        interrupt.check()  # a Ctrl-C swallowed by a garbage-collector callback stops here
        if best is not None:
            since_first += 1
            if since_first > shrink:
                raise _Stop(best)
        finding = best is None
        cut = False
        try:
            hooks(game).play(data, engine, configs)
        except DivergenceFound as found:
            if best is None or found.divergence.size() < best.size():
                best = found.divergence
            raise
        except StopTest:
            cut = True
            raise
        finally:
            if not finding:
                shrinking += 1
            elif cut:
                cut_short += 1
            else:
                compared += 1
            if progress is not None:
                if finding:
                    progress("comparing", compared, games, engine.decisions)
                else:  # once a divergence is found, up to ``shrink`` more games shorten it
                    progress("shrinking", since_first, shrink, engine.decisions)

    hung = False
    try:
        with seed_only_draws():
            one_game()
    except DivergenceFound as found:
        divergence = found.divergence
    except _Stop as stop:
        divergence = stop.divergence
        hung = stop.hang
    except _Unstarted as unstarted:
        engine.stop()
        raise unstarted.error from None
    except Flaky:
        divergence = best
    except BaseException:
        engine.stop()
        raise
    if divergence is not None and best is not None and best.size() < divergence.size():
        divergence = best
    divergence, hung = _settled(engine, game, divergence, hung)
    return Report(compared, divergence, engine.starts, time.perf_counter() - start,
                  shrink > 0 and divergence is not None and not hung,
                  getattr(engine, "view_keys", None), shrinking, cut_short)


def compare_drawn(engine: Engine, game: Game, configs: Sequence[Any], *, games: int, seed: int,
                  shrink: int, progress: Progress | None, start: float) -> Report:
    """:func:`~.diff.compare_engines` after its check of seeded chance: ``games`` games, game
    ``i`` drawn from ``SeededDraws(seed, i)``, each sent as batches where the engine answers
    them; the first divergence, shrunk by Hypothesis from that game's choices in at most
    ``shrink`` more games."""
    from hanamikoji.oracle.core.diff_draw import SeededDraws
    from hanamikoji.oracle.core.diff_script import (Failed, Mismatch, Pipeline, ScriptedGame,
                                                    collector_for_games, free_stackframes)

    hook = hooks(game)

    def live(draws: Any) -> None:
        engine.ensure_started()
        hook.play_drawn(draws, lambda config, first: DiffGame(engine, game, config, first),
                        configs)

    compared = 0

    def done(index: int) -> None:  # games end in order: the count is the next game's index
        nonlocal compared
        compared = index + 1
        if progress is not None:
            progress("comparing", compared, games, engine.decisions)

    pipeline = Pipeline(engine, done, EngineFailure)
    made: dict[int, ScriptedGame] = {}  # the games that may still be in flight, by index

    def one(index: int) -> tuple[Divergence, list[int], bool] | None:
        """Game ``index``, written down and sent (its answers are judged later, as the next
        batch goes): None, or a divergence found in it step by step, the choices that led to
        it and whether it ended the search (a hang, a protocol error)."""
        def match_for(config: Any, first: int) -> ScriptedGame:
            made[index] = ScriptedGame(DiffGame(engine, game, config, first), pipeline, index)
            made.pop(index - 2, None)
            return made[index]

        draws = SeededDraws(seed, index)
        if pipeline.flight is None:
            engine.ensure_started()
        try:
            hook.play_drawn(draws, match_for, configs)
            made[index].flush()
            if made[index].live:
                done(index)
            return None
        except DivergenceFound as found:
            if index in made and made[index].live:
                return found.divergence, draws.choices, False
        except _Stop as stop:
            if index in made and made[index].live:
                return stop.divergence, draws.choices, stop.hang
        return _replayed(live, seed, index, made.get(index))

    def first_found() -> tuple[Divergence, list[int], bool] | None:
        """The games in order until one diverges: what was found in it, or None."""
        start = 0
        while True:
            try:
                for index in range(start, games):
                    interrupt.check()
                    found = one(index)
                    if found is not None:
                        done(index)
                        return found
                pipeline.land()
                return None
            except (Mismatch, Failed) as wrong:  # a game's batch: that game step by step
                if isinstance(wrong, Failed) and wrong.failure.unstarted:
                    raise _Unstarted(cannot_start(engine.argv, wrong.failure)) from None
                pipeline.flight = None
                scripted = made.get(wrong.index)
                # Answers that are the reference's but not its text (JSON written another
                # way, a view in the game's own order): judged as they are, the game agrees.
                judged = (isinstance(wrong, Mismatch) and scripted is not None
                          and scripted.judged(wrong))
                found = None if judged and getattr(wrong, "last", False) else _replayed(
                    live, seed, wrong.index, None if judged else scripted)
                done(wrong.index)
                if found is not None:
                    return found
                start = wrong.index + 1  # the games after it are drawn again, and sent
                made.clear()

    if progress is not None:
        progress("comparing", 0, games, engine.decisions)
    found: tuple[Divergence, list[int], bool] | None = None
    try:
        with free_stackframes(), collector_for_games():
            found = first_found()
        divergence = None if found is None else found[0]
        hung = found is not None and found[2]
        shrinking = 0
        if found is not None and shrink > 0 and not hung:
            divergence, hung, shrinking = _shrunk(live, found[0], found[1], seed, shrink,
                                                  engine, progress)
    except _Unstarted as unstarted:
        engine.stop()
        raise unstarted.error from None
    except BaseException:
        engine.stop()
        raise
    divergence, hung = _settled(engine, game, divergence, hung)
    return Report(compared, divergence, engine.starts, time.perf_counter() - start,
                  shrink > 0 and divergence is not None and not hung,
                  getattr(engine, "view_keys", None), shrinking, 0)


def _replayed(live: Callable[[Any], None], seed: int, index: int,
              scripted: Any) -> tuple[Divergence, list[int], bool] | None:
    """Game ``index`` played again step by step on the other engine: its divergence, the
    choices that led to it and whether it ended the search (a hang, a protocol error), or
    None when it agrees. ``scripted``: the game as sent in batches (None: it never began)."""
    from hanamikoji.oracle.core.diff_draw import SeededDraws

    draws = SeededDraws(seed, index)
    try:
        live(draws)
    except DivergenceFound as found:
        return found.divergence, draws.choices, False
    except _Stop as stop:
        return stop.divergence, draws.choices, stop.hang
    if scripted is None:
        return None
    # Step by step it agreed, but not in batches: the batches are what differs.
    match = scripted.match
    return (Divergence(match.label, match.first_player, (),
                       {"op": "batch", "requests": len(scripted.requests) + scripted.sent},
                       None, None, "the answers to the requests of a game sent in batches "
                       "differ from the answers to the same requests sent one step at a time",
                       game=match.game.name,
                       options=tuple(match.game.options_of(match.config).items())),
            draws.choices, True)


def _shrunk(live: Callable[[Any], None], first: Divergence, choices: list[int], seed: int,
            shrink: int, engine: Engine,
            progress: Progress | None) -> tuple[Divergence, bool, int]:
    """The game of ``choices`` (which diverged as ``first``) shrunk in at most ``shrink`` more
    games: whole stretches of steps cut out first (:func:`.diff_draw.cut_steps`, in up to a
    quarter of them), the last decision lowered (:func:`.diff_draw.lower_last`, in up to a
    quarter), then Hypothesis shrinks what is left; a game counts as failing only if it
    differs at the same request (``op``) as ``first``, so that the game shown is one of the
    divergence found. The smallest divergence, whether the search ended on a hang, and the
    games played."""
    from hypothesis.errors import Flaky

    from hanamikoji.oracle.core.diff_draw import shrink_in_stages

    best = first
    played = 0
    op = _op(first)

    def test(draws: Any) -> None:
        nonlocal best, played
        interrupt.check()
        if played >= shrink:
            raise _Stop(best)
        played += 1
        try:
            live(draws)
        except DivergenceFound as found:
            if _op(found.divergence) != op:
                return  # another request that differs: not a smaller game of this divergence
            if found.divergence.size() < best.size():
                best = found.divergence
            raise
        finally:
            if progress is not None:
                progress("shrinking", played, shrink, engine.decisions)

    hung = False
    divergence = best
    try:
        with seed_only_draws():
            shrink_in_stages(test, lambda: best, choices, seed, shrink, DivergenceFound)
    except DivergenceFound as found:
        divergence = found.divergence
    except _Stop as stop:
        divergence, hung = stop.divergence, stop.hang
    except Flaky:
        divergence = best
    if best.size() < divergence.size():
        divergence = best
    return divergence, hung, played


def _op(divergence: Divergence) -> Any:
    """The request a divergence was found at, by its ``op``."""
    request = divergence.request
    return request.get("op") if isinstance(request, dict) else None


# --- the black-box leak check ---------------------------------------------------------------


def _replay_on(engine: Engine, game: Game, config: Any, state: Any) -> tuple[Any, list[Any]]:
    """``state``'s game played on the other engine (``new_game``, then every chance outcome
    and decision of its history); the answer to ``observe`` is asked by the caller."""
    match = DiffGame(engine, game, config, game.first_player(state))
    match.lookahead = False
    current = match.start()
    for decision in game.history(state):
        current = match.send(current, decision)
    return match, match.decisions


def check_leaks(argv: Sequence[str], *, game: Game, configs: Sequence[Any], pairs: int = 100,
                seed: int = 0, timeout: float = 10.0,
                progress: Progress | None = None) -> LeakReport:
    """The black-box leak check: ``pairs`` pairs of games that differ only in what one player
    cannot see. A game is played by uniform random players to a random length; then the hidden
    information is drawn again consistently with that player's view (:meth:`Game.resample`:
    the same public decisions). Both games are played on the other engine and its answers to
    ``observe`` for that player, whatever their shape, must be the same (canonical JSON): an
    answer that changes with hidden information shows it. The engine's own observation is
    judged, not mapped to the reference's. ``progress`` is told the pairs done as each one
    starts, and at the end. An engine that writes a line nobody asked for is reported so,
    whatever its answers looked like."""
    engine = Engine(argv, timeout)
    engine.ensure_started()  # CannotStart: reported before any game
    started = time.perf_counter()
    try:
        report = _check_leaks(engine, game, configs, pairs, seed, progress, started)
    except _Unstarted as unstarted:
        engine.stop()
        raise unstarted.error from None
    except BaseException:
        engine.stop()
        raise
    # Read the engine's output to its end: a line nobody asked for shifts every later answer,
    # so it, not the answers, is the diagnosis.
    extra = engine.settle()
    if extra is None or (report.leak is not None and report.leak.message == extra.message):
        return report
    leak = report.leak
    return LeakReport(report.pairs, Leak(
        game.name, () if leak is None else leak.options, game.name if leak is None else leak.label,
        0 if leak is None else leak.first_player, 0 if leak is None else leak.player,
        ((), ()) if leak is None else leak.decisions, (None, None), extra.message),
        report.seconds)


def _check_leaks(engine: Engine, game: Game, configs: Sequence[Any], pairs: int, seed: int,
                 progress: Progress | None, started: float) -> LeakReport:
    import random

    rng = random.Random(f"leaks/{seed}")
    done = 0
    for index in range(pairs):
        if progress is not None:
            progress("leak check", index, pairs, engine.decisions)
        config = configs[rng.randrange(len(configs))]
        first = rng.randrange(game.num_players(config))
        bound = game.max_decisions(config) or MAX_DECISIONS
        # A whole game, cut at a point drawn uniformly along it.
        history = game.history(game.random_game(rng, config, first, max_decisions=bound))
        state = game.replay(history[:rng.randint(0, len(history))], config, first)
        player = rng.choice(list(game.players(state)))
        other_state = game.resample(state, player, rng)
        if _canonical(game.view_to_json(game.observe(state, player))) != \
                _canonical(game.view_to_json(game.observe(other_state, player))):
            continue  # not a pair this player cannot tell apart (never, by resample's contract)
        request = {"op": "observe", "player": player}
        answers: list[Any] = []
        sent: list[tuple[Any, ...]] = []
        for one in (state, other_state):
            try:
                match, decisions = _replay_on(engine, game, config, one)
                sent.append(tuple(decisions))
                answers.append(match.ask(request))
            except DivergenceFound as found:
                return LeakReport(done, Leak(
                    game.name, tuple(game.options_of(config).items()),
                    hooks(game).label(config), first, player,
                    (tuple(found.divergence.decisions), ()), (found.divergence.other, None),
                    "the engine failed while the games were played: "
                    + found.divergence.message), time.perf_counter() - started)
            except _Stop as stop:
                return LeakReport(done, Leak(
                    game.name, tuple(game.options_of(config).items()),
                    hooks(game).label(config), first, player,
                    (tuple(stop.divergence.decisions), ()), (None, None),
                    stop.divergence.message), time.perf_counter() - started)
        done += 1
        if _canonical(answers[0]) != _canonical(answers[1]):
            return LeakReport(done, Leak(
                game.name, tuple(game.options_of(config).items()), hooks(game).label(config),
                first, player, (sent[0], sent[1]), (answers[0], answers[1]),
                f"the view of player {player} changes with what player {player} cannot "
                f"see{_leak_where(answers[0], answers[1])}"), time.perf_counter() - started)
    if progress is not None:
        progress("leak check", pairs, pairs, engine.decisions)
    return LeakReport(done, None, time.perf_counter() - started)


def _leak_where(first: Any, second: Any) -> str:
    """Where two answers to ``observe`` differ, for the message: the first key of the view."""
    if isinstance(first, dict) and isinstance(second, dict) and \
            isinstance(first.get("view"), dict) and isinstance(second.get("view"), dict):
        a, b = first["view"], second["view"]
        for key in sorted(set(a) | set(b)):
            if _canonical(a.get(key)) != _canonical(b.get(key)):
                return f' (at "{key}")'
    return ""
