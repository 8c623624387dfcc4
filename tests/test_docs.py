"""The Python examples in the user docs run as shown."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize("name", ["engine.md", "record-format.md"])
def test_python_blocks_run(name):
    text = (DOCS / name).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(block, f"{name}", "exec"), namespace)


def test_rules_doc_counts_come_from_the_spec():
    """docs/rules.md states the number of rules and their groups; both come from spec/rules.md."""
    spec = (DOCS.parent / "spec" / "hanamikoji" / "rules.md").read_text()
    ids = re.findall(r"^- \*\*([A-Z]+(?:-[A-Z]+)*-[0-9]+)\*\*", spec, re.M)
    doc = (DOCS / "rules.md").read_text()
    assert f"The {len(ids)} rules fall in" in doc
    prefixes = {re.sub(r"-[0-9]+$", "-", i) for i in ids}
    named = set(re.findall(r"`([A-Z]+(?:-[A-Z]+)*-)`", doc))
    assert named == prefixes


def test_cli_doc_error_example_is_what_the_command_prints():
    import subprocess
    import sys

    doc = (DOCS / "cli.md").read_text()
    shown = re.search(r"\$ hanamikoji simulate --games many\n(.*)\n", doc).group(1)
    done = subprocess.run([sys.executable, "-m", "hanamikoji.engine", "simulate", "--games", "many"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.strip() == shown


def test_cli_doc_version_is_what_version_prints(capsys):
    """docs/cli.md said `hanamikoji 0.1.0` while the package was 0.2.0: the doc's example is
    what ``--version`` prints, read from the package."""
    from hanamikoji import __version__
    from hanamikoji.cli.main import main

    shown = re.search(r"prints the\s+installed version \(`([^`]*)`", (DOCS / "cli.md").read_text())
    assert main(["--version"]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == f"hanamikoji {__version__}"
    assert shown is not None and shown.group(1) == printed


def test_performance_doc_leaf_counts_are_perft_counts():
    """The leaf counts quoted in docs/performance.md are what perft computes (timings are
    measurements and are not checked)."""
    from hanamikoji.oracle.hanamikoji.perft import perft, round_start, seeded_deal

    doc = (DOCS / "performance.md").read_text()
    rows = re.findall(r"^\| (\d+) \| ([\d,]+) \| [\d.]+ ms \|", doc, re.M)
    assert len(rows) >= 6
    counts = perft(round_start(seeded_deal(0)), 12)
    for depth, leaves in rows:
        assert counts[int(depth)] == int(leaves.replace(",", ""))


def test_the_test_command_ends_with_the_lint_and_type_check_the_architecture_doc_shows():
    """docs/architecture.md shows how to run the lint and the type check alone; the README's
    one-line test command (what CI runs) runs both, as written there."""
    readme = (DOCS.parent / "README.md").read_text()
    command = re.search(r"<!-- test-command -->\n```\n(.*)\n```\n<!-- /test-command -->",
                        readme).group(1)
    shown = re.search(r"## Lint and types\n.*?```\n(.*?)```", (DOCS / "architecture.md").read_text(),
                      re.S).group(1).splitlines()
    assert shown == ["ruff check .", "python dev/typecheck.py"]
    assert command.endswith(" && " + " && ".join(shown))
    assert (DOCS.parent / "dev" / "typecheck.py").is_file()
