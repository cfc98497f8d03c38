"""English names for a schema's types: a noun per node label (singular, plural, article), a
verb phrase per relationship type in both directions, a plain name per property. The schema's
phrase annotations win; without them the words are derived from the spelling (``SideEffect`` →
"side effect", ``IN_GENRE`` → "is in the genre", ``PALLIATES`` → "palliates" / "is palliated
by"), so a question never shows a schema spelling."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..schema.model import SchemaGraph

_PREPOSITIONS = {"in", "on", "at", "of", "from", "to", "for", "with", "by", "under", "near"}
_IRREGULAR = {
    "binds": "bound",
    "has": "had",
    "makes": "made",
    "writes": "written",
    "knows": "known",
    "holds": "held",
    "buys": "bought",
    "sells": "sold",
    "leads": "led",
    "pays": "paid",
    "sends": "sent",
    "speaks": "spoken",
    "takes": "taken",
    "gives": "given",
    "follows": "followed",
}
_PLURAL_IRREGULAR = {"person": "people", "child": "children"}
_PLURAL_INVARIANT = {"media", "medium", "series", "species", "data", "news", "staff"}


def words(name: str) -> str:
    """An identifier in plain words: ``createTime`` → "create time", ``HAS_TAG`` → "has tag"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return re.sub(r"\s+", " ", spaced).strip().lower()


def plural(noun: str) -> str:
    """The plural of a noun phrase (its last word is inflected)."""
    head, _, last = noun.rpartition(" ")
    low = last.lower()
    if low in _PLURAL_IRREGULAR:
        out = _PLURAL_IRREGULAR[low]
    elif low in _PLURAL_INVARIANT or re.search(r"[^su]s$", low):
        out = last  # already plural ("orders")
    elif re.search(r"[^aeiou]y$", low):
        out = last[:-1] + "ies"
    elif re.search(r"(s|x|z|ch|sh)$", low):
        out = last + "es"
    else:
        out = last + "s"
    return f"{head} {out}" if head else out


# A vowel letter sounded as a consonant ("a user", "a one-off") or a silent h ("an hour"): the
# article follows the sound, not the letter.
_CONSONANT_SOUND = re.compile(
    r"(u[bcdfgklmnprstvz][aeiouy]|uni|use|usu|ure|eu|ewe|one\b|once)", re.I
)
_VOWEL_SOUND = re.compile(r"(hour|honest|honou?r|heir)", re.I)


def article(noun: str) -> str:
    """``noun`` with its indefinite article: "a disease", "an award", "a user", "an hour"."""
    vowel = bool(re.match(r"[aeiou]", noun, re.I)) and not _CONSONANT_SOUND.match(noun)
    return f"{'an' if vowel or _VOWEL_SOUND.match(noun) else 'a'} {noun}"


def third_to_plain(verb: str) -> str:
    """A verb phrase agreeing with a plural subject: "treats" → "treat", "is" → "are"."""
    first, sep, rest = verb.partition(" ")
    table = {"is": "are", "has": "have", "was": "were", "does": "do"}
    if first in table:
        first = table[first]
    elif re.search(r"[^aeiou]ies$", first):
        first = first[:-3] + "y"
    elif re.search(r"(ss|sh|ch|x|z)es$", first):
        first = first[:-2]
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return first + sep + rest


def participle(verb: str) -> str | None:
    """The past participle of a verb in the third person ("palliates" → "palliated"), or None
    when the word is not such a verb."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not verb.endswith("s") or verb.endswith("ss"):
        return None
    stem = verb[:-1]
    if re.search(r"(ss|sh|ch|x|z)es$", verb):
        stem = verb[:-2]
    elif verb.endswith("ies"):
        return verb[:-3] + "ied"
    return stem + "d" if stem.endswith("e") else stem + "ed"


@dataclass(frozen=True)
class Verb:
    """A relationship type in words: ``active`` has the source as subject ("treats"),
    ``passive`` the target ("is treated by"); without a passive the target is the object of a
    clause ("the movies the person acted in")."""

    active: str
    passive: str | None = None


def derive_verb(type_name: str) -> Verb:
    """Words for a relationship type without annotations: ``IN_GENRE`` → "is in the genre" /
    "is the genre of", ``HAS_TAG`` → "has the tag" / "is the tag of", ``capitalOf`` → "is the
    capital of", ``PALLIATES`` → "palliates" / "is palliated by", ``ACTED_IN`` → "acted in"."""
    w = words(type_name)
    first, _, rest = w.partition(" ")
    last = w.rsplit(" ", 1)[-1]
    if first in _PREPOSITIONS and rest:
        return Verb(f"is {first} the {rest}", f"is the {rest} of")
    if first in ("has", "have") and rest:
        return Verb(f"has the {rest}", f"is the {rest} of")
    if first == "is" or first.endswith("ed"):
        return Verb(w)
    if last in _PREPOSITIONS and not first.endswith("s"):
        return Verb(f"is the {w}")
    if not first.endswith("s"):
        first = re.sub(r"([^aeiou])y$", r"\1ie", first)
        first = first + "es" if re.search(r"(sh|ch|x|z)$", first) else first + "s"
        w = f"{first} {rest}".strip()
    done = participle(first)
    return Verb(w, f"is {done} by" if done and not rest else None)


class Lexicon:
    """The words of one schema (or of bare labels, with no schema)."""

    def __init__(self, schema: SchemaGraph | None = None) -> None:
        self.schema = schema

    def noun(self, label: str | None, many: bool = False) -> str:
        if label is None:
            return "nodes" if many else "node"
        node = self.schema.node(label) if self.schema else None
        one = node.phrase if node is not None and node.phrase else words(label)
        if not many:
            return one
        if node is not None and node.plural:
            return node.plural
        return plural(one)

    def verb(self, type_name: str) -> Verb:
        edge = self.schema.edge(type_name) if self.schema else None
        if edge is None or not edge.phrase:
            return derive_verb(type_name)
        return Verb(edge.phrase, edge.inverse)

    def prop(self, label: str | None, key: str) -> str:
        element = None
        if self.schema is not None and label is not None:
            element = self.schema.node(label) or self.schema.edge(label)
        p = element.prop(key) if element is not None else None
        return p.phrase if p is not None and p.phrase else words(key)
