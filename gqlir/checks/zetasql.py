"""Google's ZetaSQL front end as the judge of Spanner Graph text.

Spanner reads GQL through ZetaSQL (GoogleSQL), so a query gqlir writes for Spanner is checked by
that front end, not by gqlir's own grammar: parsed, and with a schema analysed against a catalog
of the tables and property graph that ``gqlir schema convert --to spanner`` writes
(:mod:`gqlir.checks.catalog`), with every language feature on (the graph-query ones included).
ZetaSQL's reference configuration enables features Spanner may not, so an accepted query is an
upper bound on what Spanner accepts; a rejection is a fault of the text. Sources: ZetaSQL's local
service (zetasql/local_service/local_service.proto), the ``zetasql`` package on PyPI.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ..errors import GqlirError
from ..schema.model import SchemaGraph
from ._wasm import CheckerError, Service, ServiceError
from .catalog import catalog_proto

__all__ = ["Checker", "CheckerError", "Rejection", "Verdict", "check", "shared_checker"]

_POSITION = re.compile(r"\s*\[at (\d+):(\d+)\]\s*$")


@dataclass(frozen=True, slots=True)
class Verdict:
    """ZetaSQL's answer for one text: accepted, or rejected with its message and position.
    ``analysed`` says whether the text was resolved against a catalog or only parsed."""

    accepted: bool
    analysed: bool
    message: str = ""
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        mode = "analysed" if self.analysed else "parsed"
        if self.accepted:
            return f"accepted ({mode})"
        where = f" at {self.line}:{self.column}" if self.line is not None else ""
        return f"rejected ({mode}){where}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """The verdict as data (``gqlir validate --json``)."""
        data: dict[str, object] = {"accepted": self.accepted, "analysed": self.analysed}
        if not self.accepted:
            data.update(message=self.message, line=self.line, column=self.column)
        return data

    def error(self, text: str) -> Rejection:
        """The rejection as a GqlirError placed in ``text``, so that it prints like gqlir's own
        errors (line, column, caret)."""
        offset = None
        if self.line is not None and self.column is not None:
            lines = text.split("\n")
            offset = sum(len(x) + 1 for x in lines[: self.line - 1]) + self.column - 1
        return Rejection(f"ZetaSQL: {self.message}", text=text, offset=offset)


class Rejection(GqlirError):
    """A text ZetaSQL rejects; the position is ZetaSQL's."""

    code = "ZETASQL_REJECTED"


def _protos() -> tuple[Any, Any, Any]:
    from zetasql.wasi._pb2.zetasql.local_service import local_service_pb2
    from zetasql.wasi._pb2.zetasql.proto import options_pb2
    from zetasql.wasi._pb2.zetasql.public import options_pb2 as public_options_pb2

    return local_service_pb2, options_pb2, public_options_pb2


class Checker:
    """One ZetaSQL service and the catalogs registered in it (one per schema object)."""

    def __init__(self) -> None:
        self._service = Service()
        ls, options_pb2, public = _protos()
        self._ls = ls
        language = self._service.call(
            "GetLanguageOptions",
            ls.LanguageOptionsRequest(maximum_features=True),
            options_pb2.LanguageOptionsProto,
        )
        language.product_mode = public.PRODUCT_EXTERNAL  # GoogleSQL as Spanner speaks it
        self._language = language
        self._analyzer = options_pb2.AnalyzerOptionsProto(
            language_options=language,
            error_message_mode=public.ERROR_MESSAGE_ONE_LINE,
            allow_undeclared_parameters=True,  # @p stands for a value of any type
        )
        self._empty_catalog = self._register(self._catalog_base())
        self._catalogs: dict[int, tuple[SchemaGraph, int]] = {}

    def _catalog_base(self) -> Any:
        from zetasql.wasi._pb2.zetasql.proto import options_pb2, simple_catalog_pb2

        functions = options_pb2.ZetaSQLBuiltinFunctionOptionsProto(language_options=self._language)
        return simple_catalog_pb2.SimpleCatalogProto(builtin_function_options=functions)

    def _register(self, catalog: Any) -> int:
        request = self._ls.RegisterCatalogRequest(simple_catalog=catalog)
        try:
            response = self._service.call("RegisterCatalog", request, self._ls.RegisterResponse)
        except ServiceError as exc:
            raise CheckerError(f"ZetaSQL refused the catalog: {exc.message}") from None
        return int(response.registered_id)

    def _catalog(self, schema: SchemaGraph) -> int:
        entry = self._catalogs.get(id(schema))
        if entry is None:
            functions = self._catalog_base().builtin_function_options
            entry = (schema, self._register(catalog_proto(schema, functions)))
            self._catalogs[id(schema)] = entry  # the schema is kept so that its id stays unique
        return entry[1]

    def check(self, text: str, schema: SchemaGraph | None = None) -> Verdict:
        """Parse ``text``; with ``schema``, also resolve it against the schema's catalog."""
        if schema is None:
            return self._parse(text)
        return self._analyse(text, self._catalog(schema), analysed=True)

    def _parse(self, text: str) -> Verdict:
        request = self._ls.ParseRequest(sql_statement=text, options=self._language)
        try:
            self._service.call("Parse", request, self._ls.ParseResponse)
        except ServiceError as exc:
            # Parse's errors carry no position; the analyser parses first and reports the same
            # syntax error with one.
            verdict = self._analyse(text, self._empty_catalog, analysed=False)
            if verdict.accepted or not verdict.message.startswith("Syntax error"):
                return Verdict(False, False, exc.message)
            return verdict
        return Verdict(True, analysed=False)

    def _analyse(self, text: str, catalog_id: int, *, analysed: bool) -> Verdict:
        request = self._ls.AnalyzeRequest(
            options=self._analyzer, registered_catalog_id=catalog_id, sql_statement=text
        )
        try:
            self._service.call("Analyze", request, self._ls.AnalyzeResponse)
        except ServiceError as exc:
            match = _POSITION.search(exc.message)
            if match is None:
                return Verdict(False, analysed, exc.message)
            message = exc.message[: match.start()]
            return Verdict(False, analysed, message, int(match.group(1)), int(match.group(2)))
        return Verdict(True, analysed)


@functools.cache
def shared_checker() -> Checker:
    """The process's checker: the service starts once (about a second with a warm cache)."""
    return Checker()


def check(text: str, schema: SchemaGraph | None = None) -> Verdict:
    """ZetaSQL's verdict on a Spanner Graph query (parse only without a schema)."""
    return shared_checker().check(text, schema)
