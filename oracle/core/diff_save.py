"""``diff --save DIR``: a divergence kept as files, for a person to open and to replay."""

from __future__ import annotations

import pathlib
import sys
from typing import Any

from hanamikoji.runtime.output import Folder, write_text


def save_divergence(folder: str, divergence: Any, game: Any, argv: list[str]) -> None:
    """``diff --save DIR``: DIR/divergence.json (as ``--json`` prints it), DIR/position.json
    (the game so far as a position: options, first player, every decision, as ``perft
    --history`` reads it; a record would be of an unfinished game, which ``validate`` calls
    illegal) and DIR/divergence.html."""
    import json

    from hanamikoji.viewer.core.divergence import divergence_page

    out = pathlib.Path(folder)
    with Folder(folder, make=True) as where:  # every name refused before any file is written
        for name in ("divergence.json", "position.json", "divergence.html"):
            where.check(name)
    data = divergence.to_json()
    text, state = divergence_page(game, data, " ".join(argv))
    write_text(out / "divergence.json", json.dumps(data, indent=1) + "\n", make_dir=True,
               in_folder=True)
    if state is not None:
        write_text(out / "position.json", json.dumps(game.position_to_json(state)) + "\n",
                   in_folder=True)
    write_text(out / "divergence.html", text, in_folder=True)
    print(f"saved the divergence in {out}: divergence.html, divergence.json"
          + (", position.json" if state is not None else ""), file=sys.stderr)
