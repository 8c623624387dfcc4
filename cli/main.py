"""The ``hanamikoji`` command.

Every sub-command is declared here (cheap), and its implementation is imported only when it runs,
so ``hanamikoji simulate`` never imports z3. Exit codes, for every sub-command:

* 0: done, every check passed;
* 1: a check found a problem (an illegal record, an uncovered rule, a failed verification,
  a performance figure that misses its target);
* 2: bad usage or input that cannot be read (unknown option, malformed file);
* 3: an internal error (a bug in this toolkit: please report it);
* 130: interrupted;
* 141: standard output was closed (``| head``) before the command finished, no check having
  failed by then (a check that failed keeps its code).

No traceback reaches the user: every failure is one line on stderr.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import re
import sys
from typing import Callable, NoReturn, Sequence

from hanamikoji.cli import interrupt
from hanamikoji.cli.base import (EXIT_INTERNAL, EXIT_OK, EXIT_PIPE, EXIT_USAGE, OutputClosed,
                                 UsageError, integer, path, seconds, shown)

class _Parser(argparse.ArgumentParser):
    """One line per error, naming the option at fault first (``--games must be at least 1, not
    0``), with the parser's own ``--help`` hint."""

    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
        # argparse writes "argument --games: <what our type said>"; our types say it whole.
        found = re.match(r"argument (\S+?)(?:/\S+)?: (takes |must )", message)
        if found:
            message = f"{found.group(1)} {message[found.end(1):].split(': ', 1)[1]}"
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class _CommandParser(_Parser):
    """A sub-command's parser: an argument it does not know is its error, with its own
    ``--help`` hint (argparse would pass it up to the top parser, which blames itself)."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {toolkit_version()}")
        parser.exit(EXIT_OK)


def toolkit_version() -> str:
    """The version of the installed toolkit (its package metadata), ``unknown`` when it is not
    installed."""
    from importlib import metadata

    try:
        return metadata.version(__name__.split(".")[0])
    except metadata.PackageNotFoundError:
        return "unknown"


def _nonnegative(text: str) -> int:
    return integer(text, at_least=0)


def _positive(text: str) -> int:
    return integer(text, at_least=1)


def _seed(text: str) -> int:
    return integer(text, what="an integer")


def _query_seconds(text: str) -> float:
    return seconds(text)


def _any_seconds(text: str) -> float:
    """A number of seconds, its bounds checked by the command (``diff --timeout``)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number of seconds, not {shown(text)}") from None


def _variant(parser: argparse.ArgumentParser) -> None:
    """The game and its options: --game, --players, --variant, --option (:mod:`.options`)."""
    from hanamikoji.cli.options import add_game_arguments

    add_game_arguments(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hanamikoji",
                     description="Reference rules toolkit for the games of its registry "
                                 "(see 'hanamikoji games').")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=_CommandParser)
    commands.required = True

    games = commands.add_parser("games", help="list the registered games, their options and "
                                              "record formats")
    games.add_argument("--json", action="store_true", help="print them as one JSON object")
    games.set_defaults(handler="hanamikoji.cli.options:games_command")

    play = commands.add_parser("play", help="print one game of uniform random players")
    play.add_argument("--seed", type=_seed, required=True, help="random seed")
    _variant(play)
    play.add_argument("--first-player", type=_nonnegative, default=0, metavar="P",
                      help="who begins (default 0)")
    play.add_argument("--record", type=path, metavar="FILE",
                      help="also write the game's record (JSON; - for standard output)")
    play.add_argument("--max-turns", type=_positive, default=None, metavar="N",
                      help="stop once the game has lasted N of its units of length")
    play.set_defaults(handler="hanamikoji.cli.commands:play")

    sim = commands.add_parser("simulate", help="play many uniform random games and summarise")
    sim.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    _variant(sim)
    sim.add_argument("--records", type=path, metavar="FILE.jsonl",
                     help="write every game as a JSON line (- for standard output)")
    sim.add_argument("--rotate", action="store_true",
                     help="rotate the first player by game: game i begins with player i mod "
                          "players (default: player 0 begins every game)")
    sim.add_argument("--workers", type=_positive, default=1,
                     help="processes to spread the games over (same games for any number)")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--max-turns", type=_positive, default=None, metavar="N",
                     help="stop a game once it has lasted N of the game's units of length "
                          "(see 'hanamikoji games') and report it as unfinished")
    sim.set_defaults(handler="hanamikoji.cli.commands:simulate")

    bench = commands.add_parser("bench", help="measure the performance figures against their "
                                              "targets (exit 1 if one is missed)")
    bench.add_argument("--only", nargs="+", metavar="SECTION",
                       help="sections: simulate rounds validate perft perft-growth queries properties "
                            "integrations")
    bench.add_argument("--repeat", type=_positive, default=3, help="runs per figure; best counts")
    bench.add_argument("--large", action="store_true", help="also validate 1,000,000 records")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--game", default=None, metavar="NAME",
                       help="the game to measure (default: the registry's default)")
    bench.set_defaults(handler="hanamikoji.cli.bench:bench")

    _oracle_commands(commands)
    _spec_commands(commands)
    _model_commands(commands)
    return parser


def _model_commands(commands: argparse._SubParsersAction) -> None:
    """query, verify: the z3 model's query catalogue (spec/queries.py, docs/queries.md)."""
    query = commands.add_parser("query",
                                help="answer one question about the rules with the z3 model")
    query.add_argument("name", nargs="?", metavar="NAME", help="the query (see --list)")
    query.add_argument("--list", action="store_true", help="list the queries and their questions")
    query.add_argument("--game", default=None, metavar="NAME",
                       help="the game whose catalogue to ask (default: the registry's default)")
    query.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    query.add_argument("--where", metavar="EXPR",
                       help="ask your own question: can a game end so that EXPR holds? "
                            "(docs/queries.md has the language)")
    query.add_argument("--variant", default=None, metavar="V",
                       help="with --where: the game's variant, for a game that has variants")
    query.add_argument("--players", type=_positive, default=None, metavar="N",
                       help="with --where: the number of players, for a game played by "
                            "several counts (default: each count in turn)")
    query.add_argument("--timeout", type=_query_seconds, default=None, metavar="S",
                       help="with --where: an outer bound, in seconds, on the wall-clock time "
                            "z3 may take (default: none; every check has a deterministic "
                            "resource budget, so the answer does not depend on the machine's "
                            "load)")
    query.set_defaults(handler="hanamikoji.cli.model:query")

    verify = commands.add_parser(
        "verify", help="answer every query and sample the property suite: the main job")
    verify.add_argument("--out", type=path, metavar="DIR",
                        help="also write DIR/report.md, DIR/report.json and DIR/witnesses/ "
                             "(the folder is replaced whole)")
    verify.add_argument("--json", action="store_true", help="print the report as one JSON object")
    verify.add_argument("--max-examples", type=_positive, default=10,
                        help="Hypothesis examples per sampled property (default 10)")
    verify.add_argument("--seed", type=_seed, default=0, help="property sample seed (default 0)")
    verify.add_argument("--game", default=None, metavar="NAME",
                        help="only this game (default: every registered game)")
    verify.set_defaults(handler="hanamikoji.cli.model:verify")


def _spec_commands(commands: argparse._SubParsersAction) -> None:
    """spec coverage: rule traceability (spec/coverage.py)."""
    spec = commands.add_parser("spec", help="questions about the games' rules texts (spec/)")
    spec_commands = spec.add_subparsers(dest="spec_command", metavar="SPEC_COMMAND",
                                        parser_class=_CommandParser)
    spec_commands.required = True
    coverage = spec_commands.add_parser(
        "coverage", help="list every rule ID with the tests and properties that cite it")
    coverage.add_argument("--json", action="store_true",
                          help='print {"rules": [...], "uncovered": [...], "unknown": [...]}')
    coverage.add_argument("--game", default=None, metavar="NAME",
                          help="only this game's spec (default: every registered game's)")
    coverage.add_argument("--root", type=path, metavar="DIR",
                          help="the checkout to read (default: found from the current folder)")
    coverage.set_defaults(handler="hanamikoji.cli.model:coverage")


def _notation(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--notation", metavar="NAME",
                        help="read games written in the game's notation NAME, one a line "
                             "(e.g. buaa: docs/buaa.md), instead of records")


def _oracle_commands(commands: argparse._SubParsersAction) -> None:
    """validate, schema, vectors, perft, diff: the oracle for other implementations
    (docs/oracle.md)."""
    validate = commands.add_parser(
        "validate", help="judge game records: valid, illegal (which rule) or malformed (where)")
    validate.add_argument("paths", nargs="+", type=path, metavar="PATH",
                          help="a JSON record, a JSON Lines file of records, or - for stdin")
    validate.add_argument("--game", default=None, metavar="NAME",
                          help="judge every record as this game's (default: the game of each "
                               "record's format)")
    validate.add_argument("--json", action="store_true",
                          help="print one JSON verdict per record, in input order")
    _notation(validate)
    validate.set_defaults(handler="hanamikoji.oracle.core.validate:run")

    show = commands.add_parser(
        "show", help="print game records for a person, turn by turn, as 'play' prints a game")
    show.add_argument("paths", nargs="+", type=path, metavar="FILE",
                      help="records as 'validate' reads them (- for stdin)")
    show.add_argument("--player", type=_nonnegative, default=None, metavar="P",
                      help="show each game as player P saw it: only their view")
    show.add_argument("--game", default=None, metavar="NAME",
                      help="read every record as this game's (default: by its format)")
    _notation(show)
    show.set_defaults(handler="hanamikoji.cli.show:show")

    view = commands.add_parser(
        "view", help="write game records as one HTML page that replays them, step by step "
                     "(docs/viewer.md)")
    view.add_argument("paths", nargs="+", type=path, metavar="FILE",
                      help="records as 'validate' reads them (- for stdin)")
    view.add_argument("--out", type=path, metavar="PAGE.html",
                      help="the page to write (default: FILE with .html for its suffix)")
    view.add_argument("--game", default=None, metavar="NAME",
                      help="read every record as this game's (default: by its format)")
    view.set_defaults(handler="hanamikoji.cli.view:view")

    stats = commands.add_parser(
        "stats", help="summarise game records: results, winners by seat, starters, lengths")
    stats.add_argument("paths", nargs="+", type=path, metavar="FILE",
                       help="records as 'validate' reads them (- for stdin)")
    stats.add_argument("--game", default=None, metavar="NAME",
                       help="read every record as this game's (default: by its format)")
    stats.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _notation(stats)
    stats.add_argument("--html", type=path, metavar="PAGE.html",
                       help="also write the plots (lengths, ends, wins by seat, scores) as a page")
    stats.set_defaults(handler="hanamikoji.cli.show:stats")

    convert = commands.add_parser(
        "convert", help="write records as another notation, or a notation's games as records")
    convert.add_argument("paths", nargs="+", type=path, metavar="FILE",
                         help="records as 'validate' reads them, or with --from lines of "
                              "notation (- for stdin)")
    direction = convert.add_mutually_exclusive_group(required=True)
    direction.add_argument("--to", metavar="NOTATION",
                           help="write each record as one line of NOTATION (e.g. buaa)")
    direction.add_argument("--from", dest="source", metavar="NOTATION",
                           help="read lines of NOTATION and write each game as a JSON record")
    convert.add_argument("--game", default=None, metavar="NAME",
                         help="the game (default: by each record's format; with --from the "
                              "registry's default)")
    convert.add_argument("--out", type=path, metavar="FILE",
                         help="write into FILE (all at once) instead of standard output")
    convert.set_defaults(handler="hanamikoji.oracle.core.convert:run")

    schema = commands.add_parser("schema", help="print the JSON Schema of a game's record "
                                 "format, or of its diff protocol")
    schema.add_argument("--game", default=None, metavar="NAME",
                        help="the game (default: the registry's default; see 'hanamikoji games')")
    schema.add_argument("--protocol", action="store_true",
                        help="print the JSON Schema of every message of the diff protocol for the "
                             "game instead (requests and answers, both protocol versions)")
    schema.set_defaults(handler="hanamikoji.oracle.core.validate:print_schema")

    vectors = commands.add_parser("vectors", help="write a game's conformance vectors (JSON files)")
    vectors.add_argument("--out", type=path, required=True, metavar="DIR",
                         help="the folder to write (replaced whole)")
    vectors.add_argument("--game", default=None, metavar="NAME",
                         help="the game (default: the registry's default; see 'hanamikoji games')")
    vectors.add_argument("--tasks", metavar="SET",
                         help="instead of the conformance corpus, the vectors of a task set "
                              "in its own shapes (buaa: docs/buaa.md)")
    vectors.set_defaults(handler="hanamikoji.oracle.core.vectors:run")

    perft = commands.add_parser(
        "perft", help="count the decision sequences from a position, at each depth")
    start = perft.add_mutually_exclusive_group(required=True)
    start.add_argument("--seed", type=_seed,
                       help="the first chance outcome of game 0 of this seed (as 'play --seed' "
                            "draws it)")
    start.add_argument("--deal", type=path, metavar="FILE",
                       help="the game's own start file, for a game that has one (docs/oracle.md)")
    start.add_argument("--history", type=path, metavar="FILE",
                       help='a position {"game", "options", "first_player", "history"}')
    start.add_argument("--record", type=path, metavar="FILE",
                       help="the first game record of FILE, replayed up to --at")
    start.add_argument("--suite", type=path, metavar="FILE",
                       help="run a file of perft cases (the vectors' perft.json format): "
                            "pass or fail per case")
    perft.add_argument("--at", metavar="WHERE",
                       help="with --record: where in the record, in the game's own terms "
                            "(its record places, e.g. ROUND:TURN or TURN:STEP), from 0")
    perft.add_argument("--first-player", type=_nonnegative, metavar="P",
                       help="who begins (with --seed; default 0)")
    perft.add_argument("--depth", type=_positive,
                       help="how deep to count, from 1 (a game may set a limit); required "
                            "but with --suite")
    perft.add_argument("--divide", action="store_true",
                       help="split the count at --depth by the first decision")
    _variant(perft)
    perft.add_argument("--json", action="store_true", help='print {"depths": {"1": n, ...}}')
    perft.set_defaults(handler="hanamikoji.oracle.core.perft:run")

    diff = commands.add_parser(
        "diff", help="compare another engine with the reference, step by step (-- COMMAND...)")
    diff.add_argument("--games", "--max-examples", dest="games", type=_positive, default=100,
                      help="games to try (Hypothesis examples; default 100)")
    diff.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    from hanamikoji.cli.options import add_game_arguments

    # An option not fixed here is drawn per game among its choices (docs/oracle.md).
    add_game_arguments(diff, variant_help="the variant of every game, for a game that has "
                                          "variants (default, or 'both': drawn per game)")
    for action in diff._actions:
        if action.dest == "players":
            action.help = "number of players of every game (default: drawn per game)"
    diff.add_argument("--timeout", type=_any_seconds, default=10.0,
                      help="seconds to wait for each answer (default 10)")
    diff.add_argument("--shrink", type=_nonnegative, default=200, metavar="GAMES",
                      help="games to spend shortening a divergence (default 200; 0: report "
                           "it as first found)")
    diff.add_argument("--json", action="store_true", help="print the report as one JSON object")
    diff.add_argument("--leaks", action="store_true",
                      help="the black-box leak check: --games pairs of games that differ only "
                           "in what one player cannot see; its observe answers must be equal")
    diff.add_argument("--save", type=path, metavar="DIR",
                      help="write a divergence to DIR: divergence.json, the game so far as a "
                           "record (game.json) and a page with both answers (divergence.html)")
    diff.add_argument("engine", nargs=argparse.REMAINDER, metavar="-- COMMAND...",
                      help="the command that runs the other engine's adapter")
    diff.set_defaults(handler="hanamikoji.oracle.core.diff:run")


def _usage_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's to fix (exit 2), besides :class:`UsageError`: an option
    the game does not take, an output that cannot be written."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.cli.output import OutputError

    return OptionError, OutputError


def _load(handler: str) -> Callable[[argparse.Namespace], int]:
    module, _, name = handler.partition(":")
    return getattr(importlib.import_module(module), name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    name = " ".join(filter(None, (args.command, getattr(args, "spec_command", None))))
    interrupt.install()
    if sys.stdout is None:  # started with standard output closed (``>&-``)
        sys.stdout = _ClosedOutput()
    try:
        code = _load(args.handler)(args)
    except KeyboardInterrupt:
        print("hanamikoji: interrupted", file=sys.stderr)
        code = 130
    except OutputClosed as closed:
        _drop_output()
        code = closed.code if closed.code != EXIT_OK else EXIT_PIPE
    except BrokenPipeError:
        # The reader went away (``| head``) before the command finished: no verdict.
        _drop_output()
        code = EXIT_PIPE
    except Exception as error:  # the promise: never a traceback
        if interrupt.pressed():
            # Raised after a Ctrl-C (a library that broke while handling the interrupt): the
            # answer is the interrupt's, never an error or a bug of its own.
            print("hanamikoji: interrupted", file=sys.stderr)
            code = 130
        elif isinstance(error, (UsageError, *_usage_errors())):
            # a usage error, an unknown game, an option the game does not take, or an output
            # that cannot be written (a full disk, a read-only folder)
            print(f"hanamikoji {name}: error: {error}", file=sys.stderr)
            code = EXIT_USAGE
        else:
            print(f"hanamikoji {name}: internal error: {type(error).__name__}: {error} "
                  "(this is a bug; please report it)", file=sys.stderr)
            code = EXIT_INTERNAL
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the last lines were not written: a pass nobody read is no pass
        _drop_output()
        code = EXIT_PIPE if code == EXIT_OK else code
    return code


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one: writing to it is writing to a
    closed pipe, with the same exit code."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "standard output is closed")


def _drop_output() -> None:
    """Point standard output at the null device, so that what is still buffered is dropped
    quietly at exit instead of raising BrokenPipeError again."""
    import os

    if isinstance(sys.stdout, _ClosedOutput):
        return
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def run() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover - use ``python -m hanamikoji.engine``
    from hanamikoji.cli.main import run as _run  # the one module, so error classes match

    _run()
