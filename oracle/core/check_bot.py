"""The checks of a bot (``hanamikoji check --bot``, and a course module played through its
shim): a long run of calls in one process, then a short tournament against the built-in bots.

``calls``: one bot process answers ``calls`` decisions, as the referee asks them
(:mod:`.referee`: the same requests, the same reading of the answer, the same judgement of the
decision). The positions come from the reference's own play-outs, seeded: game ``g`` of the
run is dealt as the tournament's deal ``g`` of the seed and played by uniform random choices
(``random.Random("check/SEED/g")``); the bot plays seat ``g mod players`` of it, a
``new_game`` at its start, and is asked at each of that seat's decisions. Its answer is judged,
never played: the next request is the play-out's next position, whatever it answered (every
request holds all the seat may know). A fault that comes only after many calls (a leak, a
stale cache, memory overwritten) is found and named by its call number. A bot whose process
ends is started again and the run goes on; one that does not answer within the limit
likewise; so the counts are of every call made. Each call is timed against the limit.

``tournament``: :func:`~.api.tournament` of the bot against every built-in bot; each game the
bot forfeits is a failure with the referee's message, the end of its standard error, how its
process ended, and the game so far (a position the report's page replays).
"""

from __future__ import annotations

import json
import random
import shlex
from typing import Any, Mapping, Sequence

from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.engine.core.seeded import game_rng
from hanamikoji.runtime import interrupt

from .bot import built_in, decide_request, hooks, new_game_request
from .check import MAX_FAILURES, Check, Failure, Reproduction, Timing
from .check_engine import PROGRAM

__all__ = ["check_bot", "positions"]

#: Starts in a row that fail (the process ends, or does not answer ``new_game``) after which
#: the run of calls stops: a bot that cannot start would otherwise be started for every call.
STARTS_IN_A_ROW = 3


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def positions(game: Game, config: Any, seed: int) -> Any:
    """The run's positions, endlessly: ``(g, seat, state)`` for each decision of seat ``g mod
    players`` in play-out ``g`` (:mod:`module docstring <.check_bot>`), in order."""
    players = game.num_players(config)
    index = 0
    while True:
        deal = game_rng(seed, index)
        choose = random.Random(f"check/{seed}/{index}")
        seat = index % players
        state = game.new_game(config, 0)
        while not game.is_terminal(state):
            player = game.current_player(state)
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, deal))
                continue
            if player == seat:
                yield index, seat, state
            state = game.apply(state, choose.choice(game.legal_actions(state)))
        index += 1


def _bot_seed(seed: int, index: int) -> int:
    return random.Random(f"check-bot/{seed}/{index}").getrandbits(48)


class _Run:
    """The one bot process of a run of calls, started again when it ends or hangs."""

    def __init__(self, argv: Sequence[str], limit: float) -> None:
        from .referee import BotSpec, Limits, _Process

        self.spec = BotSpec("bot", argv=tuple(argv))
        self.limits = Limits(decision=limit, game=limit, start=max(limit, 10.0))
        self.make = _Process
        self.process: Any = None
        self.game: int | None = None  # the play-out its current new_game began

    def ready(self, hello: dict[str, Any], index: int) -> None:
        """The process started (if it is not running) and told of play-out ``index``."""
        if self.process is None:
            self.process = self.make(self.spec)
            self.game = index
            self.process.start(hello, self.limits)
        elif self.game != index:
            self.game = index
            self.process.greet(hello, self.limits.start)

    def ended(self, fault: Any) -> tuple[str | None, str | None]:
        """The process ended (after ``fault``): the end of its standard error, and how it
        ended."""
        process, self.process = self.process, None
        if process is None:
            return None, None
        process.fault_ended(fault)
        process.close()
        return process.said()

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None


def _calls_check(argv: Sequence[str], name: str, game: Game, config: Any, seed: int,
                 calls: int, limit_ms: float, again: str) -> Check:
    from .referee import _Fault, judged

    extension = hooks(game)
    run = _Run(argv, limit_ms / 1000)
    times: list[float] = []
    passed = failed = 0
    failures: list[Failure] = []
    starts_failed = 0
    stopped = ""
    made = 0
    try:
        for index, seat, state in positions(game, config, seed):
            interrupt.check()  # a Ctrl-C swallowed on the way stops the run here
            if made == calls:
                break
            made += 1
            hello = new_game_request(game, config, seat, _bot_seed(seed, index))
            request = decide_request(game, state, seat, seat)
            starting = True
            try:
                try:
                    run.ready(hello, index)
                except _Fault:
                    starts_failed += 1
                    raise
                starts_failed = 0
                starting = False
                answer, took = run.process.ask(request, run.limits.decision)
                times.append(took * 1000)
                judged(game, extension, state, seat, answer)
                passed += 1
            except _Fault as fault:
                # A Ctrl-C while the referee waited reads as a time-out: it is the interrupt.
                interrupt.check()
                failed += 1
                # A process that ended, hung or wrote what is not an answer (debug text on
                # standard output) is started again for the next call: what it has not yet
                # written, or a line after the one read, would be read as the next call's
                # answer. One whose answer was well formed and illegal goes on.
                stderr, ended = (run.ended(fault)
                                 if starting or fault.kind in ("crash", "time", "malformed")
                                 else (None, None))
                if len(failures) < MAX_FAILURES:
                    failures.append(Failure(
                        fault.message, call=made, request=_json(request),
                        got=fault.answer, rule=fault.rule, stderr=stderr, exit=ended,
                        reproduction=Reproduction(
                            "sh", f"printf '%s\\n' {shlex.quote(_json(hello))} "
                                  f"{shlex.quote(_json(request))} | {shlex.join(argv)}\n"
                                  f"# the same {made} calls: {again} --calls {made}",
                            "the answer to the second line is the one judged")))
                if starts_failed >= STARTS_IN_A_ROW:
                    stopped = (f"; stopped after {made} calls: the bot failed to start "
                               f"{STARTS_IN_A_ROW} times in a row")
                    break
    finally:
        run.close()
    title = (f"{calls} calls in one long-lived process of {name} (started again after a "
             f"crash or a time-out), each answer judged{stopped}")
    return Check("calls", title, passed, failed, tuple(failures), Timing.of(times, limit_ms))


def _tournament_check(argv: Sequence[str], name: str, game: Game,
                      options: Mapping[str, Any], seed: int, deals: int,
                      limit_ms: float) -> Check:
    from .referee import BotSpec, Limits
    from .tournament import Tournament, played_here

    makers = built_in(game)
    others = sorted(makers)
    word = f"{name}={shlex.join(argv)}"
    bots = (BotSpec(name, argv=tuple(argv)), *(BotSpec(o, make=makers[o]) for o in others))
    limits = Limits(decision=limit_ms / 1000, game=max(60.0, limit_ms / 1000),
                    start=max(10.0, limit_ms / 1000))
    played = Tournament(game.name, tuple(sorted(options.items())), bots, deals, seed, limits)
    ours = [r for r in played_here(played, played.schedule()) if 0 in r.seating]
    lost = [r for r in ours if r.forfeit is not None and r.seating[r.forfeit["seat"]] == 0]
    command = [PROGRAM, "tournament", word, *others, "--game", game.name,
               *[w for k, v in options.items() for w in ("--option", f"{k}={v}")],
               "--deals", str(deals), "--seed", str(seed), "--decision-time",
               f"{limit_ms / 1000:g}"]
    failures: list[Failure] = []
    for result in lost[:MAX_FAILURES]:
        forfeit = result.forfeit or {}
        request = forfeit.get("request")
        failures.append(Failure(
            f"game {result.index} (seat {forfeit['seat']}): {forfeit['kind']}: "
            f"{forfeit['message']}", request=None if request is None else _json(request),
            got=forfeit.get("answer"), rule=forfeit.get("rule"), stderr=forfeit.get("stderr"),
            exit=forfeit.get("exit"), game=result.game,
            reproduction=Reproduction(
                "sh", shlex.join([*command, "--only", str(result.index), "--trace"]),
                f"plays game {result.index} alone, as here, and prints on stderr each request "
                "and answer as it passes")))
    title = (f"tournament: {len(ours)} games against {', '.join(others)} "
             f"({deals} deal{'' if deals == 1 else 's'}, every seating)")
    return Check("tournament", title, len(ours) - len(lost), len(lost), tuple(failures))


def check_bot(argv: Sequence[str], *, name: str, game: Game, options: Mapping[str, Any],
              seed: int, calls: int, deals: int, limit_ms: float) -> list[Check]:
    """A bot's rows, ``calls`` then ``tournament``: ``argv`` the command that runs it (a
    course module's shim, say), ``name`` its name on the card, ``options`` the game's options
    (the others the game's defaults), ``calls`` decisions asked of one process, ``deals`` the
    tournament's deals, ``limit_ms`` the limit of each decision in milliseconds."""
    config = game.configure(dict(options))
    again = shlex.join([PROGRAM, "check", "--game", game.name,
                        *[w for k, v in options.items() for w in ("--option", f"{k}={v}")],
                        "--seed", str(seed), "--limit", f"{limit_ms:g}", "--bot",
                        f"{name}={shlex.join(argv)}"])
    return [_calls_check(argv, name, game, config, seed, calls, limit_ms, again),
            _tournament_check(argv, name, game, game.options_of(config), seed, deals,
                              limit_ms)]
