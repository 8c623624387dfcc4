"""Hypothesis profiles for the property suite, chosen by the environment variable
HYPOTHESIS_PROFILE: ``dev`` (the default: quick), ``ci`` (what .ci/run uses: derandomized, no
example database, the whole suite in a few minutes on 2 cores) and ``thorough`` (many examples,
for a long run).

tests/conftest.py calls :func:`load_profile`, so the profile applies whichever folders pytest
collects (``pytest``, ``pytest tests``, ``pytest tests/properties``).

>>> register_profiles()
>>> from hypothesis import settings
>>> settings.get_profile("ci").database is None
True
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Verbosity, settings

__all__ = ["PROFILES", "SUPPRESSED", "register_profiles", "load_profile"]

#: Games are large inputs by design and slow to draw; these health checks do not apply.
SUPPRESSED = (HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example)

#: The settings of each profile.
PROFILES: dict[str, dict] = {
    "dev": dict(max_examples=25, deadline=None, suppress_health_check=SUPPRESSED,
                stateful_step_count=100),
    "ci": dict(max_examples=100, deadline=None, database=None, derandomize=True,
               suppress_health_check=SUPPRESSED, print_blob=True, stateful_step_count=120),
    "thorough": dict(max_examples=2000, deadline=None, suppress_health_check=SUPPRESSED,
                     stateful_step_count=300, verbosity=Verbosity.normal),
}


def register_profiles() -> None:
    """Register every profile of :data:`PROFILES` with Hypothesis (idempotent)."""
    for name, options in PROFILES.items():
        settings.register_profile(name, **options)


def load_profile(name: str | None = None) -> str:
    """Register the profiles and load ``name`` (default: $HYPOTHESIS_PROFILE, else ``dev``);
    return the name loaded."""
    register_profiles()
    chosen = name or os.environ.get("HYPOTHESIS_PROFILE") or "dev"
    if chosen not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={chosen!r}: expected one of {', '.join(PROFILES)}")
    settings.load_profile(chosen)
    return chosen
