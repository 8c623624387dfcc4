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
