# gqlir developer entry points. `make test` works from a fresh clone.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test demo bench lint clean fuzz

$(STAMP): pyproject.toml
	@./scripts/make-venv.sh $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# Neo4j's jars come from Maven on first use (the tests start a local Neo4j): fetched here, so
# that a slow first download is not a test's.
test: $(STAMP)
	$(PY) scripts/neo4j-local build
	$(PY) -m pytest -n 2

# One Cypher query in three dialects, and two refusals that say why and what to write instead.
DEMO_QUERY := MATCH (a:Person)-[:KNOWS*1..3]->(b) WHERE a.name STARTS WITH 'A' RETURN b.name AS name, count(*) AS n ORDER BY n DESC LIMIT 5
demo: $(STAMP)
	@echo "Cypher (neo4j):"; echo "  $(DEMO_QUERY)"; echo
	@echo "ISO GQL (Cypher's relationship uniqueness becomes DIFFERENT EDGES, grouping is explicit):"
	@$(VENV)/bin/gqlir translate --from neo4j --to iso-gql "$(DEMO_QUERY)"; echo
	@echo "Spanner Graph (a graph name, TRAIL for the quantified path, STARTS_WITH()):"
	@$(VENV)/bin/gqlir translate --from neo4j --to spanner --graph social "$(DEMO_QUERY)"; echo
	@echo "Refused: Spanner needs an upper bound on a quantifier:"
	@$(VENV)/bin/gqlir translate --from neo4j --to spanner --graph social "MATCH (a:Person)-[:KNOWS*]->(b) RETURN b.name AS name" || true; echo
	@echo "Refused: Spanner cannot return a node:"
	@$(VENV)/bin/gqlir translate --from neo4j --to spanner --graph social "MATCH (a:Person)-[:KNOWS]->(b) RETURN b" || true

bench: $(STAMP)
	$(PY) benchmarks/run.py

lint: $(STAMP)
	$(VENV)/bin/ruff check gqlir tests benchmarks scripts
	$(VENV)/bin/ruff format --check gqlir tests benchmarks scripts

# The property tests (fuzzing, translation equivalence both ways, generated queries on the
# embedded engines, on ArcadeDB over Bolt and on a local Neo4j, quoting, adversarial runs) for
# about sixteen minutes on a quiet 2-core machine (the engine campaign, on one worker, is the
# long pole), with a fixed seed. The engine campaigns take a tenth of FUZZ_EXAMPLES each
# (tests/test_engines_hypothesis.py): a query there runs everywhere.
FUZZ_SEED ?= 20261121
FUZZ_EXAMPLES ?= 20000
fuzz: $(STAMP)
	GQLIR_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n 2 -p no:cacheprovider \
		--hypothesis-seed=$(FUZZ_SEED) --hypothesis-show-statistics \
		tests/test_fuzz.py tests/test_eval_equivalence.py tests/test_eval_reverse.py \
		tests/test_engines_hypothesis.py tests/test_sql_quoting.py tests/test_engines_adversarial.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
