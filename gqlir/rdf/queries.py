"""The SPARQL the conversion issues, generated from the mapping.

Every query is ``SELECT DISTINCT`` ordered by all its variables, so that ``LIMIT``/``OFFSET``
pages are a stable partition of the answer on any endpoint. IRIs are written in full (no
``PREFIX`` lines), so a query means the same wherever it is sent.

In the wikidata model a property value is read from its statement (``p:``/``ps:``) with the
statement's rank, and the precision of a time or the unit of a quantity from the statement's
value node (``psv:``), matched to the plain value: data without value nodes still converts,
only without precision or unit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..schema.types import TypeKind
from .mapping import EdgeMapping, Mapping, NodeMapping, ValueSpec
from .terms import sparql_iri, sparql_string

ITEM = "item"


def paged(query: str, limit: int, offset: int) -> str:
    return f"{query}\nLIMIT {limit}\nOFFSET {offset}"


def _select(variables: Sequence[str], body: Sequence[str]) -> str:
    names = " ".join(f"?{v}" for v in variables)
    lines = "\n".join(f"  {line}" for line in body)
    return f"SELECT DISTINCT {names} WHERE {{\n{lines}\n}}\nORDER BY {names}"


def _values(var: str, iris: Sequence[str]) -> str:
    return f"VALUES ?{var} {{ {' '.join(sparql_iri(i) for i in iris)} }}"


def _language_filter(mapping: Mapping, var: str) -> str:
    langs = ", ".join(sparql_string(lang) for lang in mapping.languages)
    return f"FILTER(LANG(?{var}) IN ({langs}))"


def type_patterns(mapping: Mapping, node: NodeMapping, var: str) -> list[str]:
    """The patterns an RDF resource bound to ``var`` matches to be of the node type."""
    out = []
    if node.classes:
        path = sparql_iri(mapping.instance_of)
        if node.subclasses:
            path += f"/{sparql_iri(mapping.subclass_of)}*"
        if len(node.classes) == 1:
            out.append(f"?{var} {path} {sparql_iri(node.classes[0])} .")
        else:
            out.append(_values(f"{var}_class", node.classes))
            out.append(f"?{var} {path} ?{var}_class .")
    for predicate, obj in node.where:
        out.append(f"?{var} {sparql_iri(predicate)} {sparql_iri(obj) if obj else '[]'} .")
    return out


def members_query(mapping: Mapping, node: NodeMapping) -> str:
    """The resources of a node type fetched by class."""
    return _select([ITEM], [*type_patterns(mapping, node, ITEM), f"FILTER(isIRI(?{ITEM}))"])


def labels_query(mapping: Mapping, items: Sequence[str]) -> str:
    return _select(
        [ITEM, "label"],
        [
            _values(ITEM, items),
            f"?{ITEM} {sparql_iri(mapping.label_predicate)} ?label .",
            _language_filter(mapping, "label"),
        ],
    )


def _value_patterns(
    mapping: Mapping, spec: ValueSpec, owner: str, plain_ns: str, node_ns: str, v: str
) -> list[str]:
    """Patterns binding ``?v`` (the value), ``?{v}x`` (precision or unit) and ``?{v}l`` (the
    value's label) for ``spec`` on the statement ``?owner``."""
    assert spec.predicate is not None
    wb = mapping.wikibase
    out = [f"?{owner} {sparql_iri(mapping.statement_iri(plain_ns, spec.predicate))} ?{v} ."]
    node = sparql_iri(mapping.statement_iri(node_ns, spec.predicate))
    if spec.shape == "time":
        out.append(
            f"OPTIONAL {{ ?{owner} {node} ?{v}n . ?{v}n <{wb}timeValue> ?{v} ; "
            f"<{wb}timePrecision> ?{v}x . }}"
        )
    elif spec.shape == "quantity":
        out.append(
            f"OPTIONAL {{ ?{owner} {node} ?{v}n . ?{v}n <{wb}quantityAmount> ?{v} ; "
            f"<{wb}quantityUnit> ?{v}x . }}"
        )
    out.extend(_label_patterns(mapping, spec, v))
    return out


def _label_patterns(mapping: Mapping, spec: ValueSpec, v: str) -> list[str]:
    """The label of an entity value, for STRING properties filled from entities."""
    if spec.element_type.kind != TypeKind.STRING:
        return []
    return [
        f"OPTIONAL {{ ?{v} {sparql_iri(mapping.label_predicate)} ?{v}l . "
        f"{_language_filter(mapping, v + 'l')} }}"
    ]


def _extra_vars(spec: ValueSpec, v: str) -> list[str]:
    out = [v]
    if spec.shape != "plain":
        out.append(v + "x")
    if spec.element_type.kind == TypeKind.STRING:
        out.append(v + "l")
    return out


def values_query(mapping: Mapping, spec: ValueSpec, items: Sequence[str]) -> str:
    """One property of a batch of nodes: ``?item``, the statement and its rank (wikidata
    model), ``?v`` and its precision, unit or label."""
    assert spec.predicate is not None
    body = [_values(ITEM, items)]
    if mapping.model == "wikidata":
        body.append(f"?{ITEM} {sparql_iri(mapping.statement_iri('p', spec.predicate))} ?st .")
        body.append(f"?st <{mapping.wikibase}rank> ?rank .")
        body.extend(_value_patterns(mapping, spec, "st", "ps", "psv", "v"))
        variables = [ITEM, "st", "rank", *_extra_vars(spec, "v")]
    else:
        body.append(f"?{ITEM} {sparql_iri(spec.predicate)} ?v .")
        body.extend(_label_patterns(mapping, spec, "v"))
        variables = [ITEM, *_extra_vars(spec, "v")]
    return _select(variables, body)


def statements_query(
    mapping: Mapping, edge: EdgeMapping, subject_type: NodeMapping, object_type: NodeMapping
) -> str:
    """The statements (or triples) of an edge type between resources of two node types (in RDF
    direction: ``?s`` is the RDF subject), with their rank and qualifiers."""
    body = [*type_patterns(mapping, subject_type, "s")]
    if mapping.model == "wikidata":
        body.append(f"?s {sparql_iri(mapping.statement_iri('p', edge.predicate))} ?st .")
        body.append(f"?st {sparql_iri(mapping.statement_iri('ps', edge.predicate))} ?o .")
        body.append(f"?st <{mapping.wikibase}rank> ?rank .")
        variables = ["s", "o", "st", "rank"]
    else:
        body.append(f"?s {sparql_iri(edge.predicate)} ?o .")
        variables = ["s", "o"]
    body.append("FILTER(isIRI(?o))")
    body.extend(type_patterns(mapping, object_type, "o"))
    for j, spec in enumerate(edge.properties):
        v = f"q{j}"
        inner = _value_patterns(mapping, spec, "st", "pq", "pqv", v)
        body.append("OPTIONAL { " + " ".join(inner) + " }")
        variables.extend(_extra_vars(spec, v))
    return _select(variables, body)
