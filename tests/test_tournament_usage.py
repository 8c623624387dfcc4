"""``hanamikoji tournament`` on the command line: a bot that is neither built in nor a command is
refused before any game (one line, exit 2, the nearest built-in bot suggested), bots may come
after options, and a huge ``--deals`` keeps memory flat: the schedule is made one game at a
time and the games are counted, not kept."""

from __future__ import annotations

import itertools
import math
import sys
import weakref

import pytest

from hanamikoji.cli.main import main
from hanamikoji.oracle.core import tournament as T
from hanamikoji.oracle.core.referee import BotSpec
from hanamikoji.oracle.core.tournament import Schedule, Tournament


@pytest.mark.parametrize("argv, said", [
    (["nosuchbot", "random"], "bot 'nosuchbot': not a built-in bot of hanamikoji (those are "
                              "heuristic, random) and no command 'nosuchbot' is on the PATH; "
                              "did you mean 'random'?"),
    (["--game", "maiko", "heuristic", "random"], "bot 'heuristic': not a built-in bot of maiko "
                                                 "(those are random) and no command "
                                                 "'heuristic' is on the PATH; did you mean "
                                                 "'random'?"),
    (["random", "heurstic"], "did you mean 'heuristic'?"),
    (["random", "x=./no/such/bot.py --fast"], "bot 'x=./no/such/bot.py --fast': not a built-in "
                                              "bot of hanamikoji (those are heuristic, random) "
                                              "and no program './no/such/bot.py' can be run"),
])
def test_an_unknown_bot_is_refused_before_any_game(argv, said, capsys, monkeypatch):
    def no_game(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(T, "play_unit", no_game)
    assert main(["tournament", *argv, "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


def test_a_command_bot_on_the_path_is_taken():
    game = T.get("hanamikoji")
    specs = T.bot_specs(game, [f"{sys.executable} -m hanamikoji.oracle.core.bot random",
                               "py=python3 bot.py"])
    assert [spec.argv[0] for spec in specs] == [sys.executable, "python3"]


def test_bots_may_come_after_options(capsys):
    assert main(["tournament", "random", "--deals", "1", "heuristic", "--seed", "3",
                 "random", "--json"]) == 0
    after = capsys.readouterr().out
    assert main(["tournament", "random", "heuristic", "random", "--deals", "1", "--seed", "3",
                 "--json"]) == 0
    assert capsys.readouterr().out == after
    assert '"bot": "random#2"' in after  # three bots, in the order given


def _nested(bots: int, seats: int, deals: int):
    """The schedule as the nested loops of its definition (a second way to make it)."""
    return [(seating, deal)
            for group in itertools.combinations(range(bots), seats)
            for deal in range(deals)
            for seating in itertools.permutations(group)]


@pytest.mark.parametrize("bots, seats, deals", [(2, 2, 3), (3, 2, 4), (4, 3, 2), (5, 4, 1)])
def test_the_schedule_is_its_definition_by_index_and_by_iteration(bots, seats, deals):
    schedule = Schedule(bots, seats, deals)
    expected = _nested(bots, seats, deals)
    assert len(schedule) == len(expected)
    assert list(schedule) == expected
    assert [schedule[i] for i in range(len(schedule))] == expected
    assert schedule[-1] == expected[-1] and schedule[1:3] == expected[1:3]
    with pytest.raises(IndexError):
        schedule[len(expected)]


def test_a_huge_schedule_holds_only_its_groups():
    """10**15 deals: the schedule is made one game at a time and game i is computed from i."""
    bots = tuple(BotSpec(n, argv=("x",)) for n in "abcd")
    schedule = Tournament("maiko", (("players", 3),), bots, deals=10**15, seed=0).schedule()
    assert schedule.size == math.comb(4, 3) * 10**15 * math.factorial(3)
    assert len(schedule.groups) == 4  # all it holds, whatever the deals
    first = list(itertools.islice(schedule, 8))
    assert first == _nested(4, 3, 2)[:8]
    assert schedule[schedule.size - 1] == ((3, 2, 1), 10**15 - 1)


def test_the_games_of_a_huge_tournament_are_counted_not_kept(capsys, monkeypatch):
    """--deals 10**15 in this process, stopped after 40 games (a Ctrl-C): while it ran, at
    most the game being written was alive, never the games before it."""
    played = T.play_unit
    results: list[weakref.ref] = []  # every game's result, not kept alive by the test
    alive: list[int] = []

    def counted(tournament, index, schedule=None):
        if index == 40:
            raise KeyboardInterrupt
        alive.append(sum(ref() is not None for ref in results))
        result = played(tournament, index, schedule)
        results.append(weakref.ref(result))
        return result

    monkeypatch.setattr(T, "play_unit", counted)
    assert main(["tournament", "random", "random", "--deals", DEALS]) == 130
    assert len(alive) == 40 and max(alive) <= 1, alive


#: The deals of the tournament above (a test that failed before the schedule was streamed used
#: 300: a list of 10**15 deals cannot be made).
DEALS = str(10**15)
