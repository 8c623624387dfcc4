"""``hanamikoji diff -- COMMAND...``: compare another engine with the reference, step by step.

The other engine runs as a separate process (``COMMAND``) that speaks the oracle protocol on its
standard input and output: one JSON object per line each way (docs/oracle.md). Hypothesis plays
games: it chooses the variant, the first player, the deals (uniform ones, and rounds built to end
with chosen sides, so that ties, double finishes and the Italian round limit come up often) and
every decision among the reference's legal ones, and now and then offers a decision the rules
forbid. At every step the harness asks both engines whose turn it is, the legal decisions, both
players' views and the result, and compares. The first difference fails the game; Hypothesis then
shrinks it to a shortest game that still differs, and the report shows that game and the first
differing step with both answers.

An engine that crashes, prints something that is not a JSON line, or does not answer in time is
reported the same way, with what it printed on its standard error.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import queue
import subprocess
import threading
import time
from typing import Any, Iterator, Sequence

import attrs

from ..hanamikoji import cards as C
from ..hanamikoji.actions import (
    ALL_KINDS,
    Competition,
    CompetitionPick,
    Deal,
    Decision,
    Gift,
    GiftPick,
    Secret,
    TradeOff,
)
from .cli import EXIT_FAILED, EXIT_OK, UsageError
from ..hanamikoji.errors import HanamikojiError
from ..hanamikoji.game import Phase, State, apply, current_player, legal_actions, new_game, observe
from ..hanamikoji.protocol import (
    MalformedJSONError,
    deal_json,
    decision_json,
    decision_text,
    dumps,
    parse_decision,
    player_json,
    result_json,
    view_json,
)
from ..hanamikoji.rules import PRESETS, Rules

#: Rounds after which a game stops being compared (standard games rarely last this long).
MAX_ROUNDS = 8
#: The longest answer line read from the other engine.
LINE_LIMIT = 1 << 22


# --- the other engine's process ------------------------------------------------------------


class CannotStart(Exception):
    """The command could not be started at all."""


class EngineFailure(Exception):
    """The other engine crashed, printed garbage, or did not answer in time."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


_EOF = object()
_TOO_LONG = object()


class Engine:
    """The other engine: a child process and a line reader with a timeout."""

    def __init__(self, argv: Sequence[str], timeout: float,
                 env: dict[str, str] | None = None) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def ensure_started(self) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        self.stop()
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=None if self.env is None else {**os.environ, **self.env})
        except OSError as error:
            raise CannotStart(f"cannot start {self.argv[0]!r}: "
                              f"{error.strerror or error}") from None
        self.starts += 1
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=12)
        threading.Thread(target=self._read_stdout, args=(self.process.stdout, self._lines),
                         daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self.process.stderr, self._stderr),
                         daemon=True).start()

    @staticmethod
    def _read_stdout(stream: Any, lines: queue.Queue[Any]) -> None:
        try:
            while True:
                line = stream.readline(LINE_LIMIT)
                if not line:
                    break
                if len(line) == LINE_LIMIT and not line.endswith(b"\n"):
                    lines.put(_TOO_LONG)
                    break
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    @staticmethod
    def _read_stderr(stream: Any, tail: collections.deque[str]) -> None:
        try:
            for line in iter(stream.readline, b""):
                tail.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        time.sleep(0.05)  # let the reader catch the last lines of a dying process
        lines = [line for line in self._stderr if line.strip()]
        return " | ".join(lines[-3:]) if lines else ""

    def _fail(self, kind: str, message: str) -> EngineFailure:
        tail = self.stderr_tail()
        if kind != "hang":
            self.stop()
        return EngineFailure(kind, message + (f"; its stderr ends: {tail}" if tail else ""))

    def request(self, message: dict[str, Any]) -> Any:
        """Send one request line and read one answer line."""
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = self.process.poll()
            raise self._fail("crash", f"the engine exited (code {code}) before "
                                      f"{_short(message)}") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            failure = self._fail("hang", f"the engine did not answer {_short(message)} within "
                                         f"{self.timeout:g} s")
            self.stop()
            raise failure from None
        if line is _EOF:
            try:
                code = self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
            raise self._fail("crash", f"the engine closed its output (exit code {code}) "
                                      f"instead of answering {_short(message)}")
        if line is _TOO_LONG:
            raise self._fail("garbage", f"the engine answered {_short(message)} with a line "
                                        f"longer than {LINE_LIMIT} bytes")
        from .validate import NotJSONError, decode

        try:
            return decode(line)
        except NotJSONError as error:
            text = line.decode("utf-8", "replace").strip()
            raise self._fail("garbage", f"the engine answered {_short(message)} with a line "
                                        f"that is not JSON ({error}): {text[:80]!r}") from None

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _short(message: dict[str, Any]) -> str:
    text = json.dumps(message)
    return text if len(text) <= 90 else text[:87] + "..."


# --- what a divergence is ------------------------------------------------------------------


@attrs.frozen
class Divergence:
    """The first step where the other engine's answer differs from the reference's."""

    variant: str | None  # None for the check of seeded deals, outside any game
    first_player: int | None
    decisions: tuple[Any, ...]  # the JSON of every decision sent, in order: the game so far
    request: Any  # the request whose answers differ
    reference: Any  # the reference's answer (None when the other engine failed)
    other: Any  # the other engine's answer (None when it failed)
    message: str  # one line: what differs

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "first_player": self.first_player,
                "decisions": list(self.decisions), "request": self.request,
                "reference": self.reference, "other": self.other, "message": self.message}

    def size(self) -> tuple[int, int]:
        return (len(self.decisions), len(dumps(self.decisions)))


class DivergenceFound(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence


class _Stop(BaseException):
    """Ends the search at once (Hypothesis does not catch a BaseException): a hanging engine
    (``hang``), or the shrinking budget spent."""

    def __init__(self, divergence: Divergence, hang: bool = False) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence
        self.hang = hang


@attrs.frozen
class Report:
    games: int  # examples tried, shrinking included
    divergence: Divergence | None
    engine_starts: int
    seconds: float
    shrunk: bool

    def to_json(self) -> dict[str, Any]:
        return {"status": "agree" if self.divergence is None else "divergence",
                "games": self.games, "engine_starts": self.engine_starts,
                "seconds": round(self.seconds, 3), "shrunk": self.shrunk,
                "divergence": None if self.divergence is None else self.divergence.to_json()}


# --- one game, compared step by step -------------------------------------------------------


class _Game:
    """One game played on both engines; every answer of the other is checked."""

    def __init__(self, engine: Engine, rules: Rules, first_player: int) -> None:
        self.engine = engine
        self.rules = rules
        self.first_player = first_player
        self.decisions: list[Any] = []

    def diverge(self, request: Any, reference: Any, other: Any, message: str) -> DivergenceFound:
        return DivergenceFound(Divergence(self.rules.name, self.first_player,
                                          tuple(self.decisions), request, reference, other,
                                          message))

    def ask(self, request: dict[str, Any]) -> Any:
        try:
            answer = self.engine.request(request)
        except EngineFailure as failure:
            if failure.kind == "hang":  # waiting again on every shrinking step would take ages
                found = self.diverge(request, None, None, failure.message)
                raise _Stop(found.divergence, hang=True) from None
            raise self.diverge(request, None, None, failure.message) from None
        if not isinstance(answer, dict):
            raise self.diverge(request, None, answer, "the answer is not a JSON object")
        return answer

    def field(self, request: dict[str, Any], reference: dict[str, Any], key: str) -> Any:
        answer = self.ask(request)
        if key not in answer:
            what = (f'an error: {answer["error"]}' if "error" in answer
                    else f"no {key!r} key")
            raise self.diverge(request, reference, answer, f"the answer has {what}")
        return answer[key]

    def start(self) -> None:
        request = {"op": "new_game", "variant": self.rules.name,
                   "first_player": self.first_player}
        answer = self.ask(request)
        if answer.get("ok") is not True:
            raise self.diverge(request, {"ok": True}, answer, "new_game was not accepted")

    def compare(self, state: State) -> None:
        """current_player, legal_actions, both views and the result."""
        expected = player_json(current_player(state))
        request: dict[str, Any] = {"op": "current_player"}
        got = self.field(request, {"current_player": expected}, "current_player")
        if got != expected:
            raise self.diverge(request, {"current_player": expected}, {"current_player": got},
                               f"current_player is {json.dumps(got)}, not {json.dumps(expected)}")
        self.compare_legal(state)
        for player in (0, 1):
            self.compare_view(state, player)
        expected_result = result_json(state.result)
        request = {"op": "result"}
        got = self.field(request, {"result": expected_result}, "result")
        if dumps(got) != dumps(expected_result):
            raise self.diverge(request, {"result": expected_result}, {"result": got},
                               f"the result is {json.dumps(got)}, not "
                               f"{json.dumps(expected_result)}")

    def compare_legal(self, state: State) -> None:
        legal = legal_actions(state)
        reference = {"legal_actions": [decision_json(d) for d in legal]}
        request = {"op": "legal_actions"}
        got = self.field(request, reference, "legal_actions")
        if not isinstance(got, list):
            raise self.diverge(request, reference, {"legal_actions": got},
                               "legal_actions is not a list")
        parsed: list[Decision] = []
        for i, item in enumerate(got):
            try:
                parsed.append(parse_decision(item, f"$.legal_actions[{i}]"))
            except (MalformedJSONError, HanamikojiError) as error:
                raise self.diverge(request, reference, {"legal_actions": got},
                                   f"not a decision: {error}") from None
        seen: set[Decision] = set()
        for decision in parsed:
            if decision in seen:
                raise self.diverge(request, reference, {"legal_actions": got},
                                   f"lists {decision_text(decision)} twice (each distinct "
                                   "decision once)")
            seen.add(decision)
        missing = [d for d in legal if d not in seen]
        extra = sorted(seen - set(legal))
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"misses {len(missing)} legal: "
                             + ", ".join(decision_text(d) for d in missing[:4]))
            if extra:
                parts.append(f"offers {len(extra)} illegal: "
                             + ", ".join(decision_text(d) for d in extra[:4]))
            raise self.diverge(request, reference, {"legal_actions": got},
                               "legal_actions " + "; ".join(parts))

    def compare_view(self, state: State, player: int) -> None:
        expected = view_json(observe(state, player))
        request = {"op": "observe", "player": player}
        got = self.field(request, {"view": expected}, "view")
        if not isinstance(got, dict):
            raise self.diverge(request, {"view": expected}, {"view": got},
                               f"the view of player {player} is not a JSON object")
        got_normal = normal_view(got)
        if dumps(got_normal) == dumps(expected):
            return
        extra = sorted(set(got) - set(expected))
        missing = sorted(set(expected) - set(got))
        if extra:
            what = f'has "{extra[0]}", which the reference view does not (INFO-2)'
        elif missing:
            what = f'lacks "{missing[0]}"'
        else:
            key = next(k for k in expected if dumps(expected[k]) != dumps(got_normal[k]))
            what = (f'differs at "{key}": reference {_brief(expected[key])}, other '
                    f"{_brief(got[key])}")
        raise self.diverge(request, {"view": expected}, {"view": got},
                           f"the view of player {player} {what}")

    def send(self, state: State, decision: Decision) -> State:
        """A legal decision: both engines apply it."""
        after = apply(state, decision)
        request = _decision_request(decision)
        answer = self.ask(request)
        self.decisions.append(decision_json(decision))
        if answer.get("ok") is not True:
            raise self.diverge(request, {"ok": True}, answer,
                               f"rejects {decision_text(decision)}, which the rules allow")
        return after

    def probe(self, state: State, decision: Decision) -> None:
        """A decision the rules forbid: both engines must reject it and stay as they were."""
        try:
            apply(state, decision)
        except HanamikojiError as error:
            rule = error.rule
        else:
            return  # legal after all: not a probe
        request = _decision_request(decision)
        answer = self.ask(request)
        if "error" not in answer:
            self.decisions.append(decision_json(decision))
            raise self.diverge(request, {"error": "...", "rule": rule}, answer,
                               f"accepts {decision_text(decision)}, which breaks {rule}")


def _decision_request(decision: Decision) -> dict[str, Any]:
    if isinstance(decision, Deal):
        return {"op": "deal", "deal": deal_json(decision)}
    return {"op": "apply", "decision": decision_json(decision)}


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 70 else text[:67] + "..."


_MULTISETS = ("hand", "secret", "trade_off")


def normal_view(view: dict[str, Any]) -> dict[str, Any]:
    """The other engine's view with its multisets sorted, the order the protocol leaves free;
    anything unexpected is left as it is, to be reported."""
    out = dict(view)
    for key in _MULTISETS:
        out[key] = _sorted(out.get(key))
    if isinstance(out.get("sides"), list):
        out["sides"] = [_sorted(s) for s in out["sides"]]
    if isinstance(out.get("used"), list):
        order = [k.value for k in ALL_KINDS]
        out["used"] = [sorted(u, key=lambda k: order.index(k) if k in order else 9)
                       if isinstance(u, list) and all(isinstance(k, str) for k in u) else u
                       for u in out["used"]]
    if out.get("pending") is not None:
        try:
            out["pending"] = decision_json(parse_decision(out["pending"]))
        except (MalformedJSONError, HanamikojiError):
            pass
    if isinstance(out.get("log"), list):
        out["log"] = [_normal_entry(e) for e in out["log"]]
    if isinstance(out.get("scores"), list):
        out["scores"] = [dict(s, sides=[_sorted(x) for x in s["sides"]])
                         if isinstance(s, dict) and isinstance(s.get("sides"), list) else s
                         for s in out["scores"]]
    return out


def _sorted(value: Any) -> Any:
    if isinstance(value, list) and all(type(v) is int for v in value):
        return sorted(value)
    return value


def _normal_entry(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    if "cards" in out:
        out["cards"] = _sorted(out["cards"])
    if isinstance(out.get("sets"), list):
        sets = [_sorted(s) for s in out["sets"]]
        out["sets"] = sorted(sets) if all(isinstance(s, list) for s in sets) else sets
    if isinstance(out.get("pick"), list):
        out["pick"] = _sorted(out["pick"])
    return out


# --- Hypothesis: games ----------------------------------------------------------------------


def _strategies() -> Any:
    from hypothesis import strategies as st

    deck = C.cards_of(C.FULL_DECK)
    deals = st.permutations(deck).map(
        lambda cards: Deal(cards[0], (cards[1:7], cards[7:13]), cards[13:]))
    targets = st.lists(st.sampled_from("==01"), min_size=C.NUM_GEISHA,
                       max_size=C.NUM_GEISHA).map("".join)
    pairs = st.tuples(st.integers(0, 6), st.integers(0, 6))
    probes = st.one_of(
        st.builds(Secret, st.integers(0, 6)),
        st.builds(TradeOff, st.lists(st.integers(0, 6), min_size=2, max_size=2)),
        st.builds(Gift, st.lists(st.integers(0, 6), min_size=3, max_size=3)),
        st.builds(Competition, st.tuples(pairs, pairs)),
        st.builds(GiftPick, st.integers(0, 6)),
        st.builds(CompetitionPick, pairs),
    )
    return st, deals, targets, probes


def play(data: Any, engine: Engine, variants: tuple[Rules, ...]) -> None:
    """One game, drawn by Hypothesis from ``data``, compared at every step."""
    from ..hanamikoji.construct import round_for_sides
    from ..hanamikoji.vectors import IntentError, sides_for

    st, deals, targets, probes = _strategies()
    engine.ensure_started()
    rules = data.draw(st.sampled_from(variants), label="variant")
    first = data.draw(st.integers(0, 1), label="first_player")
    game = _Game(engine, rules, first)
    # A planned game builds every round to end with a drawn marker row, mostly ties: double
    # finishes, old markers kept, and the Italian round limit come up far more often than in
    # uniform play. The other games deal uniformly and draw every decision.
    planned = data.draw(st.booleans(), label="planned game")
    game.start()
    state = new_game(rules, first)
    plan: list[Decision] = []
    while True:
        game.compare(state)
        if state.phase is Phase.OVER or state.round >= MAX_ROUNDS:
            if state.phase is Phase.OVER and data.draw(st.booleans(), label="probe the end"):
                game.probe(state, state.history[-1])
            return
        if state.phase is Phase.DEAL:
            if data.draw(st.integers(0, 7), label="probe a bad deal") == 0:
                deal = data.draw(deals)
                game.probe(state, Deal(deal.removed, deal.hands, (deal.removed,) + deal.draws[1:]))
            deal = None
            if planned:
                target = data.draw(targets, label="marker row")
                try:
                    sides = sides_for(state.markers, target)
                except IntentError:  # one player wins and the other nothing: every geisha ties
                    sides = sides_for(state.markers, "=" * C.NUM_GEISHA)
                deal, decisions = round_for_sides(*sides, starter=state.starter)
                plan = list(decisions)
            if deal is None:
                deal = data.draw(deals, label="deal")
            state = game.send(state, deal)
            continue
        if data.draw(st.integers(0, 3), label="probe") == 0:
            game.probe(state, data.draw(probes, label="forbidden decision"))
        if plan:
            decision = plan.pop(0)
        else:
            decision = data.draw(st.sampled_from(legal_actions(state)), label="decision")
        state = game.send(state, decision)


#: The seeds of the check of seeded deals.
DEAL_SEEDS = (0, 1, 2, 3)


def check_seeded_deals(argv: Sequence[str], timeout: float) -> Divergence | None:
    """DEAL-1 and reproducibility: the optional request ``{"op": "random_deal", "seed": s}``
    must give a deal of the 21 cards, the same one when asked again, and the same one in a
    second process of the engine. The two processes get different ``PYTHONHASHSEED`` values, so
    that a deal that depends on hash order (a set iterated, say) shows. The deals are not
    compared with the reference's: each engine may have its own random source. An engine that
    answers the first request with an error does not offer seeded deals: nothing is checked."""
    engines = [Engine(argv, timeout, env={"PYTHONHASHSEED": str(n)}) for n in (1, 2)]

    def fail(request: Any, reference: Any, other: Any, message: str) -> Divergence:
        return Divergence(None, None, (), request, reference, other, message)

    try:
        for engine in engines:
            engine.ensure_started()
        for seed in DEAL_SEEDS:
            request = {"op": "random_deal", "seed": seed}
            answers = []
            for engine in (engines[0], engines[1], engines[0]):
                try:
                    answers.append(engine.request(request))
                except EngineFailure as failure:
                    return fail(request, None, None, failure.message)
            first = answers[0]
            if isinstance(first, dict) and "error" in first and seed == DEAL_SEEDS[0]:
                return None
            try:
                deal = parse_decision({"deal": first.get("deal")}, "$")
                apply(new_game(), deal)
            except (AttributeError, MalformedJSONError, HanamikojiError) as error:
                return fail(request, None, first, f"random_deal does not give a legal deal: {error}")
            if dumps(answers[2]) != dumps(first):
                return fail(request, first, answers[2], f"random_deal of seed {seed} gives "
                            "another deal when asked again")
            if dumps(answers[1]) != dumps(first):
                return fail(request, first, answers[1], f"random_deal of seed {seed} gives "
                            "different deals in two processes (PYTHONHASHSEED 1 and 2): the "
                            "deal depends on something besides the seed")
    finally:
        for engine in engines:
            engine.stop()
    return None


def compare_engines(argv: Sequence[str], *, games: int = 100, seed: int = 0,
                    variants: tuple[Rules, ...] = tuple(PRESETS.values()),
                    timeout: float = 10.0, shrink: int = 200) -> Report:
    """Play up to ``games`` games against the engine run by ``argv``; the first divergence,
    shrunk towards a shortest game with at most ``shrink`` more games, or None."""
    from hypothesis import HealthCheck, Phase as HPhase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
    from hypothesis.errors import Flaky

    engine = Engine(argv, timeout)
    engine.ensure_started()  # CannotStart: reported before any game
    start = time.perf_counter()
    divergence = check_seeded_deals(argv, timeout)
    if divergence is not None:
        engine.stop()
        return Report(0, divergence, engine.starts, time.perf_counter() - start, False)
    tried = 0
    best: Divergence | None = None
    since_first = 0
    phases = [HPhase.explicit, HPhase.generate] + ([HPhase.shrink] if shrink > 0 else [])

    @hypothesis_seed(seed)
    @settings(max_examples=games, database=None, deadline=None, phases=phases,
              report_multiple_bugs=False, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(st.data())
    def one_game(data: Any) -> None:
        nonlocal tried, best, since_first
        if best is not None:
            since_first += 1
            if since_first > shrink:
                raise _Stop(best)
        tried += 1
        try:
            play(data, engine, variants)
        except DivergenceFound as found:
            if best is None or found.divergence.size() < best.size():
                best = found.divergence
            raise

    hung = False
    try:
        one_game()
    except DivergenceFound as found:
        divergence = found.divergence
    except _Stop as stop:
        divergence = stop.divergence
        hung = stop.hang
    except Flaky:
        divergence = best
    finally:
        engine.stop()
    if divergence is not None and best is not None and best.size() < divergence.size():
        divergence = best
    return Report(tried, divergence, engine.starts, time.perf_counter() - start,
                  shrink > 0 and divergence is not None and not hung)


# --- the command ---------------------------------------------------------------------------


def render(report: Report, argv: Sequence[str]) -> Iterator[str]:
    """The human report."""
    command = " ".join(argv)
    if report.divergence is None:
        yield (f"no divergence: {command} agrees with the reference in "
               f"{_plural(report.games, 'game')} ({report.seconds:.1f} s)")
        return
    d = report.divergence
    yield f"DIVERGENCE: {command}"
    yield f"  {d.message}"
    how = "after shrinking" if report.shrunk else "as first found"
    if d.variant is None:
        yield "found by the check of seeded deals, before any game"
    else:
        yield (f"game: {d.variant}, first player {d.first_player}; {len(d.decisions)} decisions "
               f"{how} ({_plural(report.games, 'game')}, {report.seconds:.1f} s)")
        yield 'decisions sent after {"op": "new_game"}:' if d.decisions else "no decision sent yet"
    for i, decision in enumerate(d.decisions):
        try:
            text = decision_text(parse_decision(decision))
        except (MalformedJSONError, HanamikojiError):
            text = json.dumps(decision)
        yield f"  {i:>3}  {text}"
    yield f"first differing step: {json.dumps(d.request)}"
    reference, other = d.reference, d.other
    if isinstance(reference, dict) and isinstance(other, dict) and \
            isinstance(reference.get("view"), dict) and isinstance(other.get("view"), dict):
        reference, other = reference["view"], other["view"]
        keys = [k for k in sorted(set(reference) | set(other))
                if dumps(reference.get(k)) != dumps(other.get(k))]
        yield "  (the view's keys that differ; --json shows both views whole)"
        reference = {k: reference.get(k) for k in keys}
        other = {k: other.get(k) for k in keys}
    if reference is not None or other is not None:
        yield f"  reference: {json.dumps(reference)}"
        yield f"  other:     {json.dumps(other)}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run(args: argparse.Namespace) -> int:
    """The ``diff`` sub-command: exit 0 if no divergence is found, 1 if one is."""
    argv = list(args.engine)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UsageError("no engine command: give it after --, e.g. "
                         "hanamikoji diff -- python docs/examples/adapter.py")
    if not 0 < args.timeout <= 3600:
        raise UsageError(f"--timeout must be from 0 to 3600 seconds, not {args.timeout:g}")
    variants = tuple(PRESETS.values()) if args.variant == "both" else (Rules.named(args.variant),)
    try:
        report = compare_engines(argv, games=args.games, seed=args.seed, variants=variants,
                                 timeout=args.timeout, shrink=args.shrink)
    except CannotStart as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        for line in render(report, argv):
            print(line)
    return EXIT_OK if report.divergence is None else EXIT_FAILED


