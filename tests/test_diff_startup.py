"""What a short ``hanamikoji diff`` costs before its games: Hypothesis is imported only to shrink
a divergence (its cache folder still kept out of the user's folder whenever it runs)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
REFERENCE = [sys.executable, "-m", "hanamikoji.oracle.core.adapter"]


def run_python(code: str, cwd: pathlib.Path, env: dict[str, str] | None = None) -> list[str]:
    """``code`` in a fresh process (this one has imported Hypothesis): its output's lines."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=cwd, timeout=600,
                          env=None if env is None else {**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


# --- Hypothesis only to shrink ---------------------------------------------------------------


@pytest.mark.parametrize("game, games", [("hanamikoji", "3"), ("maiko", "1")])
def test_a_diff_of_agreeing_engines_never_imports_hypothesis(tmp_path, game, games):
    out = run_python(f"""
        import sys
        from hanamikoji.cli.main import main
        code = main(["diff", "--game", {game!r}, "--games", {games!r}, "--timeout", "600",
                     "--json", "--", *{REFERENCE!r}])
        print(code, "hypothesis" in sys.modules)
    """, tmp_path)
    assert json.loads(out[0])["status"] == "agree"
    assert out[-1] == "0 False"
    assert list(tmp_path.iterdir()) == []


def test_the_litter_guard_points_hypothesis_home_when_it_is_imported_inside(tmp_path):
    """Two guards, one inside the other, begun before Hypothesis is imported: a property run
    inside keeps its caches in the inner guard's folder, the outer one's is back when the inner
    ends, Hypothesis's own choice when both have, and nothing is left in the folder."""
    out = run_python("""
        import sys
        from hanamikoji.runtime.progress import _hypothesis_home, no_hypothesis_litter

        with no_hypothesis_litter():
            with no_hypothesis_litter():
                print("hypothesis" in sys.modules)
                from hypothesis import configuration, given, settings, strategies as st

                @settings(max_examples=3, database=None)
                @given(st.integers())
                def check(n):
                    pass

                check()
                inner = _hypothesis_home(configuration)
                print(inner.name.startswith("hanamikoji-hypothesis-"), inner.exists())
            outer = _hypothesis_home(configuration)
            print(outer.name.startswith("hanamikoji-hypothesis-"), outer != inner)
        print(_hypothesis_home(configuration), inner.exists() or outer.exists())
        print(any(type(finder).__module__ == "hanamikoji.runtime.progress"
                  for finder in sys.meta_path))
    """, tmp_path)
    assert out == ["False", "True True", "True True", f"{tmp_path / '.hypothesis'} False",
                   "False"]
    assert list(tmp_path.iterdir()) == []


def test_a_divergence_is_shrunk_with_hypothesis_home_out_of_the_folder(tmp_path):
    """The guard holds around the shrinking, which imports Hypothesis itself."""
    out = run_python(f"""
        import sys
        from hanamikoji.oracle.core import diff_draw
        from hanamikoji.cli.main import main

        shrink, homes = diff_draw.shrink, []

        def watched(*args):
            from hypothesis import configuration
            from hanamikoji.runtime.progress import _hypothesis_home

            homes.append(_hypothesis_home(configuration))
            return shrink(*args)

        diff_draw.shrink = watched
        code = main(["diff", "--games", "30", "--shrink", "5", "--timeout", "600", "--json",
                     "--", sys.executable, {str(ROOT / "docs" / "examples" / "adapter.py")!r},
                     "--engine", "broken_engines:same-starter"])
        print(code, [home.name.startswith("hanamikoji-hypothesis-") for home in homes],
              any(home.exists() for home in homes))
    """, tmp_path, env={"PYTHONPATH": str(ROOT / "tests")})
    report = json.loads(out[0])
    assert report["status"] == "divergence" and report["shrink_games"] > 0
    assert out[-1] == "1 [True] False"
    assert list(tmp_path.iterdir()) == []
