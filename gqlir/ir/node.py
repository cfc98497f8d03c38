"""The base of every Graph-IR node, and the generic walk / transform / dump API.

Nodes are frozen, slotted dataclasses. Children are the fields whose values are nodes or tuples
of nodes; they are found once per class. The source position (``pos``, an offset into the text a
node was parsed from) never takes part in equality, so ``parse(a) == parse(b)`` compares meaning
only.

``to_json`` / :func:`from_json` give every node a JSON form for storing and exchanging IR: an
envelope ``{"gqlir_ir": 1, "node": ...}`` whose version changes whenever the form does, nodes as
objects tagged ``"$node"`` with their fields (and ``pos``), enums as ``{"$enum", "name"}``, tuples
as arrays, non-finite floats as ``{"$float": "inf"}``.
"""

from __future__ import annotations

import enum
import functools
import json
import math
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field, fields, replace
from operator import attrgetter
from typing import Any, TypeVar

from ..errors import ParseError

N = TypeVar("N", bound="Node")

#: The version of the JSON form; a reader refuses any other.
IR_JSON_VERSION = 1


@dataclass(frozen=True, slots=True)
class Node:
    pos: int | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __init_subclass__(cls) -> None:
        # (No super() call: object's does nothing, and the class ``slots=True`` rebuilds
        # is not the one a zero-argument super() would name.)
        if "__dataclass_fields__" in cls.__dict__ and "__slots__" in cls.__dict__:
            _install_init(cls)  # the slotted class ``@dataclass(slots=True)`` makes

    # -- structure ---------------------------------------------------------------------------
    def field_values(self) -> Iterator[tuple[str, Any]]:
        for name in _field_names(type(self)):
            yield name, getattr(self, name)

    def children(self) -> Iterator[Node]:
        """Direct child nodes, in field order (tuples are flattened)."""
        for name in _child_field_names(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                yield from _nodes_in(value)

    def walk(self) -> Iterator[Node]:
        """This node and all its descendants, pre-order. (The hottest loop of the passes and
        analyses: children are gathered inline rather than through :meth:`children`.)"""
        stack: list[Node] = [self]
        pop = stack.pop
        cache = _CHILD_FIELD_CACHE
        while stack:
            node = pop()
            yield node
            cls = type(node)
            names = cache.get(cls)
            if names is None:
                names = _child_field_names(cls)
            kids: list[Node] = []
            for name in names:
                value = getattr(node, name)
                if isinstance(value, Node):
                    kids.append(value)
                elif isinstance(value, tuple) and value:
                    _flatten_into(value, kids)
            if kids:
                kids.reverse()
                stack.extend(kids)

    def find_all(self, kind: type[N]) -> Iterator[N]:
        for node in self.walk():
            if isinstance(node, kind):
                yield node

    def transform(self, fn: Callable[[Node], Node]) -> Node:
        """Rebuild bottom-up: children first, then ``fn`` on the rebuilt node."""
        cls = type(self)
        names = _CHILD_FIELD_CACHE.get(cls)
        if names is None:
            names = _child_field_names(cls)
        changes: dict[str, Any] | None = None
        for name in names:
            value = getattr(self, name)
            if isinstance(value, Node):
                new = value.transform(fn)
            elif isinstance(value, tuple):
                new = _transform_value(value, fn)
            else:
                continue
            if new is not value:
                if changes is None:
                    changes = {}
                changes[name] = new
        return fn(self if changes is None else _rebuilt(self, changes))

    def with_pos(self: N, pos: int | None) -> N:
        return _rebuilt(self, {"pos": pos})

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self, *, indent: int | None = None) -> str:
        """This node in the versioned JSON form (see the module docstring)."""
        envelope = {"gqlir_ir": IR_JSON_VERSION, "node": _encode(self)}
        return json.dumps(envelope, ensure_ascii=False, allow_nan=False, indent=indent)

    @classmethod
    def from_json(cls: type[N], text: str) -> N:
        """The node ``text`` holds, which must be a ``cls``."""
        node = from_json(text)
        if not isinstance(node, cls):
            raise _json_error(f"the JSON holds a {type(node).__name__}, not a {cls.__name__}")
        return node

    # -- display -----------------------------------------------------------------------------
    def dump(self) -> str:
        """A readable, indented debug tree."""
        lines: list[str] = []
        _dump(self, 0, None, lines)
        return "\n".join(lines)


# -- construction -------------------------------------------------------------------------------

_FACTORY = object()  # stands for a field's default factory in a constructor's signature


def _install_init(cls: type[Node]) -> None:
    """Give a frozen slotted node class a constructor that stores its fields through the
    slots' descriptors. The one ``dataclass(frozen=True)`` writes calls ``object.__setattr__``
    per field, which makes building a node about twice as slow; parsers and passes build
    hundreds of thousands. Same signature, defaults and ``__post_init__`` call; a class with
    a field outside the constructor keeps the generated one."""
    all_fields = fields(cls)
    if any(not f.init or f.name == "self" or f.name.startswith("_") for f in all_fields):
        return
    env: dict[str, Any] = {"_FACTORY": _FACTORY}
    params: list[str] = []
    kw_params: list[str] = []
    body: list[str] = []
    for i, f in enumerate(all_fields):
        slot = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return
        env[f"_set{i}"] = slot.__set__
        param = f.name
        if f.default is not MISSING:
            env[f"_default{i}"] = f.default
            param += f"=_default{i}"
        elif f.default_factory is not MISSING:
            env[f"_factory{i}"] = f.default_factory
            param += "=_FACTORY"
            body.append(f"    if {f.name} is _FACTORY: {f.name} = _factory{i}()")
        (kw_params if f.kw_only else params).append(param)
        body.append(f"    _set{i}(self, {f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    signature = ", ".join(["self", *params, *(["*", *kw_params] if kw_params else [])])
    names = ", ".join(env)
    source = f"def _make({names}):\n  def __init__({signature}):\n"
    source += "\n".join("  " + line for line in body) + "\n  return __init__\n"
    scope: dict[str, Any] = {}
    exec(source, scope)  # the source is built above from the class's own field names
    init = scope["_make"](**env)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    type.__setattr__(cls, "__init__", init)  # replaces a method of the class: a plain setattr


def _rebuilt[T: Node](node: T, changes: dict[str, Any]) -> T:
    """``dataclasses.replace(node, **changes)`` without its per-call field analysis: the
    constructor's arguments are the node's fields (all of them are constructor fields where
    :func:`_install_init` gave the class its constructor)."""
    cls = type(node)
    names = _INIT_FIELDS.get(cls)
    if names is None:
        names = _INIT_FIELDS[cls] = _init_field_names(cls)
    if not names:
        return replace(node, **changes)
    args = {name: getattr(node, name) for name in names}
    args.update(changes)
    return cls(**args)


def rebuilt[T: Node](node: T, /, **changes: Any) -> T:
    """``node`` with ``changes``: what ``dataclasses.replace`` gives, built faster (for the
    walks that rebuild a node wherever a pass changed one of its parts)."""
    return _rebuilt(node, changes)


#: class -> the names of its constructor's fields, pos included; () where some field is not one
_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def _init_field_names(cls: type) -> tuple[str, ...]:
    all_fields = fields(cls)
    if any(not f.init for f in all_fields):
        return ()
    return tuple(f.name for f in all_fields)


_FIELD_CACHE: dict[type, tuple[str, ...]] = {}
_CHILD_FIELD_CACHE: dict[type, tuple[str, ...]] = {}
#: Annotations of fields that never hold a node (a node's text, flags, counts).
_SCALARS = frozenset({"str", "int", "bool", "float", "None"})


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_CACHE.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls) if f.name != "pos")
        _FIELD_CACHE[cls] = names
    return names


def rewrite_each(root: Node, kind: type, rewrite: Callable[[Any], Node]) -> Node:
    """``root.transform`` with ``rewrite`` on each node of class ``kind``, for a rewrite that
    reads only the node it is given (never what it is inside): a walk first finds whether it
    changes any, so that a query it leaves alone is not rebuilt (most queries, for most
    passes)."""
    if not _changes_any(root, kind, rewrite):
        return root
    return root.transform(lambda x: rewrite(x) if type(x) is kind else x)


def _changes_any(root: Node, kind: type, rewrite: Callable[[Any], Node]) -> bool:
    """Whether ``rewrite`` changes a node of class ``kind`` in ``root`` (the walk of
    :meth:`Node.walk`, written out without its generator: it runs on most translations)."""
    stack: list[Any] = [root]
    pop, extend, getters = stack.pop, stack.extend, CHILD_GETTERS
    while stack:
        node = pop()
        if node is None:
            continue  # (an absent child: the commonest value that is not a node)
        cls = type(node)
        if cls is tuple:
            extend(node)
            continue
        if cls is kind and rewrite(node) is not node:
            return True
        extend((getters.get(cls) or node_getter(cls))(node))
    return False


#: node class -> :func:`children_getter` of it (filled as the walks meet the classes).
CHILD_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def node_getter(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """:func:`children_getter` of ``cls``, kept in :data:`CHILD_GETTERS` for the written-out
    walks (``getters.get(cls) or node_getter(cls)``); :func:`not_a_node` for a class whose
    values are not nodes (an operator's enum, a map entry's key): they have no children."""
    is_node = isinstance(cls, type) and issubclass(cls, Node)
    getter = CHILD_GETTERS[cls] = children_getter(cls) if is_node else not_a_node
    return getter


def not_a_node(value: Any) -> tuple[Any, ...]:
    """The children of a value that is not a node: none."""
    return ()


def children_getter(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving a node of ``cls`` its child fields' values as a tuple (for the
    hand-written walks that visit every node of a query)."""
    names = child_fields(cls)
    if not names:
        return lambda node: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda node: (one(node),)
    return attrgetter(*names)


def child_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold nodes (or tuples of them), for hand-written walks."""
    names = _CHILD_FIELD_CACHE.get(cls)
    return names if names is not None else _child_field_names(cls)


def child_nodes(node: Node) -> list[Node]:
    """``node``'s direct child nodes as a list, in field order (:meth:`Node.children` without a
    generator, for the hot checks that ask it of every expression)."""
    kids: list[Node] = []
    for name in child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, Node):
            kids.append(value)
        elif isinstance(value, tuple) and value:
            _flatten_into(value, kids)
    return kids


def _child_field_names(cls: type) -> tuple[str, ...]:
    """The fields that may hold nodes: walks skip the scalar ones (names, flags, numbers)."""
    names = _CHILD_FIELD_CACHE.get(cls)
    if names is None:
        names = tuple(
            f.name
            for f in fields(cls)
            if f.name != "pos"
            and not (
                isinstance(f.type, str) and {part.strip() for part in f.type.split("|")} <= _SCALARS
            )
        )
        _CHILD_FIELD_CACHE[cls] = names
    return names


def _flatten_into(value: tuple, out: list[Node]) -> None:
    for item in value:
        if isinstance(item, Node):
            out.append(item)
        elif isinstance(item, tuple):
            _flatten_into(item, out)


def _nodes_in(value: tuple) -> Iterator[Node]:
    for item in value:
        if isinstance(item, Node):
            yield item
        elif isinstance(item, tuple):
            yield from _nodes_in(item)


def _transform_value(value: Any, fn: Callable[[Node], Node]) -> Any:
    if isinstance(value, Node):
        return value.transform(fn)
    if isinstance(value, tuple):
        out: list[Any] | None = None  # a copy only once something changed
        for i, item in enumerate(value):
            if isinstance(item, Node):
                new = item.transform(fn)
            elif isinstance(item, tuple):
                new = _transform_value(item, fn)
            else:
                new = item
            if out is not None:
                out.append(new)
            elif new is not item:
                out = [*value[:i], new]
        return value if out is None else tuple(out)
    return value


def _scalar(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return value.name
    return repr(value)


def _dump(value: Any, depth: int, label: str | None, lines: list[str]) -> None:
    pad = "  " * depth
    head = f"{label}: " if label else ""
    if isinstance(value, Node):
        scalars = []
        nested = []
        for name, v in value.field_values():
            if isinstance(v, Node) or (isinstance(v, tuple) and any(_has_node(x) for x in v)):
                nested.append((name, v))
            elif v is not None and v != () and v is not False:
                scalars.append(f"{name}={_scalar(v)}")
        lines.append(f"{pad}{head}{type(value).__name__}({', '.join(scalars)})")
        for name, v in nested:
            _dump(v, depth + 1, name, lines)
    elif isinstance(value, tuple):
        lines.append(f"{pad}{head}[")
        for item in value:
            _dump(item, depth + 1, None, lines)
        lines.append(f"{pad}]")
    else:
        lines.append(f"{pad}{head}{_scalar(value)}")


def _has_node(value: Any) -> bool:
    if isinstance(value, Node):
        return True
    if isinstance(value, tuple):
        return any(_has_node(v) for v in value)
    return False


def from_json(text: str) -> Node:
    """The node a :meth:`Node.to_json` text holds (a ParseError ``IR_JSON`` if it is not one,
    or of another version of the form)."""
    try:
        envelope = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(f"not JSON: {exc.msg}") from None
    if not isinstance(envelope, dict) or "gqlir_ir" not in envelope:
        raise _json_error('not gqlir IR: no "gqlir_ir" version')
    if envelope["gqlir_ir"] != IR_JSON_VERSION:
        raise _json_error(
            f"IR JSON version {envelope['gqlir_ir']!r}; this gqlir reads version {IR_JSON_VERSION}"
        )
    node = _decode(envelope.get("node"))
    if not isinstance(node, Node):
        raise _json_error('"node" holds no IR node')
    return node


def _json_error(message: str) -> ParseError:
    return ParseError(message, code="IR_JSON")


def _encode(value: Any) -> Any:
    if isinstance(value, Node):
        out: dict[str, Any] = {"$node": type(value).__name__}
        if value.pos is not None:
            out["pos"] = value.pos
        for name, v in value.field_values():
            out[name] = _encode(v)
        return out
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, enum.Enum):
        return {"$enum": type(value).__name__, "name": value.name}
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": repr(value)}
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"no JSON form for a {type(value).__name__} in the IR")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if not isinstance(value, dict):
        return value
    if "$node" in value:
        cls = _node_classes().get(value["$node"])
        if cls is None:
            raise _json_error(f"unknown IR node type {value['$node']!r}")
        args = {k: _decode(v) for k, v in value.items() if k != "$node"}
        try:
            return cls(**args)
        except TypeError as exc:
            raise _json_error(f"{cls.__name__}: {exc}") from None
    if "$enum" in value:
        kind = _enum_classes().get(value["$enum"])
        if kind is None or value.get("name") not in kind.__members__:
            raise _json_error(f"unknown IR enum value {value.get('$enum')}.{value.get('name')}")
        return kind[value["name"]]
    if "$float" in value:
        return float(value["$float"])
    raise _json_error(f"not an IR value: {sorted(value)}")


@functools.cache
def _node_classes() -> dict[str, type[Node]]:
    """Node classes by name: those a module defines (a slotted dataclass leaves behind the class
    it replaced, which is no module's)."""
    import gqlir.ir  # noqa: F401  (every node module, so that every class is registered)

    out: dict[str, type[Node]] = {}
    stack: list[type[Node]] = [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if getattr(sys.modules[sub.__module__], sub.__qualname__, None) is not sub:
                continue
            if out.setdefault(sub.__name__, sub) is not sub:
                raise TypeError(f"two IR node classes are named {sub.__name__}")
    return out


@functools.cache
def _enum_classes() -> dict[str, type[enum.Enum]]:
    out: dict[str, type[enum.Enum]] = {}
    for cls in _node_classes().values():
        for value in vars(sys.modules[cls.__module__]).values():
            is_enum = isinstance(value, type) and issubclass(value, enum.Enum)
            if is_enum and out.setdefault(value.__name__, value) is not value:
                raise TypeError(f"two IR enums are named {value.__name__}")
    return out
