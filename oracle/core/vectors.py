"""``hanamikoji vectors``: a game's conformance corpus, in the manner of Wycheproof's test vectors.

Four JSON files (:data:`FILES`), each a header and a list of cases; a case has an ``id``, a
``comment``, ``flags`` (explained in the file's ``notes``), the spec ``rules`` it exercises, an
``input`` and the ``expected`` answer, always computed by the engine, never typed by hand:

* ``records.json``: a record and its verdict: valid with the result and the number of legal
  decisions at each decision; illegal with the rule (and where, in the game's own terms);
  malformed with the JSON path;
* ``decisions.json``: a position and one more decision: the legal decisions at the position, and
  whether the decision is legal (if not, the rule it breaks);
* ``views.json``: a position and a player: what that player sees;
* ``perft.json``: a position and the number of decision sequences from it at each depth.

A game may build its own cases (:meth:`VectorsExtension.files`, in its
``hanamikoji.oracle.<game>.vectors``); for any other game this module builds
a small corpus from seeded games, with nothing but the game's interface: the seeded games as
valid records; one-change near-misses of them that the game refuses, one per rule its errors
name; positions of those games with their legal decisions, a decision taken there and decisions
taken elsewhere that the rules refuse there; every player's view; perft from the seeded start.
A case cites the rules the game's errors name (a valid case, those its near-misses broke).
Generation is deterministic: the same engine writes the same bytes. A file that names no
``game`` is of the registry's default game, as in the diff protocol.
"""

from __future__ import annotations

import copy
import json
import os
import re
from typing import Any, Callable, Iterator, Mapping, Sequence

import attrs

from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import CHANCE, TERMINAL, Game, IllegalRecordError, MalformedRecordError
from hanamikoji.oracle.core.protocol import player_json
from hanamikoji.oracle.core.extension import extension
from hanamikoji.oracle.core.perft import divide, perft, seeded_start
from hanamikoji.oracle.core.perft import hooks as perft_hooks
from hanamikoji.engine.core.registry import DEFAULT, get

CORPUS = "hanamikoji-vectors/1"
FILES = ("records.json", "decisions.json", "views.json", "perft.json")
POSITION_KEYS = ("game", "options", "first_player", "history")


@attrs.frozen
class Case:
    """One conformance case; ``expected`` is always computed, never written by hand."""

    id: str
    comment: str
    flags: tuple[str, ...]
    rules: tuple[str, ...]
    input: Any
    expected: Any

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "comment": self.comment, "flags": list(self.flags),
                "rules": list(self.rules), "input": self.input, "expected": self.expected}


@attrs.frozen
class VectorFile:
    """One file of a corpus: its header, what its flags mean (flag, text), and its cases."""

    header: str
    notes: tuple[tuple[str, str], ...]
    cases: tuple[Case, ...]


class IntentError(AssertionError):
    """A case does not show what it was built to show: the generator or the engine is wrong."""


def intend(case_id: str, what: str, expected: Any, got: Any) -> None:
    """Stop generation when the engine's answer is not the one the case was built for."""
    if expected != got:
        raise IntentError(f"{case_id}: meant {what} {expected!r}, the engine gives {got!r}")


# --- the corpus ----------------------------------------------------------------------------


def document(game: Game, name: str, file: VectorFile) -> dict[str, Any]:
    """The JSON document of one file: the header, then the cases."""
    ids = [c.id for c in file.cases]
    if len(set(ids)) != len(ids):
        raise IntentError(f"{name}: duplicate case ids")
    notes = dict(file.notes)
    flags = sorted({f for c in file.cases for f in c.flags})
    unexplained = [f for f in flags if f not in notes]
    if unexplained:
        raise IntentError(f"{name}: flag {unexplained[0]} has no note")
    out: dict[str, Any] = {"corpus": CORPUS}
    if game.name != DEFAULT:  # as in the diff protocol: no game named is the default game
        out["game"] = game.name
    out.update({"file": name, "generator": "hanamikoji vectors" + (
                    "" if game.name == DEFAULT else f" --game {game.name}"),
                "header": file.header, "numberOfTests": len(file.cases),
                "notes": {f: notes[f] for f in flags},
                "tests": [c.to_json() for c in file.cases]})
    return out


class VectorsExtension:
    """What ``vectors`` can know of one game beyond its interface: by default nothing, and the
    corpus is built here from seeded games. A game's own subclass is ``EXTENSION`` of
    ``hanamikoji.oracle.<game>.vectors`` (:mod:`hanamikoji.oracle.core.extension`)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def files(self) -> Mapping[str, Any] | None:
        """The game's hand-made conformance vectors: file name to :class:`VectorFile` for each
        of :data:`FILES`, or None (the default) for the corpus built from seeded games."""
        return None

    def tasks(self, name: str, *, cases: int | None = None,
              seed: int | None = None) -> Mapping[str, Any] | None:
        """The vectors of the task set ``name`` (file name to JSON document), or None (the
        default) when the game has no such set; ``cases`` asks for that many generated cases
        per file instead of the small set, ``seed`` for games of another seed."""
        return None


def corpus(game: Game) -> dict[str, dict[str, Any]]:
    """Every file of ``game``'s corpus, by name: the game's own cases if it has them, else the
    cases built here from seeded games."""
    files = extension("vectors", game, VectorsExtension).files()
    if files is None:
        files = generic_files(game)
    if sorted(files) != sorted(FILES):
        raise IntentError(f"game {game.name}: vector files {sorted(files)}, expected {list(FILES)}")
    return {name: document(game, name, files[name]) for name in FILES}


def render(document: Any) -> str:
    """JSON text, indented, with short lists on one line: stable, and easy to diff."""
    return _render(document, 0) + "\n"


def _render(value: Any, depth: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= 100 - depth or not isinstance(value, (dict, list)) or not value:
        return flat
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + _render(v, depth + 1) for v in value) + "\n" + pad + "]"
    return "{\n" + ",\n".join(f"{inner}{json.dumps(k)}: {_render(v, depth + 1)}"
                              for k, v in value.items()) + "\n" + pad + "}"


def write(directory: str, game: Game | None = None) -> list[str]:
    """Write ``game``'s corpus (default: the default game's) as the folder ``directory``, whole
    or not at all (:func:`~.output.output_folder`: a folder that holds anything but vector files
    is refused); the paths written."""
    from hanamikoji.runtime.output import output_folder

    game = get() if game is None else game
    with output_folder(directory, ours=FILES, command="vectors") as folder:
        for name, doc in corpus(game).items():
            with folder.file(name) as out:
                out.write(render(doc))
    return [os.path.join(directory, name) for name in FILES]


def write_tasks(directory: str, game: Game, name: str, *, cases: int | None = None,
                seed: int | None = None) -> list[str]:
    """Write ``game``'s vectors of the task set ``name`` as the folder ``directory``, as
    :func:`write` writes the corpus; the paths written."""
    from hanamikoji.runtime.base import UsageError
    from hanamikoji.runtime.output import output_folder

    documents = extension("vectors", game, VectorsExtension).tasks(name, cases=cases, seed=seed)
    if documents is None:
        raise UsageError(f"game {game.name} has no task set {name!r}")
    with output_folder(directory, ours=tuple(documents), command="vectors") as folder:
        for file_name, doc in documents.items():
            with folder.file(file_name) as out:
                out.write(render(doc))
    return [os.path.join(directory, file_name) for file_name in documents]


# --- expected answers, for any game: computed from the input alone ---------------------------


def position(game: Game, given: Mapping[str, Any]) -> Any:
    """The state of a position input (the keys :meth:`Game.position_to_json` writes)."""
    return game.position_from_json({k: given[k] for k in POSITION_KEYS if k in given})


def legal_counts(game: Game, final: Any) -> list[int]:
    """The number of legal decisions at each decision of the game (chance outcomes are not
    decisions)."""
    return [len(game.legal_actions(s)) for s in game.states(final)
            if game.current_player(s) >= 0]


def judge_record(game: Game, given: Mapping[str, Any]) -> tuple[dict[str, Any], Any, str]:
    """The verdict on a record case's input (``{"record"}``, or raw ``{"text"}`` or ``{"hex"}``
    for bytes that are not UTF-8) with the fields of ``validate --json`` (status, rule, the
    game's :attr:`~Game.record_where` keys, path, result); the final state if valid; and the
    engine's message."""
    from hanamikoji.oracle.core.validate import NotJSONError, decode

    where = {key: None for key in game.record_where}
    verdict: dict[str, Any] = {"status": "valid", "rule": None, **where, "path": None,
                               "result": None}
    if "record" in given:
        record = copy.deepcopy(given["record"])
    else:
        try:
            record = decode(given["text"].encode("utf-8") if "text" in given
                            else bytes.fromhex(given["hex"]))
        except NotJSONError as error:
            verdict.update(status="malformed")
            return verdict, None, str(error)
    try:
        final = game.read_record(record)
    except MalformedRecordError as error:
        verdict.update(status="malformed", path=error.path)
        return verdict, None, str(error)
    except IllegalRecordError as error:
        verdict.update(status="illegal", rule=error.rule,
                       **{k: v for k, v in error.where.items() if k in where})
        return verdict, None, str(error)
    except GameError as error:  # a game's own error outside the record hierarchy
        verdict.update(status="illegal", rule=error.rule)
        return verdict, None, str(error)
    except RecursionError:
        verdict.update(status="malformed")
        return verdict, None, "arrays or objects nested too deeply"
    verdict["result"] = game.record_result_json(final)
    return verdict, final, game.describe_end(final)


def expected_record(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict on a record case's input (:func:`judge_record`); with the legal counts if
    valid."""
    verdict, final, _ = judge_record(game, given)
    if final is not None:
        verdict["legal_counts"] = legal_counts(game, final)
    return verdict


def expected_decision(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """The legal decisions at the position and the verdict on ``decision`` there."""
    state = position(game, given)
    out: dict[str, Any] = {
        "current_player": player_json(game.current_player(state)),
        "legal_actions": [game.decision_to_json(d) for d in game.legal_actions(state)]}
    try:
        after = game.apply(state, game.decision_from_json(given["decision"], "$.decision"))
    except GameError as error:
        out.update(status="illegal", rule=error.rule)
    else:
        out.update(status="legal", rule=None,
                   next_player=player_json(game.current_player(after)),
                   result=game.outcome_to_json(game.outcome(after)))
    return out


def expected_view(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    return {"view": game.view_to_json(game.observe(position(game, given), given["player"]))}


def expected_perft(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    state = position(game, given)
    depth = given["depth"]
    counts = perft(game, state, depth)
    out: dict[str, Any] = {"depths": {str(d): counts[d] for d in range(1, depth + 1)}}
    if given.get("divide"):
        out["divide"] = [{"decision": game.decision_to_json(d), "count": n}
                         for d, n in divide(game, state, given["divide"])]
    return out


EXPECTED: dict[str, Callable[[Game, Mapping[str, Any]], dict[str, Any]]] = {
    "records.json": expected_record, "decisions.json": expected_decision,
    "views.json": expected_view, "perft.json": expected_perft}


# --- the corpus built from seeded games --------------------------------------------------------

#: Game i of this seed gives the records, positions and views.
SEED = 1
#: The seeds of the perft cases (the first chance outcome of game 0 of each).
PERFT_SEEDS = (0, 1, 2)
#: perft goes one depth deeper while the deepest count is at most this (or the game's limit).
PERFT_NODES = 20_000
PERFT_MAX_DEPTH = 12
#: Near-misses kept: one per rule, up to this many; malformed ones, up to this many.
MAX_ILLEGAL = 12
MAX_MALFORMED = 4
#: One-change near-misses tried per record, and decisions tried per position.
MAX_MUTATIONS = 3000
MAX_PROBES = 1000
#: Rules shown as refused at one position, at most.
RULES_PER_POSITION = 3

NOTES = {
    "Valid": "A complete game the rules allow; expected holds its result and the number of "
             "legal decisions at each decision.",
    "Illegal": "Well formed, but the rules forbid it; expected names the rule the engine's "
               "error names.",
    "Malformed": "Not a record: expected names the JSON path at fault.",
    "Seeded": "A game of uniform random players: game i of seed s, drawn as "
              "`hanamikoji simulate --seed s` draws it.",
    "Mutated": "A valid record with exactly one thing changed.",
    "Legal": "The decision is legal at the position.",
    "Elsewhere": "A decision the same game took, or could take, at another position.",
    "Chance": "The position waits for a chance outcome.",
    "End": "The game is over at the position.",
}


@attrs.frozen
class SeededGame:
    """Game ``index`` of seed ``seed`` under ``config``, begun by ``first_player``, played to
    its end (``final``)."""

    stem: str
    description: str
    config: Any
    seed: int
    index: int
    first_player: int
    final: Any


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "x"


def configurations(game: Game) -> list[tuple[dict[str, Any], Any]]:
    """The default configuration, then each other value of each option (the ends of a range),
    the other options at their defaults: (the options given, the configuration)."""
    found: list[tuple[dict[str, Any], Any]] = [({}, game.configure({}))]
    for option in game.options:
        values = option.choices if option.choices is not None else tuple(
            v for v in (option.low, option.high) if v is not None)
        for value in values:
            if value == option.default:
                continue
            try:
                config = game.configure({option.name: value})
            except GameError:
                continue
            if all(config != known for _, known in found):
                found.append(({option.name: value}, config))
    return found


def seeded_games(game: Game, configs: Sequence[tuple[Mapping[str, Any], Any]] | None = None
                 ) -> list[SeededGame]:
    """Two games of :data:`SEED` per configuration: game 0 begun by player 0, game 1 by the
    last player. The configurations are (the options given, the configuration) pairs, by
    default :func:`configurations`; a game's own corpus names others (every player count, say)."""
    from hanamikoji.engine.core.seeded import play_game

    out = []
    for given, config in (configurations(game) if configs is None else configs):
        label = "-".join(f"{_slug(k)}-{_slug(v)}" for k, v in given.items()) or "default"
        shown = ", ".join(f"{k} {v}" for k, v in given.items()) or "default options"
        last = game.num_players(config) - 1
        for index, first in ((0, 0), (1, last)):
            final = play_game(game, config, SEED, index, first)
            if not game.is_terminal(final):
                raise IntentError(f"game {index} of seed {SEED} ({shown}) did not end")
            out.append(SeededGame(f"seed-{SEED}-game-{index}-{label}-first-{first}",
                                  f"game {index} of seed {SEED}, {shown}, player {first} begins",
                                  config, SEED, index, first, final))
    return out


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def mutations(document: Any) -> Iterator[tuple[str, str, Any]]:
    """(JSON path, the change, the changed document) for one-change near-misses of
    ``document``, in document order: a number one more or one less, a truth value flipped, a
    text replaced by another text of the same key, a list's last item dropped or repeated, its
    first two items swapped."""
    texts: dict[str, list[str]] = {}

    def collect(node: Any, key: str) -> None:
        if isinstance(node, str):
            if node not in texts.setdefault(key, []):
                texts[key].append(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                collect(v, k)
        elif isinstance(node, list):
            for v in node:
                collect(v, key)

    collect(document, "$")

    def changes(node: Any, key: str) -> Iterator[tuple[str, Any]]:
        if isinstance(node, bool):
            yield "flipped", not node
        elif isinstance(node, int):
            yield "plus 1", node + 1
            yield "minus 1", node - 1
        elif isinstance(node, str):
            for other in [t for t in texts.get(key, []) if t != node][:2]:
                yield f"replaced by {json.dumps(other)}", other
        elif isinstance(node, list) and node:
            yield "last item dropped", node[:-1]
            yield "last item repeated", node + [copy.deepcopy(node[-1])]
            if len(node) > 1 and node[0] != node[1]:
                yield "first two items swapped", [node[1], node[0]] + node[2:]

    def visit(node: Any, path: str, steps: tuple[Any, ...],
              key: str) -> Iterator[tuple[str, str, Any]]:
        for what, value in changes(node, key):
            yield path, what, _replaced(document, steps, value)
        if isinstance(node, dict):
            for k, v in node.items():
                yield from visit(v, f"{path}.{k}", steps + (k,), k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from visit(v, f"{path}[{i}]", steps + (i,), key)

    yield from visit(document, "$", (), "$")


def _replaced(document: Any, steps: tuple[Any, ...], value: Any) -> Any:
    if not steps:
        return copy.deepcopy(value)
    out = copy.deepcopy(document)
    node = out
    for step in steps[:-1]:
        node = node[step]
    node[steps[-1]] = value
    return out


def record_cases(game: Game, seeded: list[SeededGame]) -> tuple[Case, ...]:
    """Valid records of the seeded games, then their near-misses: illegal ones (one per rule),
    then malformed ones."""
    valid: list[Case] = []
    illegal: dict[str, Case] = {}
    malformed: list[Case] = []
    for played in seeded:
        record = game.to_record(played.final)
        verdict, _, message = judge_record(game, {"record": record})
        intend(f"record/valid/{played.stem}", "status", "valid", verdict["status"])
        broken: set[str] = set()
        for count, (path, what, changed) in enumerate(mutations(record)):
            if count >= MAX_MUTATIONS:
                break
            verdict, _, message = judge_record(game, {"record": changed})
            if verdict["status"] == "illegal" and verdict["rule"]:
                rule = verdict["rule"]
                broken.add(rule)
                if rule not in illegal and len(illegal) < MAX_ILLEGAL:
                    case_id = f"record/illegal/{_slug(rule)}"
                    illegal[rule] = Case(
                        case_id, f"{rule}: the record of {played.description}, with {path} "
                        f"{what}; the engine refuses it: {message}", ("Illegal", "Mutated"),
                        (rule,), {"record": changed}, expected_record(game, {"record": changed}))
            elif verdict["status"] == "malformed" and len(malformed) < MAX_MALFORMED:
                case_id = f"record/malformed/{_slug(path)}-{_slug(what)}"
                if all(c.id != case_id for c in malformed):
                    malformed.append(Case(
                        case_id, f"Malformed: the record of {played.description}, with {path} "
                        f"{what}.", ("Malformed", "Mutated"), (), {"record": changed},
                        expected_record(game, {"record": changed})))
        given = {"record": record}
        valid.append(Case(f"record/valid/{played.stem}",
                          f"The record of {played.description}: "
                          f"{game.describe_end(played.final)}.",
                          ("Valid", "Seeded"), tuple(sorted(broken)), given,
                          expected_record(game, given)))
    return tuple(valid) + tuple(illegal.values()) + tuple(malformed)


def _moments(length: int, many: bool) -> list[int]:
    """Indices of the states of a game of ``length`` states to show: the start, the first
    decisions, points along the way, the last decision and the end."""
    picks = {0, 1, 2, length // 2, length - 2, length - 1}
    if many:
        picks |= {length // 4, (3 * length) // 4}
    return sorted(i for i in picks if 0 <= i < length)


def _refusals(game: Game, state: Any, pool: list[Any]) -> list[tuple[str, Any, str]]:
    """(rule, decision, message) for decisions of ``pool`` the rules refuse at ``state``, the
    first for each rule, up to :data:`RULES_PER_POSITION` rules."""
    listed = {_canonical(game.decision_to_json(d)) for d in game.legal_actions(state)}
    found: dict[str, tuple[str, Any, str]] = {}
    for decision in pool[:MAX_PROBES]:
        if _canonical(game.decision_to_json(decision)) in listed:
            continue
        try:
            game.apply(state, decision)
        except GameError as error:
            if error.rule and error.rule not in found:
                found[error.rule] = (error.rule, decision, str(error))
                if len(found) >= RULES_PER_POSITION:
                    break
    return list(found.values())


def _pool(game: Game, runs: list[SeededGame]) -> list[Any]:
    """Every decision the games took, then every decision legal somewhere in them, once each."""
    seen: set[str] = set()
    out: list[Any] = []

    def add(decision: Any) -> None:
        key = _canonical(game.decision_to_json(decision))
        if key not in seen:
            seen.add(key)
            out.append(decision)

    for played in runs:
        for decision in game.history(played.final):
            add(decision)
    for played in runs:
        for state in game.states(played.final):
            for decision in game.legal_actions(state):
                add(decision)
    return out


def _decisions(count: int) -> str:
    return f"{count} decision{'' if count == 1 else 's'}"


def _flags(game: Game, state: Any) -> tuple[str, ...]:
    player = game.current_player(state)
    return ("Chance",) if player == CHANCE else ("End",) if player == TERMINAL else ()


def decision_cases(game: Game, seeded: list[SeededGame]) -> tuple[Case, ...]:
    """At chosen positions of the first game of each configuration: the decision the game
    took there (legal), and decisions taken elsewhere that the rules refuse there."""
    cases: list[Case] = []
    for n, played in enumerate(seeded[::2]):
        pool = _pool(game, [r for r in seeded if r.config == played.config])
        states = list(game.states(played.final))
        history = game.history(played.final)
        for i in _moments(len(states), many=n == 0):
            state = states[i]
            refused = _refusals(game, state, pool)
            stem = f"decision/{played.stem}/step-{i}"
            place = f"{played.description}, after {_decisions(i)}"
            base = game.position_to_json(state)
            if i < len(history):
                given = {**base, "decision": game.decision_to_json(history[i])}
                expected = expected_decision(game, given)
                intend(f"{stem}/legal", "status", "legal", expected["status"])
                cases.append(Case(f"{stem}/legal", f"The decision taken in {place}.",
                                  ("Legal",) + _flags(game, state),
                                  tuple(sorted(r for r, _, _ in refused)), given, expected))
            for rule, decision, message in refused:
                given = {**base, "decision": game.decision_to_json(decision)}
                expected = expected_decision(game, given)
                intend(f"{stem}/{_slug(rule)}", "rule", rule, expected["rule"])
                cases.append(Case(f"{stem}/{_slug(rule)}", f"{rule}: in {place}, a decision "
                                  f"taken elsewhere; the engine refuses it: {message}",
                                  ("Illegal", "Elsewhere") + _flags(game, state), (rule,),
                                  given, expected))
    return tuple(cases)


def view_cases(game: Game, seeded: list[SeededGame]) -> tuple[Case, ...]:
    """Every player's view at chosen positions of the first game of each configuration."""
    cases: list[Case] = []
    for played in seeded[::2]:
        states = list(game.states(played.final))
        for i in _moments(len(states), many=False):
            state = states[i]
            for player in game.players(state):
                given = {**game.position_to_json(state), "player": player}
                cases.append(Case(f"view/{played.stem}/step-{i}/player-{player}",
                                  f"What player {player} sees in {played.description}, after "
                                  f"{_decisions(i)}.", _flags(game, state), (), given,
                                  expected_view(game, given)))
    return tuple(cases)


def perft_depth(game: Game, state: Any) -> int:
    """The depth of a perft case: one deeper while the deepest count is at most
    :data:`PERFT_NODES`, within the game's limit; less where the tree ends sooner."""
    limit = perft_hooks(game).max_depth()
    most = min(PERFT_MAX_DEPTH, limit[0] if limit else PERFT_MAX_DEPTH)
    depth = 1
    while depth < most:
        counts = perft(game, state, depth)
        if counts[depth] == 0:
            return max(1, depth - 1)
        if counts[depth] > PERFT_NODES:
            break
        depth += 1
    return depth


def perft_cases(game: Game, seeded: list[SeededGame]) -> tuple[Case, ...]:
    """perft from the first chance outcome of game 0 of each of :data:`PERFT_SEEDS`, under the
    default options; the first split by first decision."""
    config = game.configure({})
    pool = _pool(game, [r for r in seeded if r.config == config])
    cases = []
    for seed in PERFT_SEEDS:
        start = seeded_start(game, config, seed)
        depth = perft_depth(game, start)
        given = {**game.position_to_json(start), "depth": depth}
        if seed == PERFT_SEEDS[0]:
            given["divide"] = depth
        cases.append(Case(f"perft/seed-{seed}", f"`hanamikoji perft --game {game.name} --seed "
                          f"{seed} --depth {depth}`: from the first chance outcome of game 0 of "
                          f"seed {seed}.", (), tuple(sorted(r for r, _, _ in
                                                            _refusals(game, start, pool))),
                          given, expected_perft(game, given)))
    return tuple(cases)


def generic_files(game: Game) -> dict[str, VectorFile]:
    """The corpus of ``game`` built from seeded games through its interface alone."""
    seeded = seeded_games(game)
    built = {"records.json": record_cases(game, seeded),
             "decisions.json": decision_cases(game, seeded),
             "views.json": view_cases(game, seeded),
             "perft.json": perft_cases(game, seeded)}
    headers = {
        "records.json": f"Records of {game.record_format} and their verdicts: valid with the "
                        "result and the number of legal decisions at each decision, illegal "
                        "with the rule the engine names" + (
                            f" and where ({', '.join(game.record_where)})"
                            if game.record_where else "") + ", malformed with the JSON path.",
        "decisions.json": "A position (the options, the first player and every decision from "
                          "the start, in the game's JSON forms) and one more decision: the legal "
                          "decisions at the position, and whether that decision is legal.",
        "views.json": "A position and a player: what that player may see.",
        "perft.json": "A position and the number of decision sequences from it at each depth "
                      "to `depth` (chance outcomes and the end of the game are leaves).",
    }
    return {name: VectorFile(headers[name], tuple(NOTES.items()), cases)
            for name, cases in built.items()}
