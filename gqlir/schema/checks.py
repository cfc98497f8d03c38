"""Schema-aware checks of a query: unknown labels, relationship types and properties, edges
written in the wrong direction or between the wrong node types, each with its position and a
"did you mean" suggestion. These are the mistakes LLM-written queries make most often.

The checks walk the Graph-IR (any dialect gqlir parses). Each node variable carries the set of
node types it may stand for: from its labels, else from the endpoint types of the edges it is
attached to, narrowed across clauses; ``WITH x AS y`` carries the set over, and a projection
drops what it does not keep. Properties are checked against every type a variable may have: a
property is unknown only if none of them declares it. Edge types without endpoint pairs (from a
schema-free source) are not checked for direction.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .. import ir
from ..errors import SchemaError
from .model import SchemaGraph

UNKNOWN_LABEL = "SCHEMA_UNKNOWN_LABEL"
UNKNOWN_TYPE = "SCHEMA_UNKNOWN_REL_TYPE"
UNKNOWN_PROPERTY = "SCHEMA_UNKNOWN_PROPERTY"
WRONG_DIRECTION = "SCHEMA_WRONG_DIRECTION"
WRONG_ENDPOINTS = "SCHEMA_WRONG_ENDPOINTS"


class SchemaIssue(SchemaError):
    """A query does not fit the schema; ``suggestions`` are the likely intended names."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        text: str | None,
        offset: int | None,
        suggestions: tuple[str, ...] = (),
    ) -> None:
        if suggestions:
            message += " (did you mean " + " or ".join(repr(s) for s in suggestions) + "?)"
        super().__init__(message, text=text, offset=offset, code=code)
        self.suggestions = suggestions

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["suggestions"] = list(self.suggestions)
        return out


def suggest(name: str, options: Iterable[str], n: int = 3) -> tuple[str, ...]:
    """Likely intended names: same up to case, or up to case and ``_``/``-``, or close in
    spelling."""
    opts = sorted(set(options))
    low = {o.lower(): o for o in opts}
    if name.lower() in low:
        return (low[name.lower()],)
    norm = {re.sub(r"[_\-\s]", "", o.lower()): o for o in opts}
    key = re.sub(r"[_\-\s]", "", name.lower())
    if key in norm:
        return (norm[key],)
    close = difflib.get_close_matches(name.lower(), list(low), n=n, cutoff=0.6)
    return tuple(low[c] for c in close)


@dataclass
class _Binding:
    kind: str  # "node" | "edge"
    types: frozenset[str] | None  # None: any type


def check(query: ir.Node, schema: SchemaGraph, text: str | None = None) -> list[SchemaIssue]:
    """Every schema problem of a parsed query, in source order."""
    checker = _Checker(schema, text)
    checker.statement(query, {})
    seen = set()
    out = []
    for i in sorted(checker.issues, key=lambda x: x.offset if x.offset is not None else -1):
        key = (i.code, i.offset, i.message)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


class _Checker:
    def __init__(self, schema: SchemaGraph, text: str | None) -> None:
        self.schema = schema
        self.text = text
        self.issues: list[SchemaIssue] = []
        self.node_labels = schema.all_node_labels()
        self.edge_labels = set(schema.edge_labels)

    def report(
        self, code: str, message: str, offset: int | None, suggestions: tuple[str, ...] = ()
    ) -> None:
        self.issues.append(
            SchemaIssue(code, message, text=self.text, offset=offset, suggestions=suggestions)
        )

    # -- statements --------------------------------------------------------------------------
    def statement(self, node: ir.Node, env: dict[str, _Binding]) -> dict[str, _Binding]:
        if isinstance(node, ir.LinearQuery):
            env = dict(env)
            for step in node.steps:
                env = self.step(step, env)
            return env
        if isinstance(node, ir.SetOperation):
            self.statement(node.left, env)
            self.statement(node.right, env)
            return env
        for child in node.children():
            if isinstance(child, ir.Query):
                self.statement(child, env)
        return env

    def step(self, step: ir.Node, env: dict[str, _Binding]) -> dict[str, _Binding]:
        if isinstance(step, (ir.Match, ir.Create)):
            for pp in step.patterns:
                self.path_pattern(pp, env)
            if isinstance(step, ir.Match) and step.where is not None:
                self.expr(step.where, env)
            return env
        if isinstance(step, ir.Merge):
            self.path_pattern(step.pattern, env)
            for action in step.actions:
                for set_item in action.items:
                    self.expr(set_item, env)
            return env
        if isinstance(step, ir.Projection):
            for item in step.items:
                self.expr(item.expr, env)
            for e in step.group_by or ():
                self.expr(e, env)
            new: dict[str, _Binding] = dict(env) if step.star else {}
            for item in step.items:
                name = item.alias or (
                    item.expr.name if isinstance(item.expr, ir.Variable) else None
                )
                if name is None:
                    continue
                if isinstance(item.expr, ir.Variable) and item.expr.name in env:
                    new[name] = env[item.expr.name]
                else:
                    new.pop(name, None)
            scope = dict(env) | new
            for s in step.order_by:
                self.expr(s.expr, scope)
            return new
        if isinstance(step, (ir.Unwind,)):
            self.expr(step.source, env)
            env = dict(env)
            env.pop(step.variable, None)
            return env
        if isinstance(step, ir.Let):
            env = dict(env)
            for b in step.bindings:
                self.expr(b.value, env)
                env.pop(b.variable, None)
            return env
        if isinstance(step, ir.CallSubquery):
            inner = (
                env if step.imports is None else {k: v for k, v in env.items() if k in step.imports}
            )
            out = self.statement(step.query, inner)
            return dict(env) | {k: v for k, v in out.items() if k not in env}
        if isinstance(step, ir.Foreach):
            self.expr(step.source, env)
            inner = dict(env)
            inner.pop(step.variable, None)
            for body_step in step.body:
                inner = self.step(body_step, inner)
            return env
        for child in step.children():
            self.expr(child, env)
        return env

    # -- patterns ----------------------------------------------------------------------------
    def path_pattern(self, pp: ir.PathPattern, env: dict[str, _Binding]) -> None:
        self.path(pp.path, env)

    def path(self, path: ir.Node, env: dict[str, _Binding]) -> None:
        if isinstance(path, ir.PathUnion):
            for alt in path.alternatives:
                self.path(alt, env)
            return
        if not isinstance(path, ir.PathChain):
            return
        elements = list(path.elements)
        node_types: list[frozenset[str] | None] = []
        for el in elements:
            if isinstance(el, ir.NodePattern):
                node_types.append(self.node_pattern(el, env))
            elif isinstance(el, ir.RelPattern):
                node_types.append(self.rel_types(el))
            elif isinstance(el, ir.ParenPath):
                self.path(el.path, env)
                if el.where is not None:
                    self.expr(el.where, env)
                node_types.append(None)
        # triples (node, rel, node): direction and endpoint checks, then endpoint inference
        for i, el in enumerate(elements):
            if not isinstance(el, ir.RelPattern) or i == 0 or i + 1 >= len(elements):
                continue
            left, right = elements[i - 1], elements[i + 1]
            if not isinstance(left, ir.NodePattern) or not isinstance(right, ir.NodePattern):
                continue
            self.triple(left, node_types[i - 1], el, node_types[i], right, node_types[i + 1], env)
        for i, el in enumerate(elements):
            if isinstance(el, ir.NodePattern):
                self.node_properties(el, env)
            elif isinstance(el, ir.RelPattern):
                self.rel_properties(el, node_types[i], env)

    def _label_names(self, expr: ir.LabelExpr | None) -> list[ir.Label]:
        return list(expr.find_all(ir.Label)) if expr is not None else []

    def _matches(self, expr: ir.LabelExpr, labels: frozenset[str]) -> bool:
        if isinstance(expr, ir.Label):
            return expr.name in labels
        if isinstance(expr, ir.LabelAnd):
            return self._matches(expr.left, labels) and self._matches(expr.right, labels)
        if isinstance(expr, ir.LabelOr):
            return self._matches(expr.left, labels) or self._matches(expr.right, labels)
        if isinstance(expr, ir.LabelNot):
            return not self._matches(expr.operand, labels)
        return True

    def node_pattern(self, np: ir.NodePattern, env: dict[str, _Binding]) -> frozenset[str] | None:
        ok = True
        for lab in self._label_names(np.labels):
            if lab.name in self.node_labels:
                continue
            ok = False
            if lab.name in self.edge_labels:
                self.report(
                    UNKNOWN_LABEL, f"{lab.name} is a relationship type, not a node label", lab.pos
                )
            else:
                self.report(
                    UNKNOWN_LABEL,
                    f"unknown node label {lab.name}",
                    lab.pos,
                    suggest(lab.name, self.node_labels),
                )
        types: frozenset[str] | None = None
        if np.labels is not None and ok:
            types = frozenset(
                n.label
                for n in self.schema.node_types
                if self._matches(np.labels, frozenset(n.labels))
            )
        if np.variable:
            prev = env.get(np.variable)
            if prev is not None and prev.kind == "node" and prev.types is not None:
                types = prev.types if types is None else types & prev.types
            env[np.variable] = _Binding("node", types)
        if np.where is not None:
            self.expr(np.where, env)
        return types

    def rel_types(self, rp: ir.RelPattern) -> frozenset[str] | None:
        ok = True
        for lab in self._label_names(rp.types):
            if lab.name in self.edge_labels:
                continue
            ok = False
            if lab.name in self.node_labels:
                self.report(
                    UNKNOWN_TYPE,
                    f"{lab.name} is a node label, not a relationship type",
                    lab.pos,
                    suggest(lab.name, self.edge_labels),
                )
            else:
                self.report(
                    UNKNOWN_TYPE,
                    f"unknown relationship type {lab.name}",
                    lab.pos,
                    suggest(lab.name, self.edge_labels),
                )
        if rp.types is None or not ok:
            return None
        return frozenset(
            e.label
            for e in self.schema.edge_types
            if self._matches(rp.types, frozenset((e.label,)))
        )

    def triple(
        self,
        left: ir.NodePattern,
        lt: frozenset[str] | None,
        rel: ir.RelPattern,
        et: frozenset[str] | None,
        right: ir.NodePattern,
        rt: frozenset[str] | None,
        env: dict[str, _Binding],
    ) -> None:
        edges = (
            [self.schema.edge(x) for x in et] if et is not None else list(self.schema.edge_types)
        )
        edges = [e for e in edges if e is not None]
        if any(not e.endpoints for e in edges):
            return  # some candidate type connects anything
        lt = self._current(left, lt, env)
        rt = self._current(right, rt, env)

        def fits(src: frozenset[str] | None, dst: frozenset[str] | None) -> bool:
            return any(
                (src is None or ep.source in src) and (dst is None or ep.target in dst)
                for e in edges
                for ep in e.endpoints
            )

        d = rel.direction
        forward = fits(lt, rt)
        backward = fits(rt, lt)
        quantified = rel.quantifier is not None
        if not quantified and et is not None and (lt is not None or rt is not None):
            ok = (
                forward
                if d == ir.Direction.OUT
                else backward
                if d == ir.Direction.IN
                else forward or backward
            )
            if not ok:
                names = "|".join(sorted(et))
                pairs = ", ".join(str(ep) for e in edges for ep in e.endpoints)
                reverse = (
                    backward
                    if d == ir.Direction.OUT
                    else forward
                    if d == ir.Direction.IN
                    else False
                )
                if reverse:
                    self.report(
                        WRONG_DIRECTION,
                        f"{names} goes the other way: it connects {pairs}; reverse the arrow",
                        rel.pos,
                        (_flip(d),),
                    )
                else:
                    a, b = (f"({'|'.join(sorted(x))})" if x else "()" for x in (lt, rt))
                    arrow = {ir.Direction.OUT: "->", ir.Direction.IN: "<-"}.get(d, "-")
                    shown = f"{a}-[:{names}]-{b}".replace(
                        "]-", "]" + ("-" if arrow != "->" else "->"), 1
                    )
                    if arrow == "<-":
                        shown = f"{a}<-[:{names}]-{b}"
                    self.report(
                        WRONG_ENDPOINTS,
                        f"{shown} does not fit the schema: {names} connects {pairs}",
                        rel.pos,
                    )
                return
        if quantified:
            return
        # infer unlabelled endpoints from the edge types (and the other end's types)
        if et is None:
            return
        left_opts: set[str] = set()
        right_opts: set[str] = set()
        for e in edges:
            for ep in e.endpoints:
                if (
                    d != ir.Direction.IN
                    and (lt is None or ep.source in lt)
                    and (rt is None or ep.target in rt)
                ):
                    left_opts.add(ep.source)
                    right_opts.add(ep.target)
                if (
                    d != ir.Direction.OUT
                    and (lt is None or ep.target in lt)
                    and (rt is None or ep.source in rt)
                ):
                    left_opts.add(ep.target)
                    right_opts.add(ep.source)
        for node, current, opts in ((left, lt, left_opts), (right, rt, right_opts)):
            if node.variable and current is None and opts:
                env[node.variable] = _Binding("node", frozenset(opts))

    def _current(
        self, np: ir.NodePattern, t: frozenset[str] | None, env: dict[str, _Binding]
    ) -> frozenset[str] | None:
        if np.variable and np.variable in env and env[np.variable].kind == "node":
            return env[np.variable].types
        return t

    def node_properties(self, np: ir.NodePattern, env: dict[str, _Binding]) -> None:
        if isinstance(np.properties, ir.MapLiteral):
            types = self._current(np, None, env) if np.variable else self._label_types(np.labels)
            self.map_keys(np.properties, types, "node")
            for _, v in np.properties.entries:
                self.expr(v, env)

    def _label_types(self, labels: ir.LabelExpr | None) -> frozenset[str] | None:
        if labels is None or any(x.name not in self.node_labels for x in self._label_names(labels)):
            return None
        return frozenset(
            n.label for n in self.schema.node_types if self._matches(labels, frozenset(n.labels))
        )

    def rel_properties(
        self, rp: ir.RelPattern, types: frozenset[str] | None, env: dict[str, _Binding]
    ) -> None:
        if rp.variable:
            env[rp.variable] = _Binding("edge", types)
        if isinstance(rp.properties, ir.MapLiteral):
            self.map_keys(rp.properties, types, "edge")
            for _, v in rp.properties.entries:
                self.expr(v, env)
        if rp.where is not None:
            self.expr(rp.where, env)

    def map_keys(self, m: ir.MapLiteral, types: frozenset[str] | None, kind: str) -> None:
        if types is None:
            return
        start = m.pos
        for key, _ in m.entries:
            offset = self._find(key, start, before=":")
            self.property_name(key, types, kind, offset)
            if offset is not None:
                start = offset + 1

    # -- expressions -------------------------------------------------------------------------
    def expr(self, e: ir.Node, env: dict[str, _Binding]) -> None:
        if isinstance(e, ir.Query):
            self.statement(e, env)
            return
        if isinstance(e, (ir.Exists, ir.CountSubquery, ir.CollectSubquery, ir.ValueSubquery)):
            self.statement(e.query, env)
            return
        if isinstance(e, ir.PatternComprehension):
            inner = dict(env)
            self.path_pattern(e.pattern, inner)
            if e.where is not None:
                self.expr(e.where, inner)
            self.expr(e.projection, inner)
            return
        if isinstance(e, (ir.ListComprehension, ir.ListPredicate)):
            self.expr(e.source, env)
            inner = dict(env)
            inner.pop(e.variable, None)
            for child in e.children():
                if child is not e.source:
                    self.expr(child, inner)
            return
        if isinstance(e, (ir.Property, ir.SetProperty, ir.RemoveProperty)):
            subj = e.subject
            if isinstance(subj, ir.Variable) and subj.name in env:
                b = env[subj.name]
                if b.types is not None:
                    offset = self._find(e.key, subj.pos, before=None, after=".")
                    self.property_name(e.key, b.types, b.kind, offset)
            for child in e.children():
                self.expr(child, env)
            return
        if isinstance(e, ir.HasLabels) and isinstance(e.subject, ir.Variable):
            found = env.get(e.subject.name)
            known = (
                self.edge_labels if found is not None and found.kind == "edge" else self.node_labels
            )
            for lab in self._label_names(e.labels):
                if lab.name not in known:
                    what = "relationship type" if known is self.edge_labels else "node label"
                    self.report(
                        UNKNOWN_TYPE if known is self.edge_labels else UNKNOWN_LABEL,
                        f"unknown {what} {lab.name}",
                        lab.pos,
                        suggest(lab.name, known),
                    )
            return
        if isinstance(e, ir.PathPattern):
            self.path_pattern(e, env)
            return
        for child in e.children():
            self.expr(child, env)

    def property_name(self, key: str, types: frozenset[str], kind: str, offset: int | None) -> None:
        lookup = self.schema.node if kind == "node" else self.schema.edge
        found = [lookup(t) for t in sorted(types)]
        elements = [x for x in found if x is not None]
        if not elements or any(x.prop(key) is not None for x in elements):
            return
        names = {p for x in elements for p in x.property_names}
        owners = sorted(
            x.label
            for x in (self.schema.node_types if kind == "node" else self.schema.edge_types)
            if x.prop(key) is not None
        )
        where = "|".join(sorted(types))
        msg = f"{where} has no property {key!r}"
        if owners:
            msg += f" ({key!r} is a property of {', '.join(owners)})"
        self.report(UNKNOWN_PROPERTY, msg, offset, suggest(key, names))

    def _find(
        self, key: str, start: int | None, *, before: str | None, after: str | None = None
    ) -> int | None:
        """The offset of the name ``key`` in the text after ``start`` (plain or quoted)."""
        if self.text is None or start is None:
            return start
        forms = [
            re.escape(key),
            "`" + re.escape(key.replace("`", "``")) + "`",
            '"' + re.escape(key) + '"',
        ]
        for form in forms:
            pat = (
                (re.escape(after) + r"\s*" if after else r"(?<![\w`])")
                + "("
                + form
                + ")"
                + (r"\s*" + re.escape(before) if before else r"(?![\w`])")
            )
            m = re.compile(pat).search(self.text, start)
            if m:
                return m.start(1)
        return start


def _flip(d: ir.Direction) -> str:
    return "<-[…]-" if d == ir.Direction.OUT else "-[…]->"
