"""Question rewriters: paraphrases of the offline questions (:mod:`.questions`, which give
every level without a model). The LLM rewriter calls an OpenAI-compatible chat endpoint only
when one is configured (``GQLIR_LLM_URL``, ``GQLIR_LLM_MODEL``, optional ``GQLIR_LLM_KEY``),
rewords the logical question only, and keeps the paraphrase only if it passes verification:
every literal of the query still appears in it."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Protocol

from .. import ir
from .errors import SynthError


@dataclass(frozen=True)
class RewriteRequest:
    query: ir.Query
    cypher: str
    question: str  # the offline logical question, which a paraphrase rewords
    schema_name: str


class Rewriter(Protocol):
    name: str

    def rewrite(self, request: RewriteRequest) -> dict[str, str]:
        """Questions by level (``logical``, ``business``, ``paraphrase`` …); empty if none."""
        ...


def literals(query: ir.Query) -> list[str]:
    """The literal values a question must state (a LIMIT 1 is not one: a top-1 is asked as
    "which … has the highest …")."""
    top1 = {
        id(p.limit)
        for p in query.walk()
        if isinstance(p, ir.Projection) and isinstance(p.limit, ir.Integer) and p.limit.value == 1
    }
    out = []
    for n in query.walk():
        if id(n) in top1:
            continue
        if isinstance(n, ir.String):
            out.append(n.value)
        elif isinstance(n, (ir.Integer, ir.Float)) and not isinstance(n.value, bool):
            out.append(str(n.value))
        elif isinstance(n, ir.TemporalLiteral):
            out.append(n.text)
    return out


def faithful(paraphrase: str, query: ir.Query) -> bool:
    text = paraphrase.lower()
    return bool(paraphrase.strip()) and all(v.lower() in text for v in literals(query))


_PROMPT = (
    "Paraphrase the question about a graph database as a person would ask it. Say nothing "
    "the question does not say, and leave out nothing it says; no query syntax, no variable "
    "names. Keep every quoted value and number exactly. Answer with the question only.\n\n"
    "Query ({schema}): {cypher}\nQuestion: {question}"
)


@dataclass
class LLMRewriter:
    """An OpenAI-compatible ``/chat/completions`` endpoint (temperature 0)."""

    url: str
    model: str
    key: str | None = None
    timeout: float = 60.0
    name: str = "llm"
    rejected: int = field(default=0)

    @staticmethod
    def from_env() -> LLMRewriter | None:
        url, model = os.environ.get("GQLIR_LLM_URL"), os.environ.get("GQLIR_LLM_MODEL")
        if not url or not model:
            return None
        return LLMRewriter(url.rstrip("/"), model, os.environ.get("GQLIR_LLM_KEY"))

    def complete(self, prompt: str) -> str:
        body = json.dumps(
            {
                "model": self.model,
                "temperature": 0,
                "messages": [{"role": "user", "content": prompt}],
            }
        ).encode()
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(
            f"{self.url}/chat/completions", data=body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = json.loads(response.read().decode("utf-8"))
            return str(data["choices"][0]["message"]["content"]).strip()
        except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError) as exc:
            raise SynthError(f"the LLM endpoint {self.url} failed: {exc}") from None

    def rewrite(self, request: RewriteRequest) -> dict[str, str]:
        prompt = _PROMPT.format(
            schema=request.schema_name, cypher=request.cypher, question=request.question
        )
        answer = self.complete(prompt)
        if not faithful(answer, request.query):
            self.rejected += 1
            return {}
        return {"paraphrase": answer}


def configured_rewriters() -> list[Rewriter]:
    """The LLM rewriter when the environment configures one (none otherwise)."""
    llm = LLMRewriter.from_env()
    return [llm] if llm is not None else []
