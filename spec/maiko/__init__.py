"""Maiko's spec: the normative rules (rules.md) and the JSON Schema of its records
(record.schema.json, written by :func:`hanamikoji.engine.maiko.record.write_schema`)."""
