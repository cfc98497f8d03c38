"""Google-BLEU and Jaro-Winkler agree with the reference packages (NLTK's corpus_gleu on
sacrebleu's 13a tokens, as Hugging Face's google_bleu runs it; the jaro-winkler package) on
thousands of random and corpus string pairs."""

from __future__ import annotations

import random

import jaro
import pytest
from nltk.translate.gleu_score import corpus_gleu as nltk_corpus_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from gqlir.conformance.tck import valid_queries
from gqlir.metrics import clean_query_text, google_bleu, jaro_winkler, tokenize_13a
from gqlir.metrics.text import jaro as gqlir_jaro

_SACRE = Tokenizer13a()
# characters that exercise every tokeniser rule: digits next to . , -, symbols, entities, quotes
_ALPHABET = "abcXYZ019 .,-()[]{}:;<>=!'\"&/\\*+|_\n\téü"


def _reference_gleu(preds: list[str], refs: list[str]) -> float:
    return nltk_corpus_gleu([[_SACRE(r).split()] for r in refs], [_SACRE(p).split() for p in preds])


def _random_text(rnd: random.Random, n: int) -> str:
    return "".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(0, n)))


def _mutate(rnd: random.Random, text: str) -> str:
    """A near miss: a few character edits, the kind a model's prediction has."""
    chars = list(text)
    for _ in range(rnd.randint(0, 4)):
        op = rnd.randrange(3)
        pos = rnd.randrange(len(chars) + 1)
        if op == 0:
            chars.insert(pos, rnd.choice(_ALPHABET))
        elif chars and pos < len(chars):
            if op == 1:
                del chars[pos]
            else:
                chars[pos] = rnd.choice(_ALPHABET)
    return "".join(chars)


@pytest.fixture(scope="module")
def corpus_pairs() -> list[tuple[str, str]]:
    # two TCK queries are 28 and 42 kB long (Jaro is quadratic): the rest, up to 1,500 chars
    queries = [q for q in valid_queries() if len(q) <= 1500]
    assert len(queries) > 1500
    rnd = random.Random(8)
    pairs = [(q, _mutate(rnd, q)) for q in queries]
    pairs += [(q, rnd.choice(queries)) for q in queries[:1000]]
    return pairs


def test_tokenizer_is_13a_on_random_and_corpus_text(corpus_pairs):
    rnd = random.Random(1)
    texts = [_random_text(rnd, 40) for _ in range(3000)] + [a for a, _ in corpus_pairs]
    texts += ["a &amp;lt; b", "x &quot;y&quot;", "1,000.5-2", "end.", "<skipped> a-\nb"]
    differing = [t for t in texts if tokenize_13a(t) != _SACRE(t).split()]
    assert differing == []
    assert tokenize_13a("MATCH (n:Person) WHERE n.age >= 1.5 RETURN n") == [
        "MATCH", "(", "n", ":", "Person", ")", "WHERE", "n", ".", "age",
        ">", "=", "1.5", "RETURN", "n",
    ]  # fmt: skip


def test_jaro_winkler_matches_the_package_on_random_pairs():
    rnd = random.Random(2)
    pairs = [(_random_text(rnd, 12), _random_text(rnd, 12)) for _ in range(5000)]
    small = "abAB1 "
    pairs += [
        ("".join(rnd.choice(small) for _ in range(rnd.randint(0, 9))),
         "".join(rnd.choice(small) for _ in range(rnd.randint(0, 9))))
        for _ in range(5000)
    ]  # fmt: skip
    worst = max(abs(jaro_winkler(a, b) - jaro.jaro_winkler_metric(a, b)) for a, b in pairs)
    assert worst <= 1e-9
    worst = max(abs(gqlir_jaro(a, b) - jaro.jaro_metric(a, b)) for a, b in pairs)
    assert worst <= 1e-9


def test_jaro_winkler_matches_the_package_on_corpus_pairs(corpus_pairs):
    worst = max(abs(jaro_winkler(a, b) - jaro.jaro_winkler_metric(a, b)) for a, b in corpus_pairs)
    assert worst <= 1e-9
    assert len(corpus_pairs) > 2500


def test_jaro_winkler_rules_the_package_has():
    assert jaro_winkler("", "") == 1.0
    assert jaro_winkler("abc", "") == 0.0
    # the prefix boost counts alphabetic characters only: digits stop it
    assert jaro_winkler("12345x", "12345y") == pytest.approx(gqlir_jaro("12345x", "12345y"))
    assert jaro_winkler("MARTHA", "MARHTA") == pytest.approx(0.9611111111)
    # below the 0.7 threshold there is no boost
    assert jaro_winkler("abcdef", "abxyzw") == pytest.approx(gqlir_jaro("abcdef", "abxyzw"))
    # case-sensitive, as the package
    assert jaro_winkler("MATCH", "match") == 0.0


def test_google_bleu_matches_nltk_on_random_corpora():
    rnd = random.Random(3)
    for size in (1, 2, 7, 50, 400):
        preds = [_random_text(rnd, 30) for _ in range(size)]
        refs = [_random_text(rnd, 30) if rnd.random() < 0.5 else _mutate(rnd, p) for p in preds]
        assert abs(google_bleu(preds, refs) - _reference_gleu(preds, refs)) <= 1e-9


def test_google_bleu_matches_nltk_on_query_corpora(corpus_pairs):
    rnd = random.Random(4)
    for start in range(0, len(corpus_pairs), 600):
        chunk = corpus_pairs[start : start + 600]
        refs = [a for a, _ in chunk]
        preds = [b for _, b in chunk]
        assert abs(google_bleu(preds, refs) - _reference_gleu(preds, refs)) <= 1e-9
    whole_refs = [a for a, _ in corpus_pairs]
    whole_preds = [b for _, b in corpus_pairs]
    ours = google_bleu(whole_preds, whole_refs)
    assert abs(ours - _reference_gleu(whole_preds, whole_refs)) <= 1e-9
    assert 0.5 < ours < 1.0
    rnd.shuffle(whole_preds)  # unrelated pairs score lower
    assert google_bleu(whole_preds, whole_refs) < ours


def test_google_bleu_with_several_references_takes_the_best_ratio():
    refs = [["MATCH (n) RETURN n", "MATCH (m) RETURN m.name"]]
    preds = ["MATCH (m) RETURN m.name"]
    expected = nltk_corpus_gleu(
        [[_SACRE(r).split() for r in refs[0]]], [_SACRE(p).split() for p in preds]
    )
    assert google_bleu(preds, refs) == pytest.approx(expected, abs=1e-12)
    assert google_bleu(preds, refs) == 1.0
    assert google_bleu([], []) == 0.0


def test_text2gql_cleaning():
    assert clean_query_text("GRAPH fin MATCH (n)\nRETURN n") == "MATCH (n) RETURN n"
    assert clean_query_text("use g1 MATCH (n) RETURN n ") == "MATCH (n) RETURN n"
    assert clean_query_text("") == "no out"
    assert clean_query_text(None) == "no out"
