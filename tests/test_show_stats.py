"""``hanamikoji show`` and ``hanamikoji stats``: records for a person, for both
games; a player's view reveals nothing hidden from them; bad input as validate reports it."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.properties.core.cite import checks


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Records of both games: one pretty-printed game of each, and JSON Lines of a few."""
    folder = tmp_path_factory.mktemp("records")
    made = {}
    for game, extra in (("hanamikoji", []), ("maiko", ["--players", "3"])):
        made[f"{game}.json"] = folder / f"{game}.json"
        assert main(["play", "--game", game, *extra, "--seed", "3",
                     "--record", str(made[f"{game}.json"])]) == 0
        made[f"{game}.jsonl"] = folder / f"{game}.jsonl"
        assert main(["simulate", "--game", game, *extra, "--games", "6", "--seed", "5",
                     "--records", str(made[f"{game}.jsonl"])]) == 0
    made["folder"] = folder
    return made


@pytest.mark.parametrize("game, extra", [("hanamikoji", []), ("maiko", ["--players", "3"])])
def test_show_prints_a_record_as_play_prints_the_game(capsys, files, game, extra):
    capsys.readouterr()
    code, played, _ = run(capsys, "play", "--game", game, *extra, "--seed", "3")
    assert code == 0
    code, shown, err = run(capsys, "show", str(files[f"{game}.json"]))
    assert code == 0 and err == ""
    assert shown.splitlines()[0] == f"{files[f'{game}.json']}:1: record 0"
    assert shown.splitlines()[1:] == played.splitlines()[1:]  # play's first line is its seed


def test_show_prints_a_stream_of_records_of_both_games(capsys, files):
    mixed = files["folder"] / "mixed.json"
    mixed.write_bytes(files["hanamikoji.json"].read_bytes() + files["maiko.jsonl"].read_bytes())
    code, out, err = run(capsys, "show", str(mixed))
    assert code == 0 and err == ""
    headers = [line for line in out.splitlines() if line.startswith(f"{mixed}:")]
    assert len(headers) == 7 and headers[1].endswith(": record 1")
    assert out.count("Maiko · 3 players") == 6 and out.count("Hanamikoji · standard rules") == 1


def _shown(capsys, files, name: str, *player: str) -> list[str]:
    code, out, err = run(capsys, "show", *player, str(files[name]))
    assert code == 0 and err == ""
    return out.splitlines()


@checks("INFO-2", "MK-INFO-1")
@pytest.mark.parametrize("name, players", [("hanamikoji.json", 2), ("maiko.json", 3)])
def test_show_player_is_show_as_the_player_saw_it(capsys, files, name, players):
    """INFO-2, MK-INFO-1: ``show --player P`` is ``show``'s display (same header, a line for
    each of show's lines), not a dump of P's view at every step."""
    everything = _shown(capsys, files, name)
    for player in range(players):
        seen = _shown(capsys, files, name, "--player", str(player))
        assert seen[0] == everything[0] + f", as player {player} saw it"
        assert seen[1] == everything[1]  # the game's own title line
        assert len(seen) == len(everything)
        assert seen[-1].startswith("Result: ") and seen[-1] == everything[-1]


@checks("ACT-SECRET-2", "ACT-TRADE-2")
def test_show_player_hides_the_opponents_face_down_cards(capsys, files):
    """ACT-SECRET-2, ACT-TRADE-2: where the full display names the cards of a secret or a
    trade-off, the opponent's display shows them face down; the player's own are shown."""
    everything = _shown(capsys, files, "hanamikoji.json")
    for player in (0, 1):
        seen = _shown(capsys, files, "hanamikoji.json", "--player", str(player))
        face_down = 0
        for full, own, turn in zip(everything, seen, [""] + everything):
            if full.split()[:1] in (["secret"], ["trade-off"]):
                mover = int(turn.split()[3])
                if mover == player:
                    assert own == full
                else:
                    assert own.split()[1:] == ["[?]"] if full.split()[0] == "secret" else \
                        own.split()[1:] == ["[?", "?]"], own
                    face_down += 1
        assert face_down >= 2  # a secret and a trade-off each round
        assert not any("removed [" in line and "[?]" not in line for line in seen)


@checks("MK-TUTOR-ONESAN-2")
def test_show_player_names_only_their_own_one_san_looks(capsys, files):
    """MK-TUTOR-ONESAN-2: a One-san look names its tile to the player who looked only."""
    everything = _shown(capsys, files, "maiko.json")
    looks = [k for k, line in enumerate(everything) if "(secretly: " in line]
    assert looks, "a one-san look in the game"
    for player in range(3):
        seen = _shown(capsys, files, "maiko.json", "--player", str(player))
        for k in looks:
            mover = next(int(everything[j].split()[4]) for j in range(k, 0, -1)
                         if everything[j].startswith("Turn "))
            if mover == player:
                assert seen[k] == everything[k]
            else:
                assert seen[k] == everything[k].split(" (secretly: ")[0], seen[k]


@pytest.mark.parametrize("name", ["hanamikoji", "maiko"])
def test_states_a_player_cannot_tell_apart_show_the_same_to_them(name):
    """Nothing hidden from a player reaches their display: a state they cannot tell from the
    game's (everything hidden drawn again, :meth:`Game.resample`) renders the same to them,
    while the full display tells the two apart."""
    game = get(name)
    config = game.configure({"players": 3} if name == "maiko" else {})
    told_apart = 0
    for seed in range(6):
        rng = random.Random(seed)
        final = game.random_game(rng, config)
        states = list(game.states(final))
        for state in states[len(states) // 3::len(states) // 3]:
            for player in game.players(state):
                other = game.resample(state, player, random.Random(seed + 100))
                assert game.render_seen(other, player) == game.render_seen(state, player)
                told_apart += game.render(other) != game.render(state)
    assert told_apart


def test_show_player_out_of_range_is_a_usage_error(capsys, files):
    code, out, err = run(capsys, "show", "--player", "2", str(files["hanamikoji.json"]))
    assert code == 2 and out == ""
    assert err == ("hanamikoji show: error: --player 2: record 0 is a game of 2 players, "
                   "numbered 0 to 1\n")


@pytest.mark.parametrize("game, extra, unit", [("hanamikoji", [], "rounds"),
                                                ("maiko", ["--players", "3"], "turns")])
def test_stats_count_what_simulate_counted(capsys, files, game, extra, unit):
    capsys.readouterr()
    code, out, _ = run(capsys, "simulate", "--game", game, *extra, "--games", "6", "--seed", "5",
                       "--json")
    simulated = json.loads(out)
    code, out, err = run(capsys, "stats", "--json", str(files[f"{game}.jsonl"]))
    assert code == 0 and err == ""
    stats = json.loads(out)
    assert (stats["records"], stats["valid"], stats["illegal"], stats["malformed"]) == (6, 6, 0, 0)
    [group] = stats["groups"]
    assert group["game"] == game and group["games"] == 6
    for key in ("reasons", "winners", unit):
        assert group[key] == simulated[key], key
    assert group["first_player"] == {"0": 6}
    assert group["first_player_won"] == simulated["winners"].get("0", 0)
    code, text, _ = run(capsys, "stats", str(files[f"{game}.jsonl"]))
    assert code == 0 and text.splitlines()[0] == "6 records: 6 valid, 0 illegal, 0 malformed"
    assert f"{unit} per game:" in text and "first player won:  " in text


def test_stats_group_by_game_and_options(capsys, files):
    code, out, _ = run(capsys, "stats", "--json", str(files["hanamikoji.jsonl"]),
                       str(files["maiko.jsonl"]), str(files["maiko.json"]))
    groups = json.loads(out)["groups"]
    assert code == 0 and [(g["game"], g["games"]) for g in groups] == [("hanamikoji", 6),
                                                                      ("maiko", 7)]


def test_bad_records_get_validates_lines_and_exit_codes(capsys, files):
    folder = files["folder"]
    record = json.loads(files["hanamikoji.jsonl"].read_text().splitlines()[0])
    illegal = dict(record, first_player=1)
    (folder / "illegal.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(illegal) + "\n")
    (folder / "malformed.jsonl").write_text(json.dumps(record) + "\n{\"a\": \n")
    for name, expected in (("illegal.jsonl", 1), ("malformed.jsonl", 2)):
        path = str(folder / name)
        code, validated, _ = run(capsys, "validate", path)
        assert code == expected
        for command in (["show"], ["show", "--player", "0"], ["stats"], ["stats", "--json"]):
            code, out, err = run(capsys, *command, path)
            assert code == expected, command
            assert err == validated.splitlines()[0] + "\n", command
    code, out, err = run(capsys, "stats", str(folder / "missing.jsonl"))
    assert code == 2
    assert err == f"hanamikoji stats: error: cannot read {folder}/missing.jsonl: no such file\n"


def _decisions_and_hands(lines: list[str]) -> list[tuple[list[int], list[int]]]:
    """(cards played, hand shown on the line before) of each action of a Hanamikoji display;
    an action whose hand is not shown (the opponent's) has an empty hand."""
    out = []
    for before, line in zip(lines, lines[1:]):
        words = line.split()
        if words[:1] and words[0] in ("secret", "trade-off", "gift", "competition"):
            played = [int(c) for c in re.findall(r"\d", line.split(" -> ")[0])]
            hand = re.search(r"hand \[([\d ]*)\]", before)
            out.append((played, [int(c) for c in hand.group(1).split()] if hand else []))
    return out


@checks("TURN-2")
def test_every_action_is_played_from_the_hand_shown_before_it(capsys):
    """TURN-2: ``play`` shows, before each action, the card its player drew and the hand they
    chose from, so the cards played are in it; a player's own display does so for their
    actions (seed 3 played ``trade-off [4 6]`` from a hand shown as ``[0 3 5 6 6 6]``)."""
    game = get("hanamikoji")
    for seed in range(8):
        final = game.random_game(random.Random(seed), game.configure())
        rounds = len(final.scores)
        actions = _decisions_and_hands(game.render(final))
        assert len(actions) == 8 * rounds
        for played, hand in actions:
            assert not Counter(played) - Counter(hand), (seed, played, hand)
        for player in (0, 1):
            own = [(p, h) for p, h in _decisions_and_hands(game.render_seen(final, player)) if h]
            assert len(own) == 4 * rounds
            assert all(not Counter(p) - Counter(h) for p, h in own), (seed, player)
    code, out, _ = run(capsys, "play", "--seed", "3")
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.split()[:3] == ["trade-off", "[4", "6]"])
    hand = re.search(r"player 0  draws \d · hand \[([\d ]*)\]", lines[at - 1])
    assert hand and {"4", "6"} <= set(hand.group(1).split()), lines[at - 1]


def test_the_cli_doc_turn_excerpt_is_what_play_prints(capsys):
    """docs/cli.md's excerpt of a turn is two consecutive lines of ``play --seed 3``."""
    import pathlib

    doc = (pathlib.Path(__file__).parent.parent / "docs" / "cli.md").read_text()
    excerpt = re.search(r"`hanamikoji play --seed 3`\):\n\n```\n(.*?)```", doc, re.S)
    assert excerpt, "the excerpt of docs/cli.md"
    code, out, _ = run(capsys, "play", "--seed", "3")
    assert code == 0 and excerpt.group(1) in out


def test_stats_on_tournament_records_says_nothing_of_simulate_rotate(tmp_path, capsys):
    """A tournament seats each bot in every seat, every game begun by player 0: the note that
    'simulate' begins with player 0 unless --rotate does not apply to its records.jsonl. The
    same records anywhere else keep the note."""
    assert run(capsys, "tournament", "random", "random", "--deals", "3",
               "--out", str(tmp_path / "t"))[0] == 0
    code, out, _ = run(capsys, "stats", str(tmp_path / "t" / "records.jsonl"))
    assert code == 0 and "6 games of" in out and "note:" not in out and "--rotate" not in out
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes((tmp_path / "t" / "records.jsonl").read_bytes())
    code, out, _ = run(capsys, "stats", str(copy))
    assert code == 0 and "every game began with player 0" in out and "--rotate" in out
