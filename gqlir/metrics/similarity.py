"""IR-level similarity: tree edit distance between canonicalised Graph-IR trees.

String similarity punishes a renamed variable, a reordered ``AND`` or ``a.x = 1`` written as
``1 = a.x`` as much as a wrong label. Comparing the queries' IR after canonicalisation does
not:

* each IR node becomes a tree node labelled by its kind and its scalar fields (labels,
  property keys, operators, literal values); source positions are not part of it;
* variables, aliases and other bound names are renamed ``v1, v2, …`` in order of first
  appearance (pre-order), so a consistent renaming of a query changes nothing;
* ``AND`` / ``OR`` chains are flattened and their operands sorted; the operands of ``=`` and
  ``<>`` are sorted;
* different spellings of one meaning are already one IR node (gqlir's builders normalise them),
  which is why the measure works across dialects: a Cypher query and its GQL translation have
  distance 0 when they mean the same.

The distance is Zhang and Shasha's ordered tree edit distance with unit costs (insert, delete,
relabel); the similarity is ``max(0, 1 − TED / max(|T1|, |T2|))``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .. import ir

__all__ = ["Tree", "canonical_tree", "ir_similarity", "tree_edit_distance"]

# Fields that bind or refer to a variable name (renamed canonically).
_NAME_FIELDS = {
    (ir.NodePattern, "variable"),
    (ir.RelPattern, "variable"),
    (ir.PathPattern, "variable"),
    (ir.ParenPath, "variable"),
    (ir.Variable, "name"),
    (ir.ReturnItem, "alias"),
    (ir.Unwind, "variable"),
    (ir.Unwind, "index"),
    (ir.Binding, "variable"),
    (ir.ListComprehension, "variable"),
    (ir.ListPredicate, "variable"),
    (ir.Reduce, "accumulator"),
    (ir.Reduce, "variable"),
    (ir.MapProjection, "subject"),
    (ir.SetProperties, "variable"),
    (ir.SetLabels, "variable"),
    (ir.RemoveLabels, "variable"),
    (ir.Foreach, "variable"),
    (ir.YieldItem, "alias"),
    (ir.LoadCsv, "variable"),
}

_COMMUTATIVE_COMPARISONS = {ir.CompOp.EQ, ir.CompOp.NE}


@dataclass(slots=True)
class Tree:
    label: str
    children: list[Tree] = field(default_factory=list)

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)

    def text(self) -> str:
        if not self.children:
            return self.label
        return f"{self.label}({','.join(c.text() for c in self.children)})"


class _Renamer:
    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        if name not in self.names:
            self.names[name] = f"v{len(self.names) + 1}"
        return self.names[name]


def _scalar(value: object) -> str:
    if isinstance(value, enum.Enum):
        return value.name
    return repr(value)


def _convert(node: ir.Node, rename: _Renamer) -> Tree:
    parts = [type(node).__name__]
    children: list[Tree] = []
    for name, value in node.field_values():
        if isinstance(value, ir.Node):
            children.append(_convert(value, rename))
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, ir.Node):
                    children.append(_convert(item, rename))
                elif isinstance(item, tuple):  # map entries: (key, expression)
                    keys = [_scalar(x) for x in item if not isinstance(x, ir.Node)]
                    kids = [_convert(x, rename) for x in item if isinstance(x, ir.Node)]
                    children.append(Tree("entry:" + ",".join(keys), kids))
                else:
                    parts.append(f"{name}={_scalar(item)}")
        elif value is None or value is False or value == ():
            continue
        elif isinstance(value, str) and (type(node), name) in _NAME_FIELDS:
            parts.append(f"{name}={rename(value)}")
        else:
            parts.append(f"{name}={_scalar(value)}")
    tree = Tree(" ".join(parts), children)
    return _canonical_order(node, tree)


def _flatten(tree: Tree, label: str) -> list[Tree]:
    out: list[Tree] = []
    for child in tree.children:
        out.extend(_flatten(child, label) if child.label == label else [child])
    return out


def _canonical_order(node: ir.Node, tree: Tree) -> Tree:
    if isinstance(node, (ir.And, ir.Or)):
        tree.children = sorted(_flatten(tree, tree.label), key=Tree.text)
    elif isinstance(node, ir.Comparison) and node.op in _COMMUTATIVE_COMPARISONS:
        tree.children = sorted(tree.children, key=Tree.text)
    return tree


def canonical_tree(query: ir.Node) -> Tree:
    """The canonical labelled tree of an IR node (see the module docstring)."""
    return _convert(query, _Renamer())


# -- Zhang–Shasha ---------------------------------------------------------------------------------


def _postorder(tree: Tree) -> tuple[list[str], list[int]]:
    """Labels in post-order and, for each node, the post-order index of its leftmost leaf."""
    labels: list[str] = []
    leftmost: list[int] = []
    stack: list[list] = [[tree, 0, None]]  # node, next child, leftmost leaf found so far
    while stack:
        frame = stack[-1]
        node, k = frame[0], frame[1]
        if k < len(node.children):
            frame[1] += 1
            stack.append([node.children[k], 0, None])
            continue
        stack.pop()
        index = len(labels)
        labels.append(node.label)
        left = frame[2] if frame[2] is not None else index
        leftmost.append(left)
        if stack and stack[-1][2] is None:
            stack[-1][2] = left
    return labels, leftmost


def _keyroots(leftmost: list[int]) -> list[int]:
    seen: dict[int, int] = {}
    for i, left in enumerate(leftmost):
        seen[left] = i  # the highest node with this leftmost leaf
    return sorted(seen.values())


def tree_edit_distance(a: Tree, b: Tree) -> int:
    """Ordered tree edit distance with unit insert, delete and relabel costs."""
    la, lma = _postorder(a)
    lb, lmb = _postorder(b)
    dist = [[0] * len(lb) for _ in range(len(la))]
    for i in _keyroots(lma):
        for j in _keyroots(lmb):
            li, lj = lma[i], lmb[j]
            rows, cols = i - li + 2, j - lj + 2
            fd = [[0] * cols for _ in range(rows)]
            for x in range(1, rows):
                fd[x][0] = fd[x - 1][0] + 1
            for y in range(1, cols):
                fd[0][y] = fd[0][y - 1] + 1
            for x in range(1, rows):
                i1 = li + x - 1
                for y in range(1, cols):
                    j1 = lj + y - 1
                    if lma[i1] == li and lmb[j1] == lj:
                        relabel = 0 if la[i1] == lb[j1] else 1
                        fd[x][y] = min(
                            fd[x - 1][y] + 1, fd[x][y - 1] + 1, fd[x - 1][y - 1] + relabel
                        )
                        dist[i1][j1] = fd[x][y]
                    else:
                        p, q = lma[i1] - li, lmb[j1] - lj
                        fd[x][y] = min(fd[x - 1][y] + 1, fd[x][y - 1] + 1, fd[p][q] + dist[i1][j1])
    return dist[-1][-1]


def ir_similarity(
    pred: str | ir.Node,
    gold: str | ir.Node,
    dialect: str = "neo4j",
    gold_dialect: str | None = None,
) -> float:
    """1 − TED / max(|T_pred|, |T_gold|), floored at 0, of two queries (texts are parsed in
    their dialects; a ``ParseError`` propagates)."""
    from ..api import parse

    a = parse(pred, dialect) if isinstance(pred, str) else pred
    b = parse(gold, gold_dialect or dialect) if isinstance(gold, str) else gold
    ta, tb = canonical_tree(a), canonical_tree(b)
    size = max(ta.size(), tb.size())
    return max(0.0, 1.0 - tree_edit_distance(ta, tb) / size)
