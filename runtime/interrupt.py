"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread happens to be when SIGINT arrives. If
that is inside a garbage-collector callback (Hypothesis registers one), the exception is
"unraisable": CPython prints "Exception ignored in ..." and carries on, and a long ``diff`` would
run to its end as if the key had never been pressed. So the command's handler also records the
interrupt, the loops that run for long call :func:`check` to raise it again, and an interrupt
that was swallowed is not printed. And where a library breaks while handling the
KeyboardInterrupt (Hypothesis, interrupted while it sets a test up, fails an assertion of its
own, chained to the interrupt), the command still says "interrupted" (:func:`pressed`).

SIGTERM (a ``kill``, a service manager, a batch system ending a job) and SIGHUP (the terminal
closed) stop a command as Ctrl-C does, through the same KeyboardInterrupt: the same clean-up (no
temporary file left, bots and workers ended), the same "interrupted", and the exit code a shell
gives a process the signal ended, 128 + its number: 130, 143 (SIGTERM), 129 (SIGHUP)
(:func:`exit_code`). A signal ignored when the command started (``nohup``) stays ignored.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

_pending = False
#: The signal that stopped the command (SIGINT until another one does).
_stopped_by = signal.SIGINT


def _on_sigint(signum: int, frame: Any) -> None:
    global _pending, _stopped_by
    if not _pending:
        _stopped_by = signal.Signals(signum)
    _pending = True
    raise KeyboardInterrupt


def _unraisable(hook: Any) -> Any:
    """``hook`` quiet for a swallowed interrupt, and for anything unraisable once Ctrl-C was
    pressed: an object whose making the interrupt cut short can fail in its destructor (z3's
    ``Context`` without its ``owner``), and that is the interrupt's doing, already said."""
    def quiet(unraisable: Any) -> None:
        if not (_pending or isinstance(unraisable.exc_value, KeyboardInterrupt)):
            hook(unraisable)
    quiet._hanamikoji = True  # type: ignore[attr-defined]
    return quiet


#: Whether a command has taken SIGINT (:func:`install`) and not given it back (:func:`uninstall`).
_installed = False


def install() -> None:
    """Take SIGINT for this process (the CLI calls it once, before a command runs)."""
    global _pending, _stopped_by, _installed
    _pending, _stopped_by, _installed = False, signal.SIGINT, True
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
        if not getattr(sys.unraisablehook, "_hanamikoji", False):  # once, for a main() again
            sys.unraisablehook = _unraisable(sys.unraisablehook)
        for signum in _OTHERS:
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _on_sigint)


def uninstall() -> None:
    """Give SIGINT, SIGTERM and SIGHUP back as :func:`install` found them once the command has
    answered. A command run in a process that goes on (``main([...])`` from Python, a test)
    then leaves no Ctrl-C behind for a later call of the library (:mod:`hanamikoji.oracle`),
    whose loops call :func:`check`. What was pressed is still known to :func:`pressed`, and the
    unraisable hook stays quiet about it, so that an object the interrupt cut short says
    nothing when it is collected at exit."""
    global _installed
    _installed = False
    if signal.getsignal(signal.SIGINT) is _on_sigint:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in _OTHERS:
        if signal.getsignal(signum) is _on_sigint:
            signal.signal(signum, signal.SIG_DFL)


#: The signals besides SIGINT that stop a command as Ctrl-C does (those this platform has).
_OTHERS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def exit_code() -> int:
    """The exit code of a command a signal stopped: 128 + the signal's number (130 for
    Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    return 128 + int(_stopped_by)


def said() -> str:
    """What the command says when a signal stopped it: "interrupted", naming the signal when
    it was not Ctrl-C ("interrupted (SIGTERM)")."""
    return "interrupted" if _stopped_by == signal.SIGINT else f"interrupted ({_stopped_by.name})"


def pressed() -> bool:
    """Whether Ctrl-C was pressed since :func:`install`: an exception that follows it (a
    library's cleanup breaking on the KeyboardInterrupt it was handling) is the interrupt's,
    not a bug of its own."""
    return _pending


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed, even if its first raise was swallowed."""
    if _pending and _installed:
        raise KeyboardInterrupt
