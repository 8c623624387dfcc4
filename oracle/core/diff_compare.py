"""How ``hanamikoji diff`` compares the other engine with the reference, one game step by step.

:class:`DiffExtension` is what the harness knows of one game beyond its interface (a game's own
subclass is ``EXTENSION`` of ``hanamikoji.oracle.<game>.diff``; :func:`hooks` finds it).
:class:`DiffGame` plays one game on both engines: at every step it asks the other engine whose turn
it is, the legal decisions, every player's view and the result (in one ``batch`` line with protocol
3), takes an answer that is the reference's own canonical line byte for byte as it is, judges any
other answer through the game's codecs, and raises the first difference as a
:class:`~hanamikoji.oracle.core.diff_report.Divergence`. Part of the harness of
:mod:`hanamikoji.oracle.core.diff`, where the names other modules import are still found.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Sequence

from hanamikoji.engine.core.codec import apply_view_changes
from hanamikoji.engine.core.errors import GameError
from hanamikoji.engine.core.game import CHANCE, Game
from hanamikoji.oracle.core.diff_engine import Engine, EngineFailure, cannot_start
from hanamikoji.oracle.core.diff_games import configurations, play_drawn
from hanamikoji.oracle.core.diff_report import (Divergence, DivergenceFound, _brief, _canonical,
                                              _Stop, _Unstarted)
from hanamikoji.oracle.core.diff_seeded import check_seeded
from hanamikoji.oracle.core.extension import extension
from hanamikoji.oracle.core.protocol import (
    BATCH_PROTOCOL,
    CHANGES_PROTOCOL,
    GENERAL_PROTOCOL,
    answer_text,
    batch_request,
    chance_request,
    dumps,
    legal_actions_text,
    new_game_request,
    player_json,
)


# --- what the harness knows of one game ------------------------------------------------------


class DiffExtension:
    """What ``diff`` can know of one game beyond its interface; the defaults serve any game. A
    game's own subclass is ``EXTENSION`` of ``hanamikoji.oracle.<game>.diff``."""

    #: Games per shard of a campaign (``--workers``) when ``--shard-size`` is not given: a
    #: shard starts its own adapter process, so a shard should be a second or two of games.
    shard_size = 25

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


class _OnceAStep:
    """``make(state)``, made once for the last state it was asked of (the very object)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        self.make = make
        self.last: tuple[Any, Any] | None = None

    def __call__(self, state: Any) -> Any:
        last = self.last
        if last is not None and last[0] is state:
            return last[1]
        value = self.make(state)
        self.last = (state, value)
        return value


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
        #: Protocol 4, a game sent in batches: the reference's views as ``view_changes``
        #: texts, a :meth:`Game.view_changes` per player.
        self.changes: dict[int, Any] = {}
        #: Protocol 4, a game played step by step: each player's view as the other engine's
        #: answers to ``view_changes`` make it, judged against the reference's view.
        self.rebuilt: dict[int, Any] = {}
        #: The reference's legal decisions at a state, made once for the step (its answer is
        #: written, and a decision drawn from them).
        self.legal_actions = _OnceAStep(game.legal_actions)
        #: Who moves at a state, found once for the step: its answer is written, its
        #: decision's request depends on it, and the game's loop asks it.
        self.current_player = _OnceAStep(game.current_player)
        #: The game's players: a function of its configuration alone, unless the game says
        #: otherwise (its own ``players``), when they are asked of each state.
        self._players = (range(game.num_players(config)) if type(game).players is Game.players
                         else None)

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
        self.engine.changes = self.engine.batched and declared >= CHANGES_PROTOCOL
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
        if _canonical(got_normal) != text:
            expected = game.view_to_json(view)
            what = _view_difference(expected, got, got_normal)
            raise self.diverge(request, {"view": expected}, {"view": got},
                               f"the view of player {player} {what}")
        self.compare_changes(view, player, text)

    def compare_changes(self, view: Any, player: int, text: str) -> None:
        """Protocol 4, step by step: ``view_changes`` for ``player`` (after ``observe``, whose
        view agreed), applied to the view the other engine's earlier changes made, must give
        the reference's view (``text``, put in the reference's order as ``observe``'s is)."""
        if not getattr(self.engine, "changes", False) or self.view_keys is not None:
            return
        request = {"op": "view_changes", "player": player}
        answer = self.ask(request)
        changes = self._field_of(request, {"view_changes": "..."}, "view_changes", answer)
        try:
            got = apply_view_changes(self.rebuilt.get(player), changes)
        except ValueError as error:
            raise self.diverge(request, {"view_changes": "..."}, answer,
                               f"{error}") from None
        self.rebuilt[player] = got
        try:
            got_normal = self.hooks.normal_view(got)
        except Exception:  # whatever an adapter answers is judged, never a crash of ours
            got_normal = got
        if _canonical(got_normal) == text:
            return
        expected = self.game.view_to_json(view)
        what = _view_difference(expected, got, got_normal)
        raise self.diverge(request, {"view": expected}, {"view": got},
                           f"the view of player {player} that view_changes gives {what} "
                           "(observe gave the view itself)")

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

    def step_requests(self, state: Any, scripted: bool = False) -> list[dict[str, Any]]:
        """The requests :meth:`compare` asks at ``state``, in its order; ``scripted``: those
        of a game sent in batches and compared as text, whose views an adapter that declared
        protocol 4 gives as changes alone (step by step it gives each view whole too, and
        its changes are judged against it)."""
        return list(self._step(state, scripted)[0])

    def _step(self, state: Any, scripted: bool,
              players: Any = None) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...]]:
        if players is None:
            players = self.game.players(state)
        changes = getattr(self.engine, "changes", False) and self.view_keys is None
        kind = (tuple(players), scripted and changes, not scripted and changes)
        made = _STEPS.get(kind)
        if made is None:
            if scripted and changes:
                views = [{"op": "view_changes", "player": p} for p in players]
            else:
                views = [{"op": "observe", "player": p} for p in players]
                if changes:
                    views += [{"op": "view_changes", "player": p} for p in players]
            requests: tuple[dict[str, Any], ...] = (
                {"op": "current_player"}, {"op": "legal_actions"}, *views, {"op": "result"})
            made = _STEPS[kind] = (requests, tuple(map(json.dumps, requests)))
        return made

    def scripted_answers(self, state: Any) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...],
                                                    list[str]]:
        """The requests of ``state``'s step in a scripted game (:meth:`step_requests`), their
        JSON (the same objects and texts at every step of a kind) and the reference's answers
        as canonical texts (:meth:`step_texts`), for a game whose adapter compares whole
        views."""
        players = self._players if self._players is not None else self.game.players(state)
        return (*self._step(state, True, players), self._texts(state, players))

    def step_texts(self, state: Any, scripted: bool = False) -> list[str] | None:
        """The reference's answers to :meth:`step_requests` as canonical JSON texts, or None
        when the adapter declared a partial view, or when a game played step by step asks
        for changes (each is judged against the view the other engine gave). A whole batch
        answered byte for byte as the reference answers it agrees, even for a game that puts
        views in its own order first (:meth:`DiffExtension.normal_view` leaves the
        reference's own views as they are); any other answer is judged part by part."""
        if self.view_keys is not None or \
                (not scripted and getattr(self.engine, "changes", False)):
            return None
        return self._texts(state, self.game.players(state))

    def _texts(self, state: Any, players: Any) -> list[str]:
        """:meth:`step_texts` of whole views, for ``players`` (the game's)."""
        game = self.game
        if getattr(self.engine, "changes", False):
            changes = self.changes
            if len(changes) != len(players):  # the game's first step
                for p in players:
                    if p not in changes:
                        changes[p] = game.view_changes()
            views = [f'{{"view_changes":{changes[p].text_at(state, p)}}}' for p in players]
        else:
            views = [f'{{"view":{view_text(game, game.observe(state, p))}}}' for p in players]
        return [answer_text("current_player", player_json(self.current_player(state))),
                legal_actions_text(game, self.legal_actions(state)), *views,
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


#: The requests of a step (:meth:`DiffGame.step_requests`), made once for each kind of step
#: (its players, and which views it asks): the same objects every time, whose JSON is kept.
_STEPS: dict[tuple[Any, ...], tuple[tuple[dict[str, Any], ...], tuple[str, ...]]] = {}

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

