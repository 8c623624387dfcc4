"""``diff`` as a campaign (:mod:`hanamikoji.campaign`): the games cut into shards, each
compared on a worker against an adapter process of its own.

Shard ``games-F-L`` plays ``L - F + 1`` games drawn from a source seeded by the run's seed and ``F``
(the first shard by the seed itself), and only the first shard checks the engine's seeded chance
outcomes. Its games depend on those, the engine's answers and the options alone, never on what
its worker process ran before (:func:`hanamikoji.oracle.core.diff.seed_only_draws`): the games
compared are the same for any number of workers, on any backend. The shards are merged in order:
the divergence reported is that of the first shard that found one (shrunk there), and its game
is counted from the first game of the run, so the verdict is the same for any number of workers
and any order the shards finish in. The games are a different draw from ``diff`` without
campaign options (one Hypothesis run of ``--games``); ``--workers 1`` (or ``--shard-size``)
gives the sharded draw in this process.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from hanamikoji.oracle.core import diff as D

if TYPE_CHECKING:
    from hanamikoji.campaign import Shard

_TASK = "hanamikoji.oracle.core.diff_campaign:diff_shard"


def shard_seed(seed: int, first: int) -> int:
    """The Hypothesis seed of the shard whose first game is ``first``: the run's own for the
    first shard, else one drawn from both by SHA-256 (independent of the process)."""
    if first == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"{seed}/{first}".encode()).digest()[:8], "big")


def game_shards(argv: Sequence[str], game_name: str, configs: Sequence[Any], seed: int,
                timeout: float, shrink: int, games: int, size: int) -> Iterator[Shard]:
    """The shards of a campaign of ``games`` games, ``size`` each, every one a call of
    :func:`diff_shard`."""
    from hanamikoji.campaign import seed_shards

    return seed_shards(_TASK, games, size, (argv, game_name, configs, seed, timeout, shrink),
                       unit="games")


def diff_shard(argv: Sequence[str], game_name: str, configs: Sequence[Any], seed: int,
               timeout: float, shrink: int, first: int, count: int) -> str:
    """The blob of a ``diff`` shard: its report as one JSON object (see :func:`_report_json`)."""
    from hanamikoji.runtime.progress import no_hypothesis_litter
    from hanamikoji.engine.core.registry import get

    try:
        with no_hypothesis_litter():
            report = D.compare_engines(argv, games=count, seed=shard_seed(seed, first),
                                       variants=configs, timeout=timeout, shrink=shrink,
                                       game=get(game_name), seeded_check=first == 0)
    except D.CannotStart as error:
        return json.dumps({"cannot_start": str(error)}) + "\n"
    return json.dumps(_report_json(report)) + "\n"


def _report_json(report: D.Report) -> dict[str, Any]:
    d = report.divergence
    divergence = None if d is None else {
        "variant": d.variant, "first_player": d.first_player, "decisions": list(d.decisions),
        "request": d.request, "reference": D._printable(d.reference),
        "other": D._printable(d.other), "message": d.message, "game": d.game,
        "options": [list(pair) for pair in d.options], "where": d.where, "texts": list(d.texts)}
    return {"games": report.games, "divergence": divergence,
            "engine_starts": report.engine_starts, "shrunk": report.shrunk,
            "view_keys": None if report.view_keys is None else list(report.view_keys),
            "shrink_games": report.shrink_games, "cut_short": report.cut_short}


def divergence_of(data: dict[str, Any]) -> D.Divergence:
    """The divergence a shard's report holds (:func:`_report_json`), as it was found."""
    return D.Divergence(data["variant"], data["first_player"], tuple(data["decisions"]),
                        data["request"], data["reference"], data["other"], data["message"],
                        data["game"], tuple(tuple(pair) for pair in data["options"]),
                        data["where"], tuple(data["texts"]))


#: The keys of a shard's report (:func:`_report_json`), and the types of the counts.
_COUNTS = ("games", "engine_starts", "shrink_games", "cut_short")
_KEYS = {*_COUNTS, "divergence", "shrunk", "view_keys"}


def shard_problem(shard: Any, blob: str) -> str | None:
    """Why ``blob``, kept for the ``diff`` shard ``shard`` (:func:`diff_shard`'s arguments), is
    not that shard's output, or None: one JSON line, the report of its games (every game of its
    range compared, or a divergence in one of them) or the adapter's failure to start."""
    count = shard.args[-1]
    text, newline, rest = blob.partition("\n")
    data = json.loads(text)
    if not newline or rest or not isinstance(data, dict):
        return "it is not one JSON object on one line"
    if set(data) == {"cannot_start"}:
        return None if isinstance(data["cannot_start"], str) else "it is not a shard's report"
    keys = data.get("view_keys")
    if (set(data) != _KEYS or any(type(data[key]) is not int or data[key] < 0 for key in _COUNTS)
            or type(data["shrunk"]) is not bool or not (keys is None or (
                isinstance(keys, list) and all(isinstance(key, str) for key in keys)))):
        return "it is not a shard's report"
    if data["divergence"] is None and data["games"] != count:
        return f"its report is of {data['games']} games, not {count}"
    if data["divergence"] is not None:
        if not 1 <= data["games"] <= count:
            return f"its divergence is in game {data['games']}, not one of its {count}"
        divergence_of(data["divergence"])  # a KeyError or a TypeError if it is not one
    return None
