"""gqlir's own schema JSON (docs/schema-format.md): expresses everything the model holds."""

from __future__ import annotations

from ..model import SchemaGraph


def read(text: str, variant: str | None = None, *, name: str = "") -> SchemaGraph:
    return SchemaGraph.from_json(text)


def write(schema: SchemaGraph, variant: str | None = None) -> str:
    return schema.to_json()
