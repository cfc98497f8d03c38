"""Writes sample.ttl: a small, made-up knowledge graph in Wikidata's RDF shape (items with
labels in several languages, statements with ranks, qualifiers, time values with precisions,
quantities with units, and the truthy wdt: triples of best-rank statements).

    python tests/data/rdf/make_sample.py              # rewrite sample.ttl
    python tests/data/rdf/make_sample.py --check      # exit 1 if sample.ttl is not up to date
    python tests/data/rdf/make_sample.py --expected   # also rewrite expected/ (the golden
                                                      # graph folder); review the diff!

Every item is fictional; the ids are Wikidata-like so the mapping reads like a real one.
The comments say what each case exercises in tests/test_rdf_convert.py.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "sample.ttl")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))

from gqlir.rdf.mapping import WIKIDATA_PREFIXES  # noqa: E402  (the checkout, not an install)

PREFIXES = {
    **WIKIDATA_PREFIXES,
    "wds": "http://www.wikidata.org/entity/statement/",
    "wdv": "http://www.wikidata.org/value/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
RANKS = {
    "preferred": "wikibase:PreferredRank",
    "normal": "wikibase:NormalRank",
    "deprecated": "wikibase:DeprecatedRank",
}


@dataclass(frozen=True)
class Item:
    qid: str


@dataclass(frozen=True)
class Time:
    lexical: str
    precision: int


@dataclass(frozen=True)
class Quantity:
    amount: str
    unit: str


Value = Item | Time | Quantity | str


@dataclass
class St:
    pid: str
    value: Value
    rank: str = "normal"
    qualifiers: list[tuple[str, Value]] = field(default_factory=list)


def q(qid: str) -> Item:
    return Item(qid)


# -- the data ---------------------------------------------------------------------------------

CLASSES = {
    "Q4830453": ("business", None),
    "Q891723": ("public company", "Q4830453"),  # reached only through wdt:P279*
    "Q6881511": ("enterprise", "Q4830453"),
    "Q5": ("human", None),
    "Q6256": ("country", None),
    "Q3624078": ("sovereign state", "Q6256"),
    "Q515": ("city", None),
}
UNITS = {
    "Q11573": "metre",
    "Q3710": "foot",
    "Q11570": "kilogram",
    "Q712226": "square kilometre",
    "Q232291": "square mile",
    "Q199": "1",
    "Q99999": "made-up unit",
}

ITEMS: dict[str, tuple[dict[str, str], list[St]]] = {
    # Companies -----------------------------------------------------------------------------
    "Q9000001": (
        {"en": "Acme Corporation", "fr": "Acme SA"},
        [
            St("P31", q("Q891723")),
            St("P571", Time("1950-03-01T00:00:00Z", 11)),  # a day: DATE and year kept
            St("P1128", Quantity("+1200", "Q199")),
            St("P452", q("Q9000101")),  # list of entity labels
            St("P452", q("Q9000102")),
            St("P17", q("Q9000301")),
            # time-sensitive CEO: preferred current, normal former, deprecated wrong one
            St("P169", q("Q9000201"), "preferred", [("P580", Time("2020-01-15T00:00:00Z", 11))]),
            St("P169", q("Q9000201"), "preferred", [("P580", Time("2020-01-15T00:00:00Z", 11))]),
            St(
                "P169",
                q("Q9000202"),
                "normal",
                [
                    ("P580", Time("2010-06-01T00:00:00Z", 10)),
                    ("P582", Time("2019-12-31T00:00:00Z", 11)),
                ],
            ),
            St("P169", q("Q9000203"), "deprecated", [("P580", Time("2015-01-01T00:00:00Z", 11))]),
        ],
    ),
    "Q9000002": (
        {"fr": "Globex"},
        [  # French label only
            St("P31", q("Q6881511")),
            St("P571", Time("1989-01-01T00:00:00Z", 9)),  # a year: no DATE, a year
            St("P1128", Quantity("+12.5", "Q199")),  # not an integer
            St(
                "P127",
                q("Q9000001"),
                "normal",
                [("P580", Time("2001-05-01T00:00:00Z", 11)), ("P1107", Quantity("+0.51", "Q199"))],
            ),
            St("P17", q("Q9000302")),
        ],
    ),
    "Q9000003": (
        {"en": "Initech"},
        [
            St("P31", q("Q4830453")),
            St("P571", Time("1800-01-01T00:00:00Z", 7)),  # a century: neither
            St("P1128", Quantity("+500", "Q199"), "preferred"),  # highest rank wins
            St("P1128", Quantity("+450", "Q199"), "normal"),
            St("P17", q("Q9000303")),  # a country without a label
            St("P169", q("Q9000204")),  # CEO without qualifiers
            St("P127", q("Q9000001"), "normal", [("P1107", Quantity("+1", "Q99999"))]),
        ],
    ),
    "Q9000004": (
        {"de": "Umbrella GmbH"},
        [  # no en/fr label: dropped
            St("P31", q("Q891723")),
            St("P169", q("Q9000205")),
        ],
    ),
    "Q9000005": ({"en": "Springfield"}, [St("P31", q("Q515"))]),  # not a company
    "Q9000101": ({"en": "manufacturing"}, []),
    "Q9000102": ({"en": "retail", "fr": "commerce de détail"}, []),
    # People: fetched only as CEOs of companies in the graph (selective fetching) -------------
    "Q9000201": (
        {"en": "Ada Example"},
        [
            St("P31", q("Q5")),
            St("P569", Time("1970-04-12T00:00:00Z", 11)),
            St("P2048", Quantity("+1.83", "Q11573")),  # metres to centimetres
            St("P2048", Quantity("+2", "Q99999")),  # a unit the mapping lacks
            St("P27", q("Q9000301")),
        ],
    ),
    "Q9000202": (
        {"en": "Bo Sample", "fr": "Bo Exemple"},
        [
            St("P31", q("Q5")),
            St("P569", Time("1965-01-01T00:00:00Z", 9)),
            St("P2048", Quantity("+6", "Q3710")),  # feet to centimetres
            St("P27", q("Q9000301")),
            St("P27", q("Q9000302")),
        ],
    ),
    "Q9000203": ({"en": "Cy Deprecated"}, [St("P31", q("Q5"))]),  # only a deprecated CEO
    "Q9000204": (
        {"en": "Di Weight"},
        [
            St("P31", q("Q5")),
            St("P569", Time("-0050-01-01T00:00:00Z", 11)),  # BCE: a year, not a DATE
            St("P2048", Quantity("+70", "Q11570")),  # kilograms: not a length
        ],
    ),
    "Q9000205": ({"en": "Ed Unlinked"}, [St("P31", q("Q5"))]),  # CEO of a dropped company
    "Q9000206": ({"en": "Flo Free"}, [St("P31", q("Q5"))]),  # not a CEO at all
    # Countries ------------------------------------------------------------------------------
    "Q9000301": (
        {"en": "Freedonia"},
        [
            St("P31", q("Q3624078")),
            St("P2046", Quantity("+1000", "Q712226")),
            St("P1082", Quantity("+5000000", "Q199"), "preferred"),
            St("P1082", Quantity("+4000000", "Q199"), "normal"),
        ],
    ),
    "Q9000302": (
        {"en": "Sylvania", "fr": "Sylvanie"},
        [
            St("P31", q("Q6256")),
            St("P2046", Quantity("+386.1", "Q232291")),  # square miles to km²
            St("P1082", "about 3 million"),  # not a number
        ],
    ),
    "Q9000303": ({"de": "Kurland"}, [St("P31", q("Q6256"))]),
}


# -- Turtle -----------------------------------------------------------------------------------


def _literal_lines(value: Value) -> tuple[str, list[str]]:
    """The simple (ps:/pq:/wdt:) form of a value and the triples of its value node."""
    if isinstance(value, Item):
        return f"wd:{value.qid}", []
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"', []
    if isinstance(value, Time):
        simple = f'"{value.lexical}"^^xsd:dateTime'
        node = _node(value)
        return simple, [
            f"{node} a wikibase:TimeValue ;",
            f"    wikibase:timeValue {simple} ;",
            f'    wikibase:timePrecision "{value.precision}"^^xsd:integer ;',
            '    wikibase:timeTimezone "0"^^xsd:integer ;',
            "    wikibase:timeCalendarModel wd:Q1985727 .",
        ]
    simple = f'"{value.amount}"^^xsd:decimal'
    node = _node(value)
    return simple, [
        f"{node} a wikibase:QuantityValue ;",
        f"    wikibase:quantityAmount {simple} ;",
        f"    wikibase:quantityUnit wd:{value.unit} .",
    ]


def _node(value: Value) -> str:
    """Value nodes are named by a hash of the value, as in Wikidata (equal values share one)."""
    return "wdv:" + hashlib.md5(repr(value).encode()).hexdigest()


def _best(statements: list[St], pid: str) -> list[St]:
    live = [s for s in statements if s.pid == pid and s.rank != "deprecated"]
    preferred = [s for s in live if s.rank == "preferred"]
    return preferred or live


def turtle() -> str:
    out = [f"@prefix {k}: <{v}> ." for k, v in PREFIXES.items()]
    out.append("")
    value_nodes: dict[str, list[str]] = {}
    for qid, (label, parent) in CLASSES.items():
        out.append(
            f'wd:{qid} rdfs:label "{label}"@en' + (f" ; wdt:P279 wd:{parent} ." if parent else " .")
        )
    for qid, label in UNITS.items():
        out.append(f'wd:{qid} rdfs:label "{label}"@en .')
    for qid, (labels, statements) in ITEMS.items():
        out.append("")
        lines = [f"wd:{qid} a wikibase:Item"]
        lines += [f'rdfs:label "{text}"@{lang}' for lang, text in labels.items()]
        counts: dict[str, int] = {}
        for st in statements:
            counts[st.pid] = counts.get(st.pid, 0) + 1
            st_iri = f"wds:{qid}-{st.pid}-{counts[st.pid]}"
            lines.append(f"p:{st.pid} {st_iri}")
        for pid in dict.fromkeys(s.pid for s in statements):
            for st in _best(statements, pid):
                lines.append(f"wdt:{pid} {_literal_lines(st.value)[0]}")
        out.append(" ;\n    ".join(lines) + " .")
        counts = {}
        for st in statements:
            counts[st.pid] = counts.get(st.pid, 0) + 1
            st_iri = f"wds:{qid}-{st.pid}-{counts[st.pid]}"
            simple, node_lines = _literal_lines(st.value)
            parts = [
                f"{st_iri} a wikibase:Statement",
                f"wikibase:rank {RANKS[st.rank]}",
                f"ps:{st.pid} {simple}",
            ]
            if node_lines:
                parts.append(f"psv:{st.pid} {node_lines[0].split()[0]}")
                value_nodes[node_lines[0].split()[0]] = node_lines
            for qpid, qvalue in st.qualifiers:
                qsimple, qnode = _literal_lines(qvalue)
                parts.append(f"pq:{qpid} {qsimple}")
                if qnode:
                    parts.append(f"pqv:{qpid} {qnode[0].split()[0]}")
                    value_nodes[qnode[0].split()[0]] = qnode
            out.append(" ;\n    ".join(parts) + " .")
    out.append("")
    for name in sorted(value_nodes):
        out.extend(value_nodes[name])
    return "\n".join(out) + "\n"


def write_expected() -> None:
    """Convert the sample by sample_mapping.json into expected/ (run from the repository)."""
    from gqlir.rdf import convert, load_mapping, open_source

    source = open_source(rdf_files=[OUT])
    result = convert(load_mapping(os.path.join(HERE, "sample_mapping.json")), source)
    result.write(os.path.join(HERE, "expected"), overwrite=True)


def main(argv: list[str]) -> int:
    text = turtle()
    if "--check" in argv:
        with open(OUT, encoding="utf-8") as fh:
            return 0 if fh.read() == text else 1
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    if "--expected" in argv:
        write_expected()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
