"""pytest setup for ``pytest properties``: the Hypothesis profile of $HYPOTHESIS_PROFILE."""

from hanamikoji.properties.profiles import load_profile

load_profile()
