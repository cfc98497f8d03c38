"""Questions for a synthesized query, offline and deterministic for one seed, at the levels
of Text2GQL-Bench and in CypherBench's style:

* ``syntactic`` (level 1): the query clause by clause (match, filter, return, order, limit) in
  plain words, every node named by its noun ("the second gene" when a label repeats);
* ``logical`` (level 2): a natural question stating every condition on its entity;
* ``business`` (level 3): the same request as an analyst would put it;
* ``cypherbench``: CypherBench's question style ("What are the names of …?").

No question shows a variable, a relationship-type spelling or a snake_case property name: the
words come from the schema's phrase annotations or are derived (:mod:`.phrases`).
"""

from __future__ import annotations

import hashlib
import random
import re

from .. import ir
from ..analysis.aggregates import aggregates
from ..schema.model import SchemaGraph
from .natural import COMPARISONS, Asker, lit
from .phrases import Lexicon, article, words
from .reading import OPERATORS

LEVELS = ("syntactic", "logical", "business", "cypherbench")
_COMPARE = {op: COMPARISONS[symbol] for op, symbol in OPERATORS.items()}
_AGG = {"count": "the number of", "sum": "the total", "avg": "the average", "min": "the lowest"}
_AGG |= {"max": "the highest", "collect": "the list of"}
_ARITH = {"-": "minus", "+": "plus", "*": "times", "/": "divided by", "%": "modulo"}


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _references(query: ir.Query, lex: Lexicon) -> tuple[dict[str, str], dict[str, str]]:
    """Node variables → their nouns ("gene", or "second gene" when a label repeats) and labels."""
    labels: dict[str, str] = {}
    order: list[str] = []
    for n in query.walk():
        if isinstance(n, ir.NodePattern) and n.variable and not n.variable.startswith("_"):
            if n.variable not in order:
                order.append(n.variable)
            if isinstance(n.labels, ir.Label):
                labels.setdefault(n.variable, n.labels.name)
    counts: dict[str | None, int] = {}
    for v in order:
        counts[labels.get(v)] = counts.get(labels.get(v), 0) + 1
    refs: dict[str, str] = {}
    seen: dict[str | None, int] = {}
    for v in order:
        label = labels.get(v)
        noun = lex.noun(label)
        if counts[label] > 1:
            noun = f"{_ORDINALS[min(seen.get(label, 0), len(_ORDINALS) - 1)]} {noun}"
            seen[label] = seen.get(label, 0) + 1
        refs[v] = noun
    return refs, labels


class Verbalizer:
    """The syntactic level: the query's clauses in order, nodes named by their nouns."""

    def __init__(self, query: ir.Query, lex: Lexicon) -> None:
        self.lex = lex
        self.refs, self.labels = _references(query, lex)
        self.seen: set[str] = set()
        self.aliases: dict[str, str] = {}

    def ref(self, var: str | None, labels: ir.LabelExpr | None = None) -> str:
        """A node: "a gene" where it first appears, "the gene" (or "the second gene") after."""
        if var is None or var not in self.refs:
            return article(self.lex.noun(labels.name if isinstance(labels, ir.Label) else None))
        if var in self.seen:
            return f"the {self.refs[var]}"
        self.seen.add(var)
        return article(self.refs[var])

    def rel_type(self, types: ir.LabelExpr | None) -> str:
        if isinstance(types, ir.Label):
            return f"'{self.lex.verb(types.name).active}'"
        return "any"

    # -- patterns -----------------------------------------------------------------------------
    def hops(self, q: ir.Quantifier) -> str:
        upper = "any number of" if q.upper is None else str(q.upper)
        return f"{q.lower} to {upper}" if q.upper != q.lower else str(q.lower)

    def rel(self, r: ir.RelPattern, after: str) -> str:
        kind = self.rel_type(r.types)
        if r.quantifier is not None:
            return f"reachable over {self.hops(r.quantifier)} {kind} steps from {after}"
        a = article(kind.strip("'")).split(" ")[0]
        if r.direction is ir.Direction.OUT:
            return f"with {a} {kind} relationship to {after}"
        if r.direction is ir.Direction.IN:
            return f"with {a} {kind} relationship from {after}"
        return f"connected by {kind} to {after}"

    def chain(self, chain: ir.PathChain) -> str:
        elements = list(chain.elements)
        first = elements[0] if elements else None
        text = self.ref(first.variable, first.labels) if isinstance(first, ir.NodePattern) else ""
        for i in range(1, len(elements) - 1, 2):
            step, target = elements[i], elements[i + 1]
            shown = (
                self.ref(target.variable, target.labels)
                if isinstance(target, ir.NodePattern)
                else "a node"
            )
            if isinstance(step, ir.RelPattern):
                text += f" {self.rel(step, shown)}"
            elif isinstance(step, ir.ParenPath):
                inner = [e for e in step.path.walk() if isinstance(e, ir.RelPattern)]
                kind = self.rel_type(inner[0].types) if inner else "any"
                bounds = self.hops(step.quantifier) if step.quantifier else "1"
                text += f" linked through {bounds} {kind} steps to {shown}"
        return text

    def pattern(self, p: ir.PathPattern) -> str:
        body = self.chain(p.path) if isinstance(p.path, ir.PathChain) else "a path"
        if p.search is not None:
            return f"the shortest path from {body}"
        return body

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: ir.Expr | None) -> str:
        if e is None:
            return ""
        if isinstance(e, ir.Property):
            if isinstance(e.subject, ir.Variable) and e.subject.name in self.refs:
                v = e.subject.name
                return f"the {self.refs[v]}'s {self.lex.prop(self.labels.get(v), e.key)}"
            return f"the {words(e.key)}"
        if isinstance(e, ir.Variable):
            if e.name in self.refs:
                return f"the {self.refs[e.name]}"
            return self.aliases.get(e.name, "the path" if len(e.name) == 1 else words(e.name))
        if isinstance(e, (ir.String, ir.Boolean, ir.Integer, ir.Float, ir.TemporalLiteral)):
            return lit(e)
        if isinstance(e, _BINARY):
            return f"{self.expr(e.left)} {_joiner(e)} {self.expr(e.right)}"
        if isinstance(e, ir.Or):
            return f"either {self.expr(e.left)} or {self.expr(e.right)}"
        if isinstance(e, ir.Not):
            if isinstance(e.operand, ir.Exists):
                return f"there is no {self.subquery(e.operand.query)}"
            return f"it is not the case that {self.expr(e.operand)}"
        if isinstance(e, ir.IsNull):
            return f"{self.expr(e.operand)} is {'known' if e.negated else 'unknown'}"
        if isinstance(e, ir.Exists):
            return f"there is {self.subquery(e.query)}"
        if isinstance(e, ir.CountSubquery):
            return f"the number of matches of {self.subquery(e.query)}"
        if isinstance(e, ir.In):
            return f"{self.expr(e.container)} includes {self.expr(e.item)}"
        if isinstance(e, ir.Aggregate):
            arg = self.expr(e.args[0]) if e.args else "rows"
            lead = _AGG.get(e.name, e.name)
            if e.name == "count" and e.args and isinstance(e.args[0], ir.Variable):
                arg = self.lex.noun(self.labels.get(e.args[0].name), True)
                if e.args[0].name not in self.refs:
                    arg = self.expr(e.args[0]).removeprefix("the ")
            return f"{lead} {'distinct ' if e.distinct else ''}{arg.removeprefix('the ')}".strip()
        if isinstance(e, ir.CountStar):
            return "the number of matches"
        if isinstance(e, ir.Case) and e.whens:
            w = e.whens[0]
            return (
                f"{self.expr(w.result)} if {self.expr(w.condition)}, "
                f"otherwise {self.expr(e.default)}"
            )
        if isinstance(e, ir.FunctionCall):
            args = ", ".join(self.expr(a) for a in e.args)
            return f"the {words(e.name)} of {args}"
        return "a value"

    def subquery(self, q: ir.Query) -> str:
        if isinstance(q, ir.LinearQuery):
            parts = []
            for step in q.steps:
                if isinstance(step, ir.Match):
                    parts.append(" and ".join(self.pattern(p) for p in step.patterns))
                    if step.where is not None:
                        parts.append(f"where {self.expr(step.where)}")
            return " ".join(parts) or "a match"
        return "a match"

    # -- steps --------------------------------------------------------------------------------
    def item(self, item: ir.ReturnItem) -> str:
        text = self.expr(item.expr)
        if item.alias and not (isinstance(item.expr, ir.Variable) and item.expr.name == item.alias):
            self.aliases[item.alias] = text
        if isinstance(item.expr, ir.String) and item.alias:
            return f"{text} as the {words(item.alias)}"
        return text

    def order(self, p: ir.Projection) -> str:
        keys = []
        for s in p.order_by:
            keys.append(f"{self.expr(s.expr)} {'descending' if s.descending else 'ascending'}")
        text = f", sorted by {', '.join(keys)}" if keys else ""
        if isinstance(p.limit, ir.Integer):
            text += ", only the first" if p.limit.value == 1 else f", the first {p.limit.value}"
        return text

    def projection(self, p: ir.Projection, final: bool) -> str:
        shown = [self.item(i) for i in p.items]
        grouped = any(aggregates(i.expr) for i in p.items)
        if not final and all(isinstance(i.expr, ir.Variable) for i in p.items) and not p.order_by:
            text = ""
        elif grouped:
            keys = [s for i, s in zip(p.items, shown) if not aggregates(i.expr)]
            values = [s for i, s in zip(p.items, shown) if aggregates(i.expr)]
            head = "return" if final else "compute"
            text = f"{head} {', '.join(values)}" + (
                f" for each of {', '.join(keys)}" if keys else ""
            )
        else:
            verb = "return" if final else "keep"
            unique = " the distinct values of" if p.distinct else ""
            text = f"{verb}{unique} {', '.join(s for s in shown if s)}"
        if p.where is not None:
            text = f"{text}; keep those where {self.expr(p.where)}".lstrip("; ")
        return (text + self.order(p)).strip()

    def linear(self, q: ir.LinearQuery) -> str:
        parts: list[str] = []
        last = max((i for i, s in enumerate(q.steps) if isinstance(s, ir.Projection)), default=-1)
        for i, step in enumerate(q.steps):
            if isinstance(step, ir.Match):
                found = " and ".join(self.pattern(p) for p in step.patterns)
                lead = "optionally match" if step.optional else "match"
                text = f"{lead} {found}"
                if step.where is not None:
                    text += f" where {self.expr(step.where)}"
                parts.append(text)
            elif isinstance(step, ir.Projection):
                text = self.projection(step, i == last)
                if text:
                    parts.append(text)
            elif isinstance(step, ir.Filter):
                parts.append(f"keep those where {self.expr(step.condition)}")
            elif isinstance(step, ir.CallSubquery):
                parts.append(f"for each of them, {self.query(step.query)}")
        return "; then ".join(parts)

    def query(self, q: ir.Query) -> str:
        if isinstance(q, ir.SetOperation):
            how = "together with" if q.op is ir.SetOp.UNION else q.op.value.lower()
            self.seen.clear()
            left = self.query(q.left)
            self.seen.clear()
            return f"{left}, {how}: {self.query(q.right)}"
        if isinstance(q, ir.LinearQuery):
            return self.linear(q)
        return "answer the query"


_BINARY = (ir.Comparison, ir.StringMatch, ir.And, ir.Arithmetic)


def _joiner(e: ir.Comparison | ir.StringMatch | ir.And | ir.Arithmetic) -> str:
    """The words between the operands of a binary operator, or None."""
    if isinstance(e, ir.Comparison):
        return _COMPARE[e.op]
    if isinstance(e, ir.StringMatch):
        return e.op.value.lower()
    if isinstance(e, ir.And):
        return "and"
    return _ARITH.get(e.op.value, e.op.value)


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"[,\s]+([?.])$", r"\1", text).replace(",,", ",")
    end = "?" if text.endswith("?") else "."
    return text[:1].upper() + text[1:].rstrip(".?") + end


_FRAMES = (
    "I need to know this: {}",
    "For a report on the {domain} data: {}",
    "Could you find out the following? {}",
    "As part of an analysis of the {domain} graph: {}",
)


def question(
    query: ir.Query,
    style: str = "syntactic",
    schema: SchemaGraph | None = None,
    seed: str | int = 0,
) -> str:
    """The question of ``query`` at one level, one sentence, capitalised and punctuated."""
    lex = Lexicon(schema)
    if style == "syntactic":
        return _sentence(Verbalizer(query, lex).query(query))
    digest = hashlib.sha256(f"{seed}:{style}:{query!r}".encode()).hexdigest()
    rng = random.Random(digest)
    text = _sentence(Asker(lex, rng, style).ask(query))
    if style == "business":
        domain = (schema.name if schema is not None and schema.name else "graph").replace("_", " ")
        frame = rng.choice(_FRAMES)
        text = frame.format(text[:1].lower() + text[1:], domain=domain)
    return text


def questions(query: ir.Query, schema: SchemaGraph | None = None, seed: str | int = 0):
    """Every offline level of ``query``'s question."""
    return {level: question(query, level, schema, seed) for level in LEVELS}
