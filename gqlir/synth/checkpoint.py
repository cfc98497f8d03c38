"""The state of an unfinished run, kept in ``OUT/.partial/``: the verified items so far (one
JSONL file per schema) and where each schema's loop stands. A run started again with the same
settings continues from there and produces the same dataset as an uninterrupted run."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from ..jsonl import dumps, loads
from .errors import SynthError
from .pipeline import SchemaState

PARTIAL = ".partial"


class Checkpoint:
    def __init__(self, out: str, fingerprint: str, fresh: bool = False) -> None:
        self.folder = os.path.join(out, PARTIAL)
        self.fingerprint = fingerprint
        if fresh and os.path.isdir(self.folder):
            shutil.rmtree(self.folder)
        os.makedirs(self.folder, exist_ok=True)
        self.states: dict[str, SchemaState] = {}
        path = os.path.join(self.folder, "state.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                saved = json.load(fh)
            if saved.get("fingerprint") != fingerprint:
                raise SynthError(
                    f"{out} holds an unfinished run with other settings: "
                    "use another folder, or --fresh to start over"
                )
            self.states = {k: SchemaState(**v) for k, v in saved["schemas"].items()}

    def state(self, schema: str) -> SchemaState:
        return self.states.setdefault(schema, SchemaState())

    def items_path(self, schema: str) -> str:
        return os.path.join(self.folder, f"{schema}.jsonl")

    def items(self, schema: str) -> list[dict[str, Any]]:
        """The items saved for ``schema``, cut to the count the state recorded (an item
        written after the last saved state is made again)."""
        path = self.items_path(schema)
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as fh:
            lines = [line for line in fh.read().split("\n") if line.strip()]
        keep = self.state(schema).accepted
        if len(lines) > keep:
            lines = lines[:keep]
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("".join(line + "\n" for line in lines))
        return [loads(line) for line in lines]

    def append(self, schema: str, item: dict[str, Any]) -> None:
        with open(self.items_path(schema), "a", encoding="utf-8") as fh:
            fh.write(dumps(item, sort_keys=True) + "\n")

    def save(self) -> None:
        data = {
            "fingerprint": self.fingerprint,
            "schemas": {k: v.to_dict() for k, v in sorted(self.states.items())},
        }
        tmp = os.path.join(self.folder, "state.json.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, sort_keys=True)
        os.replace(tmp, os.path.join(self.folder, "state.json"))

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
