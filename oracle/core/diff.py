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
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Mapping, Sequence

from hanamikoji.runtime import interrupt
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core.diff_engine import Engine, EngineFailure, cannot_start
from hanamikoji.oracle.core.diff_games import (MAX_DECISIONS, configurations, play_drawn,
                                             seed_only_draws)
from hanamikoji.oracle.core.diff_report import (Divergence, DivergenceFound, Leak, LeakReport,
                                              Report, _canonical, _printable, _Stop,
                                              _Unstarted)
from hanamikoji.oracle.core.diff_seeded import check_seeded
from hanamikoji.oracle.core.extension import extension
from hanamikoji.oracle.core.protocol import (
    BATCH_PROTOCOL,
    GENERAL_PROTOCOL,
    batch_request,
    chance_request,
    dumps,
    legal_actions_text,
    new_game_request,
    player_json,
)

# What other modules and tests import from here, now kept where it is used.
from hanamikoji.oracle.core.diff_engine import KEEPER as KEEPER
from hanamikoji.oracle.core.diff_engine import CannotStart as CannotStart
from hanamikoji.oracle.core.diff_engine import LINE_LIMIT as LINE_LIMIT
from hanamikoji.oracle.core.diff_engine import _short as _short
from hanamikoji.oracle.core.diff_games import drawing as drawing
from hanamikoji.oracle.core.diff_report import render as render
from hanamikoji.oracle.core.diff_report import render_leaks as render_leaks
from hanamikoji.oracle.core.diff_seeded import end_ahead as end_ahead
from hanamikoji.oracle.core.diff_seeded import seeded_engines as seeded_engines

#: ``progress(description, done, total, decisions)``: told as each game (or pair) ends.
Progress = Callable[[str, int, int, int], None]


# --- what the harness knows of one game ------------------------------------------------------


class DiffExtension:
    """What ``diff`` can know of one game beyond its interface; the defaults serve any game. A
    game's own subclass is ``EXTENSION`` of ``hanamikoji.oracle.<game>.diff``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def configs(self, fixed: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        """The configurations the games are drawn from: the options ``fixed`` (by name, as
        the game's :class:`Option`\\ s parse them; None: none), every other option with choices
        or a small range drawn per game (:func:`configurations`)."""
        return configurations(self.game, dict(fixed or {}))

    def decision_text(self, state: Any, decision: Any) -> str:
        """A decision as the report shows it, from the reference's ``state`` before it: by
        default the game's :meth:`~Game.decision_text`. A game may say more that the state
        knows (Maiko: the tile at the space a flip names); lines after the first are shown
        indented below it."""
        return self.game.decision_text(decision)

    def label(self, config: Any) -> str:
        """The game and options of a compared game, for the report (``maiko, players=3, ...``)."""
        game = self.game
        return ", ".join([game.name] + [f"{k}={v}" for k, v in game.options_of(config).items()])

    def new_game_request(self, config: Any, first_player: int) -> dict[str, Any]:
        """The ``new_game`` request an adapter that declared no protocol gets (the general
        one: the game, its player count, options and first player)."""
        return new_game_request(self.game, config, first_player)

    def chance_request(self, outcome: Any) -> dict[str, Any]:
        """The request that tells an adapter that declared no protocol a chance outcome (the
        general one: ``{"op": "chance", "outcome": ...}``)."""
        return chance_request(self.game, outcome)

    def rules_followed(self, state: Any, request: Mapping[str, Any], reference: Any,
                       other: Any) -> tuple[str, ...]:
        """The rule IDs the reference's answer to ``request`` in its ``state`` follows where
        ``other`` differs from it, for the divergence's message (``UPDATE-4`` for who starts a
        round, say); by default none is known."""
        return ()

    #: Whether :meth:`normal_view` may change a view (then views are compared normalised only).
    normalises_views = False

    def normal_view(self, view: Any) -> Any:
        """The other engine's view with what the protocol leaves free put in the reference's
        order (the order of a multiset, say); must never raise on any JSON."""
        return view

    def check_seeded(self, argv: Sequence[str], timeout: float,
                     configs: Sequence[Any] = ()) -> Divergence | None:
        """A check before any game, a Divergence or None: by default the optional
        ``random_chance`` request under the first of ``configs`` (:func:`check_seeded`)."""
        game = self.game
        return check_seeded(game, configs[0] if configs else game.configure(), argv, timeout)

    def play(self, data: Any, engine: Engine, configs: Sequence[Any]) -> None:
        """One game, drawn by Hypothesis from ``data`` (``st.data()``), compared on ``engine``
        step by step (:meth:`play_drawn`)."""
        from hanamikoji.oracle.core.diff_draw import HypothesisDraws

        engine.ensure_started()
        self.play_drawn(HypothesisDraws(data),
                        lambda config, first: DiffGame(engine, self.game, config, first), configs)

    def play_drawn(self, draws: Any, match_for: Callable[[Any, int], Any],
                   configs: Sequence[Any]) -> None:
        """One game, its choices from ``draws`` (:class:`.diff_draw.Draws`), compared by the
        match ``match_for(config, first_player)`` makes (:func:`play_drawn`). A game that
        plays its own way overrides this; one that overrides only :meth:`play` (written
        before there was this hook) has its games drawn by Hypothesis as they were."""
        play_drawn(draws, match_for, self.game, configs)

    def draws_its_games(self) -> bool:
        """Whether this game's games go through :meth:`play_drawn` (drawn from a seeded
        source, Hypothesis brought in only to shrink), not an older :meth:`play` of its own."""
        own = type(self)
        return own.play is DiffExtension.play or own.play_drawn is not DiffExtension.play_drawn


def hooks(game: Game) -> DiffExtension:
    """``game``'s diff hooks (its own, or the defaults)."""
    return extension("diff", game, DiffExtension)


# --- one game, compared step by step -------------------------------------------------------


class DiffGame:
    """One game played on both engines; every answer of the other is checked. The reference is
    ``game`` under ``config``; every request and answer goes through the game's codecs."""

    def __init__(self, engine: Engine, game: Game, config: Any, first_player: int) -> None:
        self.engine = engine
        self.game = game
        self.config = config
        self.first_player = first_player
        self.hooks = hooks(game)
        self.label = self.hooks.label(config)
        self.decisions: list[Any] = []
        self.texts: list[str] = []  # each decision as the report shows it
        #: The requests that changed the other engine's state (:attr:`Divergence.sent`).
        self.sent: list[Any] = []
        #: The view keys the adapter declared it gives (None: the whole view).
        self.view_keys: tuple[str, ...] | None = None
        #: Protocol 3: answers already read in a batch, by the request they answer
        #: (:func:`_key`), each taken by :meth:`ask` in place of asking (:meth:`_prefetch`).
        self._canned: dict[tuple[Any, Any], Any] = {}
        #: Protocol 3: the answers to a state's step, read in the batch of the decision that
        #: reached it (:meth:`send`): ``(state, answers)``.
        self._ahead: tuple[Any, Any] | None = None
        #: Protocol 3: whether :meth:`send` asks for the next step with the decision (False
        #: when the states reached are not compared, as in the leak check's replays).
        self.lookahead = True
        #: The reference's state :meth:`compare` was last given (for the rules a divergence's
        #: message cites).
        self.compared: Any = None

    def diverge(self, request: Any, reference: Any, other: Any, message: str) -> DivergenceFound:
        message += _following(self.hooks, self.compared, request, reference, other)
        return DivergenceFound(Divergence(
            self.label, self.first_player, tuple(self.decisions), request, reference, other,
            message, self.game.name, tuple(self.game.options_of(self.config).items()),
            texts=tuple(self.texts), sent=tuple(self.sent)))

    def text(self, state: Any, decision: Any) -> str:
        """``decision`` for a person, from the reference's ``state`` before it."""
        return self.hooks.decision_text(state, decision)

    def line(self, state: Any, decision: Any) -> str:
        """:meth:`text` on one line, for a message."""
        return (self.text(state, decision).splitlines() or [""])[0]

    def ask(self, request: dict[str, Any],
            same: bytes | Callable[[], bytes | None] | None = None) -> Any:
        """The other engine's answer to ``request``. ``same`` is the reference's own answer as
        a canonical line (:func:`_line`): an answer line that is exactly those bytes is that
        answer, so :data:`_SAME` comes back without the line being parsed or compared again.
        Any other line is parsed and judged in full, as it always is without ``same``. A
        callable ``same`` makes that line while the other engine answers. An answer read in a
        batch (protocol 3) is judged in the same way as if it came alone."""
        if self._canned:
            key = _key(request)
            if key in self._canned:
                answer = self._canned.pop(key)
                if answer is not _SAME and not isinstance(answer, dict):
                    raise self.diverge(request, None, answer, "the answer is not a JSON object")
                return answer
        try:
            if same is not None and isinstance(self.engine, Engine):
                expected: list[bytes | None] = [same if isinstance(same, bytes) else None]
                meanwhile = None
                if callable(same):
                    def meanwhile() -> None:
                        expected[0] = same()
                line = self.engine.request_line(request, meanwhile)
                if line == expected[0]:
                    return _SAME
                answer = self.engine.decode_line(request, line)
            else:
                answer = self.engine.request(request)
        except EngineFailure as failure:
            if failure.unstarted:
                raise _Unstarted(cannot_start(self.engine.argv, failure)) from None
            if failure.kind in ("hang", "protocol"):
                # Waiting again on every shrinking step would take ages; and an engine that
                # breaks the protocol breaks it in any game: the game is not what is wrong.
                found = self.diverge(request, None, None, failure.message)
                raise _Stop(found.divergence, hang=True) from None
            raise self.diverge(request, None, None, failure.message) from None
        if not isinstance(answer, dict):
            raise self.diverge(request, None, answer, "the answer is not a JSON object")
        return answer

    def field(self, request: dict[str, Any], reference: dict[str, Any], key: str,
              fast: bool = False) -> Any:
        """The value under ``key`` of the other engine's answer, which must have it;
        ``fast``: an answer that is the reference's own canonical line is taken as it is."""
        answer = self.ask(request, _line(reference) if fast and not self._canned else None)
        if answer is _SAME:
            return reference[key]
        return self._field_of(request, reference, key, answer)

    def _field_of(self, request: dict[str, Any], reference: dict[str, Any], key: str,
                  answer: dict[str, Any]) -> Any:
        if key not in answer:
            what = (f'an error: {_brief(answer["error"])}' if "error" in answer
                    else f"no {key!r} key")
            raise self.diverge(request, reference, answer, f"the answer has {what}")
        return answer[key]

    def start(self) -> Any:
        """``new_game`` on the other engine; the reference's first state. The answer may
        declare the general requests (``"protocol": 2``) for the rest of the game and after."""
        if self.engine.general:
            request = new_game_request(self.game, self.config, self.first_player)
        else:
            request = self.hooks.new_game_request(self.config, self.first_player)
        self.sent = [request]
        answer = self.ask(request)
        if answer.get("ok") is not True:
            raise self.diverge(request, {"ok": True}, answer, "new_game was not accepted")
        declared = answer.get("protocol")
        self.engine.general = (type(declared) is int and declared >= GENERAL_PROTOCOL)
        self.engine.batched = (type(declared) is int and declared >= BATCH_PROTOCOL
                               and isinstance(self.engine, Engine))
        self._ahead = None
        state = self.game.new_game(self.config, self.first_player)
        if "view_keys" in answer:
            self.view_keys = self._declared_view_keys(request, answer, state)
            if self.view_keys is not None:
                declared_keys = getattr(self.engine, "view_keys", None)
                self.engine.view_keys = tuple(sorted(set(declared_keys or ()) |
                                                     set(self.view_keys)))
        return state

    def _declared_view_keys(self, request: Any, answer: dict[str, Any],
                            state: Any) -> tuple[str, ...] | None:
        """The view keys an adapter declares in its answer to ``new_game`` (a partial view:
        only those are compared); none declared (an empty list or null) is the whole view."""
        keys = answer["view_keys"]
        if keys is None or keys == []:
            return None
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise self.diverge(request, {"ok": True}, answer,
                               "view_keys is not a list of view keys (strings)")
        known = set(self._reference_view_keys(state))
        unknown = sorted(set(keys) - known)
        if unknown:
            raise self.diverge(request, {"ok": True}, answer,
                               "view_keys declares keys the game's views do not have: "
                               + ", ".join(json.dumps(k) for k in unknown))
        return tuple(sorted(set(keys)))

    def _reference_view_keys(self, state: Any) -> list[str]:
        view = self.game.view_to_json(self.game.observe(state, self.game.players(state)[0]))
        return list(view) if isinstance(view, dict) else []

    def compare(self, state: Any) -> None:
        """current_player, legal_actions, every player's view and the result; with protocol
        3, asked in one batch (or read in the batch of the decision that reached ``state``),
        each answer then judged as if it had come alone."""
        self.compared = state
        if getattr(self.engine, "batched", False) and self._prefetch(state):
            return
        try:
            self._compare(state)
        finally:
            self._canned.clear()

    def _compare(self, state: Any) -> None:
        game = self.game
        expected = player_json(game.current_player(state))
        request: dict[str, Any] = {"op": "current_player"}
        got = self.field(request, {"current_player": expected}, "current_player", fast=True)
        if _canonical(got) != dumps(expected):  # JSON's true is not the player 1
            raise self.diverge(request, {"current_player": expected}, {"current_player": got},
                               f"current_player is {_brief(got)}, not {json.dumps(expected)}")
        self.compare_legal(state)
        for player in game.players(state):
            self.compare_view(state, player)
        expected_result = game.record_result_json(state)
        request = {"op": "result"}
        got = self.field(request, {"result": expected_result}, "result", fast=True)
        if _canonical(got) != dumps(expected_result):
            raise self.diverge(request, {"result": expected_result}, {"result": got},
                               f"the result is {_brief(got)}, not "
                               f"{json.dumps(expected_result)}")

    def compare_legal(self, state: Any) -> None:
        game = self.game
        legal = game.legal_actions(state)
        reference = {"legal_actions": [game.decision_to_json(d) for d in legal]}
        request = {"op": "legal_actions"}
        answer = self.ask(request, None if self._canned else _line(reference))
        if answer is _SAME:  # the reference's own list, each decision once
            return
        got = self._field_of(request, reference, "legal_actions", answer)
        if _canonical(got) == dumps(reference["legal_actions"]):  # read in a batch, parsed
            return
        if not isinstance(got, list):
            raise self.diverge(request, reference, {"legal_actions": got},
                               "legal_actions is not a list")
        parsed: list[Any] = []
        for i, item in enumerate(got):
            try:
                parsed.append(game.decision_from_json(item, f"$.legal_actions[{i}]"))
            except Exception as error:  # any answer is judged: a codec's slip is no crash
                raise self.diverge(request, reference, {"legal_actions": got},
                                   f"not a decision: {error}") from None
        seen: dict[str, Any] = {}
        for decision in parsed:
            key = dumps(game.decision_to_json(decision))
            if key in seen:
                raise self.diverge(request, reference, {"legal_actions": got},
                                   f"lists {self.line(state, decision)} twice (each distinct "
                                   "decision once)")
            seen[key] = decision
        expected = {dumps(game.decision_to_json(d)): d for d in legal}
        missing = [d for key, d in expected.items() if key not in seen]
        extra = [seen[key] for key in sorted(set(seen) - set(expected))]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"misses {len(missing)} legal: "
                             + ", ".join(self.line(state, d) for d in missing[:4]))
            if extra:
                parts.append(f"offers {len(extra)} illegal: "
                             + ", ".join(self.line(state, d) for d in extra[:4]))
            raise self.diverge(request, reference, {"legal_actions": got},
                               "legal_actions " + "; ".join(parts))

    def compare_view(self, state: Any, player: int) -> None:
        game = self.game
        view = game.observe(state, player)
        text = view_text(game, view)
        request = {"op": "observe", "player": player}
        # The reference's view whole, as the line an adapter would print: compared as bytes
        # first, unless the game puts the other engine's view in its own order (then only the
        # normalised view is compared, below).
        same = (f'{{"view":{text}}}\n'.encode("utf-8")
                if not self.hooks.normalises_views and self.view_keys is None else None)
        answer = self.ask(request, same)
        if answer is _SAME:
            return
        if "view" not in answer:
            expected = game.view_to_json(view)
            self._field_of(request, {"view": expected}, "view", answer)
        got = answer["view"]
        if not isinstance(got, dict):
            raise self.diverge(request, {"view": game.view_to_json(view)}, {"view": got},
                               f"the view of player {player} is not a JSON object")
        if self.view_keys is not None:
            self._compare_partial_view(request, player, game.view_to_json(view), got)
            return
        try:
            got_normal = self.hooks.normal_view(got)
        except Exception:  # whatever an adapter answers is judged, never a crash of ours
            got_normal = got
        if _canonical(got_normal) == text:
            return
        expected = game.view_to_json(view)
        what = _view_difference(expected, got, got_normal)
        raise self.diverge(request, {"view": expected}, {"view": got},
                           f"the view of player {player} {what}")

    def _compare_partial_view(self, request: Any, player: int, expected: Any,
                              got: dict[str, Any]) -> None:
        """A partial view: only the declared keys are compared (each must be there); the
        other keys of either view are not looked at."""
        keys = self.view_keys or ()
        if not isinstance(expected, dict):
            return
        missing = [k for k in keys if k not in got]
        if missing:
            raise self.diverge(request, {"view": expected}, {"view": got},
                               f'the view of player {player} lacks "{missing[0]}", a key its '
                               "adapter declared in view_keys")
        # The reference's full view, cut to the keys, normalised as a whole view would be.
        mine = {k: expected[k] for k in keys}
        other = {k: got[k] for k in keys}
        try:
            merged = self.hooks.normal_view({**expected, **other})
            other_normal = ({k: merged[k] for k in keys} if isinstance(merged, dict)
                            else other)
        except Exception:  # whatever an adapter answers is judged, never a crash of ours
            other_normal = other
        if _canonical(other_normal) == _canonical(mine):
            return
        key = next(k for k in keys if _canonical(other_normal.get(k)) != _canonical(mine[k]))
        raise self.diverge(request, {"view": mine}, {"view": other},
                           f'the view of player {player} differs at "{key}": reference '
                           f"{_brief(mine[key])}, other {_brief(other[key])}")

    # --- protocol 3: a step in one line ---------------------------------------------------------

    def step_requests(self, state: Any) -> list[dict[str, Any]]:
        """The requests :meth:`compare` asks at ``state``, in its order."""
        return [{"op": "current_player"}, {"op": "legal_actions"},
                *({"op": "observe", "player": p} for p in self.game.players(state)),
                {"op": "result"}]

    def step_texts(self, state: Any) -> list[str] | None:
        """The reference's answers to :meth:`step_requests` as canonical JSON texts, or None
        when the adapter declared a partial view. A whole batch answered byte for byte as
        the reference answers it agrees, even for a game that puts views in its own order
        first (:meth:`DiffExtension.normal_view` leaves the reference's own views as they
        are); any other answer is judged part by part."""
        if self.view_keys is not None:
            return None
        from hanamikoji.oracle.core.protocol import answer_text

        game = self.game
        return [answer_text("current_player", player_json(game.current_player(state))),
                legal_actions_text(game, game.legal_actions(state)),
                *[f'{{"view":{view_text(game, game.observe(state, p))}}}'
                  for p in game.players(state)],
                answer_text("result", game.record_result_json(state))]

    def batch(self, requests: list[dict[str, Any]],
              texts: Callable[[], list[str] | None]) -> Any:
        """The other engine's answers to ``requests``, asked in one ``batch``: a list, one
        answer per request, or :data:`_SAME` when the answer line is byte for byte the
        reference's, whose answers are ``texts()`` (None: not known as texts), made while
        the other engine answers."""
        message = batch_request(requests)

        def same() -> bytes | None:
            mine = texts()
            return None if mine is None else f'{{"answers":[{",".join(mine)}]}}\n'.encode()

        answer = self.ask(message, same)
        if answer is _SAME:
            return _SAME
        answers = answer.get("answers")
        if not isinstance(answers, list) or len(answers) != len(requests):
            what = (f'an error: {_brief(answer["error"])}' if "error" in answer else
                    f"{len(answers)} answers" if isinstance(answers, list) else
                    "no list under \"answers\"")
            raise self.diverge(message, None, answer, f"the answer to a batch of "
                               f"{len(requests)} requests has {what}, not one answer per "
                               "request")
        return answers

    def _prefetch(self, state: Any) -> bool:
        """Read the answers of ``state``'s step in one batch, or take those read with the
        decision that reached it; True when the line was the reference's own, byte for byte
        (nothing left to compare)."""
        requests = self.step_requests(state)
        if self._ahead is not None and self._ahead[0] is state:
            answers = self._ahead[1]
        else:
            answers = self.batch(requests, lambda: self.step_texts(state))
        self._ahead = None
        if answers is _SAME:
            return True
        self._canned = {_key(r): a for r, a in zip(requests, answers)}
        return False

    def request_for(self, state: Any, decision: Any) -> dict[str, Any]:
        if self.game.current_player(state) == CHANCE:
            if self.engine.general:
                return chance_request(self.game, decision)
            try:
                return self.hooks.chance_request(decision)
            except (AttributeError, TypeError, ValueError):
                # A probe of a player's decision where chance is due (a vectors case): a
                # game's own chance request cannot carry it; it goes as the decision it is.
                pass
        return {"op": "apply", "decision": self.game.decision_to_json(decision)}

    def send(self, state: Any, decision: Any) -> Any:
        """A legal decision (or chance outcome): both engines apply it. With protocol 3 the
        requests of the next step (:meth:`compare`) go in the same batch."""
        after = self.game.apply(state, decision)
        request = self.request_for(state, decision)
        self.sent.append(request)
        self._ahead = None
        if getattr(self.engine, "batched", False) and self.lookahead:
            def texts() -> list[str] | None:
                step = self.step_texts(after)
                return None if step is None else ['{"ok":true}', *step]

            answers = self.batch([request, *self.step_requests(after)], texts)
            if answers is _SAME:
                answer: Any = {"ok": True}
                self._ahead = (after, _SAME)
            else:
                self._canned = {_key(request): answers[0]}
                answer = self.ask(request)
                self._ahead = (after, answers[1:])
        else:
            answer = self.ask(request)
        self.decisions.append(self.game.decision_to_json(decision))
        self.texts.append(self.text(state, decision))
        if answer.get("ok") is not True:
            raise self.diverge(request, {"ok": True}, answer,
                               f"rejects {self.line(state, decision)}, which the rules "
                               "allow")
        return after

    def probe(self, state: Any, decision: Any) -> None:
        """A decision the rules forbid: both engines must reject it and stay as they were."""
        try:
            self.game.apply(state, decision)
        except GameError as error:
            rule = error.rule
        else:
            return  # legal after all: not a probe
        request = self.request_for(state, decision)
        answer = self.ask(request)
        if "error" not in answer:
            self.sent.append(request)
            self.decisions.append(self.game.decision_to_json(decision))
            self.texts.append(self.text(state, decision))
            raise self.diverge(request, {"error": "...", "rule": rule}, answer,
                               f"accepts {self.line(state, decision)}, which breaks {rule}")


def _view_difference(expected: Any, got: dict[str, Any], got_normal: Any) -> str:
    """What differs between two views, for the report: a key one has and the other lacks,
    else the first key whose values differ."""
    if not isinstance(expected, dict):
        return "differs"
    extra = sorted(set(got) - set(expected))
    missing = sorted(set(expected) - set(got))
    if extra:
        return f'has "{extra[0]}", which the reference view does not (hidden information)'
    if missing:
        return f'lacks "{missing[0]}"'
    normal = got_normal if isinstance(got_normal, dict) else got
    key = next((k for k in expected if dumps(expected[k]) != _canonical(normal.get(k))),
               None)
    if key is None:
        return "differs"
    return f'differs at "{key}": reference {_brief(expected[key])}, other {_brief(got[key])}'


#: What :meth:`DiffGame.ask` returns for an answer line that is the reference's own answer.
_SAME = object()


def _key(request: dict[str, Any]) -> tuple[Any, Any]:
    """What tells apart the requests of one batch: their ``op``, and the player observed."""
    return request.get("op"), request.get("player")


def _line(answer: Any) -> bytes:
    """``answer`` as the line an adapter prints it in canonical JSON (:func:`.protocol.dumps`)."""
    return (dumps(answer) + "\n").encode("utf-8")


def view_text(game: Game, view: Any) -> str:
    """The canonical text (:func:`.protocol.dumps`) of ``game.view_to_json(view)``, from the
    game's codec (:meth:`Game.view_text`: a game whose views grow with the game, such as a log
    with perfect recall, may build the text step by step)."""
    return game.view_text(view)


def _following(hooks: DiffExtension, state: Any, request: Any, reference: Any,
               other: Any) -> str:
    """`` (the reference follows RULE, ...)`` for a divergence's message, from the game's
    :meth:`DiffExtension.rules_followed`; nothing when no state was compared or no rule is
    known (a hook that fails says nothing: the divergence is the news)."""
    if state is None or not isinstance(request, dict):
        return ""
    try:
        rules = hooks.rules_followed(state, request, reference, other)
    except Exception:
        return ""
    return f" (the reference follows {', '.join(rules)})" if rules else ""


def _brief(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = str(_printable(value))
    return text if len(text) <= 70 else text[:67] + "..."


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
    from hypothesis import HealthCheck, Phase as HPhase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st
    from hypothesis.errors import Flaky, StopTest

    engine = Engine(argv, timeout) if engine is None else engine
    engine.ensure_started()  # CannotStart: reported before any game
    start = time.perf_counter()
    try:
        divergence = (hooks(game).check_seeded(argv, timeout, configs=configs)
                      if seeded_check else None)
    except BaseException:
        engine.stop()
        raise
    if divergence is not None:
        engine.stop()
        return Report(0, divergence, engine.starts, time.perf_counter() - start, False)
    if hooks(game).draws_its_games():  # a seeded source, Hypothesis only to shrink
        return compare_drawn(engine, game, configs, games=games, seed=seed, shrink=shrink,
                             progress=progress, start=start)
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
    # (The hot loop of diff; with diff_draw and diff_script, a part of this module to be
    # split off with the comparison and the report.)
    """:func:`~.diff.compare_engines` after its check of seeded chance: ``games`` games, game
    ``i`` drawn from ``SeededDraws(seed, i)``, each sent as batches where the engine answers
    them; the first divergence, shrunk by Hypothesis from that game's choices in at most
    ``shrink`` more games."""
    from hanamikoji.oracle.core.diff_draw import SeededDraws
    from hanamikoji.oracle.core.diff_script import (Failed, Mismatch, Pipeline, ScriptedGame,
                                                    free_stackframes)

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
        try:
            for index in range(games):
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
            found = _replayed(live, seed, wrong.index, made.get(wrong.index))
            done(wrong.index)
            return found

    if progress is not None:
        progress("comparing", 0, games, engine.decisions)
    found: tuple[Divergence, list[int], bool] | None = None
    try:
        with free_stackframes():
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
    """Hypothesis shrinks the game of ``choices`` (which diverged as ``first``) in at most
    ``shrink`` more games: the smallest divergence, whether the search ended on a hang, and
    the games played."""
    from hypothesis.errors import Flaky

    from hanamikoji.oracle.core.diff_draw import shrink as shrink_choices

    best = first
    played = 0

    def test(draws: Any) -> None:
        nonlocal best, played
        interrupt.check()
        if played >= shrink:
            raise _Stop(best)
        played += 1
        try:
            live(draws)
        except DivergenceFound as found:
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
            shrink_choices(test, choices, seed, shrink + 1)
    except DivergenceFound as found:
        divergence = found.divergence
    except _Stop as stop:
        divergence, hung = stop.divergence, stop.hang
    except Flaky:
        divergence = best
    if best.size() < divergence.size():
        divergence = best
    return divergence, hung, played


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
