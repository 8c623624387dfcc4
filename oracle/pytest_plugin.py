"""The oracle inside an implementer's own pytest (docs/oracle.md, "The oracle in your own test
suite"): installed with the package as an entry point (``pytest11``), off until asked for.

``pytest --hanamikoji-engine "node my-adapter.js"`` (or the ini option ``hanamikoji_engine``, or
``--hanamikoji`` with a fixture ``hanamikoji_engine`` that returns a Python engine) adds to the
run, beside the suite's own tests:

- ``test_vectors[ID]``: one item per conformance case (records, decisions, views), its id the
  case's;
- ``test_perft[ID]``: one item per case of the perft suite, walked over the protocol;
- ``test_diff``: one differential run of ``--hanamikoji-diff-games`` games (0: none).

A failure shows the text of ``diff``'s report. Not asked for, the plugin adds nothing and
imports nothing but pytest and the standard library: the toolkit's own tests load it too.

The items belong to a module made here, ``hanamikoji-oracle.py`` at the root of the run (no
such file exists), so that the fixtures of the root's conftest.py reach them.
"""

from __future__ import annotations

import shlex
import types
from typing import Any

import pytest

#: The name the items' module goes by (its node id), at the root of the run.
MODULE = "hanamikoji-oracle.py"
#: The games of the diff item, unless told.
DIFF_GAMES = 20


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hanamikoji", "the hanamikoji oracle against your engine")
    group.addoption("--hanamikoji", action="store_true", default=None,
                    help="run the oracle's items against the engine of the fixture "
                         "hanamikoji_engine (a Python engine) or of --hanamikoji-engine")
    group.addoption("--hanamikoji-engine", metavar="COMMAND", default=None,
                    help="the engine's command, split as a shell splits it: it speaks the "
                         "oracle protocol (docs/oracle.md); turns the oracle's items on")
    group.addoption("--hanamikoji-game", metavar="NAME", default=None,
                    help="the game (default: hanamikoji)")
    group.addoption("--hanamikoji-vectors", metavar="DIR", default=None,
                    help="a folder of vectors (as hanamikoji vectors writes; default: the "
                         "game's, computed)")
    group.addoption("--hanamikoji-kinds", metavar="KINDS", default=None,
                    help="the vector files to run, comma-separated: records, decisions, "
                         "views, perft (default: all)")
    group.addoption("--hanamikoji-every", metavar="N", type=int, default=None,
                    help="every N-th case of each file only (default: 1, every case)")
    group.addoption("--hanamikoji-perft-depth", metavar="D", type=int, default=None,
                    help="how deep the perft cases are walked over the protocol (default: 2)")
    group.addoption("--hanamikoji-diff-games", metavar="N", type=int, default=None,
                    help=f"the games of the diff item (default: {DIFF_GAMES}; 0: no diff item)")
    group.addoption("--hanamikoji-timeout", metavar="SECONDS", type=float, default=None,
                    help="how long the engine may take to answer one request (default: 10)")
    parser.addini("hanamikoji", "run the oracle's items (the engine from the fixture "
                  "hanamikoji_engine or hanamikoji_engine the option)", type="bool",
                  default=False)
    for name, what in (("engine", "the engine's command"), ("game", "the game"),
                       ("vectors", "a folder of vectors"), ("kinds", "the vector files to run"),
                       ("every", "every N-th case only"),
                       ("perft_depth", "how deep perft cases are walked"),
                       ("diff_games", "the games of the diff item"),
                       ("timeout", "seconds for one answer")):
        parser.addini(f"hanamikoji_{name}", f"{what} (as --hanamikoji-{name.replace('_', '-')})")


def _setting(config: pytest.Config, name: str) -> Any:
    """An option's value: the command line's, else the ini file's, else None."""
    given = config.getoption(f"hanamikoji_{name}")
    if given is None:
        given = config.getini(f"hanamikoji_{name}") or None
    return given


def asked(config: pytest.Config) -> bool:
    """Whether this run asked for the oracle's items."""
    return bool(config.getoption("hanamikoji") or config.getini("hanamikoji") or
                _setting(config, "engine"))


def _number(config: pytest.Config, name: str, default: Any, kind: type = int) -> Any:
    value = _setting(config, name)
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        raise pytest.UsageError(f"hanamikoji_{name}: not a number: {value!r}") from None


def _cases(config: pytest.Config) -> Any:
    """The vectors of the run, as asked (``Cases``); a usage error of pytest otherwise."""
    from hanamikoji.oracle import Cases, OracleError, vectors

    folder = _setting(config, "vectors")
    kinds = [k.strip() for k in (_setting(config, "kinds") or "").split(",") if k.strip()]
    try:
        cases = Cases.load(folder) if folder else vectors(_setting(config, "game"))
        return cases.select(kinds, every=_number(config, "every", 1))
    except OracleError as error:
        raise pytest.UsageError(f"hanamikoji: {error}") from None


_CASES = pytest.StashKey[Any]()


def pytest_configure(config: pytest.Config) -> None:
    """The vectors read (or computed) once, before collection: an option that names no file
    or folder is then pytest's usage error, one line, exit 4."""
    if asked(config):
        config.stash[_CASES] = _cases(config)


def _module(config: pytest.Config) -> types.ModuleType:
    """The items' module: the test functions, parametrized by the cases."""
    cases = config.stash[_CASES]
    perft_depth = _number(config, "perft_depth", None)
    diff_games = _number(config, "diff_games", DIFF_GAMES)
    module = types.ModuleType("hanamikoji_oracle")
    vectors = [c for c in cases if c.kind != "perft"]
    perft = [c for c in cases if c.kind == "perft"]

    def judge(harness: Any, case: Any) -> None:
        from hanamikoji.oracle.core.conformance import run_case

        outcome = harness.run(lambda engine, game: run_case(
            engine, game, case.kind, case.data, **(
                {} if perft_depth is None else {"perft_depth": perft_depth})))
        if outcome.status == "skip":
            pytest.skip(outcome.message)
        if outcome.status == "fail":
            pytest.fail(outcome.text, pytrace=False)

    if vectors:
        @pytest.mark.parametrize("case", vectors, ids=[c.id for c in vectors])
        def test_vectors(_hanamikoji_harness: Any, case: Any) -> None:
            judge(_hanamikoji_harness, case)
        module.test_vectors = test_vectors  # type: ignore[attr-defined]
    if perft:
        @pytest.mark.parametrize("case", perft, ids=[c.id for c in perft])
        def test_perft(_hanamikoji_harness: Any, case: Any) -> None:
            judge(_hanamikoji_harness, case)
        module.test_perft = test_perft  # type: ignore[attr-defined]
    if diff_games > 0:
        def test_diff(hanamikoji_engine: Any) -> None:
            from hanamikoji.oracle import OracleError, diff

            try:
                report = diff(hanamikoji_engine, games=diff_games, game=cases.game,
                              timeout=_number(config, "timeout", 10.0, float))
            except OracleError as error:
                pytest.fail(str(error), pytrace=False)
            if not report.ok:
                pytest.fail(str(report), pytrace=False)
        module.test_diff = test_diff  # type: ignore[attr-defined]
    return module


class OracleModule(pytest.Module):
    """A module of test functions made in memory (:func:`_module`), not read from a file."""

    def _getobj(self) -> types.ModuleType:
        return _module(self.config)


@pytest.hookimpl(tryfirst=True)  # before -k and -m choose among the items
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if not asked(config):
        return
    module = OracleModule.from_parent(session, path=config.rootpath / MODULE)
    items.extend(session.genitems(module))


class Harness:
    """One engine for every item of the run (a process started once, restarted after a
    crash), stopped when the run ends."""

    def __init__(self, engine: Any, config: pytest.Config) -> None:
        from hanamikoji.oracle.core.api import _game, engine_of

        self.source = engine
        self.engine = engine_of(engine, _number(config, "timeout", 10.0, float))
        self.game = _game(config.stash[_CASES].game)

    def run(self, check: Any) -> Any:
        from hanamikoji.oracle.core.diff import CannotStart

        try:
            return check(self.engine, self.game)
        except CannotStart as error:
            pytest.fail(str(error), pytrace=False)

    def stop(self) -> None:
        self.engine.stop()


@pytest.fixture(scope="session")
def hanamikoji_engine(pytestconfig: pytest.Config) -> Any:
    """The engine the oracle's items check: ``--hanamikoji-engine`` (or the ini option)
    split as a shell splits it. Define a fixture of this name in your conftest.py to give a
    Python engine instead (an object with ``answer_line``, docs/api.md)."""
    command = _setting(pytestconfig, "engine")
    if command is None:
        pytest.fail("no engine: give --hanamikoji-engine COMMAND (or hanamikoji_engine in the "
                    "ini file), or define a fixture hanamikoji_engine", pytrace=False)
    return shlex.split(command)


_HARNESSES = pytest.StashKey[dict]()


@pytest.fixture
def _hanamikoji_harness(hanamikoji_engine: Any, pytestconfig: pytest.Config) -> Harness:
    """The harness of ``hanamikoji_engine``, made once per engine and stopped at the end."""
    harnesses = pytestconfig.stash.setdefault(_HARNESSES, {})
    key = tuple(hanamikoji_engine) if isinstance(hanamikoji_engine, list) else \
        id(hanamikoji_engine)
    if key not in harnesses or harnesses[key].source is not hanamikoji_engine and \
            not isinstance(hanamikoji_engine, list):
        from hanamikoji.oracle import OracleError

        try:
            harness = Harness(hanamikoji_engine, pytestconfig)
        except OracleError as error:
            pytest.fail(str(error), pytrace=False)
        harnesses[key] = harness
        pytestconfig.add_cleanup(harness.stop)
    return harnesses[key]
