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

test: $(STAMP)
	$(PY) -m pytest -n 2

demo: $(STAMP)
	$(VENV)/bin/gqlir translate --from neo4j --to opencypher9 "MATCH (a:Person)-[:KNOWS*1..3]->(b) WHERE a.name STARTS WITH 'A' RETURN b.name AS name, count(*) AS n ORDER BY n DESC LIMIT 5"

bench: $(STAMP)
	$(PY) benchmarks/run.py

lint: $(STAMP)
	$(VENV)/bin/ruff check gqlir tests benchmarks scripts
	$(VENV)/bin/ruff format --check gqlir tests benchmarks scripts

# The property tests (fuzzing, translation equivalence, generated queries on the embedded
# engines) for about ten minutes, with a fixed seed.
FUZZ_SEED ?= 20261121
FUZZ_EXAMPLES ?= 20000
fuzz: $(STAMP)
	GQLIR_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -n 2 -p no:cacheprovider \
		--hypothesis-seed=$(FUZZ_SEED) --hypothesis-show-statistics \
		tests/test_fuzz.py tests/test_eval_equivalence.py tests/test_eval_reverse.py \
		tests/test_engines_hypothesis.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
