"""Questions a person would ask (gqlir.synth.questions): words from the schema, the answer
type from the RETURN, every condition on its own entity, no schema spellings, every literal
and label named, on every bundled schema; deterministic by seed."""

from __future__ import annotations

import json
import os
from collections import defaultdict

import pytest

import gqlir
from gqlir.schema import load_schema
from gqlir.schema.formats import write
from gqlir.schema.model import SchemaGraph
from gqlir.synth import SynthConfig, synthesize
from gqlir.synth.phrases import Lexicon, article, derive_verb, plural
from gqlir.synth.questions import LEVELS, question, questions
from gqlir.synth.wording import bad_tokens, missing

SCHEMAS = ("biomedical", "bookstore", "encyclopedia", "finance", "movies", "social")
BIO = load_schema("schemas/biomedical/schema.json")


def test_derived_words_for_unannotated_types() -> None:
    assert derive_verb("PALLIATES").active == "palliates"
    assert derive_verb("PALLIATES").passive == "is palliated by"
    assert derive_verb("IN_GENRE").active == "is in the genre"
    assert derive_verb("ACTED_IN").active == "acted in"
    assert derive_verb("HAS_TAG").passive == "is the tag of"
    assert plural("city") == "cities" and plural("box") == "boxes" and plural("person") == "people"
    assert article("award") == "an award" and article("disease") == "a disease"
    lex = Lexicon(None)
    assert lex.noun("SideEffect", many=True) == "side effects"
    assert lex.prop(None, "molecular_weight") == "molecular weight"


def test_annotations_win_and_round_trip_in_gqlir_json() -> None:
    lex = Lexicon(BIO)
    assert lex.verb("ASSOCIATES").active == "is associated with"
    assert lex.noun("Anatomy", many=True) == "anatomical structures"
    assert SchemaGraph.from_json(BIO.to_json()) == BIO
    assert BIO.edge("TREATS").inverse == "is treated by"


def test_formats_without_phrases_list_them_as_notes_not_losses() -> None:
    plain = load_schema("schemas/biomedical/schema.json")
    bare = SchemaGraph.from_dict(
        {k: v for k, v in json.loads(plain.to_json()).items() if k not in ("nodes", "edges")}
        | {
            "nodes": [
                {k: v for k, v in n.items() if k not in ("phrase", "plural")}
                for n in json.loads(plain.to_json())["nodes"]
            ],
            "edges": [
                {k: v for k, v in e.items() if k not in ("phrase", "inverse")}
                for e in json.loads(plain.to_json())["edges"]
            ],
        }
    )
    with_phrases = write(plain, "neo4j", lossy=True).report
    without = write(bare, "neo4j", lossy=True).report
    assert with_phrases.lost == without.lost  # the phrases add no loss
    noted = {(c.element, c.aspect) for c in with_phrases.notes}
    assert ("edge TREATS", "inverse") in noted and ("node Anatomy", "phrase") in noted
    assert with_phrases.to_dict()["notes"]


def test_each_constraint_is_on_its_own_entity() -> None:
    q = gqlir.parse(
        "MATCH (n:Compound)-[:CAUSES]->(m0:SideEffect), (n)-[:BINDS]->(m1:Gene) "
        "WHERE m0.name = 'amber reaction 124' AND m1.name = 'fable protein 349' "
        "WITH DISTINCT n WHERE n.molecular_weight IS NOT NULL "
        "RETURN n.name AS name ORDER BY n.molecular_weight DESC, name LIMIT 1"
    )
    text = question(q, "logical", BIO, 7)
    assert "the side effect 'amber reaction 124'" in text
    assert "the gene 'fable protein 349'" in text
    assert "highest molecular weight" in text and text.startswith(("Which", "What"))
    l1 = question(q, "syntactic", BIO)
    assert "the side effect's name is 'amber reaction 124'" in l1
    assert "the gene's name is 'fable protein 349'" in l1


def test_the_answer_type_comes_from_the_return() -> None:
    count = gqlir.parse(
        "MATCH (n:Gene)<-[:ASSOCIATES]-(m0:Disease) WHERE m0.name = 'x' "
        "WITH DISTINCT n RETURN count(n) AS count"
    )
    assert question(count, "cypherbench", BIO).startswith("How many genes")
    avg = gqlir.parse("MATCH (n:Compound) WITH DISTINCT n RETURN avg(n.molecular_weight) AS v")
    assert "average molecular weight" in question(avg, "cypherbench", BIO)
    pinned = gqlir.parse("MATCH (n:Compound) WHERE n.name = 'y' RETURN n.molecular_weight AS v")
    assert question(pinned, "cypherbench", BIO) == (
        "What is the molecular weight of the compound 'y'?"
    )


def test_surface_forms_depend_on_the_seed_only() -> None:
    q = gqlir.parse(
        "MATCH (n:Compound)-[:PALLIATES]->(m0:Disease) WHERE m0.name = 'd' "
        "WITH DISTINCT n RETURN n.name AS name"
    )
    assert questions(q, BIO, 7) == questions(q, BIO, 7)
    forms = {question(q, "logical", BIO, seed) for seed in range(12)}
    assert len(forms) > 1
    assert all("palliate" in f and "'d'" in f for f in forms)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_every_template_family_asks_cleanly(schema: str, tmp_path) -> None:
    """No variable, type spelling or snake_case; every literal, label and type named."""
    # the questions depend on the queries, not on which engines confirm them
    config = SynthConfig([f"schemas/{schema}"], n=60, seed=3, timeout=10.0, verify=False)
    items, _ = synthesize(config, str(tmp_path / schema), rewriters=[])
    graph = load_schema(f"schemas/{schema}/schema.json")
    problems: dict[str, list] = defaultdict(list)
    for item in items:
        assert set(item["questions"]) == set(LEVELS)
        q = gqlir.parse(item["queries"]["neo4j"])
        for level, text in item["questions"].items():
            found = bad_tokens(text, q, graph) + missing(text, q, graph)
            if found:
                problems[item["pattern"]].append((level, found, text))
    assert not problems, dict(problems)
    with open(os.path.join(tmp_path / schema, "README.md"), encoding="utf-8") as fh:
        card = fh.read()
    assert "## Questions" in card
    for level in LEVELS:
        section = card.split(f"### {level}\n", 1)[1].split("\n### ", 1)[0].split("\n## ")[0]
        assert section.count("\n* ") == 10, level


def test_articles_follow_the_sound_and_participles_read_as_nouns() -> None:
    from gqlir.synth.phrases import article

    assert [article(w) for w in ("user", "unit", "hour", "award", "umbrella", "house")] == [
        "a user",
        "a unit",
        "an hour",
        "an award",
        "an umbrella",
        "a house",
    ]
    movies = load_schema("schemas/movies/schema.json")
    person, movie = movies.node("Person"), movies.node("Movie")
    assert person is not None and movie is not None
    assert person.prop("born").phrase == "birth year"  # not "the highest born"
    assert movie.prop("released").phrase == "release year"  # not "releaseds"
