"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread happens to be when SIGINT arrives. If
that is inside a garbage-collector callback (Hypothesis registers one), the exception is
"unraisable": CPython prints "Exception ignored in ..." and carries on, and a long ``diff`` would
run to its end as if the key had never been pressed. So the command's handler also records the
interrupt, the loops that run for long call :func:`check` to raise it again, and an interrupt
that was swallowed is not printed. And where a library breaks while handling the
KeyboardInterrupt (Hypothesis, interrupted while it sets a test up, fails an assertion of its
own, chained to the interrupt), the command still says "interrupted" (:func:`pressed`).
"""

from __future__ import annotations

import signal
import sys
from typing import Any

_pending = False


def _on_sigint(signum: int, frame: Any) -> None:
    global _pending
    _pending = True
    raise KeyboardInterrupt


def _unraisable(hook: Any) -> Any:
    """``hook`` quiet for a swallowed interrupt, and for anything unraisable once Ctrl-C was
    pressed: an object whose making the interrupt cut short can fail in its destructor (z3's
    ``Context`` without its ``owner``), and that is the interrupt's doing, already said."""
    def quiet(unraisable: Any) -> None:
        if not (_pending or isinstance(unraisable.exc_value, KeyboardInterrupt)):
            hook(unraisable)
    return quiet


def install() -> None:
    """Take SIGINT for this process (the CLI calls it once, before a command runs)."""
    global _pending
    _pending = False
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
        sys.unraisablehook = _unraisable(sys.unraisablehook)


def pressed() -> bool:
    """Whether Ctrl-C was pressed since :func:`install`: an exception that follows it (a
    library's cleanup breaking on the KeyboardInterrupt it was handling) is the interrupt's,
    not a bug of its own."""
    return _pending


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed, even if its first raise was swallowed."""
    if _pending:
        raise KeyboardInterrupt
