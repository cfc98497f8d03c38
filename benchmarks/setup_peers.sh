#!/usr/bin/env bash
# Create benchmarks/.peers/, a virtual environment holding the peer parsers that
# benchmarks/run.py measures side by side with gqlir. The peers live apart from gqlir's own
# environment so that their dependencies (pydantic, antlr4 runtime, ...) can neither satisfy nor
# break gqlir's imports. Each peer is installed on its own: one that fails to install is
# reported and the others are still measured.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-$here/.peers}
peers=(graphglot cypherast antlr4-cypher)

if [ ! -x "$venv/bin/python" ]; then
  # The same interpreter as gqlir's own venv when there is one (so both sides of a comparison
  # run on one Python version); otherwise the same Python >= 3.12 discovery as make-venv.sh.
  main_venv="$here/../.venv/bin/python"
  if [ -z "${GQLIR_PYTHON:-}" ] && [ -x "$main_venv" ]; then
    GQLIR_PYTHON=$("$main_venv" -c 'import sys; print(sys._base_executable)')
    export GQLIR_PYTHON
  fi
  "$here/../scripts/make-venv.sh" "$venv" || exit 1
  "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
fi

failed=()
for p in "${peers[@]}"; do
  if "$venv/bin/python" -m pip install -q "$p"; then
    echo "installed $p"
  else
    echo "warning: could not install peer $p; it will be reported as unavailable" >&2
    failed+=("$p")
  fi
done
"$venv/bin/python" -m pip list --format=freeze 2>/dev/null | grep -iE '^(graphglot|cypherast|antlr4-cypher|antlr4-python3-runtime)==' || true
[ ${#failed[@]} -eq 0 ] || echo "peers not installed: ${failed[*]}" >&2
exit 0
