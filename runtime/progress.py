"""The progress bar of a long command, and the folder where Hypothesis keeps its caches while
a command runs it: what a tool shows and leaves behind in a person's terminal and folder."""

from __future__ import annotations

import inspect
import sys
import tempfile
import threading
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
    a command runs Hypothesis it points to a temporary folder, removed afterwards.

    Hypothesis is not imported for this (about 0.2 s): ``diff`` of engines that agree never
    needs it, only the shrinking of a divergence does. If it is not imported yet, its home is
    pointed to the folder the moment it is (:class:`_HomeOnImport`), so the guard holds around
    whatever runs Hypothesis inside it, wherever that imports it."""
    with tempfile.TemporaryDirectory(prefix="hanamikoji-hypothesis-") as home:
        with _pending_lock:
            imported = "hypothesis.configuration" in sys.modules
            if not imported:
                guard = _Pending(home)
                if not _pending:
                    sys.meta_path.insert(0, _FINDER)
                _pending.append(guard)
        if imported:
            from hypothesis import configuration  # waits for an import under way elsewhere

            before = _hypothesis_home(configuration)
            configuration.set_hypothesis_home_dir(home)
            try:
                yield
            finally:
                configuration.set_hypothesis_home_dir(before)
            return
        try:
            yield
        finally:
            with _pending_lock:
                _pending.remove(guard)
                if not _pending and _FINDER in sys.meta_path:
                    sys.meta_path.remove(_FINDER)
                if guard.set:
                    sys.modules["hypothesis.configuration"].set_hypothesis_home_dir(
                        guard.before)


class _Pending:
    """A guard that began before Hypothesis was imported: its folder, and once Hypothesis is
    imported (``set``) the home to give back when it ends (``before``: the folder of the guard
    around it, or None, Hypothesis's own choice)."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.before: str | None = None
        self.set = False


#: The guards that began before Hypothesis was imported and still hold, the innermost last.
_pending: list[_Pending] = []
_pending_lock = threading.Lock()


def _homes_set(configuration: Any) -> None:
    """Hypothesis's configuration has just been imported: its home is the innermost pending
    guard's folder, and each guard gives back the one around it when it ends."""
    with _pending_lock:
        outer = None
        for guard in _pending:
            guard.before, guard.set = outer, True
            outer = guard.home
        if outer is not None:
            configuration.set_hypothesis_home_dir(outer)


class _HomeOnImport:
    """First on ``sys.meta_path`` while a guard of :func:`no_hypothesis_litter` waits for
    Hypothesis: it finds ``hypothesis.configuration`` as the other finders do, and has the
    module's home set as soon as it has run, before anything of Hypothesis can write."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "hypothesis.configuration":
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:  # the first that finds it, as the import system takes it
                if spec.loader is not None:
                    spec.loader = _ThenHomes(spec.loader)
                return spec
        return None


class _ThenHomes:
    """A module's own loader, then :func:`_homes_set` once the module has run."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        module.__spec__.loader = module.__loader__ = self.loader  # the module's own again
        self.loader.exec_module(module)
        _homes_set(module)


_FINDER = _HomeOnImport()


def _hypothesis_home(configuration: Any) -> Path:
    """Hypothesis's home folder now: ``storage_directory()`` returns a path in older versions
    and an object holding it (``home_directory``) in newer ones."""
    where = configuration.storage_directory(intent_to_write=False) if "intent_to_write" in (
        inspect.signature(configuration.storage_directory).parameters) else (
        configuration.storage_directory())
    return Path(getattr(where, "home_directory", where))
