#!/usr/bin/env bash
# One entry point for newcomers: sets up a virtual environment in .venv (Python 3.11), installs
# the package with everything it needs, then runs what you ask for.
#
#   bash run.sh chapter [options]   the main job: the whole chapter, figures saved as PNG
#   bash run.sh test [pytest args]  the test suite, notebooks included
#   bash run.sh test --quick        all but the slow groups (book, clusters, main job, namespaces)
#   bash run.sh bench               the benchmarks (not part of the tests)
#   bash run.sh book                the book: every notebook executed, as HTML in docs/_build/html
#   bash run.sh notebooks           JupyterLab on the notebooks
#   bash run.sh notebooks --student JupyterLab on the student edition (student/: no solutions)
#   bash run.sh fuzz [pytest args]  generated bad input at every public function, large budget
#   bash run.sh claims [--start S]  every frequency the notebooks state, on 40 fresh draws each
#   bash run.sh mutate [mutmut args]  mutation testing of core/ with mutmut (slow, not in CI)
#   bash run.sh setup               only set up .venv (from wheelhouse/ alone when it exists)
#   bash run.sh lock                regenerate requirements-lock.txt from setup.cfg (network)
#   bash run.sh wheelhouse          download every locked wheel into wheelhouse/ (network)
#
# What gets installed is requirements-lock.txt: every package, pinned and hashed (pip's
# --require-hashes). With a wheelhouse/ folder present, the install reads nothing else
# (--no-index): run `bash run.sh wheelhouse` once and later installs need no network.
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

LOCK=requirements-lock.txt
WHEELHOUSE=wheelhouse
#: the resolver of `bash run.sh lock`, in a venv of its own (.venv-lock). Not pip-tools: on
#: this machine's PyPI pip-compile downloads every file of every pinned version to hash it
#: (9 minutes); uv reads the index's hashes (15 seconds).
LOCKER=uv==0.13.8

setup() {  # .venv from requirements-lock.txt, hashes checked; then the project, editable
    local stamp=.venv/.gluon-perceptron-installed
    local want
    want=$(cat setup.cfg pyproject.toml "$LOCK" | cksum)
    if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    if [ ! -x .venv/bin/python ]; then
        local py; py=$(find_python)
        echo "run.sh: creating .venv with $py" >&2
        "$py" -m venv .venv
    fi
    local from=()
    if [ -d "$WHEELHOUSE" ]; then
        from=(--no-index --find-links "$WHEELHOUSE")
        echo "run.sh: installing $LOCK into .venv from $WHEELHOUSE/ only (no index)" >&2
    else
        echo "run.sh: installing $LOCK (every package pinned and hashed) into .venv" >&2
    fi
    # the locked packages, each checked against its hash; then the project itself, editable
    # (a local folder has no hash), built with the locked setuptools, asking for nothing more
    if ! .venv/bin/python -m pip install --quiet --require-hashes --no-deps \
            ${from[@]+"${from[@]}"} -r "$LOCK" >&2; then
        [ ${#from[@]} = 0 ] || echo "run.sh: $WHEELHOUSE/ lacks a locked file: run" \
            "\`bash run.sh wheelhouse\` (network), or remove $WHEELHOUSE/" >&2
        exit 1
    fi
    .venv/bin/python -m pip install --quiet --no-deps --no-build-isolation \
        ${from[@]+"${from[@]}"} -e . >&2
    .venv/bin/python -m pip check >&2 ||
        { echo "run.sh: the installed packages conflict (pip check, above)" >&2; exit 1; }
    echo "$want" > "$stamp"
}

lock() {  # requirements-lock.txt from setup.cfg: every extra, every transitive package, hashed
    local py; py=$(find_python)
    if [ ! -x .venv-lock/bin/uv ]; then
        "$py" -m venv .venv-lock
        .venv-lock/bin/python -m pip install --quiet "$LOCKER" >&2
    fi
    # the extras of setup.cfg but those its [lock] section leaves out, and the build system of
    # pyproject.toml (setuptools, wheel: the offline install builds the project with them)
    local extras build
    extras=$("$py" -c 'import configparser as c; p = c.ConfigParser(); p.read("setup.cfg")
skip = p.get("lock", "unlocked_extras", fallback="").split()
print(" ".join(f"--extra={e}" for e in p["options.extras_require"] if e not in skip))')
    build=$("$py" -c 'import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
    # and the [lock] constraints of setup.cfg: versions the lock holds to, each with its reason
    local constraints=.venv-lock/setup.cfg-lock-constraints.txt
    "$py" -c 'import configparser as c; p = c.ConfigParser(); p.read("setup.cfg")
print(p.get("lock", "constraints", fallback="").strip())' > "$constraints"
    # --python-version 3.11: what installs on every 3.11.x (Debian 12 has 3.11.2), for this
    # platform (Linux x86-64: where MXNet 1.9.1 has wheels); PyPI's own hashes of every file of
    # each version; no index line, so pip's own configuration says where to look.
    # shellcheck disable=SC2086  # one word per extra
    echo "$build" | .venv-lock/bin/uv pip compile --quiet --generate-hashes \
        --python-version 3.11 --custom-compile-command "bash run.sh lock" \
        --constraint "$constraints" $extras --output-file "$LOCK" setup.cfg - "$@"
    echo "run.sh: wrote $LOCK ($(grep -c '^[a-z0-9].*==' "$LOCK") packages) from setup.cfg" \
         "(${extras//--extra=/}) and pyproject.toml's build system" >&2
}

wheelhouse() {  # every file of requirements-lock.txt, once, into wheelhouse/
    local py; py=$(find_python)
    mkdir -p "$WHEELHOUSE"
    "$py" -m pip download --quiet --require-hashes --no-deps --dest "$WHEELHOUSE" \
        -r "$LOCK" >&2
    echo "run.sh: $WHEELHOUSE/ holds $(find "$WHEELHOUSE" -maxdepth 1 -type f | wc -l)" \
         "files, $(du -sh "$WHEELHOUSE" | cut -f1)" >&2
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

ssh_server() {  # the ssh test's sshd: Debian's openssh-server, when root can
    [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1 && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "run.sh: installing openssh-server (apt) for the ssh test" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends openssh-server openssh-client; } \
            >/dev/null 2>&1 || echo "run.sh: could not install openssh-server" >&2
    fi
}

# yardstick: seconds .venv's Python takes for a fixed loop now (benchmarks/timing.py), "null"
# if it cannot say: how fast this host runs, beside the tests' time
yardstick() { .venv/bin/python benchmarks/timing.py 2>/dev/null || echo null; }

# record_test_time SECONDS STATUS ARGS CPU_BEFORE YARDSTICK_BEFORE: the pytest run's wall time
# and CPU time (bash's `times` for the children, "XmY.Zs XmY.Zs" before and after) and the
# host's yardstick before and after, which `bash run.sh bench` reports beside its targets: the
# whole suite (no ARGS) in last_test_run.json, the quick loop (ARGS exactly --quick) in
# last_quick_run.json.
record_test_time() {
    local after record=last_test_run.json
    [ "$3" != --quick ] || record=last_quick_run.json
    times > .venv/.times; after=$(tail -1 .venv/.times)  # not $(times): a subshell
    mkdir -p benchmarks/results
    printf '{"wall_seconds": %s, "children_cpu_before": "%s", "children_cpu": "%s", "yardstick_seconds": [%s, %s], %s}\n' \
        "$1" "$4" "$after" "$5" "$(yardstick)" "$(printf '"exit_status": %s, "whole_suite": %s, "quick": %s, "cores": %s, "date": "%s"' \
        "$2" "$([ -z "$3" ] && echo true || echo false)" \
        "$([ "$3" = --quick ] && echo true || echo false)" "$(nproc 2>/dev/null || echo null)" \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" > "benchmarks/results/$record" || true
}

case "$what" in
    chapter) setup; exec .venv/bin/python -m gluon_perceptron "$@" ;;
    test)    setup; kernel; browser; ssh_server
             yard=$(yardstick)
             start=$SECONDS; times > .venv/.times; before=$(tail -1 .venv/.times); status=0
             # pytest caches its rewritten test modules as bytecode (__pycache__, ignored by
             # git); a PYTHONDONTWRITEBYTECODE from the shell would make every worker rewrite
             # and compile all of tests/ again on every run (about 2.5 CPU-s each)
             # worksteal: a worker that runs out of tests takes half of the other's queue (with
             # `load`, the worker that builds the book kept its first chunk of ~380 tests queued
             # behind the build and ran it at the end while the other worker idled)
             env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest -n 2 --dist worksteal \
                 --durations=10 "$@" || status=$?
             record_test_time $((SECONDS - start)) "$status" "$*" "$before" "$yard"
             exit "$status" ;;
    book)    setup; exec .venv/bin/python docs/build.py "$@" ;;
    notebooks) setup; lab_settings; kernel
             # .venv's kernels first: a kernel of the same name registered elsewhere (another
             # checkout's) cannot shadow the project's
             export JUPYTER_PATH="$PWD/.venv/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
             # the kernels as the book runs them: MXNet's OpenMP threads only spin on the
             # notebooks' small arrays (notebook 03: 11.3 s and 14.5 CPU-s with them, 9.9 s and
             # 11.7 CPU-s without); a value you set is kept
             export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
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
    bench)   setup; kernel; exec .venv/bin/python benchmarks/run_all.py "$@" ;;
    claims)  setup  # the mnist extra is part of the locked set
             exec .venv/bin/python -m gluon_perceptron.main.claims "$@" ;;
    fuzz)    setup; HYPOTHESIS_PROFILE=fuzz exec .venv/bin/python -m pytest -n 2 \
                 tests/project/test_properties.py "$@" ;;
    mutate)  setup
             # mutmut edits core/ in place while it runs: keep the tree untouched until it ends
             export PATH="$PWD/.venv/bin:$PATH"  # the runner's `python` (setup.cfg [mutmut])
             status=0; mutmut run "$@" || status=$?
             mutmut results || true
             exit "$status" ;;
    setup)   setup ;;
    lock)    lock "$@" ;;
    wheelhouse) wheelhouse ;;
    *)       usage ;;
esac
