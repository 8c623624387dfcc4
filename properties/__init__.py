"""The property suites: the generic properties every game must pass (:mod:`.core`), and one
sub-package per game with its own strategies and invariants (:mod:`.hanamikoji`, :mod:`.maiko`).

:mod:`.profiles` holds the Hypothesis profiles dev, ci and thorough ($HYPOTHESIS_PROFILE).
See docs/properties.md.
"""
