"""``hanamikoji show`` and ``hanamikoji stats``: records for a person, for both
games; a player's view reveals nothing hidden from them; bad input as validate reports it."""

from __future__ import annotations

import json

import pytest

from hanamikoji.cli.main import main


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


def _opponent_hand_shown(out: str, hand: list[int]) -> bool:
    return any(line.strip() == f"hand: {json.dumps(sorted(hand))}" for line in out.splitlines())


def test_show_player_shows_only_that_players_view_of_hanamikoji(capsys, files):
    record = json.loads(files["hanamikoji.json"].read_text())
    code, out, err = run(capsys, "show", "--player", "0", str(files["hanamikoji.json"]))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].endswith("record 0, as player 0 saw it") and lines[2] == "start:"
    deal = record["rounds"][0]
    assert f"  hand: {json.dumps(sorted(deal['hands'][0] + deal['draws'][:1]))}" in lines
    assert not _opponent_hand_shown(out, deal["hands"][1])  # the other hand is never shown
    assert "draws" not in out and "removed" not in out      # nor the deck, nor the removed card
    secrets = [line for line in lines if '"action": "secret"' in line]
    assert any('"player": 1' in line and '"cards": null' in line for line in secrets)
    assert lines[-1].startswith("end: a win for player")
    code, other, _ = run(capsys, "show", "--player", "1", str(files["hanamikoji.json"]))
    assert code == 0 and other != out
    assert f"  hand: {json.dumps(sorted(deal['hands'][1]))}" in other.splitlines()


def test_show_player_shows_only_that_players_view_of_maiko(capsys, files):
    code, out, err = run(capsys, "show", "--player", "2", str(files["maiko.json"]))
    assert code == 0 and err == ""
    assert "secretly" not in out and "layout of" not in out  # the full display's hidden parts
    looks = [json.loads(line.split(" + ", 1)[1]) for line in out.splitlines()
             if line.startswith("  log + ") and '"one-san"' in line]
    assert looks, "a one-san look in the game"
    assert all(("tile" in look) == (look["player"] == 2) for look in looks)


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
