"""The generic invariants: what every game of the core must satisfy, checked through the
:class:`~hanamikoji.engine.core.game.Game` interface only.

One named function per invariant, each with a one-line docstring, each raising
:class:`Violation` (an ``AssertionError`` naming the property, and the rule IDs involved when
there are any) with a one-line message saying where. The first argument is always the game;
nothing here knows any game's rules. They are reused by the Hypothesis properties
(:mod:`.suite`) and the state machine (:mod:`.machine`); a game's own invariants stay with the
game (properties/<game>/).

>>> import random
>>> from hanamikoji.engine.core import registry
>>> game = registry.get()  # the default game, as an example
>>> final = game.random_game(random.Random(5), game.configure())
>>> ledger_is_conserved(game, final) is None and records_round_trip(game, final) is None
True
>>> property_name(views_leak_nothing)
'views-leak-nothing'
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
import pathlib
import pickle
import random
import subprocess
import sys
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs

from hanamikoji.engine.core.codec import value_text
from hanamikoji.engine.core.errors import GameError, IllegalActionError
from hanamikoji.engine.core.game import CHANCE, TERMINAL, Game

__all__ = [
    "Violation",
    "property_name",
    "fingerprint",
    "DEFAULT_BOUND",
    "MAX_CHANCE_APPLIED",
    "KINDS",
    # the engine's contract
    "apply_leaves_its_input_unchanged",
    "history_records_each_decision",
    "seeded_games_are_reproducible",
    # legality
    "legal_actions_all_apply",
    "legal_actions_are_sorted_and_distinct",
    "other_decisions_are_refused",
    # conservation, players, the end
    "ledger_is_conserved",
    "players_and_outcomes_are_well_formed",
    "games_end_within_a_bound",
    # codecs and records
    "decisions_and_positions_round_trip",
    "records_round_trip",
    "records_follow_their_schema",
    # hidden information
    "views_leak_nothing",
    # groups
    "STATE_INVARIANTS",
    "check_state",
    "check_step",
]

#: The most decisions a game may take when the game declares no bound of its own
#: (:meth:`Game.max_decisions`).
DEFAULT_BOUND = 10_000

#: The most listed chance outcomes :func:`legal_actions_all_apply` applies at one node.
MAX_CHANCE_APPLIED = 32

#: Where a decision tried by :func:`other_decisions_are_refused` comes from: a player's legal
#: action in some state, a chance outcome of some chance node, or a value that is no decision.
KINDS = ("action", "chance", "junk")


class Violation(AssertionError):
    """A generic property does not hold: ``property`` names it, ``rules`` the rule IDs the game
    cited (if any)."""

    def __init__(self, property: str, message: str, rules: Iterable[str | None] = ()) -> None:
        self.property = property
        self.rules = tuple(r for r in rules if r)
        super().__init__(f"{property}: {message}"
                         + (f" [{', '.join(self.rules)}]" if self.rules else ""))


def property_name(invariant: Callable[..., Any]) -> str:
    """The property an invariant checks: its name, hyphenated."""
    return invariant.__name__.replace("_", "-")


def _require(condition: bool, invariant: Callable[..., Any], message: str,
             rules: Iterable[str] = ()) -> None:
    if not condition:
        raise Violation(property_name(invariant), message, rules)


def fingerprint(value: Any) -> bytes:
    """A deep fingerprint of ``value``: its pickle (its repr where it has none). Equal values may
    differ in fingerprint; one value that nobody changed never does (a cache filled in place
    counts as a change)."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an unpicklable state still has a repr
        return repr(value).encode("utf-8", "backslashreplace")


def _where(game: Game, state: Any) -> str:
    try:
        count = len(game.history(state))
        player = game.current_player(state)
    except Exception as error:  # the message must not hide the violation behind another error
        return f"in a state the game cannot describe ({type(error).__name__})"
    to_move = {CHANCE: "chance to move", TERMINAL: "the game over"}.get(player,
                                                                       f"player {player} to move")
    return f"after {count} decisions ({to_move})"


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _shown(game: Game, decision: Any) -> str:
    """A decision as a message shows it: the game's JSON form of it (what records, the protocol
    and the engine's own refusals write), else its JSON text or, for what has neither (a value
    the game cannot encode), its repr."""
    try:
        return _canonical(game.decision_to_json(decision))
    except Exception:  # not a decision of the game: the message must still be written
        text = value_text(decision)
        return repr(decision) if text.endswith(" object") else text


# --- rule IDs --------------------------------------------------------------------------------


@functools.cache
def _spec_rules(spec_file: str) -> frozenset[str] | None:
    """The rule IDs of a spec file, read from the installed package (spec/...) or from the
    checkout (tests/...); None if it cannot be found."""
    from hanamikoji.spec.core.coverage import rule_ids_in  # (imports no z3)

    path = pathlib.PurePosixPath(spec_file)
    if path.parts and path.parts[0] == "spec":
        from importlib import resources

        try:
            package = "hanamikoji.spec." + ".".join(path.parent.parts[1:])
            text = resources.files(package).joinpath(path.name).read_text(encoding="utf-8")
            return frozenset(rule for rule, _ in rule_ids_in(text))
        except (ModuleNotFoundError, FileNotFoundError, OSError):
            pass
    here = pathlib.Path(__file__).resolve()
    for root in (here.parents[2], *[pathlib.Path.cwd(), *pathlib.Path.cwd().parents]):
        candidate = root / spec_file
        if candidate.is_file():
            return frozenset(rule for rule, _ in rule_ids_in(candidate.read_text(encoding="utf-8")))
    return None


def _rule_problem(game: Game, rule: Any) -> str | None:
    """Why ``rule`` is not a rule ID of ``game``'s spec, or None if it is one."""
    from hanamikoji.spec.core.coverage import RULE_ID

    if not isinstance(rule, str) or not RULE_ID.fullmatch(rule):
        return f"{rule!r} is not a rule ID"
    if not rule.startswith(game.rule_prefix):
        return f"{rule} lacks the game's prefix {game.rule_prefix!r}"
    known = _spec_rules(game.spec_file)
    if known is not None and rule not in known:
        return f"{rule} is not a rule of {game.spec_file}"
    return None


# --- the engine's contract -------------------------------------------------------------------


def apply_leaves_its_input_unchanged(game: Game, state: Any, decision: Any) -> None:
    """apply never changes its input, and applying the same decision again gives an equal state."""
    check = apply_leaves_its_input_unchanged
    before = fingerprint(state)
    first = game.apply(state, decision)
    _require(fingerprint(state) == before, check,
             f"{_where(game, state)}: apply({_shown(game, decision)}) changed its input state")
    second = game.apply(state, decision)
    _require(first == second, check,
             f"{_where(game, state)}: apply({_shown(game, decision)}) twice gives different states")


def history_records_each_decision(game: Game, before: Any, decision: Any, after: Any) -> None:
    """history grows by exactly the decision applied; the options and first player stay."""
    check = history_records_each_decision
    _require(tuple(game.history(after)) == tuple(game.history(before)) + (decision,), check,
             f"{_where(game, before)}: after {_shown(game, decision)} the history is not the one "
             f"before and that decision")
    _require(game.config_of(after) == game.config_of(before)
             and game.first_player(after) == game.first_player(before), check,
             f"{_where(game, before)}: {_shown(game, decision)} changed the options or the first "
             "player")


_CHILD = """\
import json, sys
from hanamikoji.engine.core import registry
from hanamikoji.engine.core.seeded import play_game
job = json.loads(sys.argv[1])
game = registry.get(job["game"])
config = game.configure(job["options"])
n = game.num_players(config)
print(json.dumps([game.to_record(play_game(game, config, s, i, i % n))
                  for s, i in job["games"]]))
"""


def seeded_games_are_reproducible(game: Game, seeds: Sequence[int], *,
                                  options: Mapping[str, Any] | None = None,
                                  games_per_seed: int = 2,
                                  hash_seeds: Sequence[str] = ("1", "2"),
                                  env: Mapping[str, str] | None = None) -> None:
    """The same seed gives the same game here and in fresh processes with other hash seeds."""
    from hanamikoji.engine.core.seeded import play_game

    check = seeded_games_are_reproducible
    config = game.configure(options)
    n = game.num_players(config)
    jobs = [(seed, index) for seed in seeds for index in range(games_per_seed)]
    here = [_canonical(game.to_record(play_game(game, config, seed, index, index % n)))
            for seed, index in jobs]
    job = json.dumps({"game": game.name, "options": game.options_of(config), "games": jobs})
    for hash_seed in hash_seeds:
        child_env = dict(os.environ if env is None else env, PYTHONHASHSEED=hash_seed)
        child = subprocess.run([sys.executable, "-c", _CHILD, job], capture_output=True,
                               text=True, env=child_env, timeout=300)
        if child.returncode != 0:
            last = (child.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"a fresh process cannot play {game.name!r} (is it registered "
                               f"there, e.g. with HANAMIKOJI_GAMES?): {last}")
        there = [_canonical(record) for record in json.loads(child.stdout)]
        _require(len(there) == len(here), check, f"a fresh process played {len(there)} games, "
                                                 f"not {len(here)}")
        for (seed, index), a, b in zip(jobs, here, there):
            _require(a == b, check, f"game {index} of seed {seed}: the game in a fresh process "
                                    f"with PYTHONHASHSEED={hash_seed} differs from this one's")


# --- legality ------------------------------------------------------------------------------


def _chance_list(game: Game, state: Any) -> list[Any] | None:
    outcomes = game.chance_outcomes(state)
    return None if outcomes is None else [o for o, p in outcomes if p > 0]


def legal_actions_all_apply(game: Game, state: Any, *, rng: random.Random | None = None) -> None:
    """Each legal action applies; a chance node's outcomes are a distribution, and they apply."""
    check = legal_actions_all_apply
    where = _where(game, state)
    player = game.current_player(state)
    legal = game.legal_actions(state)
    to_decide = player in game.players(state)
    _require(bool(legal) == to_decide, check,
             f"{where}: {len(legal)} legal actions with {'a player' if to_decide else 'no player'} "
             f"to decide")
    for action in legal:
        try:
            game.apply(state, action)
        except GameError as error:
            raise Violation(property_name(check), f"{where}: the legal {_shown(game, action)} is "
                                                  f"refused: {error}", (error.rule,)) from None
    if player != CHANCE:
        return
    rng = random.Random(len(game.history(state))) if rng is None else rng
    drawn = game.sample_chance(state, rng)
    try:
        game.apply(state, drawn)
    except GameError as error:
        raise Violation(property_name(check), f"{where}: the drawn chance outcome "
                                              f"{_shown(game, drawn)} is refused: {error}",
                        (error.rule,)) from None
    outcomes = game.chance_outcomes(state)
    if outcomes is None:
        return
    _require(bool(outcomes), check, f"{where}: a chance node lists no outcomes")
    total = math.fsum(p for _, p in outcomes)
    _require(all(p >= 0 for _, p in outcomes) and math.isclose(total, 1.0, abs_tol=1e-9), check,
             f"{where}: the chance outcomes' probabilities sum to {total}, not 1")
    listed = [o for o, _ in outcomes]
    _require(drawn in listed, check, f"{where}: sample_chance drew {_shown(game, drawn)}, which "
                                     f"chance_outcomes does not list")
    _require(_distinct(listed), check, f"{where}: chance_outcomes lists an outcome twice")
    # A long list is applied at evenly spaced places (the first and last included): the
    # properties visit many chance nodes, and each outcome is drawn by play somewhere.
    step = max(1, -(-len(listed) // MAX_CHANCE_APPLIED))
    for outcome in listed[::step] + listed[-1:]:
        try:
            game.apply(state, outcome)
        except GameError as error:
            raise Violation(property_name(check), f"{where}: the listed chance outcome "
                                                  f"{_shown(game, outcome)} is refused: {error}",
                            (error.rule,)) from None


def _distinct(values: Sequence[Any]) -> bool:
    try:
        return len(set(values)) == len(values)
    except TypeError:  # unhashable: compare every pair
        return all(a != b for i, a in enumerate(values) for b in values[i + 1:])


def legal_actions_are_sorted_and_distinct(game: Game, state: Any) -> None:
    """legal_actions is sorted, without duplicates, and distinct actions give distinct states."""
    check = legal_actions_are_sorted_and_distinct
    where = _where(game, state)
    legal = tuple(game.legal_actions(state))
    try:
        ordered = tuple(sorted(legal))
    except TypeError as error:
        raise Violation(property_name(check), f"{where}: the legal actions cannot be sorted: "
                                              f"{error}") from None
    _require(legal == ordered, check, f"{where}: the legal actions are not sorted: "
                                      f"{', '.join(_shown(game, a) for a in legal[:6])}...")
    _require(_distinct(legal), check, f"{where}: the legal actions hold a duplicate")
    after = []
    for action in legal:
        try:
            after.append(game.apply(state, action))
        except GameError:
            return  # legal_actions_all_apply says what is wrong
    _require(_distinct(after), check, f"{where}: two legal actions lead to the same state")


def other_decisions_are_refused(game: Game, state: Any, decision: Any, *,
                                kind: str = "action") -> None:
    """Any other decision is refused by a GameError citing a spec rule, the state unchanged."""
    check = other_decisions_are_refused
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    where = _where(game, state)
    player = game.current_player(state)
    if player in game.players(state) and decision in game.legal_actions(state):
        return
    listed = _chance_list(game, state) if player == CHANCE else None
    if listed is not None and decision in listed:
        return
    before, snapshot = fingerprint(state), copy.deepcopy(state)
    try:
        game.apply(state, decision)
    except GameError as error:
        rule = error.rule
        if kind != "junk" or isinstance(error, IllegalActionError) or rule is not None:
            problem = _rule_problem(game, rule)
            _require(problem is None, check,
                     f"{where}: {_shown(game, decision)} is refused, but the error names no "
                     f"rule of the game ({problem}): {error}")
    except Exception as error:
        raise Violation(property_name(check), f"{where}: {_shown(game, decision)} is refused with "
                                              f"{type(error).__name__}, not a GameError: "
                                              f"{error}") from None
    else:
        if player == CHANCE and listed is None and kind == "chance":
            return  # a chance node that does not list its outcomes: this one may be legal here
        raise Violation(property_name(check), f"{where}: {_shown(game, decision)} is accepted, "
                                              "but it is not among the legal decisions")
    _require(fingerprint(state) == before and state == snapshot, check,
             f"{where}: refusing {_shown(game, decision)} changed the state")


# --- conservation, players, the end ----------------------------------------------------------


def ledger_is_conserved(game: Game, state: Any) -> None:
    """The game's ledger of components is in every state what the rules say it must be."""
    check = ledger_is_conserved
    got = dict(game.ledger(state))
    want = dict(game.expected_ledger(game.config_of(state)))
    if got != want:
        wrong = [f"{key}: {got.get(key, 0)}, not {want.get(key, 0)}"
                 for key in sorted(set(got) | set(want), key=str)
                 if got.get(key, 0) != want.get(key, 0)]
        raise Violation(property_name(check), f"{_where(game, state)}: the ledger is off: "
                                              + "; ".join(wrong[:5] or ["different keys"]))


def players_and_outcomes_are_well_formed(game: Game, state: Any) -> None:
    """The player to move is a player, chance or the end; only the end has an outcome."""
    check = players_and_outcomes_are_well_formed
    where = _where(game, state)
    players = game.players(state)
    _require(game.min_players <= len(players) <= game.max_players, check,
             f"{where}: {len(players)} players, not {game.min_players} to {game.max_players}")
    player = game.current_player(state)
    _require(player in players or player in (CHANCE, TERMINAL), check,
             f"{where}: current_player is {player!r}")
    _require(game.is_terminal(state) == (player == TERMINAL), check,
             f"{where}: is_terminal is {game.is_terminal(state)} with current_player {player}")
    outcome = game.outcome(state)
    _require((outcome is None) == (player != TERMINAL), check,
             f"{where}: outcome {outcome!r} with current_player {player}")
    if outcome is None:
        return
    winners = tuple(outcome.winners)
    _require(bool(winners) and list(winners) == sorted(set(winners))
             and all(w in players for w in winners), check,
             f"{where}: the winners {winners!r} are not a non-empty sorted set of players")
    _require(isinstance(outcome.reason, str) and bool(outcome.reason), check,
             f"{where}: the outcome gives no reason")
    _require(outcome.scores is None or len(outcome.scores) == len(players), check,
             f"{where}: {len(outcome.scores or ())} scores for {len(players)} players")


def games_end_within_a_bound(game: Game, config: Any, first_player: int, rng: random.Random,
                             *, bound: int | None = None) -> None:
    """A game played at random ends within its declared bound of decisions (else a default one)."""
    check = games_end_within_a_bound
    declared = game.max_decisions(config)
    limit = declared if declared is not None else bound if bound is not None else DEFAULT_BOUND
    state = game.random_game(rng, config, first_player, max_decisions=limit)
    _require(game.is_terminal(state), check,
             f"a game of options {game.options_of(config)} with first player {first_player} "
             f"has not ended after {limit} decisions")


# --- codecs and records ----------------------------------------------------------------------


def decisions_and_positions_round_trip(game: Game, state: Any) -> None:
    """Decisions and positions read back equal from their JSON, and every view has a JSON form."""
    check = decisions_and_positions_round_trip
    where = _where(game, state)
    for index, decision in enumerate(game.history(state)):
        text = _canonical(game.decision_to_json(decision))
        back = game.decision_from_json(json.loads(text), f"$.history[{index}]")
        _require(back == decision, check,
                 f"{where}: decision {index} {decision!r} reads back from {text} as {back!r}")
    text = _canonical(game.position_to_json(state))
    try:
        back = game.position_from_json(json.loads(text))
    except GameError as error:
        raise Violation(property_name(check), f"{where}: the position does not read back: "
                                              f"{error}", (error.rule,)) from None
    _require(back == state, check, f"{where}: the position reads back to another state")
    for player in game.players(state):
        _canonical(game.view_to_json(game.observe(state, player)))  # a TypeError if not JSON


def records_round_trip(game: Game, state: Any) -> None:
    """A record read back from its JSON gives an equal state, which writes the same JSON again."""
    check = records_round_trip
    where = _where(game, state)
    record = game.to_record(state)
    _require(isinstance(record, dict) and record.get("format") == game.record_format, check,
             f"{where}: the record's format is not {game.record_format!r}")
    text = _canonical(record)
    try:
        back = game.read_record(json.loads(text))
    except GameError as error:
        raise Violation(property_name(check), f"{where}: its own record is refused: {error}",
                        (error.rule,)) from None
    _require(back == state, check, f"{where}: the record reads back to another state")
    _require(_canonical(game.to_record(back)) == text, check,
             f"{where}: the state read back writes another record")


@functools.lru_cache(maxsize=None)
def _validator(game: Game) -> Any:
    import jsonschema

    schema = game.record_schema()
    return jsonschema.validators.validator_for(schema)(schema)


def records_follow_their_schema(game: Game, state: Any) -> None:
    """A record is valid under the game's JSON Schema (skipped where jsonschema is missing)."""
    check = records_follow_their_schema
    try:
        validator = _validator(game)
    except ImportError:
        return
    errors = sorted(validator.iter_errors(json.loads(_canonical(game.to_record(state)))),
                    key=lambda e: list(e.absolute_path))
    _require(not errors, check, f"{_where(game, state)}: the record breaks its schema at "
                                f"{errors[0].json_path if errors else ''}: "
                                f"{errors[0].message if errors else ''}")


# --- hidden information ----------------------------------------------------------------------


def _differences(a: Any, b: Any) -> str:
    if attrs.has(type(a)) and type(a) is type(b):
        names = [f.name for f in attrs.fields(type(a)) if getattr(a, f.name) != getattr(b, f.name)]
        if names:
            return ", ".join(names) + " differ"
    return "the views differ"


def views_leak_nothing(game: Game, state: Any, player: int, rng: random.Random) -> None:
    """Resampling what a player cannot see changes neither their view nor their legal actions."""
    check = views_leak_nothing
    where = _where(game, state)
    try:
        other = game.resample(state, player, rng)
    except GameError as error:
        raise Violation(property_name(check), f"{where}: a state player {player} cannot tell "
                                              f"from this one is refused by the game: {error}",
                        (error.rule,)) from None
    seen, seen_there = game.observe(state, player), game.observe(other, player)
    _require(seen == seen_there, check, f"{where}: player {player}'s view changes with what is "
                                        f"hidden from them ({_differences(seen, seen_there)})")
    _require(_canonical(game.view_to_json(seen)) == _canonical(game.view_to_json(seen_there)),
             check, f"{where}: player {player}'s view writes other JSON when what is hidden "
                    f"from them changes")
    _require(game.current_player(other) == game.current_player(state), check,
             f"{where}: the player to move changes with what player {player} cannot see")
    if game.current_player(state) == player:
        _require(game.legal_actions(state) == game.legal_actions(other), check,
                 f"{where}: player {player}'s legal actions change with what is hidden from them")
    _require(len(game.history(other)) == len(game.history(state)), check,
             f"{where}: the resampled state has another number of decisions")
    ledger, want = dict(game.ledger(other)), dict(game.expected_ledger(game.config_of(other)))
    _require(ledger == want, check, f"{where}: the resampled state's ledger is off")
    try:
        replayed = game.replay(game.history(other), game.config_of(other),
                               game.first_player(other))
    except GameError as error:
        raise Violation(property_name(check), f"{where}: the resampled state cannot be reached "
                                              f"by play: {error}", (error.rule,)) from None
    _require(replayed == other, check,
             f"{where}: the resampled state is not the state its history leads to")


# --- groups ----------------------------------------------------------------------------------

#: The invariants of one state (checked after every step by the state machine).
STATE_INVARIANTS: tuple[Callable[[Game, Any], None], ...] = (
    players_and_outcomes_are_well_formed,
    ledger_is_conserved,
    legal_actions_all_apply,
    legal_actions_are_sorted_and_distinct,
)


def check_state(game: Game, state: Any) -> None:
    """Every invariant of :data:`STATE_INVARIANTS`."""
    for invariant in STATE_INVARIANTS:
        invariant(game, state)


def check_step(game: Game, before: Any, decision: Any, after: Any) -> None:
    """The invariants of one step: apply's purity and the history it records."""
    apply_leaves_its_input_unchanged(game, before, decision)
    history_records_each_decision(game, before, decision, after)
