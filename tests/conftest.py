"""pytest setup for tests/: the Hypothesis profile chosen by $HYPOTHESIS_PROFILE.

The profiles (dev, the default; ci; thorough) are defined in hanamikoji.properties.profiles;
properties/conftest.py loads the same ones, so every way of running pytest gets them.
"""

from hanamikoji.properties.profiles import load_profile

load_profile()
