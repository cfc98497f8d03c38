"""Natural questions from a query's scene (:mod:`.reading`): the answer type comes from the
RETURN (a count is "how many", a top-1 by a property is "which … has the highest …"), every
condition is said once, on the entity it constrains, and each question form has several
surface forms, chosen by a seeded generator."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import ir
from .phrases import Lexicon, article, plural, third_to_plain
from .reading import (
    Cond,
    Link,
    Measure,
    Scene,
    add_condition,
    conjuncts,
    group_measures,
    read_match,
)

_DISPLAY = ("name", "title")
COMPARISONS = {
    "=": "is",
    "<>": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is greater than",
    ">=": "is at least",
    "starts with": "starts with",
    "ends with": "ends with",
    "contains": "contains",
    "has": "includes",
}
_AGG = {"avg": "average", "sum": "total", "min": "lowest", "max": "highest"}


def lit(e: ir.Expr | None) -> str:
    """A literal as the question shows it: strings quoted, numbers and dates as written."""
    if isinstance(e, ir.String):
        return f"'{e.value}'"
    if isinstance(e, ir.Boolean):
        return "true" if e.value else "false"
    if isinstance(e, (ir.Integer, ir.Float)):
        return str(e.value)
    if isinstance(e, ir.TemporalLiteral):
        return e.text
    if isinstance(e, ir.ListLiteral):
        return ", ".join(lit(x) for x in e.items)
    return "a given value"


def be(many: bool) -> str:
    return "are" if many else "is"


def agree(verb: str, many: bool) -> str:
    return third_to_plain(verb) if many else verb


def negate(verb: str, many: bool) -> str:
    first, _, rest = verb.partition(" ")
    if first in ("is", "has") and rest:
        return f"{agree(first, many)} not {rest}"
    return f"{'do' if many else 'does'} not {third_to_plain(verb)}"


@dataclass
class Speaker:
    """Writes the phrases of one scene."""

    scene: Scene
    lex: Lexicon
    used: set[int] = field(default_factory=set)
    describing: set[str] = field(default_factory=set)  # measures being said
    said: set[frozenset[str]] = field(default_factory=set)  # "other than" pairs said

    def phrase(self, var: str, many: bool, refs: dict[str, str] | None = None) -> str:
        """A noun phrase that says everything about ``var`` from scratch."""
        self.used, self.said = set(), set()
        return self.np(var, many, refs or {})

    def identifies(self, var: str, key: str) -> bool:
        """Whether ``key`` names one node of ``var``'s label (a name, a key, a unique value)."""
        if key in _DISPLAY:
            return True
        label = self.scene.label(var)
        node = self.lex.schema.node(label) if self.lex.schema and label else None
        if node is None:
            return key in ("id", "key")
        p = node.prop(key)
        return p is not None and (p.unique or key in node.keys)

    def noun(self, var: str, many: bool = False) -> str:
        return self.lex.noun(self.scene.label(var), many)

    def prop(self, var: str, key: str, many: bool = False) -> str:
        words = self.lex.prop(self.scene.label(var), key)
        return plural(words) if many else words

    def pin(self, var: str) -> Cond | None:
        for c in self.scene.entities[var].conds:
            literal = isinstance(c.value, (ir.String, ir.Integer))
            if c.op == "=" and literal and self.identifies(var, c.key):
                return c
        return None

    def pinned(self, var: str) -> str:
        c = self.pin(var)
        assert c is not None
        if c.key in _DISPLAY:
            return f"the {self.noun(var)} {lit(c.value)}"
        return f"the {self.noun(var)} with {self.prop(var, c.key)} {lit(c.value)}"

    # -- noun phrases -------------------------------------------------------------------------
    def np(self, var: str, many: bool, refs: dict[str, str], quantity: str = "") -> str:
        """``var`` as a noun phrase with its conditions and its links not yet said."""
        if var in refs:
            return refs[var]
        if self.pin(var) is not None and not quantity:
            refs = {**refs, var: self.pinned(var)}
            rest = self.clauses(var, many=False, refs=refs).removeprefix("that ")
            return self.pinned(var) + (f", which {rest}," if rest else "")
        head = f"{quantity} {self.noun(var, True)}" if quantity else self.noun(var, many)
        if not many and not quantity:
            head = article(head)
        refs = {**refs, var: f"that {self.noun(var)}"}
        rest = self.clauses(var, many or bool(quantity), refs)
        return f"{head} {rest}".strip()

    def clauses(self, var: str, many: bool, refs: dict[str, str]) -> str:
        parts = [self.link(i, var, many, refs) for i, link in enumerate(self.scene.links)]
        parts = [p for p in parts if p]
        entity = self.scene.entities[var]
        pin = self.pin(var)
        for c in entity.conds:
            if c is not pin or f"the {self.noun(var)}" not in refs.get(var, ""):
                parts.append(self.cond(var, c))
        for other in entity.differs:
            pair = frozenset((var, other))
            if self.scene.label(other) != entity.label or pair in self.said:
                continue
            if self.pin(other) is not None:
                parts.append(f"that {be(many)} not {self.pinned(other)}")
                self.said.add(pair)
            elif other in refs:
                parts.append(f"that {be(many)} not {refs[other]}")
                self.said.add(pair)
        return " and ".join(parts)

    def cond(self, var: str, c: Cond) -> str:
        p = self.prop(var, c.key)
        if c.op in ("known", "unknown"):
            return f"whose {p} is {c.op}"
        return f"whose {p} {COMPARISONS[c.op]} {lit(c.value)}"

    def orient(self, link: Link, var: str) -> bool:
        """Whether ``var`` is the subject (the source) of ``link``; an undirected link takes the
        direction the schema allows between the two labels."""
        if link.directed or self.lex.schema is None or link.type is None:
            return link.source == var
        edge = self.lex.schema.edge(link.type)
        other = link.target if link.source == var else link.source
        mine, theirs = self.scene.label(var), self.scene.label(other)
        return edge is None or edge.connects(mine or "", theirs or "")

    def link(self, i: int, var: str, many: bool, refs: dict[str, str]) -> str:
        link = self.scene.links[i]
        if i in self.used or var not in (link.source, link.target) or link.type is None:
            return ""
        if link.measured and not link.count and link.measured not in self.describing:
            return ""
        self.used.add(i)
        other = link.target if link.source == var else link.source
        verb = self.lex.verb(link.type)
        subject = self.orient(link, var)
        if link.hops is not None:
            return self.hops(link, other, verb.active, subject, many, refs)
        if link.negated:
            any_ = refs.get(other, f"any {self.noun(other)}")
            if subject:
                return f"that {negate(verb.active, many)} {any_}"
            if verb.passive:
                return f"that {negate(verb.passive, many)} {any_}"
            if other in refs:
                return f"that {refs[other]} {negate(verb.active, False)}"
            return f"that no {self.noun(other)} {verb.active}"
        quantity = f"{link.count[0]} {lit(link.count[1])}" if link.count else ""
        other_np = self.np(other, False, refs, quantity)
        when = f" in {lit(link.when)}" if link.when is not None else ""
        now = "currently " if link.current else ""
        if not link.directed and link.source != var and link.target != var:
            return ""
        symmetric = not link.directed and self.scene.label(var) == self.scene.label(other)
        if symmetric and not (self.lex.schema and self._symmetric(link.type)):
            return f"that {be(many)} linked to {other_np} by '{verb.active}' in either direction"
        if subject:
            active, other_np = _fold_noun(verb.active, other_np, self.noun(other))
            return f"that {now}{agree(active, many)} {other_np}{when}"
        if verb.passive:
            return f"that {now}{agree(verb.passive, many)} {other_np}{when}"
        return f"that {other_np} {now}{agree(verb.active, bool(quantity))}{when}"

    def _symmetric(self, type_name: str) -> bool:
        edge = self.lex.schema.edge(type_name) if self.lex.schema else None
        return edge is not None and edge.symmetric

    def hops(self, link: Link, other: str, verb: str, subject: bool, many: bool, refs) -> str:
        lo, hi = link.hops or (1, 1)
        span = str(lo) if lo == hi else (f"{lo} or more" if hi is None else f"{lo} to {hi}")
        chain = f"a chain of {span} '{verb}' links"
        other_np = self.np(other, False, refs)
        if not link.directed:
            return f"that {be(many)} connected to {other_np} by {chain}"
        if subject:
            return f"that {'lead' if many else 'leads'} to {other_np} by {chain}"
        return f"that can be reached from {other_np} by {chain}"

    def measure(self, name: str, owner_ref: str | None = None) -> str:
        m = self.scene.measures[name]
        ref = owner_ref or article(self.noun(m.owner))
        self.describing.add(name)
        what = self.np(m.counted, True, {m.owner: ref})
        self.describing.discard(name)
        if m.key is not None:
            return f"the {_AGG.get(m.agg, m.agg)} {self.prop(m.counted, m.key)} of the {what}"
        return f"the number of {what}"


def _strip_that(phrase: str, noun: str) -> str:
    """For "Which compounds …?": "compounds that palliate X" → "compounds palliate X"."""
    return phrase.replace(f"{noun} that ", f"{noun} ", 1).replace(" and that ", " and ")


def _fold_noun(verb: str, other: str, noun: str) -> tuple[str, str]:
    """A verb phrase ending in its object's noun ("is in the genre") says the noun once:
    "is in the genre 'Musical'", "is in a genre"."""
    tail = f" the {noun}"
    if not verb.endswith(tail):
        return verb, other
    if other.startswith(f"the {noun} "):
        return verb, other[len(tail) :]
    return verb[: -len(tail)], other


@dataclass
class Answer:
    """The final projection, classified."""

    items: list[tuple]
    order: list[tuple[tuple, bool]]
    limit: int | None
    distinct: bool


def classify(e: ir.Expr, scene: Scene) -> tuple:
    if isinstance(e, ir.Property) and isinstance(e.subject, ir.Variable):
        return ("prop", e.subject.name, e.key)
    if isinstance(e, ir.Variable):
        if e.name in scene.measures:
            return ("measure", e.name)
        return ("var", e.name)
    if isinstance(e, ir.CountStar):
        return ("count", None, False)
    if isinstance(e, ir.Aggregate) and e.args:
        inner = classify(e.args[0], scene)
        if e.name == "count" and inner[0] == "var":
            return ("count", inner[1], e.distinct)
        return ("agg", e.name, inner, e.distinct)
    if isinstance(e, ir.String):
        return ("const", e)
    if isinstance(e, ir.FunctionCall) and e.name.lower() == "length":
        return ("length",)
    return ("expr", e)


def answer_of(p: ir.Projection, scene: Scene) -> Answer:
    aliases = {i.alias: classify(i.expr, scene) for i in p.items if i.alias}
    items = [classify(i.expr, scene) for i in p.items]
    order = []
    for s in p.order_by:
        key = classify(s.expr, scene)
        if key[0] == "var" and key[1] in aliases:
            key = aliases[key[1]]
        order.append((key, s.descending))
    limit = p.limit.value if isinstance(p.limit, ir.Integer) else None
    return Answer(items, order, limit, p.distinct)


def build(q: ir.LinearQuery) -> tuple[Scene, list[ir.Projection], dict]:
    """The scene of a linear query, its projections, and what a nested CALL adds."""
    scene = Scene()
    steps = list(q.steps)
    projections: list[ir.Projection] = []
    extra: dict = {}
    for step in steps:
        if isinstance(step, ir.Match):
            read_match(scene, step, steps)
        elif isinstance(step, ir.Projection):
            projections.append(step)
            group_measures(scene, step)
            for c in conjuncts(step.where):
                add_condition(scene, c, {})
            if step is not steps[-1] and step.order_by and step.limit is not None:
                extra["top"] = answer_of(step, scene)
        elif isinstance(step, ir.Filter):
            for c in conjuncts(step.condition):
                add_condition(scene, c, {})
        elif isinstance(step, ir.CallSubquery) and isinstance(step.query, ir.LinearQuery):
            inner, inner_proj, _ = build(step.query)
            for var, ent in inner.entities.items():
                if var in scene.entities:
                    scene.entities[var].conds.extend(ent.conds)
                else:
                    scene.entities[var] = ent
            scene.links.extend(inner.links)
            scene.measures.update(inner.measures)
            last = inner_proj[-1] if inner_proj else None
            if last is not None and last.limit is not None and last.order_by:
                extra["first"] = answer_of(last, scene)
            elif last is not None:
                owners = [v for v in step.imports or ()]
                for item in last.items:
                    if isinstance(item.expr, ir.Aggregate) and item.alias and owners:
                        arg = item.expr.args[0] if item.expr.args else None
                        counted = arg.name if isinstance(arg, ir.Variable) else None
                        if counted:
                            scene.measures[item.alias] = Measure(
                                item.alias, owners[0], "count", counted
                            )
                            for link in scene.links:
                                if {link.source, link.target} == {owners[0], counted}:
                                    link.measured = item.alias
    return scene, projections, extra


class Asker:
    """Natural questions for one query."""

    def __init__(self, lex: Lexicon, rng: random.Random, style: str = "logical") -> None:
        self.lex, self.rng, self.style = lex, rng, style

    def pick(self, *forms: str) -> str:
        """One of the surface forms: CypherBench's style takes the first ("What are the names
        of …?"), the other levels one chosen by the seed."""
        return forms[0] if self.style == "cypherbench" else self.rng.choice(forms)

    def ask(self, q: ir.Query) -> str:
        if isinstance(q, ir.SetOperation):
            return self.union(q)
        if not isinstance(q, ir.LinearQuery):
            return "What does this query return?"
        if isinstance(q.steps[0], ir.CallSubquery) and isinstance(
            q.steps[0].query, ir.SetOperation
        ):
            return self.union(q.steps[0].query, count=True)
        scene, projections, extra = build(q)
        answer = answer_of(projections[-1], scene)
        return self.linear(scene, answer, extra)

    # -- one scene --------------------------------------------------------------------------
    def linear(self, scene: Scene, a: Answer, extra: dict) -> str:
        sp = Speaker(scene, self.lex)
        kinds = [i[0] for i in a.items]
        if "length" in kinds:
            return self.shortest(sp)
        if kinds == ["expr"]:
            return self.comparison(sp, a.items[0][1])
        if "first" in extra:
            return self.nested_first(sp, a, extra["first"])
        measures = [i for i in a.items if i[0] == "measure"]
        aggs = [i for i in a.items if i[0] == "agg"]
        counts = [i for i in a.items if i[0] == "count"]
        props = [i for i in a.items if i[0] == "prop"]
        if aggs and all(x[2][0] == "measure" for x in aggs) and not props and not measures:
            return self.over_measures(sp, aggs, a)
        if measures and counts:
            return self.distribution(sp, measures[0][1], counts[0])
        if aggs and props and aggs[0][2][0] == "measure":
            return self.grouped_measure(sp, props[0], aggs[0], a)
        if measures:
            return self.measured(sp, props, measures, a, extra.get("top"))
        if counts and props:
            return self.group_count(sp, props[0], counts[0], a)
        if counts:
            return self.how_many(sp, counts[0])
        if aggs:
            return self.aggregate(sp, aggs[0])
        return self.listing(sp, props, a)

    def root_np(self, sp: Speaker, var: str, many: bool = True) -> str:
        return sp.phrase(var, many)

    def which(self, sp: Speaker, var: str) -> str:
        """ "Which compounds palliate X" (a verb phrase after the plural noun)."""
        noun = sp.noun(var, True)
        return _strip_that(self.root_np(sp, var), noun)

    def listing(self, sp: Speaker, props: list[tuple], a: Answer) -> str:
        var = props[0][1]
        keys = [p[2] for p in props if p[1] == var]
        if sp.pin(var) is not None and not any(k in _DISPLAY for k in keys):
            subject = self.root_np(sp, var, False)
            names = " and the ".join(sp.prop(var, k) for k in keys)
            return self.pick(
                f"What is the {names} of {subject}?", f"Give the {names} of {subject}."
            )
        shown = [sp.prop(var, k, many=True) for k in keys if k not in _DISPLAY]
        named = any(k in _DISPLAY or k == (sp.pin(var) or Cond("", "")).key for k in keys)
        others = [p for p in props if p[1] != var]
        if others:
            return self.with_related(sp, var, others[0])
        order_key = a.order[0][0] if a.order else None
        if (
            order_key is not None
            and order_key[0] == "prop"
            and order_key[2] not in _DISPLAY
            and (order_key[2] not in keys or named)
        ):
            return self.ranked(sp, var, a, shown)
        if a.order and a.limit is not None:
            key = a.order[0][0]
            by = sp.prop(var, key[2]) if key[0] == "prop" else "name"
            head = f"the first {a.limit} {sp.noun(var, True)} by {by}"
            what = " and ".join(["names", *shown]) if named or not shown else " and ".join(shown)
            if keys and keys[0] not in _DISPLAY:
                what = sp.prop(var, keys[0], many=True)
            sp.used.clear()
            rest = sp.clauses(var, True, {var: f"that {sp.noun(var)}"})
            return f"What are the {what} of {head}{', ' if rest else ''}{rest}?".replace(
                ", that", " that"
            )
        np = self.root_np(sp, var)
        if not named and shown:
            distinct = "different " if a.distinct else ""
            return self.pick(
                f"What {distinct}{' and '.join(shown)} do {np} have?",
                f"List the {distinct}{' and '.join(shown)} of {np}.",
            )
        if shown:
            return self.pick(
                f"What are the names and {' and '.join(shown)} of {np}?",
                f"For {np}, give their names and {' and '.join(shown)}.",
            )
        return self.pick(
            f"What are the names of {np}?",
            f"Which {self.which(sp, var)}?",
            f"List the {np}.",
        )

    def with_related(self, sp: Speaker, var: str, other: tuple) -> str:
        """A pinned entity and the entities an optional link finds (none is an answer too)."""
        link = next(lk for lk in sp.scene.links if {lk.source, lk.target} == {var, other[1]})
        link.optional = False
        related = sp.phrase(other[1], True, {var: sp.pinned(var)})
        p = sp.prop(other[1], other[2], True)
        return self.pick(
            f"What are the {p} of the {related}, if there are any?",
            f"List the {p} of the {related}, if any.",
        )

    def ranked(self, sp: Speaker, var: str, a: Answer, shown: list[str]) -> str:
        key, desc = a.order[0]
        p = sp.prop(var, key[2])
        most = "highest" if desc else "lowest"
        known = [c for c in sp.scene.entities[var].conds if c.key == key[2] and c.op == "known"]
        for c in known:
            sp.scene.entities[var].conds.remove(c)
        np = self.root_np(sp, var)
        if a.limit == 1:
            one = self.root_np(sp, var, False).removeprefix("a ").removeprefix("an ")
            return self.pick(
                f"Which {one} has the {most} {p}?",
                f"What is the name of the {one} with the {most} {p}?",
            )
        if a.limit is not None:
            also = f", and what is the {p} of each" if shown else ""
            return self.pick(
                f"Which {a.limit} {np} have the {most} {p}{also}?",
                f"Among {np}, list the {a.limit} with the {most} {p}{also}.",
            )
        order = "from highest to lowest" if desc else "from lowest to highest"
        return f"List the {np}, sorted by {p} {order}."

    def how_many(self, sp: Speaker, count: tuple) -> str:
        var = count[1]
        if var is None:
            first = next(iter(sp.scene.entities))
            return f"In how many ways can one pick {self.root_np(sp, first, False)}?"
        noun = sp.noun(var, True)
        np = self.root_np(sp, var)
        if np == noun:
            return self.pick(f"How many {noun} are there?", f"What is the number of {noun}?")
        return self.pick(
            f"How many {_strip_that(np, noun)}?",
            f"How many {np} are there?",
            f"What is the number of {np}?",
        )

    def aggregate(self, sp: Speaker, agg: tuple) -> str:
        name, inner = agg[1], agg[2]
        var, key = inner[1], inner[2]
        np = self.root_np(sp, var)
        if name == "count":
            return self.pick(
                f"How many different {sp.prop(var, key, True)} do {np} have?",
                f"What is the number of distinct {sp.prop(var, key, True)} among {np}?",
            )
        word = _AGG.get(name, name)
        return self.pick(
            f"What is the {word} {sp.prop(var, key)} of {np}?",
            f"Across {np}, what is the {word} {sp.prop(var, key)}?",
        )

    def group_count(self, sp: Speaker, key: tuple, count: tuple, a: Answer) -> str:
        var, counted = key[1], count[1]
        if counted == var or counted is None:
            np = self.root_np(sp, var)
            p = sp.prop(var, key[2])
            return self.pick(
                f"How many {np} are there for each {p}?",
                f"For each {p}, how many {np} are there?",
            )
        pronoun = "them" if a.limit is not None else "it"
        what = sp.phrase(counted, True, {var: pronoun})
        optional = any(lk.optional for lk in sp.scene.links)
        group = sp.np(var, True, {})
        none = " (including those with none)" if optional else ""
        if a.limit is not None and a.order:
            return self.pick(
                f"Which {a.limit} {group} have the most {what}{none}, and how many are there "
                "for each?",
                f"List the {a.limit} {group} with the largest number of {what}{none}, with that "
                "number.",
            )
        return self.pick(
            f"For each of the {group}, how many {what} are there{none}?",
            f"How many {what} are there for each of the {group}{none}?",
        )

    def measured(self, sp, props, measures, a: Answer, top) -> str:
        owner = sp.scene.measures[measures[0][1]].owner
        pronoun = "it" if top is None and a.limit is None else "them"
        parts = []
        for m in measures:
            sp.used.clear()
            parts.append(sp.measure(m[1], pronoun))
        if top is not None:
            key = top.order[0][0]
            m = sp.scene.measures[key[1]] if key[0] == "measure" else None
            for link in sp.scene.links:
                if m is not None and link.measured == m.name:
                    link.measured = None
            sp.used.clear()
            crit = sp.measure(m.name, "them").removeprefix("the ") if m else "rank"
            group = f"the {top.limit} {sp.noun(owner, True)} with the largest {crit}"
            return (
                f"For {group}, what are their {sp.prop(owner, props[0][2], True)}, "
                f"{' and '.join(parts)}?"
            )
        group = self.root_np(sp, owner)
        if a.limit is not None:
            return (
                f"Which {a.limit} {group} have the largest {parts[0].removeprefix('the ')}, and "
                "what is that number for each?"
            )
        return f"For each of the {group}, what is {' and '.join(parts)}?"

    def over_measures(self, sp: Speaker, aggs: list[tuple], a: Answer) -> str:
        m = sp.scene.measures[aggs[0][2][1]]
        words = " and the ".join(_AGG.get(x[1], x[1]) for x in aggs)
        return f"Over all {sp.noun(m.owner, True)}, what are the {words} {sp.measure(m.name)[4:]}?"

    def distribution(self, sp: Speaker, measure: str, count: tuple) -> str:
        m = sp.scene.measures[measure]
        return (
            f"For each value of {sp.measure(measure)}, how many {sp.noun(m.owner, True)} "
            "have that many?"
        )

    def grouped_measure(self, sp: Speaker, key: tuple, agg: tuple, a: Answer) -> str:
        m = sp.scene.measures[agg[2][1]]
        group = key[1]
        counted_of = sp.measure(m.name, sp.phrase(m.owner, False, {group: "it"}))
        counted_of += f" (counted once per {sp.noun(m.owner)})"
        np = sp.noun(group, True)
        head = f"Which {a.limit} {np}" if a.limit else f"For each of the {np}, what is"
        if a.limit:
            largest = counted_of.removeprefix("the ")
            return f"{head} have the largest {largest}, and what is it for each?"
        return f"{head} {counted_of}?"

    def nested_first(self, sp: Speaker, a: Answer, first: Answer) -> str:
        owner_key = a.items[0]
        owner = owner_key[1]
        inner_key = first.order[0][0]
        target = inner_key[1]
        p_owner = sp.prop(owner, owner_key[2])
        p_inner = sp.prop(target, inner_key[2])
        inner = sp.phrase(target, False, {owner: "it"}).removeprefix("a ").removeprefix("an ")
        group = sp.np(owner, True, {})
        limit = f"the first {a.limit} " if a.limit else ""
        return (
            f"For {limit}{group} by {p_owner}, what is the {p_inner} of the {inner} with the "
            f"smallest {p_inner}?"
        )

    def shortest(self, sp: Speaker) -> str:
        link = next(lk for lk in sp.scene.links if lk.hops)
        ends = [sp.pinned(v) if sp.pin(v) else sp.noun(v) for v in (link.source, link.target)]
        verb = self.lex.verb(link.type or "").active if link.type else "any"
        hi = link.hops[1] if link.hops else None
        within = f" (looking at most {hi} steps far)" if hi else ""
        way = "from {} to {}" if link.directed else "between {} and {}"
        return f"How many '{verb}' links long is the shortest path {way.format(*ends)}{within}?"

    def comparison(self, sp: Speaker, e: ir.Expr) -> str:
        vars_ = [v for v in sp.scene.entities if sp.pin(v) is not None]
        a, b = (sp.pinned(v) for v in vars_[:2])
        props = [n for n in e.walk() if isinstance(n, ir.Property)]
        p = sp.prop(vars_[0], props[0].key) if props else "value"
        if isinstance(e, ir.Case):
            cond = e.whens[0].condition
            higher = (
                "higher"
                if isinstance(cond, ir.Comparison)
                and cond.op
                in (
                    ir.CompOp.GT,
                    ir.CompOp.GE,
                )
                else "lower"
            )
            return self.pick(
                f"Which has the {higher} {p}, {a} or {b}?",
                f"Between {a} and {b}, which one has the {higher} {p}?",
            )
        if isinstance(e, ir.Comparison):
            word = {"<": "lower", ">": "higher", "<=": "at most", ">=": "at least"}
            w = word.get({ir.CompOp.LT: "<", ir.CompOp.GT: ">"}.get(e.op, "="), "equal")
            return f"Is the {p} of {a} {w} than that of {b}?".replace("equal than", "equal to")
        return f"What is the {p} of {a} minus the {p} of {b}?"

    # -- unions -----------------------------------------------------------------------------
    def union(self, q: ir.SetOperation, count: bool = False) -> str:
        sides = [s for s in (q.left, q.right) if isinstance(s, ir.LinearQuery)]
        built = [build(s) for s in sides]
        answers = [answer_of(p[-1], sc) for sc, p, _ in built]
        consts = [next((i[1] for i in ans.items if i[0] == "const"), None) for ans in answers]
        if all(c is not None for c in consts):
            parts = []
            for (scene, _, _), ans, c in zip(built, answers, consts):
                counted = next(i for i in ans.items if i[0] == "count")[1]
                sp = Speaker(scene, self.lex)
                np = sp.phrase(counted, True)
                parts.append(f"how many {np} are there (reported as {lit(c)})")
            return f"{parts[0][0].upper()}{parts[0][1:]}, and {parts[1]}?"
        clauses = []
        root = None
        for scene, _, _ in built:
            sp = Speaker(scene, self.lex)
            root = next(iter(scene.entities))
            noun = sp.noun(root, True)
            clauses.append(sp.phrase(root, True).removeprefix(noun).strip().removeprefix("that "))
        noun = self.lex.noun(built[0][0].label(root or ""), True) if root else "items"
        either = f"{noun} that either {clauses[0]} or {clauses[1]}"
        if count:
            return self.pick(f"How many {either} are there?", f"What is the number of {either}?")
        return self.pick(f"What are the names of {either}?", f"List the {either}.")
