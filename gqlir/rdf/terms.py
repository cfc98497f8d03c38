"""RDF terms as SPARQL JSON results give them, and the few IRI helpers the conversion needs.

Both kinds of source (an HTTP endpoint and the embedded store) hand back SPARQL 1.1 JSON
results, parsed here into :class:`Term` values: one code path, so the two give the same graph.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .errors import SparqlError

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"

_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')

Row = dict[str, "Term"]


@dataclass(frozen=True, slots=True)
class Term:
    """One RDF term: ``kind`` is ``uri``, ``literal`` or ``bnode``; literals carry their
    datatype IRI or language tag."""

    kind: str
    value: str
    datatype: str | None = None
    lang: str | None = None

    @property
    def is_iri(self) -> bool:
        return self.kind == "uri"


def is_valid_iri(iri: str) -> bool:
    """An absolute IRI that can be written as ``<iri>`` in SPARQL."""
    return bool(re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", iri)) and not _IRI_FORBIDDEN.search(iri)


def sparql_iri(iri: str) -> str:
    """``<iri>`` for a query: refused for an IRI that could not stand there (it could end the
    IRI early and write the rest of the query)."""
    if not is_valid_iri(iri):
        raise SparqlError(f"{iri!r} is not an absolute IRI that SPARQL can quote")
    return f"<{iri}>"


def sparql_string(text: str) -> str:
    """A SPARQL string literal for ``text``."""
    return json.dumps(text, ensure_ascii=False)


def local_name(iri: str) -> str:
    """What follows the last ``/``, ``#`` or ``:`` of an IRI (``Q42`` for a Wikidata item)."""
    cut = max(iri.rfind("/"), iri.rfind("#"), iri.rfind(":"))
    return iri[cut + 1 :] or iri


def parse_results(payload: bytes | str, origin: str) -> list[Row]:
    """The rows of a SPARQL 1.1 JSON results document (unbound variables are absent)."""
    try:
        doc = json.loads(payload)
        bindings = doc["results"]["bindings"]
        rows = []
        for b in bindings:
            row: Row = {}
            for var, t in b.items():
                kind = t["type"]
                if kind == "typed-literal":  # the pre-standard spelling some endpoints use
                    kind = "literal"
                row[var] = Term(
                    kind,
                    t["value"],
                    t.get("datatype") if kind == "literal" else None,
                    t.get("xml:lang") if kind == "literal" else None,
                )
            rows.append(row)
        return rows
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        raise SparqlError(
            f"{origin}: the answer is not SPARQL JSON results ({type(exc).__name__}: {exc}); "
            f"it starts with {text[:120]!r}"
        ) from None


def language_key(term: Term) -> str:
    """A literal's language tag in lower case (tags are case-insensitive; ``""`` for none)."""
    return (term.lang or "").lower()


def literal_lexical(term: Term) -> str:
    """A literal's lexical form without surrounding space (RDF allows ``" 12 "`` for numbers)."""
    return term.value.strip()
