"""Maiko's property helpers: :mod:`.scenarios` (positions built by decisions, as the tests and
the rulebook's examples need them) and :mod:`.invariants` (one named function per invariant,
each citing its MK rule IDs), reused by tests/maiko/."""
