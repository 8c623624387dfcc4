"""Bad input that once ended as an internal error (exit 3) or was taken for something else:
each is now one line on stderr naming what was wrong and what was expected, exit 2."""

from __future__ import annotations

import pytest

from hanamikoji.oracle.core import perft as P
from hanamikoji.engine.core import registry
from hanamikoji.cli.main import main


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    for game in ("hanamikoji", "maiko"):
        assert main(["simulate", "--game", game, "--games", "1", "--records",
                     str(folder / f"{game}.jsonl")]) == 0
    return folder


def _one_line(capsys, *words):
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize("game, at", [
    ("hanamikoji", "\u00b2:0"), ("hanamikoji", "0:\u0663"), ("hanamikoji", "9" * 5000 + ":0"),
    ("hanamikoji", "0:\u00a01"), ("maiko", "0:\u00b2"), ("maiko", "1" * 5000 + ":0")])
def test_perft_at_takes_ascii_digits_only(game, at, records, capsys):
    """'²' passed isdigit() and crashed int() (ValueError, exit 3); '٣' was read as 3; 5,000
    digits passed Python's limit on int()."""
    code = main(["perft", "--record", str(records / f"{game}.jsonl"), "--at", at, "--depth", "1"])
    assert code == 2
    _one_line(capsys, "--at takes", "ASCII digits")


def test_perft_at_still_takes_blanks_around_a_number(records, capsys):
    assert main(["perft", "--record", str(records / "hanamikoji.jsonl"), "--at", " 0: 1 ",
                 "--depth", "1"]) == 0


@pytest.mark.parametrize("depth", [101, 990])
def test_maiko_perft_refuses_a_depth_past_the_walkers_reach(depth, capsys):
    """--depth 990 recursed past Python's limit (RecursionError, exit 3); Hanamikoji's own
    bound (a round's tree) stands, and a game without one gets perft's."""
    assert main(["perft", "--game", "maiko", "--seed", "0", "--depth", str(depth)]) == 2
    err = _one_line(capsys, f"--depth {depth}", f"use 1 to {P.MAX_DEPTH}")
    assert "no bound" in err
    limit, _ = P.depth_limit(registry.get("hanamikoji"))
    assert limit == P.hooks(registry.get("hanamikoji")).max_depth()[0]
    assert main(["perft", "--seed", "0", "--depth", str(limit + 1)]) == 2
    _one_line(capsys, f"use 1 to {limit}")


def test_the_perft_depth_limit_is_within_the_walkers_reach():
    """perft walks MAX_DEPTH decisions deep without reaching the recursion limit: a chain game
    of one decision per step, as deep as the limit."""
    import sys

    class Chain:
        def current_player(self, node):
            return 0 if node < P.MAX_DEPTH else -2

        def legal_actions(self, node):
            return (1,)

        def apply(self, node, decision):
            return node + decision

    old = sys.getrecursionlimit()
    assert P.walk(Chain(), 0, P.MAX_DEPTH) == (1,) * (P.MAX_DEPTH + 1)
    assert P.count(Chain(), 0, P.MAX_DEPTH) == (1,) * (P.MAX_DEPTH + 1)
    assert sys.getrecursionlimit() == old


def test_a_perft_suite_case_with_a_unicode_depth_is_refused():
    case = {"id": "x", "input": {"history": []}, "expected": {"depths": {"\u00b2": 1}}}
    with pytest.raises(ValueError, match="depths"):
        P.suite_case(registry.get("maiko"), case)


@pytest.mark.parametrize("value", ["\u0663", "\u00b2", "1\u00a0", "\uff11"])
def test_integer_options_take_ascii_digits_only(value, capsys):
    """int() read '٣' as 3: --seed ٣ was seed 3."""
    assert main_exit(["simulate", "--games", "1", "--seed", value]) == 2
    _one_line(capsys, "--seed takes an integer")


def main_exit(argv):
    try:
        return main(argv)
    except SystemExit as done:
        return done.code


def test_the_documented_limits_are_the_code_s():
    """docs/oracle.md gives perft's depth bound and docs/queries.md the --where limits."""
    import pathlib

    from hanamikoji.spec.core import expr

    docs = pathlib.Path(__file__).resolve().parents[1] / "docs"
    oracle = " ".join((docs / "oracle.md").read_text(encoding="utf-8").split())
    assert f"perft counts at most {P.MAX_DEPTH} decisions deep" in oracle
    assert f"`--depth {P.MAX_DEPTH + 1}` is exit 2" in oracle
    queries = " ".join((docs / "queries.md").read_text(encoding="utf-8").split())
    assert f"at most {expr.MAX_LENGTH:,} characters and nests at most {expr.MAX_DEPTH} levels" in queries
    assert f"nests deeper than {expr.MAX_DEPTH} levels" in queries


@pytest.mark.parametrize("value, words", [
    ("foo=json:dumps", ["entry foo=json:dumps", "not a Game"]),
    ("foo=nomod:X", ["entry foo=nomod:X", "no module named 'nomod'"]),
    ("foo=json:nothere", ["entry foo=json:nothere", "no attribute 'nothere'"]),
    ("garbage", ["entry 'garbage'", "NAME=MODULE:ATTRIBUTE"]),
    ("foo=json", ["entry 'foo=json'", "NAME=MODULE:ATTRIBUTE"]),
    ("=json:dumps", ["entry '=json:dumps'", "NAME=MODULE:ATTRIBUTE"]),
])
def test_a_bad_games_entry_is_one_line_naming_it(value, words, monkeypatch, capsys):
    """HANAMIKOJI_GAMES=foo=json:dumps was an AttributeError (exit 3); foo=nomod:X was dropped
    and garbage ignored, silently."""
    monkeypatch.setenv(registry.ENVIRONMENT, value)
    assert main(["games"]) == 2
    _one_line(capsys, "HANAMIKOJI_GAMES", *words)
    assert main(["play", "--game", "foo", "--seed", "0"]) == 2
    _one_line(capsys, "HANAMIKOJI_GAMES", *words)


@pytest.mark.parametrize("value", ["garbage", "foo=json", "a=b:c,garbage"])
def test_a_malformed_games_variable_is_an_error_whatever_game_is_played(value, monkeypatch,
                                                                         capsys):
    """The other games' entries are imported only when used, but the variable is read whole."""
    monkeypatch.setenv(registry.ENVIRONMENT, value)
    assert main(["play", "--seed", "0"]) == 2
    _one_line(capsys, "HANAMIKOJI_GAMES", "NAME=MODULE:ATTRIBUTE")


def test_blank_games_entries_are_none(monkeypatch, capsys):
    monkeypatch.setenv(registry.ENVIRONMENT, " , ,")
    assert main(["games"]) == 0
    assert capsys.readouterr().out.startswith("hanamikoji:")


def test_the_cli_doc_shows_what_a_bad_games_entry_prints(monkeypatch, capsys):
    import pathlib
    import re

    doc = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    found = re.search(r"\$ HANAMIKOJI_GAMES=(\S+) hanamikoji games\n(.*)\n", doc)
    assert found
    monkeypatch.setenv(registry.ENVIRONMENT, found.group(1))
    assert main(["games"]) == 2
    assert capsys.readouterr().err.strip() == found.group(2)


def test_a_whole_number_option_takes_ascii_digits_only(capsys):
    """--option players=٣ was read as 3 by int()."""
    assert main(["simulate", "--game", "maiko", "--option", "players=\u0663", "--games", "1"]) == 2
    _one_line(capsys, "players takes a whole number")
