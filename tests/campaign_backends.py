"""A campaign backend for tests: its shards finish in a shuffled order."""

from __future__ import annotations

import random

from hanamikoji import campaign as C


class Shuffled:
    """A backend whose shards finish in a random order: each wait for one shard runs the shards
    handed out so far in a shuffled order, so later shards often finish before earlier ones."""

    workers = 3

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.waiting: list = []
        self.order: list[str] = []

    def submit(self, shard):
        backend = self

        class Pending:
            blob = None

            def done(self):
                return self.blob is not None

            def result(self):
                while self.blob is None:
                    backend.rng.shuffle(backend.waiting)
                    item, shard_of = backend.waiting.pop()
                    item.blob = C.run_shard(shard_of)
                    backend.order.append(shard_of.name)
                return self.blob

        pending = Pending()
        self.waiting.append((pending, shard))
        return pending

    def close(self, interrupted=False):
        pass


def dies_once(marker: str, blob: str) -> str:
    """A shard task whose first run ends its worker process at once, as the kernel's
    out-of-memory killer would (``marker``: a file that says it has run)."""
    import os
    import signal

    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return blob
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable: the process is gone")


class LastFirst(Shuffled):
    """A backend whose shards finish last first: each wait runs the shards handed out so far
    from the last one back."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.rng.shuffle = lambda items: None  # the pops then take the last handed out


def echo(blob: str) -> str:
    """A shard task whose blob is its argument."""
    return blob
