"""The conformance vectors run against another engine through the diff protocol.

``hanamikoji vectors`` writes the corpus for an implementer to read and compare on their own;
this module does the comparing for an engine behind the protocol (docs/oracle.md, "The
protocol"), so that the vectors can run in an implementer's own test suite
(:func:`hanamikoji.oracle.vectors`, the pytest plugin). Each case's input is read by the
reference into a position, that position's decisions are sent to the engine as a game, and the
engine's answers are judged by the differential harness's own comparisons
(:class:`~hanamikoji.oracle.core.diff.DiffGame`): a failure reads as a divergence of ``diff``.

- ``decisions.json``: the engine's whose turn, legal decisions, views and result at the
  position, then the case's decision: accepted if the rules allow it (and the state after it
  compared in turn), refused if they do not;
- ``views.json``: the case's player's view at the position;
- ``records.json``: a valid record's game replayed step by step, every step compared. A record
  the rules refuse, or one that is not a record, is the record reader's case (``validate``),
  not a protocol engine's: skipped;
- ``perft.json``: the legal decisions of every position of the tree to ``perft_depth``
  decisions (a tree over the protocol replays each position), compared step by step, and the
  counts checked against the case's.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

import attrs

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import Game
from hanamikoji.oracle.core.diff import (
    DiffGame,
    Divergence,
    DivergenceFound,
    Engine,
    Report,
    _Stop,
    _Unstarted,
    render,
)

#: What each vector file's case checks: the file's name without ``.json`` is a case's kind.
KINDS = ("records", "decisions", "views", "perft")
#: How deep the perft cases are walked over the protocol by default: each position of the tree
#: is a game replayed, so the cost grows as the tree does (Hanamikoji's depth 2 is 77 games).
PERFT_DEPTH = 2


class Skipped(Exception):
    """A case that does not apply to an engine behind the protocol (the reason)."""


@attrs.frozen
class Outcome:
    """How one case went: ``status`` is ``pass``, ``fail`` or ``skip``; ``message`` says why it
    failed or was skipped; ``text`` is the failure as ``diff`` reports a divergence."""

    id: str
    kind: str
    status: str
    message: str | None = None
    text: str | None = None
    divergence: Divergence | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "status": self.status,
                "message": self.message,
                "divergence": None if self.divergence is None else self.divergence.to_json()}


def _replayed(engine: Engine, game: Game, state: Any, *, compare: bool) -> tuple[DiffGame, Any]:
    """``state``'s game sent to ``engine`` decision by decision (``compare``: every step's
    answers compared on the way; otherwise only each decision's acceptance)."""
    match = DiffGame(engine, game, game.config_of(state), game.first_player(state))
    match.lookahead = compare
    current = match.start()
    if compare:
        match.compare(current)
    for decision in game.history(state):
        current = match.send(current, decision)
        if compare:
            match.compare(current)
    return match, current


def _position(game: Game, given: Mapping[str, Any]) -> Any:
    """The state a case's input names (a position, or the game's own start for perft)."""
    from hanamikoji.oracle.core.perft import hooks

    rest = {k: v for k, v in given.items() if k not in ("depth", "divide", "decision", "player")}
    if "history" in rest:
        # An option may stand at the top level (Hanamikoji's positions give their variant so).
        options = {**{o.name: rest[o.name] for o in game.options if o.name in rest},
                   **(rest.get("options") or {})}
        return game.position_from_json({**rest, "options": options})
    state = hooks(game).start_from_json(rest, game.configure())
    if state is None:
        raise Skipped(f"game {game.name} has no start files: the input needs a history")
    return state


def check_decision(engine: Engine, game: Game, given: Mapping[str, Any]) -> None:
    state = _position(game, given)
    match, current = _replayed(engine, game, state, compare=False)
    match.compare(current)
    decision = game.decision_from_json(given["decision"], "$.decision")
    try:
        game.apply(current, decision)
    except GameError:
        match.probe(current, decision)
        return
    match.compare(match.send(current, decision))


def check_view(engine: Engine, game: Game, given: Mapping[str, Any]) -> None:
    match, current = _replayed(engine, game, _position(game, given), compare=False)
    match.compare_view(current, given["player"])


def check_record(engine: Engine, game: Game, given: Mapping[str, Any]) -> None:
    from hanamikoji.oracle.core.vectors import judge_record

    verdict, final, _ = judge_record(game, given)
    if final is None:
        raise Skipped(f"a {verdict['status']} record is the record reader's case (validate), "
                      "not a protocol engine's")
    _replayed(engine, game, final, compare=True)


def check_perft(engine: Engine, game: Game, given: Mapping[str, Any], expected: Mapping[str, Any],
                depth: int = PERFT_DEPTH) -> str | None:
    """The tree walked to ``depth`` over the protocol; a message if the counts differ from the
    case's (they cannot once every step agreed, unless the corpus is stale)."""
    start = _position(game, given)
    depth = min(depth, given.get("depth", depth), max(int(d) for d in expected["depths"]))
    counts = [0] * (depth + 1)

    def visit(state: Any, level: int) -> None:
        counts[level] += 1
        if level == depth or game.current_player(state) < 0:
            return
        match, current = _replayed(engine, game, state, compare=False)
        match.compare_legal(current)
        for decision in game.legal_actions(current):
            visit(game.apply(current, decision), level + 1)

    visit(start, 0)
    wrong = [f"depth {d}: {counts[d]} instead of {expected['depths'][str(d)]}"
             for d in range(1, depth + 1) if counts[d] != expected["depths"][str(d)]]
    return "; ".join(wrong) or None


def run_case(engine: Engine, game: Game, kind: str, case: Mapping[str, Any], *,
             perft_depth: int = PERFT_DEPTH) -> Outcome:
    """One case of file ``kind`` against ``engine``."""
    case_id, given = case["id"], case["input"]
    engine.ensure_started()  # again after a case that ended it (a crash): each case is judged
    try:
        message = None
        if kind == "decisions":
            check_decision(engine, game, given)
        elif kind == "views":
            check_view(engine, game, given)
        elif kind == "records":
            check_record(engine, game, given)
        elif kind == "perft":
            message = check_perft(engine, game, given, case["expected"], perft_depth)
        else:
            raise Skipped(f"no check for a case of {kind}.json")
    except Skipped as skipped:
        return Outcome(case_id, kind, "skip", str(skipped))
    except (DivergenceFound, _Stop) as found:
        divergence = found.divergence
        report = Report(1, divergence, engine.starts, 0.0, False)
        text = "\n".join(render(report, engine.argv, game))
        return Outcome(case_id, kind, "fail", divergence.message, text, divergence)
    except _Unstarted as unstarted:
        raise unstarted.error from None
    if message is not None:
        return Outcome(case_id, kind, "fail", message, f"{case_id}: {message}")
    return Outcome(case_id, kind, "pass")


def run_cases(engine: Engine, game: Game, cases: Sequence[tuple[str, Mapping[str, Any]]], *,
              perft_depth: int = PERFT_DEPTH) -> Iterator[Outcome]:
    """Each ``(kind, case)`` against ``engine``, in order; the engine is stopped at the end."""
    try:
        for kind, case in cases:
            yield run_case(engine, game, kind, case, perft_depth=perft_depth)
    finally:
        engine.stop()
