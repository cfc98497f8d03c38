"""RDF to property graph: a mapping file (a gqlir schema annotated with class and predicate
IRIs) drives SPARQL queries against an endpoint or an embedded store, and their answers become a
graph folder in gqlir's graph data format, with a report of what was kept and dropped.

    from gqlir.rdf import convert, load_mapping, open_source
    mapping = load_mapping("examples/rdf/wikidata_company.json")
    source = open_source(rdf_files=["dump.ttl"])        # or open_source(endpoint=URL)
    result = convert(mapping, source)
    result.write("out/company")                          # schema.json, graph/, report.*

docs/rdf.md describes the mapping format and the conversion rules. pyoxigraph (the embedded
store) and pint (units) are imported only when needed: ``pip install gqlir[rdf]``.
"""

from __future__ import annotations

from .convert import Conversion, convert
from .errors import MappingError, RdfDataError, RdfError, SparqlError
from .mapping import EdgeMapping, Mapping, NodeMapping, ValueSpec, load_mapping, parse_mapping
from .report import ConversionReport
from .sources import EndpointSource, SparqlSource, StoreSource, open_source

__all__ = [
    "Conversion",
    "ConversionReport",
    "EdgeMapping",
    "EndpointSource",
    "Mapping",
    "MappingError",
    "NodeMapping",
    "RdfDataError",
    "RdfError",
    "SparqlError",
    "SparqlSource",
    "StoreSource",
    "ValueSpec",
    "convert",
    "load_mapping",
    "open_source",
    "parse_mapping",
]
