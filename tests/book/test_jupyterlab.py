"""The notebooks in JupyterLab, opened the way the README tells a student to (``bash run.sh
notebooks``): the project's JupyterLab from ``.venv`` (jupytext, jupyterlab-myst, the project's
kernel and ``tools/lab_config.py``), on its own port and token on 127.0.0.1, driven in Debian's
``chromium-headless-shell`` through Playwright (never ``playwright install``; without the
browser these tests skip, except under ``CI=true``, as the book's browser tests do).

Every notebook source opens as a notebook with no MyST shown as literal text, its solutions
folded, the project's kernel started without a question, and no modified mark (one after another;
a broken short copy of notebook 01 shows the checks fail on the defects they look for, and a
short copy whose kernel starts 5 s late shows they wait for the kernel); notebooks 02 and 05 run
to the end (Run All) with every inline number of their prose displayed and no cell error. The
tests share one page, JupyterLab loaded once per test process. The server runs on copies of the
sources (an autosave must never touch them), on a port held for it from the moment it is picked
(``held_port``), dies with this process even on SIGKILL (``PR_SET_PDEATHSIG``), and is stopped
by its PID.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from test_book import launched_chromium

from gluon_perceptron.core.distributed.launcher import held_port
from gluon_perceptron.core.distributed.lifeline import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
KERNEL = "gluon-perceptron"
KERNEL_DISPLAY = "Python (gluon_perceptron)"
KERNEL_SPEC = Path(sys.prefix) / "share" / "jupyter" / "kernels" / KERNEL / "kernel.json"
#: MyST that a renderer would have consumed: a role (``{cite:p}`x` ``), a directive's fence or
#: its options.
LITERAL_MYST = re.compile(r"\{[a-z][\w:-]*\}`|(^|\n)\s*(:::|```)\s*\{|(^|\n):(label|class):")
#: What JupyterLab reads besides run.sh's defaultViewers (.py opens as a notebook): every cell
#: rendered (no windowing), no news pop-up over the page.
SETTINGS = {
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"python": "Jupytext Notebook"}},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
}
START_TIMEOUT = 120
#: A kernel of the lab's own that takes :data:`SLOW_START` seconds to start (the project's
#: kernel behind a ``sleep``): on it a test sees that :func:`open_in_lab` waits for the kernel.
SLOW_KERNEL, SLOW_DISPLAY, SLOW_START = "slow-start", "Python (slow start)", 5
RUN_TIMEOUT = 600

pytestmark = pytest.mark.timeout(1800)


def slow_kernel_spec() -> dict:
    """The project's kernel spec, started :data:`SLOW_START` seconds late."""
    slow = json.loads(KERNEL_SPEC.read_text())
    slow["argv"] = ["sh", "-c", f'sleep {SLOW_START}; exec "$@"', "sh", *slow["argv"]]
    slow["display_name"] = SLOW_DISPLAY
    return slow


class Lab:
    """A JupyterLab server of the project on copies of the notebook sources."""

    def __init__(self, workdir: Path):
        self.root = workdir / "notebooks"
        self.root.mkdir(parents=True)
        for source in SOURCES:
            shutil.copy2(source, self.root / source.name)
        shutil.copy2(ROOT / "pyproject.toml", workdir / "pyproject.toml")  # jupytext's config
        settings = workdir / "settings"
        settings.mkdir()
        (settings / "overrides.json").write_text(json.dumps(SETTINGS))
        # held until stop(): a port merely free when picked could go to another server first
        self._port = contextlib.ExitStack()
        self.port, self.token = self._port.enter_context(held_port()), secrets.token_hex(16)
        jupyter = workdir / "jupyter"
        slow = jupyter / "kernels" / SLOW_KERNEL
        slow.mkdir(parents=True)
        (slow / "kernel.json").write_text(json.dumps(slow_kernel_spec()))
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # figures inline
        env.update(JUPYTER_PATH=os.pathsep.join([str(jupyter),
                                                 str(Path(sys.prefix) / "share" / "jupyter")]),
                   JUPYTER_CONFIG_DIR=str(workdir / "config"),
                   JUPYTER_RUNTIME_DIR=str(workdir / "runtime"),
                   JUPYTERLAB_SETTINGS_DIR=str(workdir / "user-settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(workdir / "workspaces"))
        command = [str(Path(sys.executable).with_name("jupyter-lab")), "--no-browser",
                   "--ip=127.0.0.1", f"--port={self.port}", "--port-retries=0",
                   f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
                   f"--config={ROOT / 'tools' / 'lab_config.py'}",
                   f"--LabServerApp.app_settings_dir={settings}",
                   "--LabApp.expose_app_in_browser=True"]  # window.jupyterapp, for the test
        if os.geteuid() == 0:
            command.append("--allow-root")
        self.log = workdir / "lab.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log,
                                            stderr=subprocess.STDOUT, cwd=workdir,
                                            preexec_fn=die_with_parent(os.getpid()))
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                self.api("status")
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail("JupyterLab did not start:\n" + self.log.read_text()[-3000:])
                time.sleep(0.5)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def api(self, path: str, method: str = "GET"):
        request = urllib.request.Request(self.url(f"api/{path}"), method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self) -> None:
        for kernel in self.api("kernels"):
            self.api(f"kernels/{kernel['id']}", method="DELETE")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._port.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not Path(sys.executable).with_name("jupyter-lab").exists():
        pytest.fail("JupyterLab is not installed in this environment: it is part of the test "
                    "extra (bash run.sh test installs it)")
    if not KERNEL_SPEC.exists():
        pytest.fail(f"the project's kernel is not installed ({KERNEL_SPEC}): bash run.sh test and "
                    "bash run.sh notebooks install it")
    server = Lab(tmp_path_factory.mktemp("lab"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium():
    yield from launched_chromium()


def run_all(page, attempts: int = 3) -> None:
    """Run > Run All Cells, as a student would; again if no cell started (a click that lands
    before the notebook has the focus does nothing)."""
    for _ in range(attempts):
        page.locator(".jp-NotebookPanel .jp-Notebook").first.click(position={"x": 5, "y": 5})
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function(
                r"""() => Array.from(document.querySelectorAll(
                    '.jp-NotebookPanel .jp-CodeCell .jp-InputArea-prompt'))
                    .some(p => /\[(\*|\d+)\]/.test(p.textContent))""", timeout=30_000)
            return
        except Exception:  # noqa: BLE001 - Playwright's timeout: try the menu again
            continue
    pytest.fail("Run All Cells started no cell")


def rendered_markdown(page) -> list[str | None]:
    """The text of every markdown cell as rendered (None for a cell not rendered)."""
    return page.evaluate("""() => Array.from(
        document.querySelectorAll('.jp-NotebookPanel .jp-MarkdownCell')).map(cell => {
            const out = cell.querySelector('.myst') || cell.querySelector('.jp-RenderedMarkdown');
            return out ? out.innerText : null; })""")


def markdown_sources(path: Path) -> list[str]:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import notebooks as tool
    finally:
        sys.path.pop(0)
    return [c.source for c in tool.convert(path.read_text()).cells if c.cell_type == "markdown"]


def test_the_lab_serves_the_projects_kernel(lab):
    """The kernel the notebooks name is this environment's Python (not another checkout's)."""
    specs = lab.api("kernelspecs")["kernelspecs"]
    assert KERNEL in specs, f"JupyterLab does not know the kernel {KERNEL}: {sorted(specs)}"
    spec = specs[KERNEL]["spec"]
    assert spec["display_name"] == KERNEL_DISPLAY
    assert Path(spec["argv"][0]).resolve() == Path(sys.executable).resolve()


def open_lab(chromium, lab: Lab):
    """A page with JupyterLab loaded once (a fresh workspace), in which :func:`open_in_lab`
    opens one notebook after another: one load of the application for all of them."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(lab.url(f"lab?reset&token={lab.token}"))
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=START_TIMEOUT * 1000)
    page.evaluate("async () => { await window.jupyterapp.restored; }")
    return page


def open_in_lab(page, name: str) -> None:
    """Close every document of the page (never saving it), then open notebook ``name`` as a
    double click in the file browser does (``docmanager:open``: the default viewer, the kernel
    the notebook names) and wait until its session is ready and its kernel idle, or a dialog
    asks a question.

    The toolbar's execution indicator is no such sign: it reads ``idle`` from the moment the
    notebook is attached, before any kernel exists, and the kernel's name reads "No Kernel"
    until the session has started one (which a loaded machine can take seconds to do)."""
    page.evaluate("""() => { for (const widget of Array.from(
        window.jupyterapp.shell.widgets('main'))) widget.dispose(); }""")
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel')")
    page.evaluate("""async path => { await window.jupyterapp.commands.execute(
        'docmanager:open', {path}); }""", name)
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=START_TIMEOUT * 1000)
    page.wait_for_function("""() => {
        if (document.querySelector('.jp-Dialog')) return true;  // opening_problems names it
        const context = window.jupyterapp.shell.currentWidget?.sessionContext;
        if (!context?.isReady) return false;
        const kernel = context.session?.kernel;
        return !kernel || kernel.status === 'idle';  // no kernel: opening_problems names it
    }""", timeout=START_TIMEOUT * 1000, polling=200)


@pytest.fixture(scope="module")
def lab_page(lab, chromium):
    """One page with JupyterLab loaded (:func:`open_lab`) for every test of this module: each
    opens its notebooks in it with :func:`open_in_lab`, which closes what the test before left
    open (never saving it)."""
    page = open_lab(chromium, lab)
    try:
        yield page
    finally:
        page.close()


def opening_problems(page, source: Path) -> list[str]:
    """What is wrong with the notebook ``source`` as the page shows it, once opened: literal
    MyST in a rendered markdown cell, a solution (text or code) not folded, another kernel, a
    dialog, a modified mark."""
    problems = []
    cells = markdown_sources(source)
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-NotebookPanel .jp-MarkdownCell .myst')"
        ".length >= n", arg=len(cells), timeout=60_000)
    texts = rendered_markdown(page)
    for k, text in enumerate(texts):
        found = LITERAL_MYST.search(text or "")
        if text is None:
            problems.append(f"{source.name}: markdown cell {k} not rendered")
        elif found:
            problems.append(f"{source.name}: markdown cell {k} shows MyST {found.group(0)!r}")
    solutions = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.jp-NotebookPanel details.myst-exercise')).filter(d => /Solution to/.test(
        d.querySelector('summary').innerText)).map(d => d.open)""")
    expected = sum(c.count("{solution") - c.count("{solution-end}") for c in cells)
    if len(solutions) != expected or any(solutions):
        problems.append(f"{source.name}: {len(solutions)} solutions rendered, "
                        f"{sum(solutions)} open (expected {expected}, all folded)")
    hidden = source.read_text().count('jupyter={"source_hidden": true}')
    folded = page.locator(".jp-NotebookPanel .jp-CodeCell .jp-InputPlaceholder").count()
    if folded != hidden:
        problems.append(f"{source.name}: {folded} solution code cells folded, "
                        f"expected {hidden}")
    if kernel_name(page) != KERNEL_DISPLAY:
        problems.append(f"{source.name}: kernel {kernel_name(page)!r}")
    if page.locator(".jp-Dialog").count():
        problems.append(f"{source.name}: a dialog asks: "
                        + page.locator(".jp-Dialog").first.inner_text()[:200])
    page.wait_for_timeout(500)
    tab = page.locator(".lm-TabBar-tab.jp-mod-current").first
    if tab.inner_text().strip() != source.name:
        problems.append(f"{source.name}: the current tab is {tab.inner_text()!r}")
    elif "jp-mod-dirty" in (tab.get_attribute("class") or ""):
        problems.append(f"{source.name}: marked modified on opening")
    return problems


def kernel_name(page, expected: str = KERNEL_DISPLAY) -> str:
    """The kernel's name in the notebook's toolbar, once it reads ``expected`` or after 5 s (the
    toolbar redraws a moment after the kernel changes)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    toolbar = ".jp-NotebookPanel .jp-Toolbar-kernelName"
    try:
        page.wait_for_function("([toolbar, expected]) => document.querySelector(toolbar)"
                               "?.innerText.trim() === expected", arg=[toolbar, expected],
                               timeout=5_000, polling=200)
    except PlaywrightTimeout:
        pass
    return page.locator(toolbar).first.inner_text().strip()


#: A short copy of notebook 01 (:func:`short_copy`) with two defects :func:`opening_problems` must
#: name: MyST shown as text (a role in a code span) and a solution not folded (no ``:class:
#: dropdown``).
CANARY = "00_canary.py"
#: Where notebook 01's exercises begin (:func:`short_copy`).
EXERCISES = "\n# %% [markdown]\n# ## Exercises\n"


def short_copy(lab: Lab) -> str:
    """Notebook 01 cut to its header, its first cell and its exercises (their text, a folded
    solution of each kind and a folded solution code cell): what the checks of
    :func:`opening_problems` read, at a fraction of the page a whole notebook costs the
    browser."""
    text = (lab.root / SOURCES[0].name).read_text()
    assert text.count(EXERCISES) == 1, f"{SOURCES[0].name} has no exercises heading"
    before, exercises = text.split(EXERCISES)
    first = before.split("\n# %%\n", 1)[0]  # the header and the first (markdown) cell
    return first + EXERCISES + exercises


def canary(lab: Lab) -> Path:
    text = short_copy(lab)
    assert "\n# :class: dropdown\n" in text
    text = text.replace("\n# :class: dropdown\n", "\n", 1)
    assert "\n# The perceptron looks for" in text
    text = text.replace("\n# The perceptron looks for",
                        "\n# A role as text: `` {cite:p}`x` ``.\n# The perceptron looks for", 1)
    path = lab.root / CANARY
    path.write_text(text)
    return path


def test_every_notebook_opens_as_the_course(lab, lab_page):
    """All notebook sources, one after another in one JupyterLab page: no literal MyST in any
    rendered markdown cell, the solutions folded (their text and their code), the project's
    kernel started without a dialog, no modified mark once the kernel is up. A broken short copy
    of notebook 01, opened first, shows the checks can fail."""
    page = lab_page
    broken = canary(lab)
    open_in_lab(page, broken.name)
    try:
        found = "\n".join(opening_problems(page, broken))
    finally:
        lab.shut_down_kernels()
    assert "shows MyST '{cite:p}`'" in found and "solutions rendered" in found, (
        f"the checks missed the broken copy's defects; they found: {found!r}")
    problems = []
    for source in SOURCES:
        open_in_lab(page, source.name)
        try:
            problems += opening_problems(page, lab.root / source.name)
        finally:
            lab.shut_down_kernels()
    assert not problems, "\n".join(problems)


def test_opening_waits_for_a_kernel_that_starts_slowly(lab, lab_page):
    """:func:`open_in_lab` returns once the notebook's kernel is idle, however slowly it starts:
    here a short copy of notebook 01 (:func:`short_copy`) that names :data:`SLOW_KERNEL`.
    (Waiting for the execution indicator's ``idle`` instead, it returned at once, and a loaded
    machine read "No Kernel".)"""
    text = short_copy(lab)
    slow = text.replace(f"display_name: {KERNEL_DISPLAY}\n", f"display_name: {SLOW_DISPLAY}\n",
                        1).replace(f"name: {KERNEL}\n", f"name: {SLOW_KERNEL}\n", 1)
    assert slow.count(SLOW_KERNEL) == 1 and slow.count(SLOW_DISPLAY) == 1, "no kernelspec header"
    (lab.root / "00_slow_kernel.py").write_text(slow)
    started = time.monotonic()
    open_in_lab(lab_page, "00_slow_kernel.py")
    try:
        waited = time.monotonic() - started
        status = lab_page.evaluate("() => window.jupyterapp.shell.currentWidget"
                                   ".sessionContext.session?.kernel?.status ?? null")
        assert (status, kernel_name(lab_page, SLOW_DISPLAY)) == ("idle", SLOW_DISPLAY), (
            f"open_in_lab returned after {waited:.1f} s with the kernel {status!r}")
        assert waited >= SLOW_START
    finally:
        lab.shut_down_kernels()


@pytest.mark.parametrize("name", ["02_perceptron_algorithm.py", "05_black_and_white.py"])
def test_notebook_runs_to_the_end_in_the_lab(name, lab, lab_page):
    """Run All (the Run menu): every code cell runs, none errs or writes to stderr, and every
    inline expression of the prose shows its value (an expression not evaluated would show
    its source as code, one that failed its error)."""
    source = ROOT / "notebooks" / name
    cells = markdown_sources(source)
    expressions = [re.findall(r"\{eval\}`([^`]*)`", cell) for cell in cells]
    assert sum(map(len, expressions)) >= 10, f"{name} has too few inline numbers to check"
    page = lab_page
    open_in_lab(page, name)
    try:
        run_all(page)
        state = """() => ({status: document.querySelector(
                '.jp-NotebookPanel .jp-Notebook-ExecutionIndicator').dataset.status,
            prompts: Array.from(document.querySelectorAll(
                '.jp-NotebookPanel .jp-CodeCell .jp-InputArea-prompt'))
                .map(p => p.textContent.trim())})"""
        deadline = time.monotonic() + RUN_TIMEOUT
        while True:
            now = page.evaluate(state)
            done = [p for p in now["prompts"] if re.fullmatch(r"\[\d+\]:", p)]
            if now["status"] == "idle" and len(done) == len(now["prompts"]) > 0:
                break
            assert time.monotonic() < deadline, f"{name} did not finish: {now}"
            page.wait_for_timeout(200)
        errors = page.locator(".jp-NotebookPanel .jp-OutputArea-output"
                              "[data-mime-type='application/vnd.jupyter.stderr']")
        assert errors.count() == 0, f"{name}: " + errors.first.inner_text()[:2000]
        missing: list[str] = []
        deadline = time.monotonic() + 60
        while True:
            texts = rendered_markdown(page)
            assert len(texts) == len(cells), "the markdown cells JupyterLab shows differ"
            missing = [f"cell {k}: {expr}" for k, (text, exprs) in
                       enumerate(zip(texts, expressions)) for expr in exprs
                       if text is None or expr in text]
            failed = [f"cell {k}: {text[:300]}" for k, text in enumerate(texts)
                      if expressions[k] and text and re.search(r"\w+Error: ", text)]
            assert not failed, f"{name}: inline expressions failed:\n" + "\n".join(failed)
            if not missing or time.monotonic() > deadline:
                break
            page.wait_for_timeout(200)
        assert not missing, f"{name}: inline expressions not shown:\n" + "\n".join(missing)
    finally:
        lab.shut_down_kernels()
