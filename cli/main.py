"""The ``hanamikoji`` command.

Every sub-command is declared in :mod:`.parser`, and its implementation is imported only when it
runs, so ``hanamikoji simulate`` never imports z3. ``hanamikoji --version`` alone is answered
before anything else is imported (no argparse, no attrs, no package metadata): the version is
the package's ``__version__``. Exit codes, for every sub-command:

* 0: done, every check passed;
* 1: a check found a problem (an illegal record, an uncovered rule, a failed verification,
  a performance figure that misses its target);
* 2: bad usage or input that cannot be read (unknown option, malformed file);
* 3: an internal error (a bug in this toolkit: please report it);
* 130: interrupted (Ctrl-C); 143 and 129: stopped by SIGTERM and SIGHUP, which are taken as
  Ctrl-C is (the same clean-up);
* 141: standard output was closed (``| head``) before the command finished, no check having
  failed by then (a check that failed keeps its code).

No traceback reaches the user: every failure is one line on stderr.
"""

from __future__ import annotations

import io
import sys

#: typing.TYPE_CHECKING without importing typing, which --version does without.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Callable, NoReturn, Sequence


def toolkit_version() -> str:
    """The version of the toolkit (``hanamikoji.__version__``, which the package metadata
    is built from)."""
    from hanamikoji import __version__

    return __version__


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command's parser, :func:`.parser.build_parser` (``command``: the one sub-command
    built in full; None: every one)."""
    from hanamikoji.cli.parser import build_parser as build

    return build(command)


def _usage_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's to fix (exit 2), besides :class:`UsageError`: an option
    the game does not take, an output that cannot be written."""
    from hanamikoji.engine.core.errors import OptionError
    from hanamikoji.runtime.output import OutputError

    return OptionError, OutputError


def _load(handler: str) -> Callable[[argparse.Namespace], int]:
    import importlib

    module, _, name = handler.partition(":")
    return getattr(importlib.import_module(module), name)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if words == ["--version"]:  # the one answer that needs no parser
        print(f"hanamikoji {toolkit_version()}")
        return 0
    from hanamikoji.runtime import interrupt
    from hanamikoji.runtime.base import (EXIT_INTERNAL, EXIT_OK, EXIT_PIPE, EXIT_USAGE,
                                     OutputClosed, UsageError)
    from hanamikoji.cli.parser import command_of

    args = build_parser(command_of(words)).parse_args(words)
    name = " ".join(filter(None, (args.command, getattr(args, "spec_command", None))))
    interrupt.install()
    if sys.stdout is None:  # started with standard output closed (``>&-``)
        sys.stdout = _ClosedOutput()
    try:
        code = _load(args.handler)(args)
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (runtime/interrupt.py)
        print(f"hanamikoji: {interrupt.said()}", file=sys.stderr)
        code = interrupt.exit_code()
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
            print(f"hanamikoji: {interrupt.said()}", file=sys.stderr)
            code = interrupt.exit_code()
        elif _full(error):
            # standard output on a full disk (files go through runtime/output.py, which says
            # so itself): one line, as for a file that cannot be written
            _drop_output()
            print(f"hanamikoji {name}: error: {_full(error)} writing standard output",
                  file=sys.stderr)
            code = EXIT_USAGE
        elif isinstance(error, (UsageError, *_usage_errors())):
            # a usage error, an unknown game, an option the game does not take, or an output
            # that cannot be written (a full disk, a read-only folder)
            print(f"hanamikoji {name}: error: {error}", file=sys.stderr)
            code = EXIT_USAGE
        else:
            print(f"hanamikoji {name}: internal error: {type(error).__name__}: {error} "
                  "(this is a bug; please report it)", file=sys.stderr)
            code = EXIT_INTERNAL
    finally:
        interrupt.uninstall()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the last lines were not written: a pass nobody read is no pass
        _drop_output()
        code = EXIT_PIPE if code == EXIT_OK else code
    except OSError as error:
        if not _full(error):
            raise
        _drop_output()  # the last lines were not written: no verdict either
        print(f"hanamikoji {name}: error: {_full(error)} writing standard output",
              file=sys.stderr)
        code = EXIT_USAGE
    return code


def _full(error: BaseException) -> str | None:
    """The system's reason, in words, when ``error`` is a write that found no room (a full
    disk, a quota, a file too large) on no named file; else None."""
    import errno

    if not isinstance(error, OSError) or error.filename is not None:
        return None
    words = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
             errno.EFBIG: "file too large"}
    return words.get(error.errno or 0)


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one: writing to it is writing to a
    closed pipe, with the same exit code."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        import errno

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
