"""pytest setup for tests/: the Hypothesis profile chosen by $HYPOTHESIS_PROFILE.

The profiles (dev, the default; ci; thorough) are defined in hanamikoji.properties.profiles.
The property suite's own tests (run against the reference engine) are in tests/properties/, so
that the installed package ships the library of properties and no test modules.
"""

from hanamikoji.properties.profiles import load_profile

load_profile()
