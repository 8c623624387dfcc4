"""The ``hanamikoji`` command's arguments: every sub-command declared, each by a function of its
own (:data:`COMMANDS`), so that :func:`build_parser` builds in full only the sub-command a
command line asks for; the others are named with their help, for ``hanamikoji --help``. A
handler is named as ``MODULE:FUNCTION`` and imported only when it runs (:mod:`.main`).
"""

from __future__ import annotations

import argparse
import re
from typing import Callable, NoReturn, Sequence

from hanamikoji.runtime.base import EXIT_OK, EXIT_USAGE, integer, path, seconds, shown


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
    ``--help`` hint (argparse would pass it up to the top parser, which blames itself).

    ``gathered``: the name of a positional list (``tournament``'s bots) whose words may also
    come after options (``tournament random --deals 1 random``): argparse takes a positional
    list once, where it starts, and leaves the words after an option unrecognized; they are
    added to the list in the order given."""

    gathered: str | None = None
    #: The name under which the words after the first ``--`` are kept whole, as one command
    #: (``check``'s engine), options of their own included; None: ``--`` as argparse reads it.
    after_dashes: str | None = None

    def parse_known_args(self, args=None, namespace=None):
        rest = None
        if self.after_dashes is not None and args is not None and "--" in args:
            words = list(args)
            at = words.index("--")
            args, rest = words[:at], words[at + 1:]
        namespace, extras = super().parse_known_args(args, namespace)
        if self.after_dashes is not None:
            setattr(namespace, self.after_dashes, rest)
        if extras and self.gathered is not None and not any(
                word.startswith("-") for word in extras):
            getattr(namespace, self.gathered).extend(extras)
            extras = []
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


class _Version(argparse.Action):
    """``--version`` given with other arguments (alone, :func:`.main.main` answers it before
    any parser is built)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from hanamikoji import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit(EXIT_OK)


def _nonnegative(text: str) -> int:
    return integer(text, at_least=0)


def _positive(text: str) -> int:
    return integer(text, at_least=1)


def _seed(text: str) -> int:
    return integer(text, what="an integer")


def _rate(text: str) -> float:
    """A false-alarm rate: a number strictly between 0 and 1 (``audit --alpha``)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"takes a number between 0 and 1, not {shown(text)}")
    return value


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


def _notation(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--notation", metavar="NAME",
                        help="read games written in the game's notation NAME, one a line "
                             "(e.g. buaa: docs/buaa.md), instead of records")


def _games(games: argparse.ArgumentParser) -> None:
    games.add_argument("--json", action="store_true", help="print them as one JSON object")
    games.set_defaults(handler="hanamikoji.cli.games:games")


def _play(play: argparse.ArgumentParser) -> None:
    play.add_argument("--seed", type=_seed, required=True, help="random seed")
    _variant(play)
    play.add_argument("--first-player", type=_nonnegative, default=0, metavar="P",
                      help="who begins (default 0)")
    play.add_argument("--record", type=path, metavar="FILE",
                      help="also write the game's record (JSON; - for standard output)")
    play.add_argument("--max-turns", type=_positive, default=None, metavar="N",
                      help="stop once the game has lasted N of its units of length")
    play.set_defaults(handler="hanamikoji.cli.commands:play")


def _simulate(sim: argparse.ArgumentParser) -> None:
    sim.add_argument("--games", type=_positive, default=1000, help="number of games (default 1000)")
    sim.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    _variant(sim)
    sim.add_argument("--records", type=path, metavar="FILE.jsonl",
                     help="write every game as a JSON line (- for standard output)")
    sim.add_argument("--rotate", action="store_true",
                     help="rotate the first player by game: game i begins with player i mod "
                          "players (default: player 0 begins every game)")
    _campaign_options(sim, "games", None, "games per shard (default: the game's own, about a "
                      "tenth of a second of play: docs/campaigns.md)")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--max-turns", type=_positive, default=None, metavar="N",
                     help="stop a game once it has lasted N of the game's units of length "
                          "(see 'hanamikoji games') and report it as unfinished")
    sim.set_defaults(handler="hanamikoji.cli.commands:simulate")


def _bench(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--only", nargs="+", metavar="SECTION",
                       help="sections: simulate rounds validate perft perft-growth queries properties "
                            "integrations startup diff campaigns tournament")
    bench.add_argument("--repeat", type=_positive, default=3, help="runs per figure; best counts")
    bench.add_argument("--large", action="store_true", help="also validate 1,000,000 records")
    bench.add_argument("--campaign-games", type=_positive, default=100_000, metavar="N",
                       help="games of the campaign on a 2-worker local Dask cluster (default "
                            "100000)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--game", default=None, metavar="NAME",
                       help="the game to measure (default: the registry's default)")
    bench.add_argument("--baseline", metavar="PYTHON", default=None,
                       help="also time the startup and diff figures under PYTHON, an "
                            "interpreter with another install (an older release), and show "
                            "each figure old against new")
    bench.set_defaults(handler="hanamikoji.cli.bench:bench")


def _campaign_options(parser: argparse.ArgumentParser, unit: str, size: int | None,
                      size_help: str | None = None, workers: int | None = 1,
                      workers_help: str | None = None) -> None:
    """--workers, --scheduler, --resume, --shard-size: a campaign of shards
    (campaign/__init__.py, docs/campaigns.md)."""
    parser.add_argument("--workers", type=_positive, default=workers,
                        help=workers_help or f"processes of this machine to spread the {unit} "
                                             "over (the same output for any number)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the shards on the Dask cluster of this scheduler "
                             "(tcp://HOST:8786; default: $HANAMIKOJI_SCHEDULER if set; needs "
                             "the [dask] extra)")
    parser.add_argument("--scheduler-timeout", type=_query_seconds, default=10.0, metavar="S",
                        help="seconds to reach the scheduler before giving up, for the check "
                             "of what answers there and for Dask's own connection each "
                             "(default 10)")
    parser.add_argument("--resume", type=path, default=None, metavar="DIR",
                        help="keep each finished shard in DIR, and take the shards already "
                             "there instead of running them again")
    parser.add_argument("--shard-size", type=_positive, default=size, metavar="N",
                        help=size_help or f"{unit} per shard (default {size})")


def _query(query: argparse.ArgumentParser) -> None:
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


def _verify(verify: argparse.ArgumentParser) -> None:
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


def _spec(spec: argparse.ArgumentParser) -> None:
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


def _validate(validate: argparse.ArgumentParser) -> None:
    validate.add_argument("paths", nargs="+", type=path, metavar="PATH",
                          help="a JSON record, a JSON Lines file of records, or - for stdin")
    validate.add_argument("--game", default=None, metavar="NAME",
                          help="judge every record as this game's (default: the game of each "
                               "record's format)")
    validate.add_argument("--json", action="store_true",
                          help="print one JSON verdict per record, in input order")
    _notation(validate)
    _campaign_options(validate, "records", 1000, "lines of input per shard (default 1000)")
    validate.set_defaults(handler="hanamikoji.cli.validate:validate")


def _show(show: argparse.ArgumentParser) -> None:
    show.add_argument("paths", nargs="+", type=path, metavar="FILE",
                      help="records as 'validate' reads them (- for stdin)")
    show.add_argument("--player", type=_nonnegative, default=None, metavar="P",
                      help="show each game as player P saw it: only their view")
    show.add_argument("--game", default=None, metavar="NAME",
                      help="read every record as this game's (default: by its format)")
    show.add_argument("--only", type=_nonnegative, default=None, metavar="N",
                      help="show only record N, or game N of a tournament's games.jsonl (the "
                           "number each heading gives)")
    _notation(show)
    show.set_defaults(handler="hanamikoji.cli.show:show")


def _view(view: argparse.ArgumentParser) -> None:
    view.add_argument("paths", nargs="+", type=path, metavar="FILE",
                      help="records as 'validate' reads them (- for stdin), or one check "
                           "report (report.json)")
    view.add_argument("--out", type=path, metavar="PAGE.html",
                      help="the page to write (default: FILE with .html for its suffix)")
    view.add_argument("--game", default=None, metavar="NAME",
                      help="read every record as this game's (default: by its format)")
    view.add_argument("--only", type=_nonnegative, default=None, metavar="N",
                      help="only record N, or game N of a tournament's games.jsonl")
    view.set_defaults(handler="hanamikoji.cli.view:view")


def _stats(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("paths", nargs="+", type=path, metavar="FILE",
                       help="records as 'validate' reads them (- for stdin)")
    stats.add_argument("--game", default=None, metavar="NAME",
                       help="read every record as this game's (default: by its format)")
    stats.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    _notation(stats)
    stats.add_argument("--html", type=path, metavar="PAGE.html",
                       help="also write the plots (lengths, ends, wins by seat, scores) as a page")
    stats.set_defaults(handler="hanamikoji.cli.show:stats")


def _audit(audit: argparse.ArgumentParser) -> None:
    audit.add_argument("paths", nargs="+", type=path, metavar="FILE",
                       help="records as 'validate' reads them (- for stdin)")
    audit.add_argument("--game", default=None, metavar="NAME",
                       help="read every record as this game's (default: by its format)")
    _notation(audit)
    audit.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    audit.add_argument("--html", type=path, metavar="PAGE.html",
                       help="also write each outcome's observed and expected counts as a page")
    audit.add_argument("--alpha", type=_rate, default=0.01, metavar="A",
                       help="the false-alarm rate of the whole family of tests (default 0.01)")
    audit.set_defaults(handler="hanamikoji.cli.audit:audit")


def _convert(convert: argparse.ArgumentParser) -> None:
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
    convert.set_defaults(handler="hanamikoji.cli.convert:convert")


def _schema(schema: argparse.ArgumentParser) -> None:
    schema.add_argument("--game", default=None, metavar="NAME",
                        help="the game (default: the registry's default; see 'hanamikoji games')")
    which = schema.add_mutually_exclusive_group()
    which.add_argument("--protocol", action="store_true",
                       help="print the JSON Schema of every message of the diff protocol for the "
                            "game instead (requests and answers, both protocol versions)")
    which.add_argument("--bot", action="store_true",
                       help="print the JSON Schema of every message of the bot protocol of "
                            "'tournament' for the game instead (docs/tournament.md)")
    which.add_argument("--check", action="store_true",
                       help="print the JSON Schema of check's report.json instead")
    schema.set_defaults(handler="hanamikoji.cli.validate:schema")


def _vectors(vectors: argparse.ArgumentParser) -> None:
    vectors.add_argument("--out", type=path, required=True, metavar="DIR",
                         help="the folder to write (replaced whole)")
    vectors.add_argument("--game", default=None, metavar="NAME",
                         help="the game (default: the registry's default; see 'hanamikoji games')")
    vectors.add_argument("--tasks", metavar="SET",
                         help="instead of the conformance corpus, the vectors of a task set "
                              "in its own shapes (buaa: docs/buaa.md)")
    vectors.add_argument("--cases", type=_positive, metavar="N",
                         help="with --tasks: N cases of each generated file (more where "
                              "covering every place takes more) instead of the small "
                              "committed set (buaa: T2 and T3, histories spelled as players "
                              "may write them)")
    vectors.add_argument("--seed", type=_seed, metavar="S",
                         help="with --tasks: the seed of the games the cases come from "
                              "(default: the committed set's)")
    vectors.set_defaults(handler="hanamikoji.cli.vectors:vectors")


def _perft(perft: argparse.ArgumentParser) -> None:
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
    perft.set_defaults(handler="hanamikoji.cli.perft:perft")


def _diff(diff: argparse.ArgumentParser) -> None:
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
                           "position (position.json, which view and perft --history read) and "
                           "a page with both answers (divergence.html)")
    diff.add_argument("engine", nargs=argparse.REMAINDER, metavar="-- COMMAND...",
                      help="the command that runs the other engine's adapter")
    _campaign_options(diff, "games", None,
                      "games per shard (default: the game's own, 25 unless its diff hooks "
                      "say another; given alone, the sharded games in this process)",
                      workers=None,
                      workers_help="compare the games in shards on N processes of this "
                                   "machine: the same games and verdict for any N, 1 too "
                                   "(without it, one run of --games in this process)")
    diff.set_defaults(handler="hanamikoji.cli.diff:diff")


def _tournament(tournament: argparse.ArgumentParser) -> None:
    tournament.add_argument("bots", nargs="+", metavar="BOT",
                            help="a built-in bot (random; for hanamikoji also heuristic), run "
                                 "in this process, or a command speaking the bot protocol "
                                 "(quoted: 'node bot.mjs'); NAME=BOT names it in the "
                                 "standings; bots may come before and after the options")
    if isinstance(tournament, _CommandParser):
        tournament.gathered = "bots"
    tournament.add_argument("--deals", type=_positive, default=10,
                            help="deals each group of bots plays, from every seating (default 10)")
    tournament.add_argument("--seed", type=_seed, default=0,
                            help="the seed of the whole schedule (default 0)")
    _variant(tournament)
    tournament.add_argument("--decision-time", type=_query_seconds, default=2.0, metavar="S",
                            help="seconds a bot has for each decision (default 2)")
    tournament.add_argument("--game-time", type=_query_seconds, default=60.0, metavar="S",
                            help="seconds a bot has for all its decisions of a game (default 60)")
    tournament.add_argument("--start-time", type=_query_seconds, default=10.0, metavar="S",
                            help="seconds a bot process has to start and answer new_game "
                                 "(default 10)")
    tournament.add_argument("--out", type=path, metavar="DIR",
                            help="write every game: records.jsonl (each finished game's "
                                 "record) and games.jsonl (each game's seats, result and any "
                                 "forfeit); the folder is replaced whole")
    tournament.add_argument("--json", action="store_true",
                            help="print the standings as one JSON object")
    tournament.add_argument("--only", type=_nonnegative, default=None, metavar="N",
                            help="play game N of the schedule alone, in this process: the same "
                                 "deal, bot seeds and limits, so the same games.jsonl line "
                                 "(to reproduce a forfeit)")
    tournament.add_argument("--trace", action="store_true",
                            help="with --only: print every request and answer of the game on "
                                 "standard error as they pass")
    # 50 games: some 0.2 s of two built-in bots, some 20 s of two command bots (a process
    # started for each seat of each game)
    _campaign_options(tournament, "games", 50)
    tournament.set_defaults(handler="hanamikoji.cli.tournament:tournament")


def _check(check: argparse.ArgumentParser) -> None:
    check.add_argument("targets", nargs="*", metavar="TARGET",
                       help="[NAME=]PATH of a course module (.js, .mjs, .cjs): its tasks found "
                            "from its exports, its bot played through the shim")
    check.add_argument("--engine", action="append", default=[], metavar="[NAME=]COMMAND",
                       help="an engine behind its adapter command (quoted: 'node adapter.mjs'): "
                            "the vectors, perft, diff's games, the leak check (repeatable)")
    check.add_argument("--bot", action="append", default=[], metavar="[NAME=]COMMAND",
                       help="a bot's command: --calls decisions in one process, then a "
                            "tournament against the built-in bots (repeatable)")
    check.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    _variant(check)
    check.add_argument("--games", type=_positive, default=None, metavar="N",
                       help="an engine's games against the reference, and pairs of the leak "
                            "check (default 100)")
    check.add_argument("--calls", type=_positive, default=None, metavar="N",
                       help="decisions asked of one long-lived bot process (default 2000)")
    check.add_argument("--times", action="store_true",
                       help="also print each check's time per call (median, 90th and 99th "
                            "percentile, longest, against the limit: always in report.json)")
    check.add_argument("--cases", type=_nonnegative, default=0, metavar="N",
                       help="a course module's T2 and T3 cases generated from --seed beyond the "
                            "committed vectors (default 0)")
    check.add_argument("--deals", type=_positive, default=None, metavar="N",
                       help="deals of a bot's short tournament, from every seating (default 5)")
    check.add_argument("--limit", type=_positive, default=None, metavar="MS",
                       help="milliseconds a call may take (default: 10000 for an engine's "
                            "answer, 2000 for a bot's decision)")
    check.add_argument("--out", type=path, metavar="DIR",
                       help="also write DIR/report.json and DIR/report.html")
    check.add_argument("--json", action="store_true",
                       help="print report.json's document instead of the summary")
    if isinstance(check, _CommandParser):
        check.after_dashes = "engine_command"
    else:
        check.set_defaults(engine_command=None)
    check.set_defaults(handler="hanamikoji.cli.check:check")


def _two_or_more(text: str) -> int:
    return integer(text, at_least=2)


def _size(size: argparse.ArgumentParser) -> None:
    _variant(size)
    size.add_argument("--samples", type=_two_or_more, default=2000, metavar="N",
                      help="random paths of the sampling estimate, 2 or more for an interval, "
                           "20 or more for a jackknife's (default 2000)")
    size.add_argument("--seed", type=_seed, default=0, help="its random seed (default 0)")
    size.add_argument("--compute", action="store_true",
                      help="recompute the figures of record instead of reading the committed "
                           "ones (under half an hour on 2 cores; docs/game-size.md)")
    size.add_argument("--workers", type=_positive, default=1, metavar="N",
                      help="processes for --compute (default 1)")
    size.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    size.set_defaults(handler="hanamikoji.cli.size:run")


#: Every sub-command, in the order ``hanamikoji --help`` lists them: its one-line help and the
#: function that declares its arguments.
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "games": ("list the registered games, their options and record formats", _games),
    "play": ("print one game of uniform random players", _play),
    "simulate": ("play many uniform random games and summarise", _simulate),
    "bench": ("measure the performance figures against their targets (exit 1 if one is "
              "missed)", _bench),
    "validate": ("judge game records: valid, illegal (which rule) or malformed (where)",
                 _validate),
    "show": ("print game records for a person, turn by turn, as 'play' prints a game", _show),
    "view": ("write game records as one HTML page that replays them, step by step "
             "(docs/viewer.md)", _view),
    "stats": ("summarise game records: results, winners by seat, starters, lengths", _stats),
    "audit": ("test the chance outcomes of game records against a fair shuffle "
              "(docs/audit.md)", _audit),
    "convert": ("write records as another notation, or a notation's games as records",
                _convert),
    "schema": ("print the JSON Schema of a game's record format, or of its diff protocol",
               _schema),
    "vectors": ("write a game's conformance vectors (JSON files)", _vectors),
    "perft": ("count the decision sequences from a position, at each depth", _perft),
    "size": ("how big the game is: exact counts and sampling estimates (docs/game-size.md)",
             _size),
    "tournament": ("play bots against each other: a double round-robin judged by the "
                   "referee (docs/tournament.md)", _tournament),
    "diff": ("compare another engine with the reference, step by step (-- COMMAND...)", _diff),
    "check": ("one report card per implementation: a course module, an engine (-- COMMAND...) "
              "or a bot, every check it fits, each failure with a reproduction", _check),
    "spec": ("questions about the games' rules texts (spec/)", _spec),
    "query": ("answer one question about the rules with the z3 model", _query),
    "verify": ("answer every query and sample the property suite: the main job", _verify),
}


def command_of(argv: Sequence[str]) -> str | None:
    """The sub-command a command line asks for: its first word that is not an option (the top
    level has options of no value only), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command's parser. ``command`` (None: every one) is the sub-command built in full;
    the others are declared by name and help only, which is all ``hanamikoji --help`` shows
    of them and all argparse needs to refuse a name that is none of them."""
    parser = _Parser(prog="hanamikoji",
                     description="Reference rules toolkit for the games of its registry "
                                 "(see 'hanamikoji games').")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=_CommandParser)
    commands.required = True
    for name, (text, declare) in COMMANDS.items():
        sub = commands.add_parser(name, help=text)
        if command is None or command == name:
            declare(sub)
    return parser
