"""The same conversion through a SPARQL endpoint: the sample's pyoxigraph store served over
HTTP (SPARQL 1.1 protocol, GET and POST, JSON results) on 127.0.0.1 gives the same graph as the
embedded store; endpoint failures are clear errors."""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyoxigraph as ox
import pytest

from gqlir.rdf import EndpointSource, SparqlError, convert, load_mapping, open_source

DATA = Path(__file__).resolve().parent / "data" / "rdf"
SAMPLE = str(DATA / "sample.ttl")


class _SparqlHandler(BaseHTTPRequestHandler):
    """Answers SPARQL protocol queries from the server's store; ``/broken`` answers HTML and
    ``/flaky`` is overloaded (503) on every other request."""

    store: ox.Store
    requests: list[str]

    def log_message(self, format: str, *args: object) -> None:  # keep pytest output clean
        pass

    def _query(self) -> str | None:
        url = urllib.parse.urlparse(self.path)
        if self.command == "GET":
            return urllib.parse.parse_qs(url.query).get("query", [None])[0]
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        if self.headers.get("Content-Type", "").startswith("application/sparql-query"):
            return body
        return urllib.parse.parse_qs(body).get("query", [None])[0]

    def _answer(self) -> None:
        self.server.requests.append(self.command)  # type: ignore[attr-defined]
        query = self._query()
        if self.path.startswith("/broken"):
            self._send(200, "text/html", b"<html>maintenance</html>")
            return
        if self.path.startswith("/flaky") and len(self.server.requests) % 2:  # type: ignore[attr-defined]
            self.send_response(503)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if query is None:
            self._send(400, "text/plain", b"no query given")
            return
        try:
            results = self.server.store.query(query)  # type: ignore[attr-defined]
        except SyntaxError as exc:
            self._send(400, "text/plain", f"bad query: {exc}".encode())
            return
        payload = results.serialize(format=ox.QueryResultsFormat.JSON)
        self._send(200, "application/sparql-results+json", payload)

    def _send(self, status: int, ctype: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = _answer
    do_POST = _answer


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[str, ThreadingHTTPServer]]:
    store = ox.Store()
    store.load(path=SAMPLE, format=ox.RdfFormat.TURTLE)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SparqlHandler)
    server.store = store  # type: ignore[attr-defined]
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/sparql", server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def embedded():
    return convert(load_mapping(str(DATA / "sample_mapping.json")), open_source(rdf_files=[SAMPLE]))


@pytest.mark.parametrize("method", ["POST", "GET"])
def test_an_endpoint_gives_the_same_graph_as_the_embedded_store(
    endpoint, embedded, method: str
) -> None:
    url, server = endpoint
    server.requests.clear()
    mapping = load_mapping(str(DATA / "sample_mapping.json"))
    remote = convert(mapping, EndpointSource(url, method=method, timeout=10))
    assert remote.nodes == embedded.nodes
    assert remote.edges == embedded.edges
    assert remote.report.to_dict() == embedded.report.to_dict()
    assert set(server.requests) == {method}
    assert len(server.requests) == remote.report.queries


def test_a_refused_query_names_the_status_and_the_query(endpoint) -> None:
    url, _ = endpoint
    with pytest.raises(SparqlError) as info:
        EndpointSource(url, timeout=10).select("SELECT ?x WHERE {")
    assert "HTTP 400" in info.value.message and "SELECT ?x WHERE {" in info.value.message


def test_an_answer_that_is_not_sparql_json_is_an_error(endpoint) -> None:
    url, _ = endpoint
    broken = url.replace("/sparql", "/broken")
    with pytest.raises(SparqlError, match="not SPARQL JSON results"):
        EndpointSource(broken, timeout=10).select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")


def test_an_overloaded_endpoint_is_asked_again(endpoint) -> None:
    url, server = endpoint
    server.requests.clear()
    flaky = url.replace("/sparql", "/flaky")
    rows = EndpointSource(flaky, timeout=10).select(
        "SELECT ?s WHERE { ?s a <http://wikiba.se/ontology#Item> } ORDER BY ?s LIMIT 2"
    )
    assert [r["s"].value for r in rows] == [
        "http://www.wikidata.org/entity/Q9000001",
        "http://www.wikidata.org/entity/Q9000002",
    ]
    assert len(server.requests) == 2  # 503, then the answer
    server.requests.clear()
    with pytest.raises(SparqlError, match="HTTP 503"):
        EndpointSource(flaky, timeout=10, retries=0).select("SELECT * WHERE { ?s ?p ?o }")


def test_an_unreachable_endpoint_is_an_error() -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SparqlError, match="cannot reach"):
        EndpointSource(f"http://127.0.0.1:{port}/sparql", timeout=5, retries=0).select(
            "SELECT * WHERE { ?s ?p ?o }"
        )


def test_only_http_urls_are_endpoints() -> None:
    with pytest.raises(SparqlError, match="not an http"):
        EndpointSource("file:///etc/passwd")
    with pytest.raises(SparqlError, match="either"):
        open_source("http://x/sparql", [SAMPLE])
