"""The progress bar of a long command, and the folder where Hypothesis keeps its caches while
a command runs it: what a tool shows and leaves behind in a person's terminal and folder."""

from __future__ import annotations

import inspect
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


def progress_bar(what: str = "games", counted: tuple[str, ...] = ()) -> Any:
    """A rich progress bar on an interactive stderr (done of total, rate, elapsed time, the time
    left, and a running count of each name in ``counted``, a field of the task), else None."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} {what}/s" if speed else f"- {what}/s")

    counts = [f"{{task.fields[{name}]:,}} {name}" for name in counted]
    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), Rate(), *counts, TimeElapsedColumn(), "left",
                    TimeRemainingColumn(), transient=True, console=Console(stderr=True))


@contextmanager
def no_hypothesis_litter() -> Iterator[None]:
    """Hypothesis keeps caches in ``.hypothesis/`` of the current folder (its constants cache,
    even with no example database): a command must not leave it in the user's folder, so while
    a command runs Hypothesis it points to a temporary folder, removed afterwards."""
    from hypothesis import configuration

    with tempfile.TemporaryDirectory(prefix="hanamikoji-hypothesis-") as home:
        before = _hypothesis_home(configuration)
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)


def _hypothesis_home(configuration: Any) -> Path:
    """Hypothesis's home folder now: ``storage_directory()`` returns a path in older versions
    and an object holding it (``home_directory``) in newer ones."""
    where = configuration.storage_directory(intent_to_write=False) if "intent_to_write" in (
        inspect.signature(configuration.storage_directory).parameters) else (
        configuration.storage_directory())
    return Path(getattr(where, "home_directory", where))
