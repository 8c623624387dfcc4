"""The command line's handler of ``validate``: the files judged in this process
(:func:`.validate.run`) unless ``--workers N`` (N > 1), ``--resume`` or a Dask scheduler
(``--scheduler``, or ``HANAMIKOJI_SCHEDULER``) asks for a campaign
(:func:`.validate_campaign.run`). The campaign's module and its machinery are imported only
then: validating one record, as a bot arena does after each game, starts without them. (A
module of its own, so that neither of the two imports the other.)"""

from __future__ import annotations

import argparse

from hanamikoji.runtime.base import scheduler_address
from hanamikoji.oracle.core import validate


def command(args: argparse.Namespace) -> int:
    if (getattr(args, "workers", 1) > 1 or getattr(args, "resume", None) is not None
            or scheduler_address(getattr(args, "scheduler", None))):
        from hanamikoji.oracle.core import validate_campaign

        return validate_campaign.run(args)
    return validate.run(args)
