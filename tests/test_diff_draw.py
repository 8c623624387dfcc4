"""diff's games from a seeded source (oracle/core/diff_draw.py) and as whole-game batches
(oracle/core/diff_script.py): the same game from the same seed in any process, the same game
when Hypothesis replays its recorded choices (so a divergence found in the hot loop is the one
Hypothesis shrinks), and a batch's answer line judged as its answers one by one would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.diff import hooks
from hanamikoji.oracle.core.diff_draw import HypothesisDraws, SeededDraws, permutation, shrink
from hanamikoji.oracle.core.diff_script import Refused, Started, agrees
from hypothesis import given, settings
from hypothesis import strategies as st


class Recorder:
    """A match that only writes down what the game asks of it (no engine at all)."""

    def __init__(self, game, config, first, log):
        self.game, self.log = game, log
        self.state = game.new_game(config, first)
        log.append(("start", repr(config), first))

    def start(self):
        return self.state

    def compare(self, state):
        self.log.append(("compare", len(self.log)))

    def send(self, state, decision):
        self.log.append(("send", json.dumps(self.game.decision_to_json(decision))))
        return self.game.apply(state, decision)

    def probe(self, state, decision):
        self.log.append(("probe", repr(decision)))


def played(name: str, draws) -> list:
    game = get(name)
    log: list = []
    hooks(game).play_drawn(draws, lambda config, first: Recorder(game, config, first, log),
                           hooks(game).configs(None))
    return log


def replayed(choices):
    """A Hypothesis ``ConjectureData`` that replays ``choices``, as its database replays them."""
    from hypothesis.internal.conjecture.data import ConjectureData

    class Data:
        conjecture_data = ConjectureData.for_choices(tuple(choices))

    return HypothesisDraws(Data())


@pytest.mark.parametrize("name, index", [("hanamikoji", 3), ("hanamikoji", 7), ("maiko", 1)])
def test_hypothesis_replaying_the_recorded_choices_plays_the_same_game(name, index):
    draws = SeededDraws(0, index)
    first = played(name, draws)
    assert len(draws.choices) > 20 and len(first) > 10
    assert played(name, replayed(draws.choices)) == first


def test_a_game_depends_on_the_seed_and_its_index_alone():
    assert played("hanamikoji", SeededDraws(4, 2)) == played("hanamikoji", SeededDraws(4, 2))
    assert played("hanamikoji", SeededDraws(4, 2)) != played("hanamikoji", SeededDraws(4, 3))
    assert played("hanamikoji", SeededDraws(4, 2)) != played("hanamikoji", SeededDraws(5, 2))


def test_the_choices_are_the_same_in_a_process_with_another_hash_seed():
    code = ("from hanamikoji.oracle.core.diff_draw import SeededDraws, permutation\n"
            "d = SeededDraws(9, 1)\n"
            "print(permutation(d, range(21)), [d.integer(0, 2 ** 32 - 1) for _ in range(5)])\n")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)},
                              check=True).stdout for seed in (1, 2)}
    d = SeededDraws(9, 1)
    here = f"{permutation(d, range(21))} {[d.integer(0, 2 ** 32 - 1) for _ in range(5)]}\n"
    assert outputs == {here}


def test_a_range_of_one_value_is_no_choice():
    """Hypothesis records no choice for it either way: the recorded choices stay in step."""
    d = SeededDraws(0, 0)
    assert [d.integer(3, 3), d.integer(0, 0)] == [3, 0] and d.choices == []


def test_hypothesis_shrinks_from_the_recorded_choices():
    draws = SeededDraws(1, 0)
    values = [draws.integer(0, 100) for _ in range(8)]
    assert sum(values) > 150  # this seed's example fails the test below
    seen = []

    class Found(Exception):
        pass

    def test(source):
        got = [source.integer(0, 100) for _ in range(8)]
        seen.append(got)
        if sum(got) > 150:
            raise Found(got)

    with pytest.raises(Found) as found:
        shrink(test, draws.choices, seed=0, examples=300)
    assert seen[0] == values  # replayed first, as recorded
    assert sum(found.value.args[0]) == 151  # then shrunk to the boundary


def test_a_batch_agrees_only_with_the_reference_answers_in_order():
    expected = ['{"current_player":0}', Refused('{"error":"no","rule":"X-1"}'), '{"ok":true}']
    line = b'{"answers":[{"current_player":0},{"error":"no","rule":"X-1"},{"ok":true}]}\n'
    assert agrees(line, expected)
    assert agrees(b'{"answers":[{"current_player":0},{"error":{"deep":[1,2]}},{"ok":true}]}\n',
                  expected)
    for wrong in (b'{"answers":[{"current_player":0},{"ok":true},{"ok":true}]}\n',
                  b'{"answers":[{"current_player":1},{"error":"no"},{"ok":true}]}\n',
                  b'{"answers":[{"current_player":0},{"error":"no"},{"ok":true},{}]}\n',
                  b'{"answers":[{"current_player":0},{"error":"no"} ,{"ok":true}]}\n',
                  b'{"answers":[{"current_player":0},{"error":"no"},{"ok":true}]} \n',
                  b'{"answers":[{"current_player":0},{"error":"\xff"},{"ok":true}]}\n'):
        assert not agrees(wrong, expected), wrong
    whole = ['{"current_player":0}', '{"ok":true}']
    assert agrees(b'{"answers":[{"current_player":0},{"ok":true}]}\n', whole)
    assert not agrees(b'{"answers":[{"current_player":0}, {"ok":true}]}\n', whole)


def _agrees_one_by_one(line, expected):
    """The judge :func:`agrees` must match: each answer in turn, a text as those bytes, a
    refusal as any object with an "error", a start as any answer that declares batches."""
    from hanamikoji.oracle.core.diff_script import Started, _started

    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = '{"answers":['
    if not text.startswith(head):
        return False
    at = len(head)
    for index, part in enumerate(expected):
        if index:
            if not text.startswith(",", at):
                return False
            at += 1
        if type(part) is str:
            if not text.startswith(part, at):
                return False
            at += len(part)
            continue
        try:
            value, at = json.JSONDecoder().raw_decode(text, at)
        except ValueError:
            return False
        if not (_started(value) if type(part) is Started else
                isinstance(value, dict) and "error" in value):
            return False
    return text[at:] == "]}\n"


_TEXTS = ('{"ok":true}', '{"current_player":1}', '{"result":null}', '{"view_changes":{}}')
_REFUSALS = ('{"error":"no","rule":null}', '{"error":"x"}', '{"rule":"X-1","error":[1,{"a":2}]}',
             '{ "error" : 1 }')
_STARTS = ('{"ok":true,"protocol":3}', '{"protocol":5,"ok":true,"view_keys":[]}')
_OTHER = ('{"error":"no","rule":null}', '{"error":"x"}', '{"ok":true,"protocol":3}',
          '{"ok":true,"protocol":4}', '{"ok":true}', '{"ok":false,"protocol":4}', '[]', '1',
          '{"error":"no","rule":"X-1"}')


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_a_batch_is_judged_as_its_answers_one_by_one(data):
    """Whatever the line, :func:`agrees` (the reference's line as bytes, then runs of texts
    between the answers that may be worded otherwise) gives the verdict of judging each answer
    in turn, for refusals and starts anywhere among the texts."""
    parts = data.draw(st.lists(st.one_of(
        st.sampled_from(_TEXTS),
        st.builds(Refused, st.sampled_from(('{"error":"no","rule":"X-1"}',
                                            '{"error":"late","rule":null}'))),
        st.just(Started('{"ok":true,"protocol":4}'))), max_size=8))
    right = {str: lambda part: (part,), Refused: lambda part: (part, *_REFUSALS),
             Started: lambda part: (part, *_STARTS)}
    # Mostly a right answer (any of those that are), else any answer at all.
    answers = [data.draw(st.sampled_from(right[type(part)](part) if data.draw(st.integers(0, 5))
                                         else _TEXTS + _OTHER))
               for part in parts]
    line = '{"answers":[' + ",".join(answers) + "]}\n"
    if data.draw(st.booleans()):  # now and then a line cut, grown or spaced
        at = data.draw(st.integers(0, len(line)))
        line = line[:at] + data.draw(st.sampled_from(("", " ", ",", "}", '{"ok":true},'))) + \
            line[at + data.draw(st.integers(0, 2)):]
    line_bytes = line.encode()
    expected = _agrees_one_by_one(line_bytes, parts)
    assert agrees(line_bytes, parts) == expected


def test_a_game_whose_hooks_play_their_own_way_keeps_hypothesis_drawing(monkeypatch):
    """Diff hooks written before the seeded source (a ``play`` of their own, no
    ``play_drawn``) still have their games drawn by Hypothesis through that ``play``."""
    from hanamikoji.oracle.core import diff as D
    from hanamikoji.oracle.core import diff_compare
    from hanamikoji.oracle.core.diff import DiffExtension
    from hanamikoji.oracle.hanamikoji import diff as hanamikoji_diff

    game = get("hanamikoji")
    played, labelled = [], []

    class Older(DiffExtension):
        def play(self, data, engine, configs):
            played.append(data)
            hanamikoji_diff.play(data, engine, tuple(configs))

        def label(self, config):  # asked by each game's match: the hooks reached it too
            labelled.append(config)
            return super().label(config)

    class Newer(DiffExtension):
        def play_drawn(self, draws, match_for, configs):
            pass

    assert not Older(game).draws_its_games()
    assert Newer(game).draws_its_games() and DiffExtension(game).draws_its_games()
    assert hooks(game).draws_its_games() and hooks(get("maiko")).draws_its_games()
    # Where each user of the hooks finds them: the run (diff) and every game's match (diff_compare).
    monkeypatch.setattr(D, "hooks", lambda g: Older(g))
    monkeypatch.setattr(diff_compare, "hooks", lambda g: Older(g))
    report = D.compare_engines([sys.executable, "-m", "hanamikoji.oracle.core.adapter"],
                               games=3, seed=0, timeout=600.0, game=game, seeded_check=False)
    assert report.divergence is None and report.games == 3
    assert len(played) == report.games + report.cut_short  # every game through Older.play
    assert len(labelled) >= len(played)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.one_of(st.none(), st.text(), st.integers()))
def test_a_refusal_is_written_as_the_canonical_text_of_its_answer(words, rule):
    """The harness's text of a probe's refusal is the reference adapter's answer, byte for
    byte, whatever the error's words (quotes, control characters, any script)."""
    from hanamikoji.engine.core.codec import dumps
    from hanamikoji.engine.core.errors import GameError
    from hanamikoji.oracle.core.protocol import refusal, refusal_text

    error = GameError(words)
    error.rule = rule
    assert refusal_text(error) == dumps(refusal(error))
    assert json.loads(refusal_text(error)) == {"error": str(error), "rule": rule}


def test_the_collector_is_given_back_as_it_was_after_the_games():
    """diff's games run with the collector's thresholds raised and the process's objects
    frozen out of collections (``collector_for_games``); nested and after a whole diff, the
    caller's thresholds and unfrozen objects are as they were."""
    import gc

    from hanamikoji.oracle.core.diff import compare_engines
    from hanamikoji.oracle.core.diff_script import GAMES_THRESHOLDS, collector_for_games

    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with collector_for_games():
        assert gc.get_threshold() == GAMES_THRESHOLDS
        assert gc.get_freeze_count() >= frozen
        with collector_for_games():
            assert gc.get_threshold() == GAMES_THRESHOLDS
        assert gc.get_threshold() == GAMES_THRESHOLDS  # the outer one still holds
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    report = compare_engines([sys.executable, "-m", "hanamikoji.oracle.core.adapter"],
                             games=3, seed=0, game=get("maiko"))
    assert report.divergence is None
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
