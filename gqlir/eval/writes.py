"""Graph updates: CREATE/INSERT, MERGE, SET, REMOVE and DELETE, one input row at a time.

Rows are processed in order and every row sees the writes of the rows before it, which is what
makes ``MERGE`` over several rows create a node once and match it afterwards. Property values
are checked on the way in: a property is a scalar or a homogeneous list of scalars, and setting
null removes it. Deleting a node that still has relationships fails at the end of the DELETE
clause unless DETACH was given (or the relationships went in the same clause).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import ir
from ..errors import EvaluationError
from .graph import Node, Relationship
from .patterns import pattern_variables
from .runtime import Row, Runtime, unsupported
from .values import Path, is_property_value, type_name

__all__ = ["Writer"]


def _left_to_right(pattern: ir.PathPattern) -> ir.PathPattern:
    """A MERGE pattern to create: Neo4j creates a relationship merged without a direction
    from left to right."""

    def direct(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.RelPattern) and node.direction is ir.Direction.EITHER:
            return replace(node, direction=ir.Direction.OUT)
        return node

    directed = pattern.transform(direct)
    assert isinstance(directed, ir.PathPattern)  # direct() rewrites relationship patterns only
    return directed


def _type_error(message: str, detail: str = "InvalidArgumentType") -> EvaluationError:
    return EvaluationError(message, category="TypeError", detail=detail)


class Writer:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    # -- CREATE ------------------------------------------------------------------------------------

    def create(self, patterns: tuple[ir.PathPattern, ...], row: Row) -> Row:
        """Create every pattern for one row; returns the row with the new variables bound."""
        row = dict(row)
        for pp in patterns:
            if not isinstance(pp.path, ir.PathChain):
                raise unsupported("path alternation in CREATE")
            nodes: list[Node] = []
            rels: list[Relationship] = []
            elements = pp.path.elements
            for el in elements:
                if isinstance(el, ir.NodePattern):
                    nodes.append(self._create_node(el, row))
                elif not isinstance(el, ir.RelPattern):
                    raise unsupported(f"{type(el).__name__} in CREATE")
            node_index = 0
            for el in elements:
                if isinstance(el, ir.NodePattern):
                    node_index += 1
                    continue
                assert isinstance(el, ir.RelPattern)
                left, right = nodes[node_index - 1], nodes[node_index]
                rels.append(self._create_rel(el, left, right, row))
            if pp.variable:
                row[pp.variable] = Path(tuple(nodes), tuple(rels))
        return row

    def _create_node(self, el: ir.NodePattern, row: Row) -> Node:
        if el.variable and el.variable in row:
            existing = row[el.variable]
            if not isinstance(existing, Node):
                raise EvaluationError(
                    f"variable {el.variable} is a {type_name(existing)}, not a node",
                    category="SyntaxError",
                    detail="VariableTypeConflict",
                )
            if existing.deleted:
                raise EvaluationError(
                    "cannot create a relationship to a deleted node",
                    category="EntityNotFound",
                    detail="DeletedEntityAccess",
                )
            return existing
        labels = _label_names(el.labels)
        props = self._properties(el.properties, row)
        node = self.rt.graph.create_node(labels, props)
        if el.variable:
            row[el.variable] = node
        return node

    def _create_rel(self, el: ir.RelPattern, left: Node, right: Node, row: Row) -> Relationship:
        if el.quantifier is not None:
            raise EvaluationError(
                "cannot create a variable-length relationship",
                category="SyntaxError",
                detail="CreatingVarLength",
            )
        if el.variable and el.variable in row:
            raise EvaluationError(
                f"relationship variable {el.variable} is already bound",
                category="SyntaxError",
                detail="VariableAlreadyBound",
            )
        types = _label_names(el.types)
        if len(types) != 1:
            raise EvaluationError(
                "a created relationship needs exactly one type",
                category="SyntaxError",
                detail="NoSingleRelationshipType",
            )
        if el.direction is ir.Direction.OUT:
            start, end = left, right
        elif el.direction is ir.Direction.IN:
            start, end = right, left
        else:
            raise EvaluationError(
                "a created relationship needs a direction",
                category="SyntaxError",
                detail="RequiresDirectedRelationship",
            )
        rel = self.rt.graph.create_relationship(
            types[0], start, end, self._properties(el.properties, row)
        )
        if el.variable:
            row[el.variable] = rel
        return rel

    def _properties(self, expr: ir.Expr | None, row: Row) -> dict[str, Any]:
        if expr is None:
            return {}
        value = self.rt.eval(expr, row)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise _type_error(f"properties must be a map, not {type_name(value)}")
        out = {}
        for key, v in value.items():
            if v is None:
                continue
            _check_property(key, v)
            out[key] = v
        return out

    # -- MERGE -------------------------------------------------------------------------------------

    def merge(self, step: ir.Merge, row: Row) -> list[Row]:
        """Match the whole pattern; bind every match (ON MATCH), or create all of it (ON CREATE)."""
        self._refuse_null_properties(step.pattern, row)
        matches = list(self.rt.matcher.match((step.pattern,), ir.MatchMode.DIFFERENT_EDGES, row))
        if matches:
            for m in matches:
                for action in step.actions:
                    if not action.on_create:
                        self.set_items(action.items, m)
            return matches
        created = self.create((_left_to_right(step.pattern),), row)
        for action in step.actions:
            if action.on_create:
                self.set_items(action.items, created)
        return [created]

    def _refuse_null_properties(self, pp: ir.PathPattern, row: Row) -> None:
        """A MERGE property that is null could never be matched after the create."""
        local = pattern_variables(pp.path) - set(row)
        for el in pp.path.walk():
            if not isinstance(el, (ir.NodePattern, ir.RelPattern)):
                continue
            if not isinstance(el.properties, ir.MapLiteral):
                continue
            for key, value in el.properties.entries:
                if any(isinstance(v, ir.Variable) and v.name in local for v in value.walk()):
                    continue
                if self.rt.eval(value, row) is None:
                    raise EvaluationError(
                        f"cannot MERGE with a null value for property {key!r}",
                        category="SemanticError",
                        detail="MergeReadOwnWrites",
                    )

    # -- SET / REMOVE ------------------------------------------------------------------------------

    def set_items(self, items: tuple[ir.SetItem, ...], row: Row) -> None:
        for item in items:
            if isinstance(item, ir.SetProperty):
                self._set_property(
                    self.rt.eval(item.subject, row), item.key, self.rt.eval(item.value, row)
                )
            elif isinstance(item, ir.SetDynamicProperty):
                key = self.rt.eval(item.key, row)
                if not isinstance(key, str):
                    raise _type_error(f"a property key must be a string, not {type_name(key)}")
                self._set_property(
                    self.rt.eval(item.subject, row), key, self.rt.eval(item.value, row)
                )
            elif isinstance(item, ir.SetProperties):
                self._set_properties(
                    row.get(item.variable), self.rt.eval(item.value, row), item.merge
                )
            elif isinstance(item, ir.SetLabels):
                target = row.get(item.variable)
                if target is None:
                    continue
                if not isinstance(target, Node):
                    raise _type_error(f"SET labels needs a node, not {type_name(target)}")
                _alive(target)
                for label in item.labels:
                    target.labels[label] = None
            else:
                raise unsupported(f"the SET item {type(item).__name__}")

    def _set_property(self, target: Any, key: str, value: Any) -> None:
        if target is None:
            return
        if not isinstance(target, (Node, Relationship)):
            raise _type_error(f"SET needs a node or a relationship, not {type_name(target)}")
        _alive(target)
        if value is None:
            target.properties.pop(key, None)
            return
        _check_property(key, value)
        target.properties[key] = value

    def _set_properties(self, target: Any, value: Any, merge: bool) -> None:
        if target is None:
            return
        if not isinstance(target, (Node, Relationship)):
            raise _type_error(f"SET needs a node or a relationship, not {type_name(target)}")
        _alive(target)
        if isinstance(value, (Node, Relationship)):
            value = dict(value.properties)
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise _type_error(f"SET = needs a map, not {type_name(value)}")
        for key, v in value.items():
            if v is not None:
                _check_property(key, v)
        if not merge:
            target.properties.clear()
        for key, v in value.items():
            if v is None:
                target.properties.pop(key, None)
            else:
                target.properties[key] = v

    def remove_items(self, items: tuple[ir.RemoveItem, ...], row: Row) -> None:
        for item in items:
            if isinstance(item, ir.RemoveProperty):
                target = self.rt.eval(item.subject, row)
                if target is None:
                    continue
                if not isinstance(target, (Node, Relationship)):
                    raise _type_error(
                        f"REMOVE needs a node or a relationship, not {type_name(target)}"
                    )
                _alive(target)
                target.properties.pop(item.key, None)
            elif isinstance(item, ir.RemoveLabels):
                target = row.get(item.variable)
                if target is None:
                    continue
                if not isinstance(target, Node):
                    raise _type_error(f"REMOVE labels needs a node, not {type_name(target)}")
                _alive(target)
                for label in item.labels:
                    target.labels.pop(label, None)
            else:
                raise unsupported(f"the REMOVE item {type(item).__name__}")

    # -- DELETE ------------------------------------------------------------------------------------

    def delete(self, step: ir.Delete, rows: list[Row]) -> None:
        nodes: dict[int, Node] = {}
        rels: dict[int, Relationship] = {}
        for row in rows:
            for target in step.targets:
                self._collect(self.rt.eval(target, row), nodes, rels)
        graph = self.rt.graph
        for rel in rels.values():
            graph.delete_relationship(rel)
        for node in nodes.values():
            if node.id not in graph.nodes:
                continue
            if step.detach:
                for rel in graph.outgoing(node.id) + graph.incoming(node.id):
                    graph.delete_relationship(rel)
            elif graph.degree(node.id):
                raise EvaluationError(
                    "cannot delete a node that still has relationships (use DETACH DELETE)",
                    category="ConstraintVerificationFailed",
                    detail="DeleteConnectedNode",
                )
        for node in nodes.values():
            graph.delete_node(node)

    def _collect(self, value: Any, nodes: dict[int, Node], rels: dict[int, Relationship]) -> None:
        if value is None:
            return
        if isinstance(value, Node):
            nodes[value.id] = value
        elif isinstance(value, Relationship):
            rels[value.id] = value
        elif isinstance(value, Path):
            for n in value.nodes:
                nodes[n.id] = n
            for r in value.relationships:
                rels[r.id] = r
        else:
            raise _type_error(f"DELETE needs a node, relationship or path, not {type_name(value)}")


def _label_names(expr: ir.LabelExpr | None) -> list[str]:
    if expr is None:
        return []
    if isinstance(expr, ir.Label):
        return [expr.name]
    if isinstance(expr, ir.LabelAnd):
        return _label_names(expr.left) + _label_names(expr.right)
    if isinstance(expr, ir.LabelOr):
        raise EvaluationError(
            "a created element cannot have alternative labels or types",
            category="SyntaxError",
            detail="NoSingleRelationshipType",
        )
    raise unsupported(f"the label expression {type(expr).__name__} in CREATE")


def _check_property(key: str, value: Any) -> None:
    if not is_property_value(value):
        raise _type_error(
            f"property {key!r} cannot hold a {type_name(value)}", "InvalidPropertyType"
        )


def _alive(element: Node | Relationship) -> None:
    if element.deleted:
        raise EvaluationError(
            f"the {type_name(element).lower()} was deleted",
            category="EntityNotFound",
            detail="DeletedEntityAccess",
        )
