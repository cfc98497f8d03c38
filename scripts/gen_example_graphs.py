"""Generate the example schemas and graphs under schemas/ (deterministic: seeded, no clock).

    python scripts/gen_example_graphs.py [--check] [OUT_DIR]

Six domains: an encyclopedic one (CypherBench-like, with the relation annotations), a finance
one (FinBench-like), movies, a social network (LDBC SNB-like), a biomedical one (Hetionet-like)
and one derived from a relational database (schemas/bookstore/source.sql). Each folder gets
``schema.json`` (gqlir's schema JSON) and its graph, in JSON lines, CSV or Parquet so that every
layout of docs/graph-format.md is exercised. ``--check`` regenerates into a temporary directory
and fails if anything differs from the committed files (Parquet files are compared by content).
The data satisfies every constraint of its schema (keys, cardinality, participation,
entailment), which tests/test_schema_examples.py checks with the validator.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gqlir.schema.formats import read as read_schema
from gqlir.schema.graphdata import Edge, Node, write_csv, write_jsonl, write_parquet
from gqlir.schema.model import (
    Cardinality,
    EdgeType,
    Endpoint,
    NodeType,
    Participation,
    Property,
    SchemaGraph,
)
from gqlir.schema.types import parse_type

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")
N1, NM, M1, O1 = (
    Cardinality.MANY_TO_ONE,
    Cardinality.MANY_TO_MANY,
    Cardinality.ONE_TO_MANY,
    Cardinality.ONE_TO_ONE,
)
TOTAL, PARTIAL = Participation.TOTAL, Participation.PARTIAL


def P(name: str, t: str, **kw: Any) -> Property:
    return Property(name, parse_type(t), **kw)


def E(
    label: str, pairs: list[tuple[str, str]], props: tuple[Property, ...] = (), **kw: Any
) -> EdgeType:
    return EdgeType(label, tuple(Endpoint(a, b) for a, b in pairs), props, **kw)


FIRST = "Ada Alan Amara Anil Bea Bo Carl Chen Dana Dmitri Elif Emma Femi Gita Hana Ivan Jon Kai Lena Li Maya Nia Omar Pia Quinn Rosa Sam Taro Uma Vera Wei Xena Yara Zoe".split()
LAST = "Abe Baker Costa Diaz Eze Fischer Garcia Haas Ito Jensen Kim Lopez Meyer Nakamura Okafor Park Quist Rossi Silva Tanaka Ueda Varga Weber Xu Young Zhou".split()
WORDS = "amber blue cedar delta echo fable garnet harbor iris jade kelvin lumen maple north opal prism quartz river sierra tide umber violet willow xenon yonder zephyr".split()


def person_name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def rand_date(rng: random.Random, y0: int, y1: int) -> str:
    start = dt.date(y0, 1, 1).toordinal()
    return dt.date.fromordinal(rng.randint(start, dt.date(y1, 12, 31).toordinal())).isoformat()


def rand_datetime(rng: random.Random, y0: int, y1: int, zoned: bool = True) -> str:
    d = dt.date.fromisoformat(rand_date(rng, y0, y1))
    t = dt.datetime(
        d.year, d.month, d.day, rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    )
    if zoned:
        t = t.replace(tzinfo=dt.timezone(dt.timedelta(hours=rng.choice((-5, 0, 1, 8)))))
    return t.isoformat()


class Builder:
    """Collects nodes and edges, enforcing the schema's edge constraints while generating."""

    def __init__(self, schema: SchemaGraph, rng: random.Random) -> None:
        self.schema = schema
        self.rng = rng
        self.nodes: dict[str, list[Node]] = {n.label: [] for n in schema.node_types}
        self.edges: list[Edge] = []
        self._pairs: set[tuple[str, Any, Any]] = set()
        self._out: dict[tuple[str, Any], int] = {}
        self._in: dict[tuple[str, Any], int] = {}

    def add_nodes(
        self, label: str, count: int, make: Callable[[int], dict[str, Any]], id_prefix: str = ""
    ) -> None:
        nt = self.schema.node(label)
        assert nt is not None
        for i in range(count):
            props = {k: v for k, v in make(i).items() if v is not None}
            key = props[nt.keys[0]] if nt.keys else i
            nid: Any = f"{id_prefix}{key}" if id_prefix else key if nt.keys else f"{label}:{i}"
            self.nodes[label].append(Node(nid, nt.labels, props))

    def ids(self, label: str) -> list[Any]:
        return [n.id for n in self.nodes[label]]

    def can_add(self, label: str, s: Any, t: Any) -> bool:
        et = self.schema.edge(label)
        assert et is not None
        if (label, s, t) in self._pairs or (et.symmetric and (label, t, s) in self._pairs):
            return False
        if s == t and et.symmetric:
            return False
        card = et.cardinality
        if card is not None and card.source_max_one and self._out.get((label, s), 0):
            return False
        return not (card is not None and card.target_max_one and self._in.get((label, t), 0))

    def add_edge(self, label: str, s: Any, t: Any, props: dict[str, Any] | None = None) -> bool:
        if not self.can_add(label, s, t):
            return False
        self._pairs.add((label, s, t))
        self._out[(label, s)] = self._out.get((label, s), 0) + 1
        self._in[(label, t)] = self._in.get((label, t), 0) + 1
        self.edges.append(
            Edge(label, s, t, {k: v for k, v in (props or {}).items() if v is not None})
        )
        return True

    def connect(
        self,
        label: str,
        src: str,
        dst: str,
        per_source: tuple[int, int],
        props: Callable[[Any, Any], dict[str, Any]] | None = None,
        targets: list[Any] | None = None,
    ) -> None:
        """Give every ``src`` node between ``per_source`` edges to ``dst`` nodes."""
        pool = targets if targets is not None else self.ids(dst)
        for s in self.ids(src):
            want = self.rng.randint(*per_source)
            tries = 0
            made = 0
            while made < want and tries < want * 10 + 10:
                tries += 1
                t = self.rng.choice(pool)
                if self.add_edge(label, s, t, props(s, t) if props else None):
                    made += 1

    def cover_targets(
        self,
        label: str,
        src: str,
        dst: str,
        props: Callable[[Any, Any], dict[str, Any]] | None = None,
    ) -> None:
        """Total participation of the target side: every ``dst`` node gets an incoming edge."""
        sources = self.ids(src)
        for t in self.ids(dst):
            if self._in.get((label, t), 0):
                continue
            for _ in range(50):
                s = self.rng.choice(sources)
                if self.add_edge(label, s, t, props(s, t) if props else None):
                    break

    def all_nodes(self) -> list[Node]:
        return [n for label in self.nodes for n in self.nodes[label]]


# -- 1. encyclopedic -----------------------------------------------------------------------------


def encyclopedia() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    schema = SchemaGraph(
        name="encyclopedia",
        description="A CypherBench-like encyclopedic graph: countries, cities, people, organisations and awards.",
        node_types=(
            NodeType(
                "Continent", (P("name", "STRING"),), keys=("name",), description="A continent"
            ),
            NodeType(
                "Country",
                (
                    P("name", "STRING"),
                    P("population", "INT64"),
                    P("area", "FLOAT64", unit="km2"),
                    P("gdp", "FLOAT64", unit="USD"),
                    P("government", "STRING", categorical=True),
                ),
                keys=("name",),
                description="A sovereign state",
            ),
            NodeType(
                "City",
                (
                    P("name", "STRING"),
                    P("population", "INT64"),
                    P("elevation", "FLOAT64", unit="m"),
                ),
                keys=("name",),
                description="A city",
            ),
            NodeType(
                "Person",
                (
                    P("name", "STRING"),
                    P("birth_date", "DATE"),
                    P("death_date", "DATE"),
                    P("occupation", "STRING", categorical=True),
                    P("height", "FLOAT64", unit="cm"),
                ),
                keys=("name",),
                description="A notable person",
            ),
            NodeType(
                "Organization",
                (P("name", "STRING"), P("founded", "INT64"), P("kind", "STRING", categorical=True)),
                keys=("name",),
                description="A company, party or institution",
            ),
            NodeType(
                "Award",
                (P("name", "STRING"), P("first_awarded", "DATE")),
                keys=("name",),
                description="A prize",
            ),
        ),
        edge_types=(
            E(
                "locatedIn",
                [("City", "Country"), ("Country", "Continent")],
                cardinality=N1,
                source_participation=TOTAL,
                target_participation=PARTIAL,
            ),
            E(
                "capitalOf",
                [("City", "Country")],
                cardinality=O1,
                source_participation=PARTIAL,
                target_participation=TOTAL,
                implies=("locatedIn",),
            ),
            E(
                "bornIn",
                [("Person", "City")],
                cardinality=N1,
                source_participation=PARTIAL,
                target_participation=PARTIAL,
            ),
            E(
                "citizenOf",
                [("Person", "Country")],
                cardinality=NM,
                source_participation=TOTAL,
                target_participation=PARTIAL,
            ),
            E(
                "headOfState",
                [("Country", "Person")],
                (P("start_year", "INT64"), P("end_year", "INT64")),
                keys=("start_year",),
                cardinality=NM,
                source_participation=PARTIAL,
                target_participation=PARTIAL,
                time_sensitive=True,
            ),
            E(
                "memberOf",
                [("Person", "Organization")],
                (P("start_year", "INT64"), P("end_year", "INT64")),
                keys=("start_year",),
                cardinality=NM,
                source_participation=PARTIAL,
                target_participation=PARTIAL,
                time_sensitive=True,
            ),
            E(
                "receivedAward",
                [("Person", "Award"), ("Organization", "Award")],
                (P("year", "INT64"),),
                keys=("year",),
                cardinality=NM,
                source_participation=PARTIAL,
                target_participation=TOTAL,
            ),
            E(
                "borders",
                [("Country", "Country")],
                cardinality=NM,
                source_participation=PARTIAL,
                target_participation=PARTIAL,
                symmetric=True,
            ),
            E(
                "basedIn",
                [("Organization", "City")],
                cardinality=N1,
                source_participation=TOTAL,
                target_participation=PARTIAL,
            ),
        ),
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        b.add_nodes(
            "Continent",
            6,
            lambda i: {
                "name": ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"][i]
            },
        )
        govs = ["republic", "monarchy", "federation"]
        b.add_nodes(
            "Country",
            60,
            lambda i: {
                "name": f"{WORDS[i % 26].title()}ia {i // 26 + 1}",
                "population": rng.randint(10**5, 2 * 10**8),
                "area": round(rng.uniform(500, 3e6), 1),
                "gdp": round(rng.uniform(1e9, 2e13), -6),
                "government": rng.choice(govs),
            },
        )
        b.add_nodes(
            "City",
            240,
            lambda i: {
                "name": f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}",
                "population": rng.randint(10**4, 10**7),
                "elevation": round(rng.uniform(-20, 3500), 1),
            },
        )
        occ = ["politician", "scientist", "athlete", "writer", "musician"]
        b.add_nodes(
            "Person",
            500,
            lambda i: {
                "name": f"{person_name(rng)} {i}",
                "birth_date": rand_date(rng, 1900, 2000),
                "death_date": rand_date(rng, 2001, 2024) if rng.random() < 0.2 else None,
                "occupation": rng.choice(occ),
                "height": round(rng.uniform(150, 205), 1) if rng.random() < 0.7 else None,
            },
        )
        kinds = ["company", "party", "university"]
        b.add_nodes(
            "Organization",
            120,
            lambda i: {
                "name": f"{rng.choice(WORDS).title()} {rng.choice(kinds).title()} {i}",
                "founded": rng.randint(1800, 2020),
                "kind": rng.choice(kinds),
            },
        )
        b.add_nodes(
            "Award",
            25,
            lambda i: {
                "name": f"{WORDS[i].title()} Prize",
                "first_awarded": rand_date(rng, 1900, 1990),
            },
        )
        countries = b.ids("Country")
        cities = b.ids("City")
        for c in countries:
            b.add_edge("locatedIn", c, rng.choice(b.ids("Continent")))
        # capitals first (1:1, every country has one), each capital is located in its country
        for c, city in zip(countries, cities):
            b.add_edge("capitalOf", city, c)
            b.add_edge("locatedIn", city, c)
        for city in cities[len(countries) :]:
            b.add_edge("locatedIn", city, rng.choice(countries))
        b.connect("bornIn", "Person", "City", (0, 1))
        b.connect("citizenOf", "Person", "Country", (1, 2))
        people = b.ids("Person")
        for c in countries:
            year = rng.randint(1950, 1990)
            for _ in range(rng.randint(0, 3)):
                end = year + rng.randint(2, 12)
                b.add_edge(
                    "headOfState",
                    c,
                    rng.choice(people),
                    {"start_year": year, "end_year": end if end < 2024 else None},
                )
                year = end
        b.connect(
            "memberOf",
            "Person",
            "Organization",
            (0, 2),
            lambda s, t: {
                "start_year": rng.randint(1960, 2015),
                "end_year": rng.choice([None, rng.randint(2016, 2023)]),
            },
        )
        b.connect(
            "receivedAward",
            "Person",
            "Award",
            (0, 1),
            lambda s, t: {"year": rng.randint(1950, 2023)},
        )
        b.cover_targets(
            "receivedAward", "Organization", "Award", lambda s, t: {"year": rng.randint(1950, 2023)}
        )
        for _ in range(90):
            b.add_edge("borders", rng.choice(countries), rng.choice(countries))
        b.connect("basedIn", "Organization", "City", (1, 1))
        return b

    return schema, gen


# -- 2. finance ----------------------------------------------------------------------------------


def finance() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    amount = P("amount", "DECIMAL(18,2)", unit="CNY")
    ct = P("createTime", "DATETIME", required=True)
    schema = SchemaGraph(
        name="finance",
        description="A FinBench-like financial graph: people, companies, accounts, loans and sign-in media.",
        node_types=(
            NodeType(
                "Person",
                (
                    P("id", "INT64"),
                    P("name", "STRING"),
                    P("isBlocked", "BOOLEAN"),
                    P("createTime", "DATETIME"),
                    P("gender", "STRING", categorical=True),
                    P("birthday", "DATE"),
                    P("country", "STRING"),
                    P("city", "STRING"),
                ),
                keys=("id",),
            ),
            NodeType(
                "Company",
                (
                    P("id", "INT64"),
                    P("name", "STRING", indexed=True),
                    P("isBlocked", "BOOLEAN"),
                    P("createTime", "DATETIME"),
                    P("country", "STRING"),
                    P("city", "STRING"),
                    P("business", "STRING"),
                    P("url", "STRING"),
                ),
                keys=("id",),
            ),
            NodeType(
                "Account",
                (
                    P("id", "INT64"),
                    P("createTime", "DATETIME"),
                    P("isBlocked", "BOOLEAN"),
                    P("accountType", "STRING", categorical=True),
                    P("nickname", "STRING"),
                    P("email", "STRING", unique=True),
                    P("lastLoginTime", "DATETIME"),
                    P("accountLevel", "STRING", categorical=True),
                ),
                keys=("id",),
            ),
            NodeType(
                "Loan",
                (
                    P("id", "INT64"),
                    P("loanAmount", "DECIMAL(18,2)", unit="CNY"),
                    P("balance", "DECIMAL(18,2)", unit="CNY"),
                    P("createTime", "DATETIME"),
                    P("loanUsage", "STRING"),
                    P("interestRate", "FLOAT64", unit="%"),
                ),
                keys=("id",),
            ),
            NodeType(
                "Medium",
                (
                    P("id", "INT64"),
                    P("mediumType", "STRING", categorical=True),
                    P("isBlocked", "BOOLEAN"),
                    P("createTime", "DATETIME"),
                    P("riskLevel", "STRING", categorical=True),
                ),
                keys=("id",),
            ),
        ),
        edge_types=(
            E(
                "own",
                [("Person", "Account"), ("Company", "Account")],
                (P("createTime", "DATETIME"),),
                cardinality=M1,
                target_participation=TOTAL,
            ),
            E(
                "transfer",
                [("Account", "Account")],
                (ct, amount, P("orderNum", "STRING"), P("payType", "STRING", categorical=True)),
                keys=("createTime",),
                cardinality=NM,
            ),
            E(
                "withdraw",
                [("Account", "Account")],
                (ct, amount),
                keys=("createTime",),
                cardinality=NM,
            ),
            E("repay", [("Account", "Loan")], (ct, amount), keys=("createTime",), cardinality=NM),
            E("deposit", [("Loan", "Account")], (ct, amount), keys=("createTime",), cardinality=NM),
            E(
                "signIn",
                [("Medium", "Account")],
                (ct, P("location", "STRING")),
                keys=("createTime",),
                cardinality=NM,
            ),
            E(
                "apply",
                [("Person", "Loan"), ("Company", "Loan")],
                (P("createTime", "DATETIME"), P("orgName", "STRING")),
                cardinality=M1,
                target_participation=TOTAL,
            ),
            E(
                "invest",
                [("Person", "Company"), ("Company", "Company")],
                (P("createTime", "DATETIME"), P("ratio", "FLOAT64")),
                cardinality=NM,
            ),
            E(
                "guarantee",
                [("Person", "Person"), ("Company", "Company")],
                (P("createTime", "DATETIME"), P("relationship", "STRING")),
                cardinality=NM,
            ),
        ),
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        cities = ["Beijing", "Shanghai", "Hangzhou", "Shenzhen", "Chengdu"]
        b.add_nodes(
            "Person",
            300,
            lambda i: {
                "id": 1000 + i,
                "name": person_name(rng),
                "isBlocked": rng.random() < 0.05,
                "createTime": rand_datetime(rng, 2015, 2022),
                "gender": rng.choice(["female", "male"]),
                "birthday": rand_date(rng, 1950, 2003),
                "country": "China",
                "city": rng.choice(cities),
            },
        )
        b.add_nodes(
            "Company",
            80,
            lambda i: {
                "id": 5000 + i,
                "name": f"{rng.choice(WORDS).title()} {rng.choice(['Tech', 'Trade', 'Bank', 'Foods'])} {i}",
                "isBlocked": rng.random() < 0.03,
                "createTime": rand_datetime(rng, 2000, 2020),
                "country": "China",
                "city": rng.choice(cities),
                "business": rng.choice(["retail", "finance", "software", "logistics"]),
                "url": f"https://example.com/c{i}",
            },
        )
        b.add_nodes(
            "Account",
            600,
            lambda i: {
                "id": 20000 + i,
                "createTime": rand_datetime(rng, 2015, 2022),
                "isBlocked": rng.random() < 0.04,
                "accountType": rng.choice(["debit", "credit", "brokerage"]),
                "nickname": f"{rng.choice(WORDS)}{i}",
                "email": f"acct{i}@example.com",
                "lastLoginTime": rand_datetime(rng, 2022, 2023),
                "accountLevel": rng.choice(["basic", "silver", "gold"]),
            },
        )
        b.add_nodes(
            "Loan",
            150,
            lambda i: {
                "id": 90000 + i,
                "loanAmount": f"{rng.randint(1000, 500000)}.00",
                "balance": f"{rng.randint(0, 1000)}.{rng.randint(0, 99):02d}",
                "createTime": rand_datetime(rng, 2018, 2023),
                "loanUsage": rng.choice(["housing", "business", "education"]),
                "interestRate": round(rng.uniform(0.02, 0.12), 4),
            },
        )
        b.add_nodes(
            "Medium",
            120,
            lambda i: {
                "id": 70000 + i,
                "mediumType": rng.choice(["POS", "phone", "web"]),
                "isBlocked": rng.random() < 0.05,
                "createTime": rand_datetime(rng, 2015, 2022),
                "riskLevel": rng.choice(["low", "medium", "high"]),
            },
        )
        owners = b.ids("Person") + b.ids("Company")
        for acct in b.ids("Account"):
            b.add_edge(
                "own", rng.choice(owners), acct, {"createTime": rand_datetime(rng, 2015, 2022)}
            )
        accts = b.ids("Account")
        money = lambda: f"{rng.randint(1, 20000)}.{rng.randint(0, 99):02d}"  # noqa: E731
        b.connect(
            "transfer",
            "Account",
            "Account",
            (0, 5),
            lambda s, t: {
                "createTime": rand_datetime(rng, 2022, 2023),
                "amount": money(),
                "orderNum": f"T{rng.randint(10**6, 10**7)}",
                "payType": rng.choice(["wire", "app", "card"]),
            },
        )
        b.connect(
            "withdraw",
            "Account",
            "Account",
            (0, 1),
            lambda s, t: {"createTime": rand_datetime(rng, 2022, 2023), "amount": money()},
        )
        loans = b.ids("Loan")
        for loan in loans:
            b.add_edge(
                "apply",
                rng.choice(owners),
                loan,
                {
                    "createTime": rand_datetime(rng, 2018, 2023),
                    "orgName": rng.choice(["ICBC", "CCB", "BOC"]),
                },
            )
            for _ in range(rng.randint(1, 3)):
                b.add_edge(
                    "deposit",
                    loan,
                    rng.choice(accts),
                    {"createTime": rand_datetime(rng, 2018, 2023), "amount": money()},
                )
        b.connect(
            "repay",
            "Account",
            "Loan",
            (0, 1),
            lambda s, t: {"createTime": rand_datetime(rng, 2019, 2023), "amount": money()},
        )
        b.connect(
            "signIn",
            "Medium",
            "Account",
            (1, 4),
            lambda s, t: {
                "createTime": rand_datetime(rng, 2022, 2023),
                "location": rng.choice(cities),
            },
        )
        b.connect(
            "invest",
            "Person",
            "Company",
            (0, 1),
            lambda s, t: {
                "createTime": rand_datetime(rng, 2010, 2023),
                "ratio": round(rng.uniform(0.01, 0.5), 3),
            },
        )
        b.connect(
            "invest",
            "Company",
            "Company",
            (0, 1),
            lambda s, t: {
                "createTime": rand_datetime(rng, 2010, 2023),
                "ratio": round(rng.uniform(0.01, 0.5), 3),
            },
        )
        b.connect(
            "guarantee",
            "Person",
            "Person",
            (0, 1),
            lambda s, t: {
                "createTime": rand_datetime(rng, 2015, 2023),
                "relationship": rng.choice(["family", "friend", "business"]),
            },
        )
        b.connect(
            "guarantee",
            "Company",
            "Company",
            (0, 1),
            lambda s, t: {"createTime": rand_datetime(rng, 2015, 2023), "relationship": "business"},
        )
        return b

    return schema, gen


# -- 3. movies -----------------------------------------------------------------------------------


def movies() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    schema = SchemaGraph(
        name="movies",
        description="Movies, the people who made them, genres, and users who rate them.",
        node_types=(
            NodeType("Person", (P("name", "STRING"), P("born", "INT64")), keys=("name",)),
            NodeType(
                "Movie",
                (
                    P("title", "STRING"),
                    P("released", "INT64", required=True),
                    P("tagline", "STRING"),
                    P("budget", "DECIMAL(12,2)", unit="USD"),
                    P("runtime", "INT64", unit="min"),
                    P("languages", "LIST<STRING>"),
                ),
                keys=("title",),
            ),
            NodeType("Genre", (P("name", "STRING"),), keys=("name",)),
            NodeType(
                "User", (P("userId", "INT64"), P("name", "STRING", required=True)), keys=("userId",)
            ),
        ),
        edge_types=(
            E(
                "ACTED_IN",
                [("Person", "Movie")],
                (P("roles", "LIST<STRING>"),),
                cardinality=NM,
                target_participation=TOTAL,
            ),
            E("DIRECTED", [("Person", "Movie")], cardinality=NM, target_participation=TOTAL),
            E("WROTE", [("Person", "Movie")], cardinality=NM),
            E("PRODUCED", [("Person", "Movie")], cardinality=NM),
            E("IN_GENRE", [("Movie", "Genre")], cardinality=NM, source_participation=TOTAL),
            E(
                "RATED",
                [("User", "Movie")],
                (P("rating", "FLOAT64", required=True), P("timestamp", "DATETIME")),
                cardinality=NM,
            ),
            E("FOLLOWS", [("User", "User")], cardinality=NM),
        ),
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        b.add_nodes(
            "Person",
            400,
            lambda i: {
                "name": f"{person_name(rng)} {i}",
                "born": rng.randint(1930, 2000) if rng.random() < 0.9 else None,
            },
        )
        b.add_nodes(
            "Movie",
            250,
            lambda i: {
                "title": f"The {rng.choice(WORDS).title()} {rng.choice(['Affair', 'Code', 'Storm', 'Garden', 'Run'])} {i}",
                "released": rng.randint(1960, 2023),
                "tagline": f"{rng.choice(WORDS).title()} never ends"
                if rng.random() < 0.6
                else None,
                "budget": f"{rng.randint(1, 200) * 100000}.00" if rng.random() < 0.7 else None,
                "runtime": rng.randint(80, 180),
                "languages": sorted(
                    rng.sample(["en", "fr", "de", "ja", "es", "hi"], rng.randint(1, 2))
                ),
            },
        )
        b.add_nodes(
            "Genre",
            12,
            lambda i: {
                "name": [
                    "Action",
                    "Comedy",
                    "Drama",
                    "Horror",
                    "Romance",
                    "Sci-Fi",
                    "Thriller",
                    "Animation",
                    "Documentary",
                    "Crime",
                    "Fantasy",
                    "Musical",
                ][i]
            },
        )
        b.add_nodes("User", 200, lambda i: {"userId": i + 1, "name": f"user{i + 1}"})

        def roles(s: Any, t: Any) -> dict[str, Any]:
            if rng.random() < 0.9:
                return {"roles": [f"{rng.choice(FIRST)}"]}
            return {"roles": [f"{rng.choice(FIRST)}", f"{rng.choice(FIRST)}"]}

        b.connect("ACTED_IN", "Person", "Movie", (0, 3), roles)
        b.cover_targets("ACTED_IN", "Person", "Movie", roles)
        b.cover_targets("DIRECTED", "Person", "Movie")
        b.connect("WROTE", "Person", "Movie", (0, 1))
        b.connect("PRODUCED", "Person", "Movie", (0, 1))
        b.connect("IN_GENRE", "Movie", "Genre", (1, 3))
        b.connect(
            "RATED",
            "User",
            "Movie",
            (0, 8),
            lambda s, t: {
                "rating": rng.choice([1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0]),
                "timestamp": rand_datetime(rng, 2015, 2023),
            },
        )
        b.connect("FOLLOWS", "User", "User", (0, 4))
        return b

    return schema, gen


# -- 4. social network ---------------------------------------------------------------------------


def social() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    cd = P("creationDate", "DATETIME", required=True)
    schema = SchemaGraph(
        name="social",
        description="An LDBC SNB-like social network: people, forums, posts, comments, tags and cities.",
        node_types=(
            NodeType(
                "Person",
                (
                    P("id", "INT64"),
                    P("firstName", "STRING", required=True),
                    P("lastName", "STRING", required=True),
                    P("gender", "STRING", categorical=True),
                    P("birthday", "DATE"),
                    cd,
                    P("browserUsed", "STRING", categorical=True),
                    P("locationIP", "STRING"),
                    P("email", "LIST<STRING>"),
                    P("speaks", "LIST<STRING>"),
                ),
                keys=("id",),
            ),
            NodeType("Forum", (P("id", "INT64"), P("title", "STRING"), cd), keys=("id",)),
            NodeType(
                "Post",
                (
                    P("id", "INT64"),
                    cd,
                    P("content", "STRING"),
                    P("length", "INT32"),
                    P("language", "STRING", categorical=True),
                ),
                keys=("id",),
            ),
            NodeType(
                "Comment",
                (P("id", "INT64"), cd, P("content", "STRING"), P("length", "INT32")),
                keys=("id",),
            ),
            NodeType("Tag", (P("id", "INT64"), P("name", "STRING", unique=True)), keys=("id",)),
            NodeType("City", (P("id", "INT64"), P("name", "STRING", indexed=True)), keys=("id",)),
        ),
        edge_types=(
            E(
                "KNOWS",
                [("Person", "Person")],
                (P("creationDate", "DATETIME"),),
                cardinality=NM,
                symmetric=True,
            ),
            E("IS_LOCATED_IN", [("Person", "City")], cardinality=N1, source_participation=TOTAL),
            E("HAS_MEMBER", [("Forum", "Person")], (P("joinDate", "DATETIME"),), cardinality=NM),
            E("HAS_MODERATOR", [("Forum", "Person")], cardinality=N1, source_participation=TOTAL),
            E("CONTAINER_OF", [("Forum", "Post")], cardinality=M1, target_participation=TOTAL),
            E(
                "HAS_CREATOR",
                [("Post", "Person"), ("Comment", "Person")],
                cardinality=N1,
                source_participation=TOTAL,
            ),
            E(
                "REPLY_OF",
                [("Comment", "Post"), ("Comment", "Comment")],
                cardinality=N1,
                source_participation=TOTAL,
            ),
            E(
                "LIKES",
                [("Person", "Post"), ("Person", "Comment")],
                (P("creationDate", "DATETIME"),),
                cardinality=NM,
            ),
            E("HAS_TAG", [("Post", "Tag"), ("Comment", "Tag"), ("Forum", "Tag")], cardinality=NM),
            E("HAS_INTEREST", [("Person", "Tag")], cardinality=NM),
        ),
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        b.add_nodes(
            "City", 30, lambda i: {"id": 100 + i, "name": f"{rng.choice(WORDS).title()}ville {i}"}
        )
        b.add_nodes("Tag", 60, lambda i: {"id": 200 + i, "name": f"{WORDS[i % 26]}_{i // 26}"})
        langs = ["en", "de", "zh", "es", "pt"]
        b.add_nodes(
            "Person",
            350,
            lambda i: {
                "id": 1000 + i,
                "firstName": rng.choice(FIRST),
                "lastName": rng.choice(LAST),
                "gender": rng.choice(["female", "male"]),
                "birthday": rand_date(rng, 1960, 2005),
                "creationDate": rand_datetime(rng, 2010, 2012),
                "browserUsed": rng.choice(["Firefox", "Chrome", "Safari"]),
                "locationIP": f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                "email": [f"p{i}@example.org"]
                + ([f"p{i}@mail.example"] if rng.random() < 0.3 else []),
                "speaks": sorted(rng.sample(langs, rng.randint(1, 2))),
            },
        )
        b.add_nodes(
            "Forum",
            60,
            lambda i: {
                "id": 3000 + i,
                "title": f"Group for {rng.choice(WORDS)} {i}",
                "creationDate": rand_datetime(rng, 2010, 2012),
            },
        )
        text = lambda: " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))  # noqa: E731

        def post(i: int) -> dict[str, Any]:
            c = text()
            return {
                "id": 10000 + i,
                "creationDate": rand_datetime(rng, 2011, 2013),
                "content": c,
                "length": len(c),
                "language": rng.choice(langs),
            }

        def comment(i: int) -> dict[str, Any]:
            c = text()
            return {
                "id": 50000 + i,
                "creationDate": rand_datetime(rng, 2012, 2013),
                "content": c,
                "length": len(c),
            }

        b.add_nodes("Post", 500, post)
        b.add_nodes("Comment", 800, comment)
        people = b.ids("Person")
        for _ in range(1400):
            b.add_edge(
                "KNOWS",
                rng.choice(people),
                rng.choice(people),
                {"creationDate": rand_datetime(rng, 2010, 2013)},
            )
        b.connect("IS_LOCATED_IN", "Person", "City", (1, 1))
        b.connect(
            "HAS_MEMBER",
            "Forum",
            "Person",
            (2, 15),
            lambda s, t: {"joinDate": rand_datetime(rng, 2011, 2013)},
        )
        b.connect("HAS_MODERATOR", "Forum", "Person", (1, 1))
        forums = b.ids("Forum")
        for p in b.ids("Post"):
            b.add_edge("CONTAINER_OF", rng.choice(forums), p)
        b.connect("HAS_CREATOR", "Post", "Person", (1, 1))
        b.connect("HAS_CREATOR", "Comment", "Person", (1, 1))
        posts, comments = b.ids("Post"), b.ids("Comment")
        for i, c in enumerate(comments):
            if i < 100 or rng.random() < 0.6:
                b.add_edge("REPLY_OF", c, rng.choice(posts))
            else:
                b.add_edge("REPLY_OF", c, rng.choice(comments[:i]))
        b.connect(
            "LIKES",
            "Person",
            "Post",
            (0, 4),
            lambda s, t: {"creationDate": rand_datetime(rng, 2012, 2013)},
        )
        b.connect(
            "LIKES",
            "Person",
            "Comment",
            (0, 3),
            lambda s, t: {"creationDate": rand_datetime(rng, 2012, 2013)},
        )
        b.connect("HAS_TAG", "Post", "Tag", (0, 2))
        b.connect("HAS_TAG", "Comment", "Tag", (0, 1))
        b.connect("HAS_TAG", "Forum", "Tag", (1, 3))
        b.connect("HAS_INTEREST", "Person", "Tag", (0, 3))
        return b

    return schema, gen


# -- 5. biomedical -------------------------------------------------------------------------------


def biomedical() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    schema = SchemaGraph(
        name="biomedical",
        description="A Hetionet-like biomedical knowledge graph: compounds, genes, diseases, pathways, anatomy and side effects.",
        node_types=(
            NodeType(
                "Gene",
                (
                    P("id", "STRING"),
                    P("symbol", "STRING", unique=True),
                    P("name", "STRING"),
                    P("chromosome", "STRING", categorical=True),
                ),
                keys=("id",),
            ),
            NodeType(
                "Compound",
                (
                    P("id", "STRING"),
                    P("name", "STRING", required=True),
                    P("inchikey", "STRING"),
                    P("molecular_weight", "FLOAT64", unit="g/mol"),
                ),
                keys=("id",),
            ),
            NodeType(
                "Disease", (P("id", "STRING"), P("name", "STRING", required=True)), keys=("id",)
            ),
            NodeType("Pathway", (P("id", "STRING"), P("name", "STRING")), keys=("id",)),
            NodeType("Anatomy", (P("id", "STRING"), P("name", "STRING")), keys=("id",)),
            NodeType("SideEffect", (P("id", "STRING"), P("name", "STRING")), keys=("id",)),
        ),
        edge_types=(
            E(
                "BINDS",
                [("Compound", "Gene")],
                (P("affinity_nM", "FLOAT64", unit="nM"),),
                cardinality=NM,
            ),
            E("INHIBITS", [("Compound", "Gene")], cardinality=NM, implies=("BINDS",)),
            E("TREATS", [("Compound", "Disease")], (P("phase", "INT32"),), cardinality=NM),
            E("PALLIATES", [("Compound", "Disease")], cardinality=NM),
            E("CAUSES", [("Compound", "SideEffect")], (P("frequency", "FLOAT64"),), cardinality=NM),
            E("ASSOCIATES", [("Disease", "Gene")], (P("sources", "LIST<STRING>"),), cardinality=NM),
            E("LOCALIZES", [("Disease", "Anatomy")], cardinality=NM),
            E("PARTICIPATES", [("Gene", "Pathway")], cardinality=NM, target_participation=TOTAL),
            E("INTERACTS", [("Gene", "Gene")], cardinality=NM, symmetric=True),
            E("EXPRESSES", [("Anatomy", "Gene")], cardinality=NM),
            E(
                "RESEMBLES",
                [("Compound", "Compound")],
                (P("similarity", "FLOAT64"),),
                cardinality=NM,
                symmetric=True,
            ),
        ),
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        chrom = [str(i) for i in range(1, 23)] + ["X", "Y"]
        b.add_nodes(
            "Gene",
            600,
            lambda i: {
                "id": f"NCBI:{1000 + i}",
                "symbol": f"G{i:04d}{rng.choice('ABCDEFGH')}",
                "name": f"{rng.choice(WORDS)} protein {i}",
                "chromosome": rng.choice(chrom),
            },
        )
        b.add_nodes(
            "Compound",
            200,
            lambda i: {
                "id": f"DB{i:05d}",
                "name": f"{rng.choice(WORDS)}{rng.choice(['mab', 'nib', 'pril', 'statin', 'vir'])}",
                "inchikey": "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(14)),
                "molecular_weight": round(rng.uniform(100, 1200), 2),
            },
        )
        b.add_nodes(
            "Disease",
            120,
            lambda i: {
                "id": f"DOID:{i + 1}",
                "name": f"{rng.choice(WORDS)} {rng.choice(['syndrome', 'disease', 'carcinoma', 'disorder'])} {i}",
            },
        )
        b.add_nodes(
            "Pathway",
            80,
            lambda i: {"id": f"PW:{i:04d}", "name": f"{rng.choice(WORDS)} signalling {i}"},
        )
        b.add_nodes(
            "Anatomy",
            40,
            lambda i: {"id": f"UBERON:{i:05d}", "name": f"{rng.choice(WORDS)} tissue {i}"},
        )
        b.add_nodes(
            "SideEffect",
            150,
            lambda i: {"id": f"C{i:07d}", "name": f"{rng.choice(WORDS)} reaction {i}"},
        )
        b.connect("INHIBITS", "Compound", "Gene", (0, 2))
        for e in list(b.edges):
            if e.type == "INHIBITS":
                b.add_edge(
                    "BINDS", e.source, e.target, {"affinity_nM": round(rng.uniform(0.1, 500), 2)}
                )
        b.connect(
            "BINDS",
            "Compound",
            "Gene",
            (0, 3),
            lambda s, t: {"affinity_nM": round(rng.uniform(0.1, 5000), 2)},
        )
        b.connect(
            "TREATS", "Compound", "Disease", (0, 2), lambda s, t: {"phase": rng.randint(1, 4)}
        )
        b.connect("PALLIATES", "Compound", "Disease", (0, 1))
        b.connect(
            "CAUSES",
            "Compound",
            "SideEffect",
            (0, 5),
            lambda s, t: {"frequency": round(rng.uniform(0.001, 0.3), 4)},
        )
        b.connect(
            "ASSOCIATES",
            "Disease",
            "Gene",
            (1, 6),
            lambda s, t: {
                "sources": sorted(
                    rng.sample(["GWAS", "OMIM", "DisGeNET", "DOAF"], rng.randint(1, 2))
                )
            },
        )
        b.connect("LOCALIZES", "Disease", "Anatomy", (0, 2))
        b.cover_targets("PARTICIPATES", "Gene", "Pathway")
        b.connect("PARTICIPATES", "Gene", "Pathway", (0, 2))
        genes = b.ids("Gene")
        for _ in range(900):
            b.add_edge("INTERACTS", rng.choice(genes), rng.choice(genes))
        b.connect("EXPRESSES", "Anatomy", "Gene", (5, 20))
        comps = b.ids("Compound")
        for _ in range(150):
            b.add_edge(
                "RESEMBLES",
                rng.choice(comps),
                rng.choice(comps),
                {"similarity": round(rng.uniform(0.5, 1.0), 3)},
            )
        return b

    return schema, gen


# -- 6. bookstore (derived from a relational schema) ---------------------------------------------


def bookstore() -> tuple[SchemaGraph, Callable[[random.Random], Builder]]:
    with open(os.path.join(ROOT, "bookstore", "source.sql"), encoding="utf-8") as fh:
        schema = read_schema(fh.read(), "sql:sqlite", name="bookstore")
    schema = schema.replace(
        description="Derived from the relational bookstore schema in source.sql."
    )

    def gen(rng: random.Random) -> Builder:
        b = Builder(schema, rng)
        b.add_nodes(
            "publisher",
            20,
            lambda i: {
                "publisher_id": i + 1,
                "name": f"{rng.choice(WORDS).title()} Press",
                "country": rng.choice(["UK", "US", "DE", "FR", "JP"]),
            },
            id_prefix="publisher:",
        )
        b.add_nodes(
            "author",
            150,
            lambda i: {
                "author_id": i + 1,
                "name": person_name(rng),
                "birth_year": rng.randint(1900, 1995) if rng.random() < 0.85 else None,
            },
            id_prefix="author:",
        )
        b.add_nodes(
            "book",
            300,
            lambda i: {
                "isbn": f"978-{rng.randint(0, 9)}-{10000 + i}",
                "title": f"{rng.choice(WORDS).title()} and {rng.choice(WORDS).title()}",
                "publication_date": rand_date(rng, 1950, 2023),
                "price": f"{rng.randint(5, 80)}.{rng.choice(['00', '50', '99'])}",
            },
        )
        b.add_nodes(
            "customer",
            200,
            lambda i: {
                "customer_id": i + 1,
                "name": person_name(rng),
                "email": f"c{i + 1}@shop.example",
                "city": rng.choice(["Leeds", "Lyon", "Osaka", "Porto"]),
            },
            id_prefix="customer:",
        )
        b.add_nodes(
            "orders",
            400,
            lambda i: {
                "order_id": i + 1,
                "order_date": rand_datetime(rng, 2021, 2023, zoned=False),
            },
            id_prefix="orders:",
        )
        b.connect("HAS_PUBLISHER", "book", "publisher", (1, 1))
        b.connect("HAS_CUSTOMER", "orders", "customer", (1, 1))
        b.connect("book_author", "book", "author", (1, 3), lambda s, t: {"author_order": 1})
        b.connect(
            "order_line", "orders", "book", (1, 4), lambda s, t: {"quantity": rng.randint(1, 3)}
        )
        return b

    return schema, gen


DOMAINS: dict[
    str, tuple[Callable[[], tuple[SchemaGraph, Callable[[random.Random], Builder]]], str]
] = {
    "encyclopedia": (encyclopedia, "jsonl"),
    "finance": (finance, "parquet"),
    "movies": (movies, "csv"),
    "social": (social, "csv"),
    "biomedical": (biomedical, "jsonl"),
    "bookstore": (bookstore, "csv"),
}


# How questions name the example types (phrase annotations, docs/schema-format.md): nouns that
# are not the label in plain words, a verb phrase for each relationship type in each direction,
# and property names that are not the key in plain words.
PHRASE_NODES: dict[str, dict[str, tuple[str, str | None]]] = {
    "biomedical": {"Anatomy": ("anatomical structure", None), "SideEffect": ("side effect", None)},
    "bookstore": {"orders": ("order", None)},
    "finance": {"Medium": ("medium", "media")},
    "encyclopedia": {},
    "movies": {},
    "social": {},
}
PHRASE_EDGES: dict[str, dict[str, tuple[str, str]]] = {
    "biomedical": {
        "BINDS": ("binds", "is bound by"),
        "INHIBITS": ("inhibits", "is inhibited by"),
        "TREATS": ("treats", "is treated by"),
        "PALLIATES": ("palliates", "is palliated by"),
        "CAUSES": ("causes", "is caused by"),
        "ASSOCIATES": ("is associated with", "is associated with"),
        "LOCALIZES": ("localizes to", "is the site of"),
        "PARTICIPATES": ("participates in", "involves"),
        "INTERACTS": ("interacts with", "interacts with"),
        "EXPRESSES": ("expresses", "is expressed in"),
        "RESEMBLES": ("resembles", "resembles"),
    },
    "bookstore": {
        "HAS_PUBLISHER": ("is published by", "published"),
        "HAS_CUSTOMER": ("was placed by", "placed"),
        "book_author": ("was written by", "wrote"),
        "order_line": ("includes", "is included in"),
    },
    "encyclopedia": {
        "locatedIn": ("is located in", "contains"),
        "capitalOf": ("is the capital of", "has as its capital"),
        "bornIn": ("was born in", "is the birthplace of"),
        "citizenOf": ("is a citizen of", "has as a citizen"),
        "headOfState": ("has as head of state", "is the head of state of"),
        "memberOf": ("is a member of", "has as a member"),
        "receivedAward": ("received", "was received by"),
        "borders": ("borders", "borders"),
        "basedIn": ("is based in", "is home to"),
    },
    "finance": {
        "own": ("owns", "is owned by"),
        "transfer": ("transferred money to", "received money from"),
        "withdraw": ("withdrew money from", "had money withdrawn by"),
        "repay": ("repaid", "was repaid by"),
        "deposit": ("was deposited into", "received a deposit from"),
        "signIn": ("signed in to", "was signed in to from"),
        "apply": ("applied for", "was applied for by"),
        "invest": ("invested in", "received an investment from"),
        "guarantee": ("guarantees", "is guaranteed by"),
    },
    "movies": {
        "ACTED_IN": ("acted in", "features"),
        "DIRECTED": ("directed", "was directed by"),
        "WROTE": ("wrote", "was written by"),
        "PRODUCED": ("produced", "was produced by"),
        "IN_GENRE": ("is in the genre", "is the genre of"),
        "RATED": ("rated", "was rated by"),
        "FOLLOWS": ("follows", "is followed by"),
    },
    "social": {
        "KNOWS": ("knows", "knows"),
        "IS_LOCATED_IN": ("is located in", "is the location of"),
        "HAS_MEMBER": ("has as a member", "is a member of"),
        "HAS_MODERATOR": ("is moderated by", "moderates"),
        "CONTAINER_OF": ("contains", "is contained in"),
        "HAS_CREATOR": ("was created by", "created"),
        "REPLY_OF": ("is a reply to", "has as a reply"),
        "LIKES": ("likes", "is liked by"),
        "HAS_TAG": ("has the tag", "is the tag of"),
        "HAS_INTEREST": ("is interested in", "is of interest to"),
    },
}
PHRASE_PROPS = {
    "isBlocked": "blocked flag",
    "inchikey": "InChIKey",
    "affinity_nM": "affinity in nM",
    "gdp": "GDP",
    "locationIP": "location IP address",
    "browserUsed": "browser",
    "userId": "user id",
    "isbn": "ISBN",
    "url": "URL",
    # participles and verbs read as nouns in a question ("the highest born", "releaseds")
    "born": "birth year",
    "released": "release year",
    "founded": "founding year",
    "first_awarded": "year first awarded",
    "speaks": "spoken language",
    "business": "line of business",
}


def with_phrases(name: str, schema: SchemaGraph) -> SchemaGraph:
    """The example schema with its phrase annotations."""

    def props(ps: tuple[Property, ...]) -> tuple[Property, ...]:
        return tuple(replace(p, phrase=PHRASE_PROPS.get(p.name)) for p in ps)

    nodes = []
    for n in schema.node_types:
        one, many = PHRASE_NODES[name].get(n.label, (None, None))
        nodes.append(replace(n, phrase=one, plural=many, properties=props(n.properties)))
    edges = []
    for e in schema.edge_types:
        active, passive = PHRASE_EDGES[name][e.label]
        edges.append(replace(e, phrase=active, inverse=passive, properties=props(e.properties)))
    return schema.replace(node_types=tuple(nodes), edge_types=tuple(edges))


def generate(out: str, name: str) -> None:
    make, layout = DOMAINS[name]
    schema, gen = make()
    schema = with_phrases(name, schema)
    rng = random.Random(f"gqlir-example-{name}")
    b = gen(rng)
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "schema.json"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(schema.to_json())
    graph = os.path.join(folder, "graph")
    nodes, edges = b.all_nodes(), b.edges
    if layout == "jsonl":
        write_jsonl(graph, nodes, edges)
    elif layout == "csv":
        write_csv(graph, schema, nodes, edges)
    else:
        write_parquet(graph, schema, nodes, edges)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if not a.startswith("--")]
    out = args[0] if args else ROOT
    if check:
        import filecmp
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            for name in DOMAINS:
                generate(tmp, name)
            bad = []
            for name in DOMAINS:
                for dirpath, _, files in os.walk(os.path.join(tmp, name)):
                    for f in files:
                        new = os.path.join(dirpath, f)
                        old = os.path.join(ROOT, os.path.relpath(new, tmp))
                        if f.endswith(".parquet"):
                            import pyarrow.parquet as pq

                            same = os.path.exists(old) and pq.read_table(new).equals(
                                pq.read_table(old)
                            )
                        else:
                            same = os.path.exists(old) and filecmp.cmp(new, old, shallow=False)
                        if not same:
                            bad.append(os.path.relpath(old, ROOT))
            if bad:
                print("differs from the generator:", *bad, sep="\n  ")
                return 1
        return 0
    for name in DOMAINS:
        generate(out, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
