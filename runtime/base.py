"""What every command shares and nothing else: the exit codes, the usage error, and the
parsers of option values, so that a tool imports these without importing the command line.

Exit codes, for every sub-command:

* 0: done, every check passed;
* 1: a check found a problem (an illegal record, an uncovered rule, a failed verification,
  a performance figure that misses its target);
* 2: bad usage or input that cannot be read (unknown option, malformed file);
* 3: an internal error (a bug in this toolkit: please report it);
* 130: interrupted (Ctrl-C; 143 for SIGTERM, 129 for SIGHUP: 128 + the signal's number).
"""

from __future__ import annotations

import argparse
import os
import re

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: Standard output closed before the command finished (``| head``), no check having failed
#: by then: 128 + SIGPIPE, what a shell reports for a process a closed pipe ended, as 130 is
#: 128 + SIGINT. Never 0: what was not written was not seen, and what was not checked did not pass.
EXIT_PIPE = 141


class OutputClosed(Exception):
    """Standard output was closed under a command that knows its verdict so far: exit ``code``
    (a check that failed before the reader went away stays a failure)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code
EXIT_INTERRUPTED = 130


class OracleError(Exception):
    """What the oracle's tools raise, as a Python caller sees them (:mod:`hanamikoji.oracle`):
    one line that says what was wrong. The command line makes an exit code of each kind."""


class UsageError(OracleError):
    """Bad arguments or unreadable input found after parsing: exit 2 with this one line."""


class EngineError(OracleError):
    """The other engine could not be started, or exited before answering its first request:
    exit 2, as a bad command is (a divergence is a result, not an error)."""


# --- values of options: one wording for every command ------------------------------------
#
# A type below raises ArgumentTypeError with a message that starts "takes" or "must", and
# _Parser.error puts the option's name in front: "--games must be at least 1, not 0",
# "--seed takes an integer, not 'x'", "--timeout must be from 0.1 to 3600 seconds, not 0",
# "--records takes a path, not an empty one".

#: Python converts no integer of more digits than this (sys.get_int_max_str_digits).
MAX_DIGITS = 4300


#: An integer as a person types it: ASCII digits (underscores between them, as Python allows),
#: a sign, blanks around.
_INTEGER = re.compile(r"[ \t]*[+-]?[0-9]+(_[0-9]+)*[ \t]*")


def shown(text: str) -> str:
    """``text`` quoted for a message, cut when long."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def integer(text: str, *, at_least: int | None = None, what: str = "a whole number") -> int:
    """The integer ``text`` writes, at least ``at_least`` if given."""
    if not _INTEGER.fullmatch(text):  # int() would also take "٣" (3) and other scripts' digits
        raise argparse.ArgumentTypeError(f"takes {what}, not {shown(text)}")
    digits = text.strip(" \t").lstrip("+-").replace("_", "")
    if len(digits) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"takes {what} of at most {MAX_DIGITS:,} digits, not one of {len(digits):,} digits")
    value = int(text)
    if at_least is not None and value < at_least:
        raise argparse.ArgumentTypeError(f"must be at least {at_least}, not {value}")
    return value


def seconds(text: str, low: float = 0.1, high: float = 3600) -> float:
    """A number of seconds from ``low`` to ``high``."""
    if len(text) > 40:
        raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g} seconds, not "
                                         f"{shown(text)}")
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number of seconds, not {shown(text)}") from None
    if not low <= value <= high:  # NaN too
        raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g} seconds, not {text}")
    return value


def path(text: str) -> str:
    """A file or folder name: not empty (an empty one would be silently no file)."""
    if not text:
        raise argparse.ArgumentTypeError("takes a path, not an empty one")
    return text


#: The environment variable that names a Dask scheduler for every campaign (``--scheduler``).
SCHEDULER_VARIABLE = "HANAMIKOJI_SCHEDULER"


def scheduler_address(given: str | None) -> str | None:
    """``--scheduler`` if given, else ``HANAMIKOJI_SCHEDULER`` if set and not empty. Here, not in
    :mod:`hanamikoji.campaign`, so that a command can tell whether it runs as a campaign
    without importing the campaign's machinery."""
    return given or os.environ.get(SCHEDULER_VARIABLE) or None


def cannot_read(path: str, error: OSError) -> str:
    """One line saying why ``path`` cannot be read."""
    if isinstance(error, IsADirectoryError):
        return f"cannot read {path}: it is a directory"
    if isinstance(error, FileNotFoundError):
        return f"cannot read {path}: no such file"
    return f"cannot read {path}: {error.strerror or error}"
