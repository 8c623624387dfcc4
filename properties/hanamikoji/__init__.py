"""Hanamikoji's property suite: Hypothesis strategies and invariants that check a Hanamikoji engine.

* :mod:`.strategies`: rules, deals, decisions, game states, whole games and records;
* :mod:`.invariants`: one named function per invariant, each citing its rule IDs;
* :mod:`.resample`: the hidden-information resampler behind the non-interference check;
* :mod:`.suite`: the catalogue of properties (a strategy and an invariant each), run by the
  tests in this folder, by :mod:`.sample` and against the broken engines of tests/;
* :mod:`.machine`: a Hypothesis state machine that plays whole games and checks every invariant
  after every step;
* :mod:`.profiles`: the Hypothesis profiles dev, ci and thorough ($HYPOTHESIS_PROFILE);
* :mod:`.sample`: a short sample of the suite without pytest (``run_sample``);
* :mod:`.engine_api`: the engine protocol.

Every strategy and invariant takes ``engine=``: any object of the protocol of
:mod:`.engine_api` (the reference engine by default). See docs/properties.md.
"""
