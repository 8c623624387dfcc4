"""``hanamikoji spec coverage``: every rule of spec/rules.md is cited by a check, and the command
reports uncovered rules and unknown IDs with exit 1."""

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path


from hanamikoji.cli.main import main
from hanamikoji.spec.core.coverage import RULE_ID, citations_in, rule_ids_in, scan, spec_rule_ids

ROOT = Path(__file__).resolve().parents[1]
# Built at run time, so that this file does not cite a rule ID that does not exist.
MISSING_ID = "DEAL-" + "99"


def _bullets_by_hand(text):
    """The spec's rule IDs, found another way: lines that start with a bold bullet."""
    found = []
    for line in text.splitlines():
        if line.startswith("- **") and "** " in line:
            found.append(line[len("- **"):line.index("** ")])
    return found


def run(capsys, *argv):
    code = main(["spec", "coverage", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_checkout_has_no_uncovered_rule_and_no_unknown_id(capsys):
    code, out, err = run(capsys, "--json", "--root", str(ROOT))
    report = json.loads(out)
    assert (code, err) == (0, "")
    assert report["uncovered"] == [] and report["unknown"] == []
    specs = [ROOT / g["spec"] for g in report["games"]]
    assert "spec/hanamikoji/rules.md" in [g["spec"] for g in report["games"]]
    by_hand = [rule for spec in specs for rule in _bullets_by_hand(spec.read_text(encoding="utf-8"))]
    assert [r["id"] for r in report["rules"]] == by_hand
    assert all(r["cited_by"] for r in report["rules"])


def test_the_packaged_spec_has_the_same_rules_as_the_checkout():
    text = (ROOT / "spec" / "hanamikoji" / "rules.md").read_text(encoding="utf-8")
    assert list(spec_rule_ids()) == _bullets_by_hand(text)


def test_the_human_table_lists_every_rule_and_a_summary(capsys, monkeypatch):
    monkeypatch.chdir(ROOT / "properties")  # found from a subfolder of the checkout
    code, out, _ = run(capsys)
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines()[:-1]
            if RULE_ID.fullmatch(line.split()[0] if line.split() else "")]
    games = [line.split()[0] for line in out.splitlines() if line.endswith("rules.md)")]
    assert games[0] == "hanamikoji"
    assert rows == [rule for game in games for rule in spec_rule_ids(game)]
    n = len(rows)
    assert out.splitlines()[-1] == f"{n} of {n} rules cited by a check; 0 uncovered, 0 unknown IDs cited"


def _checkout(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "properties").mkdir(exist_ok=True)
    return tmp_path


SPEC = """\
    # Rules
    - **DEAL-1** Shuffle. All cards.
    - **DEAL-2** Removed card. One card.
    - **VAR-IT-1** Three rounds. At most.
    """


def test_an_uncovered_rule_and_an_unknown_id_fail_with_exit_1(tmp_path, capsys):
    root = _checkout(tmp_path, {
        "spec/hanamikoji/rules.md": SPEC,
        "tests/test_deal.py": f"""\
            # DEAL-2 in a comment outside any test is a mention, not a check.
            @checks("DEAL-1")
            def test_shuffle():
                assert "DEAL-1"  # a check: cited by the decorator
            def test_typo():
                "{MISSING_ID} does not exist; UTF-8 and SHA-512 are not rule IDs"
            """,
        "engine/game.py": '''\
            def deal():
                """DEAL-2: implemented here, which checks nothing."""
            ''',
    })
    code, out, _ = run(capsys, "--json", "--root", str(root))
    report = json.loads(out)
    assert code == 1
    assert report["uncovered"] == ["DEAL-2", "VAR-IT-1"]
    assert report["unknown"] == [{"id": MISSING_ID, "where": "tests/test_deal.py:6"}]
    by_id = {r["id"]: r for r in report["rules"]}
    assert by_id["DEAL-1"]["cited_by"] == ["tests/test_deal.py::test_shuffle"]
    assert by_id["DEAL-2"]["implemented_by"] == ["engine/game.py::deal"]
    code, out, _ = run(capsys, "--root", str(root))
    assert code == 1 and "uncovered: DEAL-2, VAR-IT-1" in out
    assert f"unknown rule ID {MISSING_ID} at tests/test_deal.py:6" in out


def test_a_mention_is_never_a_check(tmp_path, capsys):
    """Only @checks cites: an ID in a test's comment, docstring, string or fixture, in a
    decorator that is not checks, or in the coverage tool's own tests covers nothing."""
    root = _checkout(tmp_path, {
        "spec/hanamikoji/rules.md": SPEC,
        "tests/test_mentions.py": '''\
            import pytest

            @pytest.fixture
            def deal():
                return "DEAL-1"  # a fixture's string

            @pytest.mark.parametrize("rule", ["DEAL-2"])
            def test_mentions(deal, rule):
                """DEAL-1 and DEAL-2 in a docstring."""
                # VAR-IT-1 in a comment
                assert deal == "DEAL-1"
            ''',
        "tests/test_coverage_tool.py": '''\
            @checks("VAR-IT-1")
            def test_of_the_tool_itself():
                pass
            ''',
    })
    code, out, _ = run(capsys, "--json", "--root", str(root))
    report = json.loads(out)
    assert code == 1 and report["uncovered"] == ["DEAL-1", "DEAL-2", "VAR-IT-1"]
    # the same file with the decorator: covered
    path = root / "tests" / "test_mentions.py"
    path.write_text(path.read_text().replace('@pytest.mark.parametrize("rule", ["DEAL-2"])',
                                             '@checks("DEAL-2")\n@pytest.mark.parametrize("rule", ["DEAL-2"])'))
    code, out, _ = run(capsys, "--json", "--root", str(root))
    assert json.loads(out)["uncovered"] == ["DEAL-1", "VAR-IT-1"]


def test_invariants_and_machine_rules_cite_by_the_decorator(tmp_path, capsys):
    root = _checkout(tmp_path, {
        "spec/hanamikoji/rules.md": SPEC,
        "properties/invariants.py": '''\
            @checks("DEAL-2")
            def removed_card_is_out(state):
                """DEAL-2: the removed card takes no part (the docstring alone would not count).

                VAR-IT-1 in a docstring is a mention.
                """
            def _helper():
                """DEAL-1, a private helper: a mention."""
            ''',
        "properties/machine.py": '''\
            class Games:
                @checks("DEAL-1")
                def shuffle(self):
                    pass
            ''',
        "properties/strategies.py": '''\
            @checks("VAR-IT-1")
            def deals():
                """a strategy is not a check, even with the decorator"""
            ''',
    })
    code, out, _ = run(capsys, "--json", "--root", str(root))
    by_id = {r["id"]: r["cited_by"] for r in json.loads(out)["rules"]}
    assert by_id == {"DEAL-1": ["properties/machine.py::Games.shuffle"],
                     "DEAL-2": ["properties/invariants.py::removed_card_is_out"],
                     "VAR-IT-1": []}
    assert code == 1


def test_a_missing_root_or_checkout_is_a_usage_error(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, "--root", str(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith("hanamikoji spec coverage: error: --root ") and err.count("\n") == 1
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys)
    assert code == 2 and "no checkout of this toolkit at or above" in err
    (tmp_path / "spec" / "hanamikoji").mkdir(parents=True)
    (tmp_path / "spec" / "hanamikoji" / "rules.md").write_text("# no rules\n", encoding="utf-8")
    code, _, err = run(capsys, "--root", str(tmp_path))
    assert code == 2 and "no rule bullets" in err


def test_rule_id_tokens_and_titles():
    families = frozenset({"ACT", "VAR", "SCORE"})
    found = citations_in("x = 'ACT-GIFT-2/3, VAR-IT-2..4, ACT-*-1, SCORE-30x, UTF-8'\n",
                         "tests/test_x.py", families)
    assert [c.rule for c in found] == ["ACT-GIFT-2", "VAR-IT-2"]
    assert rule_ids_in("- **SCORE-3** Ties. Equal.\n- **X** no\n") == (("SCORE-3", "Ties"),)


def test_the_command_does_not_import_z3():
    code = ("import sys; from hanamikoji.cli.main import main; "
            "code = main(['spec', 'coverage', '--json']); "
            "print(code, 'z3' in sys.modules, file=sys.stderr)")
    child = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert child.stderr.split() == ["0", "False"]


def test_scan_and_command_agree():
    coverage = scan(ROOT)
    assert coverage.ok and len(coverage.rules) == sum(len(spec_rule_ids(game))
                                                      for game, _, _ in coverage.games)
    assert re.fullmatch(r"[A-Z]+(-[A-Z]+)*-\d+", coverage.rules[0].id)
