"""The resampler of Hanamikoji's hidden information, for the non-interference check.

It is game knowledge (what each player cannot see), so it lives with the game, in
:mod:`hanamikoji.engine.hanamikoji.resample`, where the game's :meth:`resample` uses it too; this
module keeps the property suite's name for it.
"""

from hanamikoji.engine.hanamikoji.resample import UnexplainedHistory, hidden_cards, resample

__all__ = ["UnexplainedHistory", "resample", "hidden_cards"]
