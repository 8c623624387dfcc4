"""An adapter for the Ctrl-C tests of campaigns: ``python tests/campaign_adapter.py DIR``
serves the reference adapter until the file ``DIR/hang`` exists; an adapter started after that
writes its process id to ``DIR/<pid>.pid`` and waits for ever, so a campaign started with it
cannot end on its own once the test has made that file."""

from __future__ import annotations

import os
import pathlib
import sys
import threading


def main(folder: str) -> None:
    here = pathlib.Path(folder)
    if (here / "hang").exists():
        # whole or not at all: the test reads it as soon as it is there (written, then named)
        (here / f"{os.getpid()}.tmp").write_text(str(os.getpid()))
        os.replace(here / f"{os.getpid()}.tmp", here / f"{os.getpid()}.pid")
        threading.Event().wait()
    os.execv(sys.executable, [sys.executable, "-m", "hanamikoji.oracle.core.adapter"])


if __name__ == "__main__":
    main(sys.argv[1])
