"""Template questions, written from the IR: every item gets one, whatever template it came
from. Two styles:

* ``syntactic`` (Text2GQL-Bench's level 1): names labels, relationship types, properties and
  variables as the schema spells them;
* ``logical`` (level 2): the same question in plain words (``createTime`` → "create time"),
  without variables or schema spellings.
"""

from __future__ import annotations

import re

from .. import ir

_COMPARE = {
    ir.CompOp.EQ: "is",
    ir.CompOp.NE: "is not",
    ir.CompOp.LT: "is less than",
    ir.CompOp.LE: "is at most",
    ir.CompOp.GT: "is greater than",
    ir.CompOp.GE: "is at least",
}
_AGG = {"count": "the number of", "sum": "the total", "avg": "the average", "min": "the lowest"}
_AGG |= {"max": "the highest", "collect": "the list of"}
_ARITH = {"-": "minus", "+": "plus", "*": "times", "/": "divided by", "%": "modulo"}


def words(name: str) -> str:
    """An identifier in plain words: ``createTime`` → "create time", ``HAS_TAG`` → "has tag"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return re.sub(r"\s+", " ", spaced).strip().lower()


class Verbalizer:
    def __init__(self, style: str = "syntactic") -> None:
        self.plain = style == "logical"

    # -- names --------------------------------------------------------------------------------
    def label(self, labels: ir.LabelExpr | None) -> str:
        if isinstance(labels, ir.Label):
            return words(labels.name) if self.plain else labels.name
        return "node"

    def rel_type(self, types: ir.LabelExpr | None) -> str:
        if isinstance(types, ir.Label):
            return words(types.name) if self.plain else types.name
        return "any"

    def var(self, name: str | None) -> str:
        return "" if self.plain or not name or name.startswith("_") else f" {name}"

    def prop(self, key: str) -> str:
        return words(key) if self.plain else key

    # -- patterns -----------------------------------------------------------------------------
    def node(self, n: ir.NodePattern) -> str:
        return f"{self.label(n.labels)}{self.var(n.variable)}"

    def hops(self, q: ir.Quantifier) -> str:
        upper = "any number of" if q.upper is None else str(q.upper)
        return f"{q.lower} to {upper}" if q.upper != q.lower else str(q.lower)

    def rel(self, r: ir.RelPattern, after: str) -> str:
        kind = self.rel_type(r.types)
        if r.quantifier is not None:
            return f"reachable over {self.hops(r.quantifier)} {kind} hops from {after}"
        if r.direction is ir.Direction.OUT:
            return f"with a {kind} relationship to {after}"
        if r.direction is ir.Direction.IN:
            return f"with a {kind} relationship from {after}"
        return f"connected by {kind} to {after}"

    def chain(self, chain: ir.PathChain) -> str:
        elements = list(chain.elements)
        if not elements:
            return ""
        text = self.node(elements[0]) if isinstance(elements[0], ir.NodePattern) else ""
        i = 1
        while i + 1 < len(elements) + 1 and i < len(elements):
            step, target = elements[i], elements[i + 1] if i + 1 < len(elements) else None
            shown = self.node(target) if isinstance(target, ir.NodePattern) else "a node"
            if isinstance(step, ir.RelPattern):
                text += f" {self.rel(step, shown)}"
            elif isinstance(step, ir.ParenPath):
                inner = [e for e in step.path.walk() if isinstance(e, ir.RelPattern)]
                kind = self.rel_type(inner[0].types) if inner else "any"
                bounds = self.hops(step.quantifier) if step.quantifier else "1"
                text += f" linked through {bounds} {kind} steps to {shown}"
            i += 2
        return text

    def pattern(self, p: ir.PathPattern) -> str:
        body = self.chain(p.path) if isinstance(p.path, ir.PathChain) else "a path"
        if p.search is not None:
            return f"the shortest path{self.var(p.variable)} where {body}"
        return body

    # -- expressions --------------------------------------------------------------------------
    def expr(self, e: ir.Expr | None) -> str:
        if e is None:
            return ""
        if isinstance(e, ir.Property):
            subject = self.expr(e.subject)
            return f"the {self.prop(e.key)}" + (f" of {subject}" if subject else "")
        if isinstance(e, ir.Variable):
            return "" if self.plain else e.name
        if isinstance(e, ir.String):
            return f"'{e.value}'"
        if isinstance(e, ir.Boolean):
            return "true" if e.value else "false"
        if isinstance(e, (ir.Integer, ir.Float)):
            return repr(e.value) if isinstance(e.value, float) else str(e.value)
        if isinstance(e, ir.TemporalLiteral):
            return e.text
        joiner = _joiner(e)
        if joiner is not None:
            return f"{self.expr(e.left)} {joiner} {self.expr(e.right)}"  # type: ignore[attr-defined]
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
            return f"the number of {self.subquery(e.query)}"
        if isinstance(e, ir.In):
            return f"{self.expr(e.item)} is among {self.expr(e.container)}"
        if isinstance(e, ir.Aggregate):
            arg = self.expr(e.args[0]) if e.args else "rows"
            arg = arg.removeprefix("the ")
            lead = _AGG.get(e.name, e.name)
            if e.name == "count":
                arg = arg or "matches"
            return f"{lead} {'distinct ' if e.distinct else ''}{arg}".strip()
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
            return f"the {e.name} of {args}"
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
        if not text:
            return self.prop(item.alias or "it")
        if item.alias and not self.plain and isinstance(item.expr, (ir.Aggregate, ir.Case)):
            return f"{text} (as {item.alias})"
        return text

    def order(self, p: ir.Projection, by_alias: dict[str, str]) -> str:
        keys = []
        for s in p.order_by:
            if isinstance(s.expr, ir.Variable) and s.expr.name in by_alias:
                shown = by_alias[s.expr.name]
            else:
                shown = self.expr(s.expr)
            keys.append(f"{shown} {'descending' if s.descending else 'ascending'}")
        text = f", sorted by {', '.join(keys)}" if keys else ""
        if isinstance(p.limit, ir.Integer):
            text += ", only the first" if p.limit.value == 1 else f", the first {p.limit.value}"
        return text

    def projection(self, p: ir.Projection, final: bool) -> str:
        shown = [self.item(i) for i in p.items]
        by_alias = {i.alias: s for i, s in zip(p.items, shown) if i.alias}
        grouped = any(
            isinstance(n, (ir.Aggregate, ir.CountStar)) for i in p.items for n in i.expr.walk()
        )
        if not final and p.distinct and all(isinstance(i.expr, ir.Variable) for i in p.items):
            text = ""
        elif grouped:
            keys = [
                s.removeprefix("the ") for i, s in zip(p.items, shown) if not _aggregates(i.expr)
            ]
            values = [s for i, s in zip(p.items, shown) if _aggregates(i.expr)]
            head = "return" if final else "compute"
            text = f"{head} {', '.join(values)}" + (f" for each {', '.join(keys)}" if keys else "")
        else:
            verb = "return" if final else "keep"
            unique = " distinct" if p.distinct else ""
            text = f"{verb}{unique} {', '.join(s for s in shown if s)}"
        if p.where is not None:
            text = f"{text}; keep those where {self.expr(p.where)}".lstrip("; ")
        return (text + self.order(p, by_alias)).strip()

    def linear(self, q: ir.LinearQuery) -> str:
        parts: list[str] = []
        last = max((i for i, s in enumerate(q.steps) if isinstance(s, ir.Projection)), default=-1)
        for i, step in enumerate(q.steps):
            if isinstance(step, ir.Match):
                found = " and ".join(self.pattern(p) for p in step.patterns)
                lead = "optionally match" if step.optional else "find"
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
            return f"{self.query(q.left)}, {how} {self.query(q.right)}"
        if isinstance(q, ir.LinearQuery):
            return self.linear(q)
        return "answer the query"


def _joiner(e: ir.Expr) -> str | None:
    """The words between the operands of a binary operator, or None."""
    if isinstance(e, ir.Comparison):
        return _COMPARE[e.op]
    if isinstance(e, ir.StringMatch):
        return e.op.value.lower()
    if isinstance(e, ir.And):
        return "and"
    if isinstance(e, ir.Arithmetic):
        return _ARITH.get(e.op.value, e.op.value)
    return None


def _aggregates(e: ir.Expr) -> bool:
    return any(isinstance(n, (ir.Aggregate, ir.CountStar)) for n in e.walk())


def question(query: ir.Query, style: str = "syntactic") -> str:
    """The template question of ``query``: one sentence, capitalised, ending with a period."""
    text = Verbalizer(style).query(query).strip()
    text = re.sub(r"\s+", " ", text)
    return (text[:1].upper() + text[1:]).rstrip(".") + "."
