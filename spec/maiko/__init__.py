"""Maiko's spec: the normative rules (rules.md) and the JSON Schema of its records
(record.schema.json, the text of :func:`hanamikoji.engine.maiko.record.schema_text`, which
``hanamikoji schema --game maiko`` prints)."""
