"""Where SPARQL is answered: a SPARQL 1.1 protocol endpoint over HTTP, or an embedded
pyoxigraph store loaded from RDF files. Both hand back SPARQL JSON results, read by one parser
(:func:`gqlir.rdf.terms.parse_results`), so the conversion cannot tell them apart.
"""

from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import Any, Protocol

from ..optional import require
from .errors import RdfDataError, SparqlError
from .terms import Row, parse_results


def _pyoxigraph() -> Any:
    return require("pyoxigraph", extra="rdf", purpose="reading RDF files")


RESULTS_JSON = "application/sparql-results+json"
_RETRY_STATUS = (429, 502, 503, 504)


class SparqlSource(Protocol):
    """Something that answers SPARQL SELECT queries."""

    description: str

    def select(self, query: str) -> list[Row]: ...

    def close(self) -> None: ...


class EndpointSource:
    """A SPARQL endpoint URL (SPARQL 1.1 protocol, JSON results). Queries are sent by POST
    (form-encoded) or GET; an overloaded endpoint (429, 50x) is retried after its
    ``Retry-After`` or a growing pause."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 120.0,
        method: str = "POST",
        retries: int = 3,
        user_agent: str | None = None,
    ) -> None:
        if urllib.parse.urlparse(url).scheme not in ("http", "https"):
            raise SparqlError(f"{url!r} is not an http(s) URL of a SPARQL endpoint")
        if method not in ("GET", "POST"):
            raise SparqlError(f"method must be GET or POST, not {method!r}")
        from .. import __version__

        self.url = url
        self.timeout = timeout
        self.method = method
        self.retries = retries
        self.user_agent = user_agent or f"gqlir/{__version__} (rdf2pg)"
        self.description = url

    def _request(self, query: str) -> urllib.request.Request:
        headers = {"Accept": RESULTS_JSON, "User-Agent": self.user_agent}
        encoded = urllib.parse.urlencode({"query": query})
        if self.method == "GET":
            sep = "&" if "?" in self.url else "?"
            return urllib.request.Request(f"{self.url}{sep}{encoded}", headers=headers)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return urllib.request.Request(
            self.url, data=encoded.encode("utf-8"), headers=headers, method="POST"
        )

    def select(self, query: str) -> list[Row]:
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(self._request(query), timeout=self.timeout) as resp:
                    return parse_results(resp.read(), self.url)
            except urllib.error.HTTPError as exc:
                body = exc.read().decode("utf-8", "replace").strip()
                if exc.code in _RETRY_STATUS and attempt < self.retries:
                    time.sleep(_pause(exc.headers.get("Retry-After"), attempt))
                    attempt += 1
                    continue
                raise SparqlError(
                    f"{self.url} answered HTTP {exc.code} {exc.reason}: {body[:500]}\n"
                    f"query:\n{query}"
                ) from None
            except (urllib.error.URLError, TimeoutError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                raise SparqlError(f"cannot reach {self.url}: {reason}") from None

    def close(self) -> None:
        """Nothing to release: each request opens and closes its own connection."""


def _pause(retry_after: str | None, attempt: int) -> float:
    if retry_after and retry_after.strip().isdigit():
        return min(float(retry_after), 60.0)
    return float(2**attempt)


class StoreSource:
    """An in-memory pyoxigraph store loaded from RDF files (format by file extension:
    ``.nt``, ``.ttl``, ``.nq``, ``.trig``, ``.rdf``, ``.jsonld`` …)."""

    def __init__(self, paths: Sequence[str]) -> None:
        ox = _pyoxigraph()

        self._ox = ox
        self.store = ox.Store()
        for path in paths:
            load_rdf_file(self.store, path)
        self.description = ", ".join(paths)

    def select(self, query: str) -> list[Row]:
        ox = self._ox
        try:
            results = self.store.query(query)
        except (SyntaxError, ValueError, OSError) as exc:
            raise SparqlError(
                f"the embedded store refused a query: {exc}\nquery:\n{query}"
            ) from None
        if not isinstance(results, ox.QuerySolutions):
            raise SparqlError("the embedded store answered a SELECT query with no solutions table")
        return parse_results(results.serialize(format=ox.QueryResultsFormat.JSON), "store")

    def close(self) -> None:
        self.store = None


def load_rdf_file(store: Any, path: str) -> None:
    """Load one RDF file into a pyoxigraph store; a syntax error points at its line and column."""
    ox = _pyoxigraph()

    extension = os.path.splitext(path)[1].lstrip(".").lower()
    fmt = ox.RdfFormat.from_extension(extension) if extension else None
    if fmt is None:
        raise RdfDataError(
            f"{path}: unknown RDF file extension {('.' + extension) if extension else '(none)'} "
            "(use .nt, .ttl, .nq, .trig, .rdf or .jsonld)"
        )
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise RdfDataError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        store.load(input=data, format=fmt, base_iri=None)
    except SyntaxError as exc:
        text = data.decode("utf-8", "replace")
        raise RdfDataError(
            f"{path}: not valid {fmt.name}: {exc.msg if hasattr(exc, 'msg') else exc}",
            text=text,
            offset=_offset_of(text, str(exc)),
        ) from None
    except (ValueError, OSError) as exc:
        raise RdfDataError(f"{path}: cannot load: {exc}") from None


def _offset_of(text: str, message: str) -> int | None:
    """The offset of the first ``line L column C`` a parser message names."""
    m = re.search(r"line (\d+) column (\d+)", message) or re.search(r"at (\d+):(\d+)", message)
    if not m:
        return None
    line, column = int(m.group(1)), int(m.group(2))
    start = 0
    for _ in range(line - 1):
        nl = text.find("\n", start)
        if nl < 0:
            return len(text)
        start = nl + 1
    return min(start + column - 1, len(text))


def open_source(
    endpoint: str | None = None, rdf_files: Sequence[str] = (), **options: Any
) -> SparqlSource:
    """An endpoint source for a URL, or a store source for RDF files (exactly one of them)."""
    if bool(endpoint) == bool(rdf_files):
        raise SparqlError("give either a SPARQL endpoint URL or RDF files, not both or neither")
    if endpoint:
        return EndpointSource(endpoint, **options)
    return StoreSource(rdf_files)
