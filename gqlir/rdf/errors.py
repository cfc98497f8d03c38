"""Errors of the RDF-to-property-graph conversion, each with its own stable code so that scripts
can tell a bad mapping from bad RDF or an unreachable endpoint."""

from __future__ import annotations

from ..errors import GqlirError


class RdfError(GqlirError):
    """Base of the errors :mod:`gqlir.rdf` raises."""

    code = "RDF"


class MappingError(RdfError):
    """The mapping file is not valid JSON or breaks a rule of docs/rdf.md; carries the mapping
    text and the offset of the offending value."""

    code = "RDF_MAPPING"


class RdfDataError(RdfError):
    """An RDF file cannot be read or parsed; carries the file text and the offending offset."""

    code = "RDF_DATA"


class SparqlError(RdfError):
    """A SPARQL source failed: the endpoint is unreachable, refused a query, or answered with
    something that is not SPARQL JSON results."""

    code = "RDF_SPARQL"
