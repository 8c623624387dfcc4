"""pytest setup for tests/: the Hypothesis profile chosen by $HYPOTHESIS_PROFILE.

The profiles (dev, the default; ci; thorough) are defined in hanamikoji.properties.profiles.
The property suite's own tests (run against the reference engine) are in tests/properties/, so
that the installed package ships the library of properties and no test modules.
"""

from hanamikoji.properties.profiles import load_profile

load_profile()

import signal  # noqa: E402

# The Ctrl-C tests send SIGINT to the commands they start. A suite started in the background by
# a non-interactive shell (``cmd &``, ``nohup cmd &``) inherits SIGINT ignored, and so would
# every process it starts (an ignored signal stays ignored across exec): each such command
# would then run on, rightly, as the user's own background job does. Take SIGINT back to
# Python's default here, in the run's main process and in each worker, so the processes the
# tests start can be interrupted whatever started the run.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


import sys  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _z3_context_of_its_own():
    """Each test asks z3 in a main context of its own (spec.core.solver.fresh_context): what a
    check answers, and which model it gives, then depends on the test alone, never on the tests
    its worker ran before (z3's heuristics follow the order its terms were made in). Nothing is
    imported for a test that never loads z3."""
    if "z3" not in sys.modules:
        yield
        return
    from hanamikoji.spec.core.solver import fresh_context

    with fresh_context():
        yield
