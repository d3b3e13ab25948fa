# Shared set-up for scripts/build, scripts/fetch, scripts/test and scripts/bench: a virtual
# environment with the project installed, re-installed only when pyproject.toml changes.
# Sourced, so it takes no arguments of its own (a sourced file sees its caller's, which
# are the command's, like --strict): call `setup_venv [EXTRAS]` after sourcing it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"

setup_venv() {
  local extras="${1:-}"
  if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
  fi
  local stamp=".venv/.site-gen-installed${extras:+-$extras}"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
    touch "$stamp"
  fi
  # An editable install leaves site_gen's modules uncompiled (pip compiles a wheel's at
  # install). Where PYTHONDONTWRITEBYTECODE is set (many CI and container images) every
  # command would compile them again, about 60 ms; compileall writes them anyway, and
  # only those whose source changed.
  .venv/bin/python -m compileall -q site_gen >/dev/null
}
