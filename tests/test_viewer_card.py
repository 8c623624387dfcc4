"""The check report's page (viewer/core/card.py) from reports built with the report card's
model: one card is the card itself; several are a table with a column per implementation and a
row per check, each failed cell a link to its failures; each failure's facts and reproduction;
its game replayed by the engine (a Hanamikoji record, a Maiko position) or shown as JSON when it
does not replay; every string of an implementation escaped; ``view report.json``."""

from __future__ import annotations

import html.parser
import json
import pathlib
import re
import sys
from typing import Any

import pytest

from hanamikoji.cli.main import main
from hanamikoji.engine.core.registry import get
from hanamikoji.oracle.core.check import FORMAT, Card, Check, Failure, Report, Reproduction
from hanamikoji.viewer.core import page as P
from hanamikoji.viewer.core.card import card_page, problem

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # tests/: the reports
import card_reports as R  # noqa: E402


class Parsed(html.parser.HTMLParser):
    """A page read as a browser's parser reads it: every element's tag and attributes, the text
    under each ``id``, the comments, and the dashboard's cells."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: dict[str, list[str]] = {}
        self.open: list[tuple[str, str | None]] = []
        self.comments: list[str] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("meta", "input", "br"):
            self.open.append((tag, dict(attrs).get("id")))
            if dict(attrs).get("id"):
                self.ids[dict(attrs)["id"]] = []

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for _, ident in self.open:
            if ident:
                self.ids[ident].append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def under(self, ident: str) -> str:
        return "".join(self.ids[ident])


def _embedded(text: str) -> dict[str, Any]:
    block = re.search(r'<script type="application/json" id="hk-data">(.*?)</script>', text, re.S)
    return json.loads(block.group(1))


def _dashboard(text: str) -> tuple[list[str], list[tuple[str, list[tuple[str, str | None]]]]]:
    """The dashboard's column names, and its rows: the check ID and each cell's status class
    and link."""
    table = re.search(r'<table class="dashboard">(.*?)</table>', text, re.S).group(1)
    names = re.findall(r'<th scope="col" class="impl"><span class="name">(.*?)</span>', table)
    rows = []
    for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", table, re.S):
        check = re.match(r"<code>(.*?)</code>", row).group(1)
        cells = [(cls, href or None) for cls, href in
                 re.findall(r'<td class="cell (\w+)"[^>]*>(?:<a href="#([^"]+)">)?', row)]
        rows.append((check, cells))
    return names, rows


def test_one_card_is_the_card_itself():
    report = R.one()
    text = card_page(report.to_json())
    parsed = Parsed(text)
    assert 'class="dashboard"' not in text and text.count('<section class="card"') == 1
    card = report.cards[0]
    statuses = re.findall(r'<tr class="(pass|fail|skip)"><th scope="row">', text)
    assert statuses == [c.status for c in card.checks]
    # the timing row: the model's figures, as the page writes them
    timing = card.checks[2].timing
    row = re.search(r'<table class="timing">.*?<tbody>(.*?)</tbody>', text, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells == [f"{timing.calls:,}", *(f"{v:.2f} ms" for v in (
        timing.median, timing.p90, timing.p99, timing.longest)), f"{timing.limit:g} ms"]
    assert timing.longest == 9.0 and timing.limit == 2000  # within the limit
    assert '<td class="within">9.00 ms</td>' in row
    # every kept failure, in order, with its facts
    failures = [parsed.under(f"card-0-check-2-{k}") for k in range(2)]
    for shown, failure in zip(failures, card.checks[2].failures):
        assert failure.message in shown and failure.request in shown and failure.got in shown
        assert f"number {failure.call} of the process" in shown
    assert "exit code 134" in failures[0] and "abort: at ~lib/rt/itcms.ts:128" in failures[0]
    assert "yes: the smallest case found that still fails" in failures[0]
    assert "ACT-SECRET-1" in failures[1] and "no: the case as it was found" in failures[1]
    repro = card.checks[2].failures[0].reproduction
    assert parsed.under("card-0-check-2-0-repro") == repro.text
    assert 'data-copy="card-0-check-2-0-repro"' in text
    assert "5,679 failed, 45 passed; the first 2 kept" in parsed.under("card-0-check-2")


def test_three_cards_side_by_side():
    report = R.three()
    text = card_page(report.to_json())
    parsed = Parsed(text)
    names, rows = _dashboard(text)
    assert names == [card.name for card in report.cards]
    union: list[str] = []
    for card in report.cards:
        union += [c.name for c in card.checks if c.name not in union]
    assert [check for check, _ in rows] == union
    for check, cells in rows:
        assert len(cells) == len(report.cards)
        for i, (card, (status, href)) in enumerate(zip(report.cards, cells)):
            mine = [(j, c) for j, c in enumerate(card.checks) if c.name == check]
            assert status == (mine[0][1].status if mine else "none")
            if status != "fail":
                assert href is None
                continue
            j, found = mine[0]
            assert href == f"card-{i}-check-{j}" and href in parsed.ids
            assert all(f.message in parsed.under(href) for f in found.failures)
    assert sum(status == "fail" for _, cells in rows for status, _ in cells) == 3
    # the bot's longest call is over its limit, and marked
    assert '<td class="over">2100.00 ms</td>' in text
    assert "0 of 3 implementations passed every check" in "".join(parsed.text)


def _hostile_report(strings: tuple[str, ...]) -> Report:
    it = iter(strings * 10)
    failure = Failure(next(it), call=3, request=next(it), expected=next(it), got=next(it),
                      rule=next(it), reproduction=Reproduction("sh", next(it), next(it)),
                      stderr=next(it), exit=next(it), game={"format": next(it)})
    card = Card(next(it), "bot", next(it), [
        Check(next(it), next(it), passed=1, failed=1, failures=[failure]),
        Check(next(it), next(it), skipped=next(it))])
    return Report(next(it), {next(it): next(it)}, 0, next(it), [card, card])


def test_no_string_of_an_implementation_can_run():
    """Every string of the report is an implementer's, made hostile: the page holds the same
    elements as the page of a harmless report of the same shape, every hostile string is shown
    as text, and the page is UTF-8 (a lone surrogate is shown as U+FFFD)."""
    hostile = card_page(_hostile_report(R.HOSTILE).to_json())
    harmless = card_page(_hostile_report(tuple(f"text {i}" for i in range(6))).to_json())
    hostile.encode("utf-8")  # no lone surrogate left
    tags = Parsed(hostile).tags
    assert [t for t, _ in tags] == [t for t, _ in Parsed(harmless).tags]
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]
    assert Parsed(hostile).comments == []
    shown = "".join(Parsed(hostile).text)
    for string in R.HOSTILE:
        assert re.sub("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f]", "\ufffd", string) in shown
    assert _embedded(hostile)["games"] == []


def test_a_failures_hanamikoji_record_is_replayed_at_its_end():
    record = R.record(2)
    game = get("hanamikoji")
    final = game.read_record(record)
    failure = Failure("the result differs", rule="VAR-IT-2", game=record)
    report = Report("hanamikoji", {}, 0, "test",
                    [Card("e", "engine", "node e.js", [Check("diff", "diff", failed=1,
                                                             failures=[failure])])])
    text = card_page(report.to_json())
    entries = _embedded(text)["games"]
    assert len(entries) == 1 and entries[0]["game"] == "hanamikoji"
    assert entries[0]["end"]["winners"] == list(game.outcome(final).winners)
    steps = P.unpack(entries[0]["z"])["steps"]
    assert [s["decision"] for s in steps] == record_decisions(game, final)
    assert f'data-replay="0" data-step="{len(steps)}"' in text
    assert "HK.boards.hanamikoji = " in text and "HK.boards.maiko = " not in text


def record_decisions(game, final) -> list[Any]:
    return [game.decision_to_json(d) for d in game.history(final)]


def test_a_maiko_position_is_replayed_as_an_unfinished_game():
    position = R.position("maiko", seed=1, decisions=10, players=3)
    failure = Failure("the bot answered a flip of a face-up space", rule="MK-FLIP-1",
                      game=position)
    report = Report("maiko", {"players": 3}, 0, "test",
                    [Card("b", "bot", "./bot", [Check("calls", "calls", failed=1,
                                                      failures=[failure])])])
    text = card_page(report.to_json())
    entries = _embedded(text)["games"]
    assert len(entries) == 1 and entries[0]["game"] == "maiko" and entries[0]["end"] is None
    assert entries[0]["players"] == 3
    steps = P.unpack(entries[0]["z"])["steps"]
    assert [s["decision"] for s in steps] == position["history"]
    assert "unfinished" in text and 'data-step="10"' in text
    assert "HK.boards.maiko = " in text and "HK.boards.hanamikoji = " not in text
    # without "game", a position is of the report's game
    del position["game"]
    again = card_page(report.to_json() | {"cards": [
        Card("b", "bot", "./bot", [Check("calls", "calls", failed=1, failures=[
            Failure("x", game=position)])]).to_json()]})
    assert _embedded(again)["games"][0]["game"] == "maiko"


@pytest.mark.parametrize("game,why", [
    (dict(R.record(2), first_player=5), "the engine does not replay it: "),
    (dict(R.record(2), format="chess-record/1"),
     'no game here writes records of format "chess-record/1"'),
    ({"game": "hanamikoji", "history": [{"action": "gift"}]}, "the engine does not replay it"),
    ({"game": "no-such-game", "history": []}, "the engine does not replay it"),
    ({"history": "not a list"}, "the engine does not replay it"),
    ([1, 2, 3], "it is not a record or a position"),
    (7, "it is not a record or a position"),
    ("{not json", "it is text, not a record or a position"),
    ({"hand": "AB"}, "it is neither a record"),
])
def test_a_game_that_does_not_replay_is_shown_as_json(game, why):
    failure = Failure("the answer differs", game=game)
    report = Report("hanamikoji", {}, 0, "test",
                    [Card("e", "engine", "e", [Check("diff", "diff", failed=1,
                                                     failures=[failure])])])
    text = card_page(report.to_json())
    assert _embedded(text)["games"] == []
    shown = "".join(Parsed(text).text)
    assert f"Its game, as JSON ({why}" in shown
    assert json.dumps(game, indent=1, ensure_ascii=False) in shown


def test_a_report_of_another_shape_is_named_by_its_json_path():
    good = R.three().to_json()
    assert problem(good) is None and problem(R.one().to_json()) is None
    cases = [
        ({k: v for k, v in good.items() if k != "cards"}, '$: the key "cards" is missing'),
        (dict(good, seed="0"), '$.seed: expected an integer, got "0"'),
        (dict(good, seed=True), "$.seed: expected an integer, got true"),
        (dict(good, cards={}), "$.cards: expected an array, got {}"),
    ]
    card = good["cards"][1]
    check = dict(card["checks"][2], status="broken")
    cases.append((dict(good, cards=[good["cards"][0], dict(card, checks=[check])]),
                  "$.cards[1].checks[0].status: expected one of fail, pass, skip, "
                  'got "broken"'))
    failure = dict(card["checks"][2]["failures"][0], call="46")
    check = dict(card["checks"][2], failures=[failure])
    cases.append((dict(good, cards=[dict(card, checks=[check])]),
                  '$.cards[0].checks[0].failures[0].call: expected an integer or null, '
                  'got "46"'))
    for document, message in cases:
        assert problem(document) == message
        with pytest.raises(ValueError, match=re.escape(message)):
            card_page(document)


def test_view_writes_the_page_of_a_check_report(tmp_path, capsys):
    report = _hostile_report(R.HOSTILE)
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report.to_json(), indent=2), encoding="utf-8")
    assert main(["view", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out == f"wrote {tmp_path / 'report.html'} (the check report of 2 " \
        "implementations)\n"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == card_page(document)
    assert main(["view", str(path), "--out", str(tmp_path / "named.html")]) == 0
    assert (tmp_path / "named.html").read_bytes() == (tmp_path / "report.html").read_bytes()
    # its format key anywhere: sorted keys put some 100 KB of cards before it
    many = Report("hanamikoji", {}, 0, "test", [R.module_card(f"pair{i}") for i in range(50)])
    text = json.dumps(many.to_json(), sort_keys=True)
    assert text.index('"format"') > 1 << 16
    path.write_text(text, encoding="utf-8")
    assert main(["view", str(path)]) == 0
    assert "the check report of 50 implementations" in capsys.readouterr().out


def test_view_says_in_one_line_why_a_check_report_cannot_be_shown(tmp_path, capsys):
    document = R.one().to_json()
    document["cards"][0]["checks"][0]["passed"] = "many"
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main(["view", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"hanamikoji view: error: {path}: not a check report this toolkit can show: "
                   '$.cards[0].checks[0].passed: expected an integer, got "many"\n')
    assert not (tmp_path / "report.html").exists()
    path.write_text(json.dumps(R.one().to_json()), encoding="utf-8")
    records = tmp_path / "g.jsonl"
    records.write_text(json.dumps(R.record()) + "\n", encoding="utf-8")
    assert main(["view", str(records), str(path), "--out", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err == (f"hanamikoji view: error: {path} is a check report: "
                                       "view it alone, not with other files\n")
    # a file of records that only mentions the format is still read as records
    record = dict(R.record(), variant=FORMAT)
    records.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["view", str(records), "--out", str(tmp_path / "y.html")]) == 2
    assert "malformed" in capsys.readouterr().err


def test_the_modules_examples_run():
    import doctest

    from hanamikoji.viewer.core import card

    assert doctest.testmod(card).failed == 0


def test_a_report_of_no_card_and_an_inconsistent_check_still_make_a_page():
    """A report with no card, and a failed check that kept no failure (as a hand-edited
    report.json may hold): a page all the same, the failed cell's link leading somewhere."""
    empty = Report("hanamikoji", {}, 0, "test", []).to_json()
    assert "0 of 0 implementations passed every check" in card_page(empty)
    document = R.three().to_json()
    document["cards"][0]["checks"][2]["failures"] = []
    text = card_page(document)
    assert 'href="#card-0-check-2"' in text
    assert "none kept" in Parsed(text).under("card-0-check-2")


def test_view_reads_a_pipe_of_records_as_records(tmp_path):
    """A position or a check report is looked for in regular files only: what is read of a
    pipe is gone, and the records it holds must reach the page (the command waited forever for
    a second writer of the pipe)."""
    import os
    import subprocess
    import threading

    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    text = json.dumps(R.record(1)) + "\n" + json.dumps(R.record(2)) + "\n"

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as pipe:
            pipe.write(text)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:  # a generous bound: the view of two games takes a second or two
        done = subprocess.run([sys.executable, "-m", "hanamikoji", "view", str(fifo), "--out",
                               str(tmp_path / "p.html")], capture_output=True, text=True,
                              timeout=120)
    finally:
        if writer.is_alive():  # the command never opened the pipe: let the writer go
            with open(fifo, "rb") as pipe:
                pipe.read()
    assert done.returncode == 0, done.stderr
    assert len(_embedded((tmp_path / "p.html").read_text(encoding="utf-8"))["games"]) == 2
