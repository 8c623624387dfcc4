"""The check of seeded chance that ``hanamikoji diff`` runs before any game: the optional request
``random_chance`` (or a game's own, as Hanamikoji's ``random_deal``) must give a legal outcome that
depends on its seed alone (the same when asked again, and in a second process started with another
``PYTHONHASHSEED``), and a thousand seeds must look like a fair shuffle
(:mod:`hanamikoji.oracle.core.audit`). :func:`seeded_engines` launches the check's two engines
ahead, while ``diff`` gets ready. The thousand requests are written ahead in chunks
(:func:`_answered_ahead`), every verdict that of asking one at a time. Part of the harness of
:mod:`hanamikoji.oracle.core.diff`, where the names other modules import are still found.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator, Sequence

from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core.diff_engine import AHEAD_BYTES, Engine, EngineFailure, cannot_start
from hanamikoji.oracle.core.diff_report import Divergence, _canonical
from hanamikoji.oracle.core.protocol import random_chance_request


#: The seeds of the check of seeded chance outcomes.
SEEDS = (0, 1, 2, 3)
#: The seeds ``0 .. SPREAD - 1`` whose outcomes are judged together (:func:`_judge_seeds`): a
#: thousand deals catch a biased shuffle of Hanamikoji's 21 cards with room to spare
#: (docs/audit.md) and cost a thousand short requests.
SPREAD = 1000
#: The false-alarm rate of that judgement: a correct engine's seeds are far from it, and an
#: engine that ignores its seed or shuffles with a bias far beyond it.
SPREAD_ALPHA = 1e-6
#: The most of those requests written before their answers are read (:func:`_answered_ahead`):
#: their answers (a few hundred bytes each) then fit in the engine's output pipe too.
AHEAD = 64


def check_seeded(game: Game, config: Any, argv: Sequence[str], timeout: float, *,
                 request_for: Callable[[int], dict[str, Any]] | None = None,
                 outcome_of: Callable[[Any], Any] | None = None, path: str = "$.outcome",
                 noun: str = "chance outcome", short: str = "outcome") -> Divergence | None:
    """Reproducibility of chance, for a game whose start is a chance node: the optional request
    ``{"op": "random_chance", ..., "seed": s}`` must give a legal first chance outcome, the same
    one when asked again, and the same one in a second process of the engine, started with
    another ``PYTHONHASHSEED`` (an outcome that depends on hash order shows). Outcomes are not
    compared with the reference's: each engine may have its own random source. An engine that
    answers the first request with an error does not offer seeded chance: nothing is checked.

    A game whose adapters speak an older request (Hanamikoji's ``random_deal``) passes its own
    ``request_for`` (a seed's request), ``outcome_of`` (the outcome's JSON in an answer), the
    JSON ``path`` of that outcome and the words for it in messages (``noun``, ``short``)."""
    start = game.new_game(config, 0)
    if game.current_player(start) != CHANCE:
        return None
    if request_for is None:
        def request_for(seed: int) -> dict[str, Any]:
            return random_chance_request(game, config, seed)
    if outcome_of is None:
        def outcome_of(answer: Any) -> Any:
            if not isinstance(answer, dict) or "outcome" not in answer:
                raise ValueError('expected {"outcome": ...}')
            return answer["outcome"]

    def run(ahead: int) -> tuple[Divergence | None, list[EngineFailure | None]]:
        engines = seeded_engines(argv, timeout)
        try:
            found = _check_seeded(game, start, engines, argv, request_for, outcome_of, path,
                                  noun, short, ahead)
        finally:
            # Read each process's output to its end: a line nobody asked for (a request
            # answered twice, say) is the diagnosis, whatever the answers before it looked like.
            for engine in engines:  # both end side by side
                engine.close_input()
            settled = [engine.settle() for engine in engines]
        return found, settled

    found, settled = run(AHEAD)
    if settled[0] is not None:
        # A line nobody asked for from the process the thousand seeds were written ahead to:
        # which answer it followed shows only when requests go one at a time, where the
        # message has always said it came. The check runs again so, in two new processes (a
        # protocol error costs this once; any other verdict is the first run's).
        found, settled = run(1)
    extra = [failure for failure in settled if failure is not None]
    if extra:
        return Divergence(None, None, (), extra[0].request, None, None, extra[0].message)
    return found


#: The engines of the seeded-chance check that :func:`seeded_engines` launched ahead, by their
#: command and timeout, until the check takes them.
_AHEAD: dict[tuple[tuple[str, ...], float], list[Engine]] = {}


def seeded_engines(argv: Sequence[str], timeout: float, ahead: bool = False) -> list[Engine]:
    """The two engines of the seeded-chance check (``PYTHONHASHSEED`` 1 and 2): those launched
    ahead for ``argv`` if any, else two new ones. ``ahead``: launch two now, for the check to
    take (``diff`` starts them while it gets ready); :func:`end_ahead` ends those the
    check did not take."""
    key = (tuple(argv), timeout)
    if not ahead:
        return _AHEAD.pop(key, None) or [
            Engine(argv, timeout, env={"PYTHONHASHSEED": str(n)}) for n in (1, 2)]
    end_ahead(argv, timeout)
    engines = _AHEAD[key] = [Engine(argv, timeout, env={"PYTHONHASHSEED": str(n)})
                             for n in (1, 2)]
    for engine in engines:
        engine.launch()
    return engines


def end_ahead(argv: Sequence[str], timeout: float) -> None:
    """End the engines :func:`seeded_engines` launched ahead for ``argv`` that no check took."""
    for engine in _AHEAD.pop((tuple(argv), timeout), ()):
        engine.stop()


def _check_seeded(game: Game, start: Any, engines: list[Engine], argv: Sequence[str],
                  request_for: Callable[[int], dict[str, Any]], outcome_of: Callable[[Any], Any],
                  path: str, noun: str, short: str, ahead: int) -> Divergence | None:
    def fail(request: Any, reference: Any, other: Any, message: str) -> Divergence:
        return Divergence(None, None, (), request, reference, other, message)

    for engine in engines:  # both start side by side
        engine.launch()
    for engine in engines:
        engine.ensure_started()
    for seed in SEEDS:
        request = request_for(seed)
        op = request["op"]
        answers = []
        for engine in (engines[0], engines[1], engines[0]):
            try:
                answers.append(engine.request(request))
            except EngineFailure as failure:
                if failure.unstarted:
                    raise cannot_start(argv, failure) from None
                return fail(request, None, None, failure.message)
        first = answers[0]
        if isinstance(first, dict) and "error" in first and seed == SEEDS[0]:
            return None
        try:
            game.apply(start, game.decision_from_json(outcome_of(first), path))
        except Exception as error:  # any answer is judged: a codec's slip is no crash
            return fail(request, None, first, f"{op} does not give a legal {noun}: {error}")
        if _canonical(answers[2]) != _canonical(first):
            return fail(request, first, answers[2], f"{op} of seed {seed} gives "
                        f"another {short} when asked again")
        if _canonical(answers[1]) != _canonical(first):
            return fail(request, first, answers[1], f"{op} of seed {seed} gives "
                        f"different {short}s in two processes (PYTHONHASHSEED 1 and 2): the "
                        f"{short} depends on something besides the seed")
    engines[1].close_input()  # asked all it will be: it ends while the first is asked more
    return _judge_seeds(game, start, engines[0], argv, request_for, outcome_of, path, noun, short,
                        ahead)


def _judge_seeds(game: Game, start: Any, engine: Engine, argv: Sequence[str],
                 request_for: Callable[[int], dict[str, Any]], outcome_of: Callable[[Any], Any],
                 path: str, noun: str, short: str, ahead: int) -> Divergence | None:
    """The outcomes of seeds ``0 .. SPREAD - 1``: distinct seeds must not all give one outcome,
    and together they must pass ``audit``'s tests of a fair shuffle
    (:mod:`hanamikoji.oracle.core.audit`) at the rate :data:`SPREAD_ALPHA`."""
    from hanamikoji.oracle.core.audit import audit

    def fail(request: Any, other: Any, message: str) -> Divergence:
        return Divergence(None, None, (), request, None, other, message)

    states: list[Any] = []
    first: str | None = None
    same = True  # every answer so far the first one, as canonical JSON (two that differ end it)
    requests = [request_for(seed) for seed in range(SPREAD)]
    for request, line in _answered_ahead(engine, argv, requests, ahead):
        if isinstance(line, EngineFailure):
            return fail(request, None, line.message)
        try:
            answer = engine.decode_line(request, line)
        except EngineFailure as failure:
            return fail(request, None, failure.message)
        try:
            states.append(game.apply(start, game.decision_from_json(outcome_of(answer), path)))
        except Exception as error:  # any answer is judged: a codec's slip is no crash
            return fail(request, answer, f"{request['op']} does not give a legal {noun}: {error}")
        if same:
            text = _canonical(answer)
            first = text if first is None else first
            same = text == first
    engine.close_input()  # asked all it will be: it ends while its outcomes are judged
    request = {**request_for(0), "seed": f"0..{SPREAD - 1}"}
    listed = game.chance_outcomes(start)
    if same and (listed is None or len(listed) > 1):
        return fail(request, None, f"{request['op']} gives the same {short} for all {SPREAD} "
                    f"seeds 0 to {SPREAD - 1}: the {short} ignores its seed")
    judged = audit([(game, state) for state in states], SPREAD_ALPHA)
    if judged.failed:
        worst = min(judged.failed, key=lambda t: t.p_value or 0.0)
        return fail(request, None, f"the {short}s of seeds 0 to {SPREAD - 1} are not a fair "
                    f"shuffle (audit, false-alarm rate {SPREAD_ALPHA:g}): {worst.sentence()}, "
                    f"p = {worst.p_value:.3g}")
    return None


def _answered_ahead(engine: Engine, argv: Sequence[str], requests: Sequence[dict[str, Any]],
                    ahead: int = AHEAD) -> Iterator[tuple[dict[str, Any], bytes | EngineFailure]]:
    """Each of ``requests`` with its answer line, in order, or with the engine's failure (then
    the last one given). The requests are written ahead in chunks (:func:`_chunks`), so the
    engine answers a chunk without waiting on the harness: a round trip a chunk, not a request.
    The verdicts are those of asking one request at a time: the answers are judged in order; a
    chunk is written when every request before it is answered, and taken whole or not at all,
    so a process that took none fails before its first request, as it would have; an engine
    that crashes or hangs fails on the first request it did not answer."""
    for chunk in _chunks(requests, ahead):
        try:
            engine.write_requests(chunk)
        except EngineFailure as failure:
            if failure.unstarted:
                raise cannot_start(argv, failure) from None
            yield chunk[0], failure
            return
        for request in chunk:
            try:
                line = engine.read_answer(request)
            except EngineFailure as failure:
                if failure.unstarted:
                    raise cannot_start(argv, failure) from None
                yield request, failure
                return
            yield request, line


def _chunks(requests: Sequence[dict[str, Any]],
            ahead: int = AHEAD) -> Iterator[list[dict[str, Any]]]:
    """``requests`` in order, in chunks of at most ``ahead`` requests and
    :data:`~.diff_engine.AHEAD_BYTES` bytes of lines (a longer request goes alone)."""
    chunk: list[dict[str, Any]] = []
    size = 0
    for request in requests:
        length = len(json.dumps(request).encode("utf-8")) + 1
        if chunk and (len(chunk) == ahead or size + length > AHEAD_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append(request)
        size += length
    if chunk:
        yield chunk
