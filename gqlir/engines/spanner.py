"""Spanner Graph with ``google-cloud-spanner``.

No Spanner Graph engine runs outside Google Cloud (the local emulator has no graph support), so
this adapter is tested against Google's ``spannermockserver``, which checks what is sent and
replays canned results: real runs need an instance (``project``, ``instance``, ``database``, or
``GQLIR_SPANNER_PROJECT`` / ``GQLIR_SPANNER_INSTANCE`` / ``GQLIR_SPANNER_DATABASE``, with
Google's default credentials), or ``SPANNER_EMULATOR_HOST`` / ``endpoint`` for an emulator.

* **load**: the DDL gqlir writes for Spanner (tables of :mod:`gqlir.schema.relational`, then
  ``CREATE PROPERTY GRAPH``) through ``update_ddl``, and the data as insert mutations, one batch
  per table;
* **queries**: Spanner GQL text (``GRAPH g MATCH …``) with typed parameters;
* **read-only**: queries run in a read-only snapshot, where Spanner refuses DML;
* **timeout**: the gRPC deadline of the call (``DeadlineExceeded``).
"""

from __future__ import annotations

import datetime as dt
import decimal
import os
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import EngineError
from .base import (
    BaseEngine,
    EdgeValue,
    NodeValue,
    Prepared,
    ResultTable,
    engine_error,
    from_python,
    take,
    timeout_error,
)

__all__ = ["SpannerEngine"]


def _param_type(v: Any) -> Any:
    from google.cloud.spanner_v1 import param_types as pt

    if isinstance(v, bool):
        return pt.BOOL
    if isinstance(v, int):
        return pt.INT64
    if isinstance(v, float):
        return pt.FLOAT64
    if isinstance(v, decimal.Decimal):
        return pt.NUMERIC
    if isinstance(v, dt.datetime):
        return pt.TIMESTAMP
    if isinstance(v, dt.date):
        return pt.DATE
    if isinstance(v, bytes):
        return pt.BYTES
    if isinstance(v, (list, tuple)):
        inner = next((x for x in v if x is not None), "")
        return pt.Array(_param_type(inner))
    if isinstance(v, Mapping):
        return pt.JSON
    return pt.STRING


def _value(v: Any) -> Any:
    """Spanner values as canonical ones; a graph element made returnable with SAFE_TO_JSON
    arrives as JSON ``{identifier, kind, labels, properties}`` and becomes a node or edge."""
    if isinstance(v, Mapping):
        kind = v.get("kind")
        if kind in ("node", "edge") and "identifier" in v and "properties" in v:
            props = {k: from_python(x) for k, x in dict(v["properties"]).items() if x is not None}
            labels = tuple(str(x) for x in v.get("labels", ()))
            if kind == "node":
                return NodeValue(str(v["identifier"]), labels, props)
            return EdgeValue(
                str(v["identifier"]),
                labels[0] if labels else "",
                str(v.get("source_node_identifier", "")),
                str(v.get("destination_node_identifier", "")),
                props,
            )
        return {str(k): _value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return from_python(v)


def _mutation_value(v: Any, t: Any) -> Any:
    from ..schema.loaders import python_value
    from ..schema.types import TypeKind as K

    if v is None:
        return None
    if t.kind in (K.DATETIME,) and isinstance(v, str):
        return dt.datetime.fromisoformat(v).astimezone(dt.UTC)
    if t.kind == K.LOCAL_DATETIME and isinstance(v, str):
        return dt.datetime.fromisoformat(v).replace(tzinfo=dt.UTC)
    return python_value(v, t)


class SpannerEngine(BaseEngine):
    name: ClassVar[str] = "spanner"
    dialects: ClassVar[tuple[str, ...]] = ("spanner",)
    enforces_read_only: ClassVar[bool] = True

    def __init__(
        self,
        *,
        project: str | None = None,
        instance: str | None = None,
        database: str | None = None,
        endpoint: str | None = None,
        client: Any = None,
    ) -> None:
        try:
            from google.cloud import spanner
        except ImportError:
            raise EngineError(
                "Spanner needs google-cloud-spanner: pip install 'gqlir[spanner]'",
                code="ENGINE_MISSING",
            ) from None
        env = os.environ
        project = project or env.get("GQLIR_SPANNER_PROJECT")
        instance = instance or env.get("GQLIR_SPANNER_INSTANCE")
        database = database or env.get("GQLIR_SPANNER_DATABASE")
        if client is None and not (project and instance and database):
            raise EngineError(
                "spanner needs --project, --instance and --database (or GQLIR_SPANNER_PROJECT, "
                "GQLIR_SPANNER_INSTANCE, GQLIR_SPANNER_DATABASE)",
                code="ENGINE_CONFIG",
            )
        if client is None:
            # The client would otherwise export its own usage metrics to Google Cloud Monitoring:
            # gqlir sends nothing anywhere but to the database it is pointed at.
            options: dict[str, Any] = {"project": project, "disable_builtin_metrics": True}
            if endpoint:
                from google.api_core.client_options import ClientOptions
                from google.auth.credentials import AnonymousCredentials

                options["client_options"] = ClientOptions(api_endpoint=endpoint)
                options["credentials"] = AnonymousCredentials()
            client = spanner.Client(**options)
        self.client = client
        self.database = client.instance(instance or "instance").database(database or "database")

    def close(self) -> None:
        if not self.closed:
            close = getattr(self.client, "close", None)
            if close is not None:
                close()
        super().close()

    def _error(self, exc: Exception) -> EngineError:
        status = getattr(exc, "grpc_status_code", None)
        code = status.name if status is not None else type(exc).__name__
        return engine_error(self.name, getattr(exc, "message", None) or str(exc), code)

    def _load(self, schema: Any, directory: str) -> dict[str, int]:
        """DDL through ``update_ddl``, then one insert-mutation batch per table."""
        from google.api_core import exceptions as gexc

        from ..schema.formats import write
        from ..schema.loaders import table_rows

        ddl = [s.strip() for s in write(schema, "spanner", lossy=True).text.split(";\n")]
        try:
            self.database.update_ddl([s.rstrip(";") for s in ddl if s]).result(300)
            counts: dict[str, int] = {}
            for table, rows in table_rows(schema, directory):
                counts[table.name] = len(rows)
                if not rows:
                    continue
                cols = [c.name for c in table.columns]
                types = {c.name: c.type for c in table.columns}
                values = [[_mutation_value(r.get(c), types[c]) for c in cols] for r in rows]
                with self.database.batch() as batch:
                    batch.insert(table.name, cols, values)
            return counts
        except gexc.GoogleAPICallError as exc:
            raise self._error(exc) from None

    def _execute(
        self,
        prepared: Prepared,
        parameters: dict[str, Any],
        timeout: float | None,
        row_cap: int | None,
        read_only: bool,
    ) -> ResultTable:
        from google.api_core import exceptions as gexc

        types = {k: _param_type(v) for k, v in parameters.items()}
        kwargs: dict[str, Any] = {"params": parameters or None, "param_types": types or None}
        if timeout is not None:
            kwargs["timeout"] = timeout

        def read(results: Any) -> ResultTable:
            rows, truncated = take(iter(results), row_cap)
            fields = results.fields or []
            columns = [f.name for f in fields]
            return ResultTable(
                columns, [tuple(_value(v) for v in row) for row in rows], truncated=truncated
            )

        try:
            if read_only or not prepared.writes:
                with self.database.snapshot() as snapshot:
                    return read(snapshot.execute_sql(prepared.text, **kwargs))
            return self.database.run_in_transaction(
                lambda tx: read(tx.execute_sql(prepared.text, **kwargs))
            )
        except gexc.DeadlineExceeded as exc:
            raise timeout_error(self.name, timeout or 0, "DEADLINE_EXCEEDED") from exc
        except gexc.GoogleAPICallError as exc:
            raise self._error(exc) from None
