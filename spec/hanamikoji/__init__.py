"""Hanamikoji's spec: the normative rules (rules.md), the record schema, and the z3 model that
answers questions about them.

Importing this package does not import z3: the model lives in :mod:`.model`, the query catalogue
in :mod:`.queries`, and ``hanamikoji query`` / ``hanamikoji verify`` load them only when they run.
"""
