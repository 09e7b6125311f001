#!/usr/bin/env bash
# One entry point for newcomers: sets up a virtual environment in .venv (Python 3.11), installs
# the package with everything it needs, then runs what you ask for.
#
#   bash run.sh chapter [options]   the main job: the whole chapter, figures saved as PNG
#   bash run.sh test [pytest args]  the test suite, notebooks included
#   bash run.sh bench               the benchmarks (not part of the tests)
#   bash run.sh book                the book: every notebook executed, as HTML in docs/_build/html
#   bash run.sh notebooks           JupyterLab on the notebooks
#   bash run.sh notebooks --student JupyterLab on the student edition (student/: no solutions)
#   bash run.sh fuzz [pytest args]  generated bad input at every public function, large budget
#   bash run.sh mutate [mutmut args]  mutation testing of core/ with mutmut (slow, not in CI)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

usage() { sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
what=$1; shift

find_python() {
    for candidate in "${PYTHON:-}" python3.11 python3 python; do
        [ -n "$candidate" ] || continue
        command -v "$candidate" >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    echo "run.sh: Python 3.11 is required (MXNet 1.9.1 needs numpy < 1.24, which has no" >&2
    echo "wheels for 3.12+). Install Python 3.11, or point PYTHON=/path/to/python3.11." >&2
    exit 1
}

setup() {
    local stamp=.venv/.gluon-perceptron-installed
    local want
    want=$(cat setup.cfg pyproject.toml | cksum)
    if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    if [ ! -x .venv/bin/python ]; then
        local py; py=$(find_python)
        echo "run.sh: creating .venv with $py" >&2
        "$py" -m venv .venv
    fi
    echo "run.sh: installing gluon_perceptron and its dependencies into .venv" >&2
    .venv/bin/python -m pip install --quiet -e '.[test,digits]' >&2
    echo "$want" > "$stamp"
}

setup_extra() {  # setup_extra NAME: the extra NAME of setup.cfg, installed on first use
    local stamp=.venv/.gluon-perceptron-$1 want
    want=$(cat setup.cfg pyproject.toml | cksum)
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
    echo "run.sh: installing the '$1' extra into .venv" >&2
    .venv/bin/python -m pip install --quiet -e ".[$1]" >&2
    echo "$want" > "$stamp"
}

lab_settings() {  # a double click opens a notebook's .py source as a notebook (jupytext)
    local dir=.venv/share/jupyter/lab/settings
    mkdir -p "$dir"
    if [ ! -e "$dir/overrides.json" ]; then
        printf '%s\n' '{"@jupyterlab/docmanager-extension:plugin":' \
            '  {"defaultViewers": {"python": "Jupytext Notebook"}}}' > "$dir/overrides.json"
    elif ! grep -q 'Jupytext Notebook' "$dir/overrides.json"; then
        echo "run.sh: $dir/overrides.json is yours and left as is; to open .py notebooks" \
             "with a double click, add \"defaultViewers\": {\"python\": \"Jupytext Notebook\"}" >&2
    fi
}

kernel() {  # the project's kernel, "Python (gluon_perceptron)": .venv's Python, in .venv (sys-prefix)
    local spec=.venv/share/jupyter/kernels/gluon-perceptron/kernel.json
    if [ -f "$spec" ] && grep -q "\"$PWD/.venv/bin/python" "$spec"; then return 0; fi
    echo "run.sh: installing the kernel 'Python (gluon_perceptron)' into .venv" >&2
    .venv/bin/python -m ipykernel install --sys-prefix --name gluon-perceptron \
        --display-name "Python (gluon_perceptron)" >/dev/null
}

browser() {  # the browser test's Chromium: Debian's chromium-headless-shell, when root can
    command -v chromium-headless-shell >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "run.sh: installing chromium-headless-shell (apt) for the browser test" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq chromium-headless-shell; } >/dev/null 2>&1 ||
            echo "run.sh: could not install chromium-headless-shell" >&2
    fi
    command -v chromium-headless-shell >/dev/null 2>&1 ||
        echo "run.sh: no chromium-headless-shell: the browser test will skip (fail with" \
             "CI=true); install it with: apt-get install chromium-headless-shell" >&2
}

# record_test_time SECONDS STATUS NARGS CPU_BEFORE: the pytest run's wall time and CPU time
# (bash's `times` for the children, "XmY.Zs XmY.Zs" before and after), which `bash run.sh
# bench` reports beside its targets.
record_test_time() {
    local after; times > .venv/.times; after=$(tail -1 .venv/.times)  # not $(times): a subshell
    mkdir -p benchmarks/results
    printf '{"wall_seconds": %s, "children_cpu_before": "%s", "children_cpu": "%s", %s}\n' \
        "$1" "$4" "$after" "$(printf '"exit_status": %s, "whole_suite": %s, "cores": %s, "date": "%s"' \
        "$2" "$([ "$3" = 0 ] && echo true || echo false)" "$(nproc 2>/dev/null || echo null)" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" > benchmarks/results/last_test_run.json || true
}

case "$what" in
    chapter) setup; exec .venv/bin/python -m gluon_perceptron "$@" ;;
    test)    setup; kernel; browser
             start=$SECONDS; times > .venv/.times; before=$(tail -1 .venv/.times); status=0
             .venv/bin/python -m pytest -n 2 --durations=10 "$@" || status=$?
             record_test_time $((SECONDS - start)) "$status" "$#" "$before"
             exit "$status" ;;
    book)    setup; exec .venv/bin/python docs/build.py "$@" ;;
    notebooks) setup; setup_extra notebooks; lab_settings; kernel
             # .venv's kernels first: a kernel of the same name registered elsewhere (another
             # checkout's) cannot shadow the project's
             export JUPYTER_PATH="$PWD/.venv/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
             root=(); [ "$(id -u)" != 0 ] || root=(--allow-root)  # Jupyter refuses root else
             # One entry per notebook: the .py sources (opened as notebooks by jupytext); the
             # .ipynb built from them are hidden, with what Jupyter hides anyway.
             hide=()
             for glob in __pycache__ '*.pyc' '*.pyo' .DS_Store '*.so' '*.dylib' '*~' \
                         '*.ipynb' .ipynb_checkpoints; do
                 hide+=(--ContentsManager.hide_globs="$glob")
             done
             dir=notebooks
             if [ "${1:-}" = --student ]; then  # copies without the solutions, in student/
                 shift; dir=student
                 .venv/bin/python tools/notebooks.py student "$dir"
             fi
             exec .venv/bin/jupyter lab --ServerApp.root_dir="$dir" "${hide[@]}" \
                 --config=tools/lab_config.py ${root[@]+"${root[@]}"} "$@" ;;
    bench)   setup; exec .venv/bin/python benchmarks/run_all.py "$@" ;;
    fuzz)    setup; HYPOTHESIS_PROFILE=fuzz exec .venv/bin/python -m pytest -n 2 \
                 tests/test_properties.py "$@" ;;
    mutate)  setup; setup_extra mutation
             # mutmut edits core/ in place while it runs: keep the tree untouched until it ends
             export PATH="$PWD/.venv/bin:$PATH"  # the runner's `python` (setup.cfg [mutmut])
             status=0; mutmut run "$@" || status=$?
             mutmut results || true
             exit "$status" ;;
    *)       usage ;;
esac
