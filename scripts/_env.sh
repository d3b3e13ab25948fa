# Shared set-up for scripts/build and scripts/test: a virtual environment with the
# project installed, re-installed only when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.site-gen-installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
  touch "$stamp"
fi
