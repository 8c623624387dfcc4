"""The viewer: game records, divergences, verify reports and statistics as one self-contained
HTML page each (``hanamikoji view``, ``diff --save``, ``verify --out``, ``stats --html``).

Every view a page shows is computed here, in Python, by the engine (:meth:`Game.observe` and
:meth:`Game.view_to_json`, INFO-1, MK-INFO-1..3) and embedded; the page's script only draws it.
"""
