#!/usr/bin/env bash
# Create a virtual environment with a Python >= 3.12, found robustly:
# $GQLIR_PYTHON, then python3.13/python3.12/python3 on PATH, then pyenv's installed versions.
set -euo pipefail
venv=${1:-.venv}
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
candidates=()
[ -n "${GQLIR_PYTHON:-}" ] && candidates+=("$GQLIR_PYTHON")
for name in python3.13 python3.12 python3; do
  p=$(command -v "$name" 2>/dev/null || true)
  [ -n "$p" ] && candidates+=("$p")
done
if command -v pyenv >/dev/null 2>&1; then
  root=$(pyenv root)
  for d in $(ls -d "$root"/versions/3.1[2-9]* 2>/dev/null | sort -rV); do
    candidates+=("$d/bin/python")
  done
fi
for d in $(ls -d "$HOME"/.pyenv/versions/3.1[2-9]* /usr/local/bin/python3.1[2-9] /usr/bin/python3.1[2-9] 2>/dev/null | sort -rV); do
  [ -d "$d" ] && candidates+=("$d/bin/python") || candidates+=("$d")
done
for c in "${candidates[@]}"; do
  if [ -x "$c" ] && ok "$c"; then
    echo "using $c ($("$c" --version 2>&1))"
    "$c" -m venv "$venv"
    exit 0
  fi
done
echo "error: gqlir needs Python >= 3.12 and none was found." >&2
echo "Install one (e.g. 'pyenv install 3.12') or set GQLIR_PYTHON=/path/to/python3.12." >&2
exit 1
