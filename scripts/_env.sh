# Shared set-up for scripts/build, scripts/fetch, scripts/test and scripts/bench: a virtual
# environment with the project installed, re-installed only when pyproject.toml changes.
# Sourced, so it takes no arguments of its own (a sourced file sees its caller's, which
# are the command's, like --strict): call `setup_venv [EXTRAS]` after sourcing it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"

# The packages are installed with uv (pinned here), which does in seconds what pip takes
# most of a minute for (the test set-up: 15 s against 51 s on a fresh machine). uv reads
# its own settings, not pip's: behind a mirror of PyPI, set UV_INDEX_URL (or
# UV_DEFAULT_INDEX). pip itself is one of the test packages (pyproject.toml).
UV_VERSION="0.13.9"

setup_venv() {
  local extras="${1:-}"
  if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv --without-pip .venv
  fi
  if [ "$(.venv/bin/uv --version 2>/dev/null)" != "uv $UV_VERSION" ]; then
    if "$PYTHON" -m pip --version >/dev/null 2>&1; then
      "$PYTHON" -m pip --python .venv/bin/python install --quiet --disable-pip-version-check \
        "uv==$UV_VERSION"
    else  # a Python with no pip of its own: the venv gets one (ensurepip), then uv
      .venv/bin/python -m ensurepip --default-pip >/dev/null
      .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
    fi
  fi
  local stamp=".venv/.site-gen-installed${extras:+-$extras}"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    # compiled, as pip compiles what it installs: where PYTHONDONTWRITEBYTECODE is set,
    # every command would compile the packages it imports again
    .venv/bin/uv pip install --quiet --compile-bytecode --python .venv/bin/python \
      -e ".${extras:+[$extras]}"
    touch "$stamp"
  fi
  # An editable install leaves site_gen's modules uncompiled (pip compiles a wheel's at
  # install). Where PYTHONDONTWRITEBYTECODE is set (many CI and container images) every
  # command would compile them again, about 60 ms; compileall writes them anyway, and
  # only those whose source changed.
  .venv/bin/python -m compileall -q site_gen >/dev/null
  # Nor does it compile the built-in templates, which the wheel carries compiled (setup.py):
  # every process of a build in a project with no cache yet (a fresh clone in CI) would
  # compile them, 60-140 ms each. Compiled again when they (or what compiles them) change.
  local templates=".venv/.site-gen-templates-compiled"
  if [ ! -f "$templates" ] || [ -n "$(find templates site_gen/compiled.py "$stamp" \
      -newer "$templates" -not -path '*/__pycache__*' -print -quit)" ]; then
    .venv/bin/python -c 'import pathlib, site_gen.compiled as c; c.compile_own(pathlib.Path("templates"))'
    touch "$templates"
  fi
}
