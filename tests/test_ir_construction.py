"""IR nodes are built by constructors gqlir installs (``ir.node._install_init``) and rebuilt by
``ir.node._rebuilt`` instead of ``dataclasses.replace``: both must behave exactly as the
dataclass machinery they stand in for."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from gqlir import ir, parse
from gqlir.ir.node import _node_classes, _rebuilt

CLASSES = sorted(_node_classes().values(), key=lambda c: c.__name__)


def _expected_parameters(cls: type) -> list[tuple[str, object, object]]:
    """(name, kind, default) of the constructor ``dataclass`` writes for ``cls``."""
    positional, keyword = [], []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default: object = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = "factory"
        else:
            default = inspect.Parameter.empty
        if f.kw_only:
            keyword.append((f.name, inspect.Parameter.KEYWORD_ONLY, default))
        else:
            positional.append((f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default))
    return positional + keyword


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_constructor_has_the_dataclass_signature(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    got = []
    for p in params:
        default = p.default
        field = next(f for f in dataclasses.fields(cls) if f.name == p.name)
        if field.default_factory is not dataclasses.MISSING:
            default = "factory"
        got.append((p.name, p.kind, default))
    assert got == _expected_parameters(cls)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_constructor_stores_every_field_and_stays_frozen(cls: type) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    values = {name: f"v{i}" for i, name in enumerate(names)}
    node = cls(**values)
    assert {name: getattr(node, name) for name in names} == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.pos = 3  # type: ignore[misc]
    again = _rebuilt(node, {"pos": 7})
    assert again == dataclasses.replace(node, pos=7)
    assert again.pos == 7
    assert type(again) is cls


def test_defaults_and_factories_are_those_of_the_fields() -> None:
    node = ir.NodePattern()
    assert (node.variable, node.labels, node.properties, node.where, node.pos) == ((None,) * 5)
    with pytest.raises(TypeError):
        ir.Integer()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ir.Integer(1, 2)  # type: ignore[call-arg]  # pos is keyword-only


def test_rebuilding_matches_replace_on_a_parsed_query() -> None:
    query = parse("MATCH (a:Person {name: 'x'})-[r:KNOWS*1..2]->(b) WHERE a.age > 3 RETURN b")
    for node in query.walk():
        changes = {"pos": 99}
        assert _rebuilt(node, changes) == dataclasses.replace(node, **changes)
        assert _rebuilt(node, changes).pos == 99


def test_transform_keeps_unchanged_subtrees_and_rebuilds_changed_ones() -> None:
    query = parse("MATCH (a) WHERE a.x = 1 AND a.y = 2 RETURN a.x + 1 AS z")
    assert query.transform(lambda n: n) is query

    def bump(node: ir.Node) -> ir.Node:
        return ir.Integer(node.value + 10, pos=node.pos) if isinstance(node, ir.Integer) else node

    bumped = query.transform(bump)
    assert sorted(n.value for n in bumped.walk() if isinstance(n, ir.Integer)) == [11, 11, 12]
    assert sorted(n.value for n in query.walk() if isinstance(n, ir.Integer)) == [1, 1, 2]


@pytest.mark.parametrize("dialect", ["neo4j", "tugraph-cypher", "iso-gql", "spanner", "sqlpgq"])
def test_text_rules_hold_what_their_callbacks_return(dialect: str) -> None:
    """A builder's ``text_rules`` let the parser driver take a token's text as the value of a
    rule without calling the rule's method: that method must return exactly the text for every
    token kind not listed."""
    from gqlir.dialect import get_dialect
    from gqlir.parser import parser_for
    from gqlir.parser.sqlpgq import _parser as sqlpgq_parser

    d = get_dialect(dialect)
    builder = (sqlpgq_parser(d) if d.family == "sql" else parser_for(d)).builder
    for callback, called_for in getattr(builder, "text_rules", {}).items():
        method = getattr(builder, callback)
        for kind in ("NAME", "COUNT", "SHORTEST", "WALK"):
            if kind not in called_for:
                assert method([(kind, "someName", 4)], 4) == "someName"


def test_rewrite_each_gives_the_same_object_back_when_it_changes_nothing() -> None:
    from gqlir.ir.node import rewrite_each

    query = parse("MATCH (n) RETURN toUpper(n.name) AS a, size(n.name) AS b", "neo4j")
    calls: list[str] = []

    def upper_only(call: ir.FunctionCall) -> ir.Expr:
        calls.append(call.name)
        return ir.FunctionCall("lower", call.args) if call.name == "upper" else call

    assert rewrite_each(query, ir.Aggregate, upper_only) is query and not calls
    rewritten = rewrite_each(query, ir.FunctionCall, upper_only)
    names = [x.name for x in rewritten.walk() if isinstance(x, ir.FunctionCall)]
    assert names == ["lower", "size"]
    unchanged = rewrite_each(rewritten, ir.FunctionCall, upper_only)
    assert unchanged is rewritten
