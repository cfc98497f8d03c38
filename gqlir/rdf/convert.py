"""The conversion: SPARQL queries generated from a mapping, run against a source in pages, and
their answers assembled into a property graph with a report of what was kept and dropped.

The order of work, so that selective fetching sees final node sets:

1. the resources of every node type fetched by class;
2. the statements of every edge type, between resources that match its endpoint types;
3. rank filtering of the statements;
4. node types in the mapping's fetch order: the members of a ``linked_by`` type are the ends of
   surviving statements whose other end is a node already kept; then labels and property
   values (in batches of resources), and nodes missing a required property are dropped;
5. edges between kept nodes, with their qualifier values, merged when they coincide.

Whatever order a source returns rows in, the graph comes out the same: rows are grouped, and
nodes, values and edges are processed in sorted order.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..schema.graphdata import Edge, Node, write_jsonl
from ..schema.model import Endpoint, SchemaGraph
from .errors import RdfError
from .mapping import EdgeMapping, Mapping, NodeMapping, ValueSpec
from .queries import labels_query, members_query, paged, statements_query, values_query
from .report import ConversionReport, Tally
from .sources import SparqlSource
from .terms import Row, Term, language_key, local_name
from .values import Candidate, Discarded, convert_candidate, pick_label

DEPRECATED = "deprecated"
PREFERRED = "preferred"


@dataclass(slots=True)
class Statement:
    """One statement (or, in the plain model, one triple) of an edge type, in RDF direction,
    with the candidate values of each edge property (by property index)."""

    key: str
    subject: str
    object: str
    rank: str | None
    qualifiers: list[dict[tuple[Any, ...], Candidate]] = field(default_factory=list)


@dataclass
class Conversion:
    """A converted graph: its schema, nodes and edges (sorted) and the report."""

    schema: SchemaGraph
    nodes: list[Node]
    edges: list[Edge]
    report: ConversionReport

    def write(self, directory: str, *, overwrite: bool = False) -> None:
        """Write a graph folder: ``schema.json``, ``graph/nodes.jsonl``, ``graph/edges.jsonl``,
        ``report.json`` and ``report.txt``. The folder must be new or empty unless
        ``overwrite``."""
        from ..schema.formats import write as write_schema

        if os.path.exists(directory) and not os.path.isdir(directory):
            raise RdfError(f"{directory!r} exists and is not a folder")
        if os.path.isdir(directory) and os.listdir(directory) and not overwrite:
            raise RdfError(f"{directory!r} is not empty (overwrite it with --force)")
        os.makedirs(directory, exist_ok=True)
        _write_text(os.path.join(directory, "schema.json"), write_schema(self.schema, "gqlir").text)
        write_jsonl(os.path.join(directory, "graph"), self.nodes, self.edges)
        report = json.dumps(self.report.to_dict(), indent=2, ensure_ascii=False) + "\n"
        _write_text(os.path.join(directory, "report.json"), report)
        _write_text(os.path.join(directory, "report.txt"), self.report.to_text())


def _write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def convert(
    mapping: Mapping,
    source: SparqlSource,
    *,
    page_size: int | None = None,
    batch_size: int | None = None,
) -> Conversion:
    """Convert what ``source`` answers for ``mapping`` into a property graph."""
    return _Converter(mapping, source, page_size, batch_size).run()


def rank_name(term: Term | None) -> str | None:
    """``preferred``, ``normal`` or ``deprecated`` for a wikibase rank IRI."""
    if term is None:
        return None
    name = local_name(term.value)
    return name[: -len("Rank")].lower() if name.endswith("Rank") else name.lower()


def rank_filter(ranks: dict[str, str | None], mode: str) -> dict[str, str]:
    """The statements (by key, among those of one subject) that ``mode`` drops, with the reason:
    deprecated ones always; with ``highest``, normal ones when a preferred one exists."""
    dropped = {k: "deprecated rank" for k, r in ranks.items() if r == DEPRECATED}
    if mode == "highest" and PREFERRED in ranks.values():
        for k, r in ranks.items():
            if r not in (PREFERRED, DEPRECATED):
                dropped[k] = "a statement of the same subject has a higher rank"
    return dropped


def _example(owner: str, term: Term | None = None) -> str:
    text = local_name(owner)
    if term is not None:
        value = term.value if len(term.value) <= 40 else term.value[:37] + "..."
        text += f": {value}"
    return text


def _add_candidate(
    bucket: dict[tuple[Any, ...], Candidate], row: Row, var: str, statement: str, rank: str | None
) -> None:
    """Fold one result row into the candidates of a property (rows repeat a value once per
    label language)."""
    value = row.get(var)
    if value is None:
        return
    extra = row.get(var + "x")
    key = (statement, value, extra)
    c = bucket.get(key)
    if c is None:
        c = bucket[key] = Candidate(value, extra, {}, rank, statement)
    label = row.get(var + "l")
    if label is not None:
        names = c.labels.setdefault(language_key(label), [])
        if label.value not in names:
            names.append(label.value)


class _Converter:
    def __init__(
        self,
        mapping: Mapping,
        source: SparqlSource,
        page_size: int | None,
        batch_size: int | None,
    ) -> None:
        self.mapping = mapping
        self.source = source
        self.page_size = page_size or mapping.page_size
        self.batch_size = batch_size or mapping.batch_size
        self.report = ConversionReport()
        self.node_ids: dict[str, dict[str, str]] = {}  # node type -> IRI -> node id
        self.id_owner: dict[str, str] = {}  # node id -> IRI
        self.nodes: list[Node] = []

    # -- fetching ----------------------------------------------------------------------------
    def fetch(self, query: str) -> list[Row]:
        """Every row of ``query``, page by page."""
        rows: list[Row] = []
        offset = 0
        while True:
            page = self.source.select(paged(query, self.page_size, offset))
            self.report.queries += 1
            self.report.rows += len(page)
            rows.extend(page)
            if len(page) < self.page_size:
                return rows
            offset += self.page_size

    def batches(self, items: list[str]) -> Iterable[list[str]]:
        for i in range(0, len(items), self.batch_size):
            yield items[i : i + self.batch_size]

    # -- the steps ---------------------------------------------------------------------------
    def run(self) -> Conversion:
        m = self.mapping
        members = {
            n.label: {r["item"].value for r in self.fetch(members_query(m, n)) if "item" in r}
            for n in m.nodes
            if not n.linked_by
        }
        statements = {e.label: self.fetch_statements(e) for e in m.edges}
        dropped = {e.label: self.ranked(e, statements[e.label]) for e in m.edges}
        for node in m.nodes:
            if node.linked_by:
                members[node.label] = self.linked_members(node, statements, dropped)
            self.build_nodes(node, sorted(members[node.label]))
        edges: list[Edge] = []
        for e in m.edges:
            edges.extend(self.build_edges(e, statements[e.label], dropped[e.label]))
        self.nodes.sort(key=lambda n: str(n.id))
        edges.sort(key=lambda e: (e.type, str(e.source), str(e.target), _props_key(e.properties)))
        return Conversion(m.schema, self.nodes, edges, self.report)

    def fetch_statements(self, edge: EdgeMapping) -> list[tuple[Endpoint, Statement]]:
        """(endpoint pair, statement) for every pair of the edge type; a statement that fits
        several pairs is one object shared by them."""
        found: dict[str, Statement] = {}
        out: list[tuple[Endpoint, Statement]] = []
        for pair in edge.endpoints:
            subject_type, object_type = (
                (pair.target, pair.source) if edge.inverse else (pair.source, pair.target)
            )
            query = statements_query(
                self.mapping, edge, self.mapping.node(subject_type), self.mapping.node(object_type)
            )
            keys: set[str] = set()
            for row in self.fetch(query):
                s, o = row["s"].value, row["o"].value
                key = row["st"].value if "st" in row else f"{s} {o}"
                st = found.get(key)
                if st is None:
                    st = found[key] = Statement(
                        key, s, o, rank_name(row.get("rank")), [{} for _ in edge.properties]
                    )
                keys.add(key)
                for j in range(len(edge.properties)):
                    _add_candidate(st.qualifiers[j], row, f"q{j}", key, None)
            out.extend((pair, found[k]) for k in sorted(keys))
        self.report.edge(edge.label).fetched = len(out)
        return out

    def ranked(self, edge: EdgeMapping, found: list[tuple[Endpoint, Statement]]) -> dict[str, str]:
        """Statement keys the rank filter drops, with the reason (grouped by RDF subject)."""
        by_subject: dict[str, dict[str, str | None]] = defaultdict(dict)
        for _, st in found:
            by_subject[st.subject][st.key] = st.rank
        dropped: dict[str, str] = {}
        for ranks in by_subject.values():
            dropped |= rank_filter(ranks, edge.rank)
        return dropped

    def linked_members(
        self,
        node: NodeMapping,
        statements: dict[str, list[tuple[Endpoint, Statement]]],
        dropped: dict[str, dict[str, str]],
    ) -> set[str]:
        """Ends of surviving statements of the ``linked_by`` edge types whose other end is a
        node already kept (selective fetching)."""
        out: set[str] = set()
        for label in node.linked_by:
            inverse = self.mapping.edge(label).inverse
            for pair, st in statements[label]:
                if st.key in dropped[label]:
                    continue
                source, target = (st.object, st.subject) if inverse else (st.subject, st.object)
                if pair.target == node.label and source in self.node_ids.get(pair.source, {}):
                    out.add(target)
                if pair.source == node.label and target in self.node_ids.get(pair.target, {}):
                    out.add(source)
        return out

    def build_nodes(self, node: NodeMapping, items: list[str]) -> None:
        tally = self.report.node(node.label)
        tally.fetched = len(items)
        labels = self.fetch_labels(node, items)
        values = {
            spec.name: self.fetch_values(spec, items)
            for spec in node.properties
            if spec.source == "predicate"
        }
        ids = self.node_ids.setdefault(node.label, {})
        for iri in items:
            props: dict[str, Any] = {}
            for spec in node.properties:
                ptally = self.report.prop(node.label, spec.name)
                if spec.source == "label":
                    v = pick_label(labels.get(iri, {}), self.mapping.languages)
                elif spec.source == "id":
                    v = local_name(iri)
                elif spec.source == "iri":
                    v = iri
                else:
                    v = self.choose(spec, values[spec.name].get(iri, {}), ptally, iri)
                if v is not None:
                    props[spec.name] = v
            missing = next((s for s in node.properties if s.required and s.name not in props), None)
            if missing is not None:
                reason = (
                    f"no label in {self.mapping.languages_text}"
                    if missing.source == "label"
                    else f"required property {missing.name} has no value"
                )
                tally.drop(reason, _example(iri))
                continue
            for name in props:
                self.report.prop(node.label, name).kept += 1
            tally.kept += 1
            ids[iri] = self.node_id(node.label, iri)
            self.nodes.append(Node(ids[iri], (node.label,), props))

    def node_id(self, label: str, iri: str) -> str:
        nid = f"{label}#{local_name(iri) if self.mapping.ids == 'local' else iri}"
        other = self.id_owner.setdefault(nid, iri)
        if other != iri:
            raise RdfError(
                f"{other} and {iri} would both be node {nid!r}: set rdf.ids to 'iri' in the "
                "mapping to name nodes by their full IRI"
            )
        return nid

    def fetch_labels(self, node: NodeMapping, items: list[str]) -> dict[str, dict[str, list[str]]]:
        if not any(s.source == "label" for s in node.properties):
            return {}
        out: dict[str, dict[str, list[str]]] = defaultdict(dict)
        for batch in self.batches(items):
            for row in self.fetch(labels_query(self.mapping, batch)):
                label = row["label"]
                out[row["item"].value].setdefault(language_key(label), []).append(label.value)
        return out

    def fetch_values(
        self, spec: ValueSpec, items: list[str]
    ) -> dict[str, dict[tuple[Any, ...], Candidate]]:
        out: dict[str, dict[tuple[Any, ...], Candidate]] = defaultdict(dict)
        for batch in self.batches(items):
            for row in self.fetch(values_query(self.mapping, spec, batch)):
                item = row["item"].value
                statement = row["st"].value if "st" in row else ""
                _add_candidate(out[item], row, "v", statement, rank_name(row.get("rank")))
        return out

    def choose(
        self,
        spec: ValueSpec,
        candidates: dict[tuple[Any, ...], Candidate],
        tally: Tally,
        owner: str,
    ) -> Any:
        """The value of one property of one element: rank filter, conversion (each failure
        counted), then a sorted list, or the smallest value of a scalar property."""
        ordered = sorted(candidates.values(), key=lambda c: (c.statement, _term_key(c)))
        ranks = {c.statement: c.rank for c in ordered if c.statement}
        dropped = rank_filter(ranks, spec.rank) if ranks else {}
        values = []
        for c in ordered:
            if c.statement in dropped:
                tally.drop(dropped[c.statement], _example(owner, c.value))
                continue
            try:
                values.append(convert_candidate(c, spec, self.mapping, tally.converted))
            except Discarded as exc:
                tally.drop(str(exc), _example(owner, c.value))
        if not values:
            return None
        distinct = sorted(set(values))
        if spec.is_list:
            return distinct
        if len(distinct) > 1:
            tally.drop(
                "more than one value for a single-valued property (kept the smallest)",
                _example(owner),
                len(distinct) - 1,
            )
        return distinct[0]

    def build_edges(
        self, edge: EdgeMapping, found: list[tuple[Endpoint, Statement]], dropped: dict[str, str]
    ) -> list[Edge]:
        tally = self.report.edge(edge.label)
        schema_edge = self.mapping.schema.edge(edge.label)
        assert schema_edge is not None
        chosen: dict[tuple[Any, ...], Edge] = {}
        for pair, st in found:
            if st.key in dropped:
                tally.drop(dropped[st.key], _example(st.key))
                continue
            source, target = (st.object, st.subject) if edge.inverse else (st.subject, st.object)
            s_id = self.node_ids.get(pair.source, {}).get(source)
            t_id = self.node_ids.get(pair.target, {}).get(target)
            if s_id is None or t_id is None:
                end = "source" if s_id is None else "target"
                tally.drop(
                    f"{end} is not a node of the graph",
                    _example(source if s_id is None else target),
                )
                continue
            props: dict[str, Any] = {}
            for j, spec in enumerate(edge.properties):
                v = self.choose(
                    spec, st.qualifiers[j], self.report.prop(edge.label, spec.name), st.key
                )
                if v is not None:
                    props[spec.name] = v
            missing = next(
                (s.name for s in edge.properties if s.required and s.name not in props), None
            )
            if missing is not None:
                tally.drop(f"required property {missing} has no value", _example(st.key))
                continue
            identity = (s_id, t_id, *(json.dumps(props.get(k)) for k in schema_edge.keys))
            new = Edge(edge.label, s_id, t_id, props)
            old = chosen.get(identity)
            if old is not None:
                if old.properties == props:
                    tally.drop(
                        "same nodes and values as another statement (merged)", _example(st.key)
                    )
                    continue
                tally.drop(
                    "another statement joins the same nodes (declare an edge key to keep both)",
                    _example(st.key),
                )
                if _props_key(old.properties) <= _props_key(props):
                    continue
            chosen[identity] = new
        for e in chosen.values():
            for name in e.properties:
                self.report.prop(edge.label, name).kept += 1
        tally.kept = len(chosen)
        return list(chosen.values())


def _props_key(props: dict[str, Any]) -> str:
    return json.dumps(props, sort_keys=True, ensure_ascii=False)


def _term_key(c: Candidate) -> tuple[str, str, str, str]:
    v, x = c.value, c.extra
    return (v.kind, v.value, v.datatype or v.lang or "", x.value if x else "")
