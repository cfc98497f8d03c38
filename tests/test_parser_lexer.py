"""The lexer's one regex tries operators first (they are the most frequent tokens); that must
never change which token it reads. Checked against the plain order, regex terminals in grammar
order and then operators longest first, at every position of tricky texts."""

from __future__ import annotations

import random
import re

import pytest

from gqlir.parser.tables import _may_start, _trie, load_tables

GRAMMARS = ("cypher", "opencypher9", "tugraph-cypher", "gql", "spanner", "tugraph-gql", "sqlpgq")

TEXTS = [
    "RETURN [-.1e-5, 1..2, n.x, .5, 5., $p, $1, `a``b`, 'it''s', \"q\\\"\"] AS l",
    "MATCH (a)-->(b)<--(c)-[r]->(d)<-[s]-(e)--(f) WHERE a.x<>1 AND b.y>=.2 RETURN a",
    "MATCH (a)-[:T*1..3]-(b) RETURN 1--1, 1-->2, x=~'a.*', a||b, m{.k, .*}",
    "GRAPH g MATCH p = (a)~[e]~>(b)<~[f]~(c)|+|(d) RETURN a.@id, x::INT, 0x1F, 0o7, 0b1",
    "SELECT * FROM GRAPH_TABLE (g MATCH (a:Person)-[e]->(b) WHERE a.id = :id COLUMNS (a.x))",
    "/* c */ RETURN 1 // trailing\n , 2 -- gql comment\n",
    "RETURN é٣, `é`, 1e5, 1E+5, 1_000, 0.5e-3, ..., ::, <<, >>, |+|, =>",
]


def _plain_order(token_regex: str, operators: dict) -> str:
    """The token alternation as the grammar lists it: the regex terminals' groups (which
    follow the leading OP group), then every operator, longest first."""
    rest = token_regex[token_regex.index(")|(?P<") + 2 :]
    ops = sorted(operators, key=len, reverse=True)
    return rest + "|(?P<OP>" + "|".join(re.escape(op) for op in ops) + ")"


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_operators_first_reads_the_same_tokens(grammar: str) -> None:
    tables = load_tables(grammar)
    assert tables.token_regex.startswith("(?P<OP>")
    skip = f"(?:{tables.skip_regex})*"
    ours = re.compile(f"{skip}(?:{tables.token_regex})?")
    plain = re.compile(f"{skip}(?:{_plain_order(tables.token_regex, tables.operators)})?")
    rng = random.Random(26)
    alphabet = list("abXY_019.eE+-*/<>=!~|&^%$:;,()[]{}'\"`\\ \n#@?") + ["é", "٣"]
    texts = TEXTS + ["".join(rng.choices(alphabet, k=rng.randint(1, 24))) for _ in range(3000)]
    for text in texts:
        for pos in range(len(text) + 1):
            a, b = plain.match(text, pos), ours.match(text, pos)
            assert a is not None and b is not None
            assert (a.lastgroup, a.end()) == (b.lastgroup, b.end()), (text, pos)
            if a.lastgroup:
                assert a.span(a.lastgroup) == b.span(a.lastgroup), (text, pos)


def test_may_start() -> None:
    assert _may_start(r"[^\W\d]\w*", "a")
    assert not _may_start(r"[^\W\d]\w*", "1")
    assert not _may_start(r"[^\W\d]\w*", "(")
    assert _may_start(r"([0-9][0-9_]*)?\.[0-9]+", ".")  # the optional part may be absent
    assert not _may_start(r"([0-9][0-9_]*)?\.[0-9]+", "-")
    assert _may_start(r"(?i:x)", "X")  # a case-insensitive part: assumed to
    assert _may_start(r"a*", "(")  # it matches nothing, so anything may follow


def test_trie_matches_the_longest_operator() -> None:
    ops = ["<-->", "<--", "<-", "<", "-", "--", "->", "-[", "]", "]-", "]->"]
    trie = re.compile(f"(?:{_trie(sorted(ops, key=len, reverse=True))})")
    for text in ["<-->x", "<--x", "<-x", "<x", "--x", "->", "-[", "]->", "]-x", "]x"]:
        longest = max((op for op in ops if text.startswith(op)), key=len)
        match = trie.match(text)
        assert match is not None and match.group() == longest, text
