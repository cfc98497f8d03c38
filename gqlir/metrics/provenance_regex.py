"""CypherBench's PSJS as its script builds it: provenance queries cut out of the Cypher text
by regular expressions (``cypherbench/metrics/provenance_subgraph_jaccard_similarity.py``).

The ``cypherbench`` preset uses it to give CypherBench's numbers; gqlir's own PSJS
(:mod:`.provenance`) builds the provenance query from the IR. What the text rules do, and
gqlir's does not (docs/metrics.md lists them): a query must start with the literal ``MATCH``
(``OPTIONAL MATCH`` first, or lower case, gives an empty set); clause keywords are found
anywhere, so ``STARTS WITH`` opens a ``WITH`` clause and the provenance query no longer parses
(PSJS 0); only anonymous nodes with a purely alphabetic label get a variable; nodes in
variable-length paths are not collected; a prediction that does not parse is still scored on
its MATCH part.
"""

from __future__ import annotations

import re

__all__ = ["provenance_query", "split_union"]

_UNION = re.compile(r"\bUNION\b")
_CALL_BODY = re.compile(r"CALL\s*\{(.*?)\}\s*(WITH|RETURN|WHERE|UNWIND)", re.DOTALL)
_CLAUSE = re.compile(
    r"\b(MATCH|OPTIONAL MATCH|WHERE|RETURN|UNION|WITH|CREATE|SET|DELETE|MERGE|UNWIND"
    r"|ORDER BY|LIMIT|SKIP|FOREACH|CALL|YIELD)\b"
)
_KEPT = ("MATCH", "OPTIONAL MATCH", "WITH", "WHERE")
_ANON_REL = re.compile(r"(\[)(:.*?)(\])")
_ANON_NODE = re.compile(r"(\(:)([A-Za-z]+)(\s*\{.*?\})?\)")
_MAP = re.compile(r"\{[^}]*\}")
_NODE_VAR = re.compile(r"\((\w+)(?::[^\)]*|\))")


def split_union(text: str) -> list[str]:
    """The parts scored separately: the UNION branches of a leading ``CALL { … }`` body
    followed by WITH/RETURN/WHERE/UNWIND (or the whole text if that pattern is absent), else
    the UNION branches of the text."""
    if text.strip().startswith("CALL"):
        body = _CALL_BODY.search(text)
        if body is None:
            return [text.strip()]
        text = body.group(1)
    return [part.strip() for part in _UNION.split(text)]


def _clauses(text: str) -> list[str]:
    starts = [m.start() for m in _CLAUSE.finditer(text)]
    return [text[a:b].strip() for a, b in zip(starts, starts[1:] + [len(text)])]


def _match_part(part: str) -> str | None:
    """The leading MATCH / OPTIONAL MATCH / WHERE clauses; a WITH without ``" as "`` becomes
    ``WITH *``, one with an alias ends the part; trailing WITHs are dropped."""
    if not part.startswith("MATCH"):
        return None
    kept: list[str] = []
    for clause in _clauses(part):
        if not clause.startswith(_KEPT):
            break
        if clause.startswith("WITH"):
            if " as " in clause.lower():
                break
            kept.append("WITH *")
        else:
            kept.append(clause)
    while kept and kept[-1].startswith("WITH"):
        kept.pop()
    return " ".join(kept)


def _name_anonymous(match: str) -> str:
    """Anonymous relationships ``[:T]`` and alphabetic-labelled nodes ``(:L {…})`` get
    variables ``rtmpK`` / ``ntmpK`` (counted across the whole part)."""
    counters = {"n": 0, "r": 0}

    def rel(m: re.Match[str]) -> str:
        counters["r"] += 1
        return f"[rtmp{counters['r'] - 1}{m.group(2)}]"

    def node(m: re.Match[str]) -> str:
        counters["n"] += 1
        return f"(ntmp{counters['n'] - 1}:{m.group(2)}{m.group(3) or ''})"

    out = []
    for clause in _clauses(match):
        if clause.startswith(("MATCH", "OPTIONAL MATCH")):
            clause = _ANON_NODE.sub(node, _ANON_REL.sub(rel, clause))
        out.append(clause)
    return " ".join(out)


def _node_variables(match: str) -> list[str]:
    blanked = _MAP.sub("{dummy}", match)
    found: set[str] = set()
    for clause in _clauses(blanked):
        if clause.startswith(("MATCH", "OPTIONAL MATCH")):
            found.update(_NODE_VAR.findall(clause))
    return sorted(found)


def provenance_query(text: str, column: str = "elemId") -> str:
    """The Cypher query whose rows are the element ids of the provenance nodes of ``text``, as
    CypherBench writes it (an empty ``UNWIND`` when no part starts with MATCH)."""
    queries = []
    for part in split_union(text):
        match = _match_part(part)
        if not match:
            continue
        match = _name_anonymous(match)
        ids = " + ".join(f"collect(distinct elementId({v}))" for v in _node_variables(match))
        queries.append(
            f"{match} WITH {ids or '[]'} AS elemIds UNWIND elemIds AS elemId "
            f"RETURN elemId AS {column}"
        )
    if not queries:
        return f"UNWIND [] AS elemId RETURN elemId AS {column}"
    return " UNION ".join(queries)
