"""Build the book: the notebooks executed, the API reference, the chapter's slips, as HTML.

    python docs/build.py                    # into docs/_build (what ``bash run.sh book`` does)
    python docs/build.py --out DIR          # anywhere else (the tests build into a temp folder)
    python docs/build.py --notebooks DIR --no-api   # other notebooks, no API pages
    python docs/build.py --only 03 05 --no-api      # some of the notebooks only

The build assembles a Sphinx source tree in ``OUT/src`` (the pages of ``docs/``, the notebooks'
``.ipynb``, one API page per public subpackage in the order of the course), runs Sphinx with
``docs/conf.py``, which executes every notebook once with myst-nb (figures as PNGs with twice
the pixels they are shown with), and writes:

- ``OUT/html/index.html``: the book;
- ``OUT/jupyter_execute/notebooks/NN_name.ipynb``: each notebook as executed, with its outputs;
- ``OUT/execution.json``: per notebook, whether it ran to the end, its runtime, its traceback;
- ``OUT/warnings.txt``: Sphinx's warnings.

Sphinx's pages are then made lighter for a phone (:func:`finish_pages`: each line of code a
block that wraps with a hanging indent, figures loaded as the reader scrolls to them, the search
index on the search page only; :func:`lighter_icons`: the theme's icons drawn by web fonts of
the few icons used, not by Font Awesome's script; :func:`trim_stylesheets`: no rule no page can
match; :func:`lighter_figures`: figures with a palette), so that opening any page fetches at
most 1.5 MB as ``python -m http.server`` sends it (issue 29; ``tests/book/test_book.py`` measures).
It then checks the result (every notebook ran without an error or a warning, every page loads
only files of the site) and exits 1 if not, naming the notebook and the error. Nothing here
needs the network: MathJax comes with the site (sphinx-mathjax-offline).
"""

from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import html as html_lib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
PACKAGE = ROOT / "gluon_perceptron"
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = DOCS / "_build"

#: The package's layers, in import order.
LAYERS = ("core", "experiments", "plots", "main")
#: The pages of the API reference, in the order of the course: the public subpackages
#: (``gp.chapter`` ... ``gp.plots``, as ``gluon_perceptron/__init__.py`` lists them), then the
#: command line.
API_PAGES = ("chapter", "rosenblatt", "gradient", "theory", "beyond", "data", "distributed",
             "experiments", "plots", "exercises", "main")
#: Subpackages documented on several pages, one per group of modules (no API page over 300 kB,
#: issue 29): page -> (what it holds, its modules, named as in the subpackage's table). The
#: subpackage's own page lists them; a module no group names goes on the last page.
API_PARTS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "experiments": {
        "chapter": ("the chapter: notebooks 01 to 05", ("chapter", "sgd", "black_and_white")),
        "theory": ("bounds, optimality and expressivity: notebooks 06 to 08",
                   ("convergence", "optimality", "expressivity")),
        "further": ("digits, many classes, relaxation, many machines, beyond Rosenblatt: "
                    "notebooks 09 to 13", ()),
    },
}
#: The hand-written pages and files copied into the source tree.
PAGES = ("index.md", "slips.md", "package.md", "retired_mxnet.md", "reading.md",
         "bibliography.md", "references.bib")


# --- the source tree -------------------------------------------------------------------------

def public_modules(layer: str) -> list[str]:
    """Dotted names of the public modules of a layer, found on disk (nothing imported); a module
    or folder whose name starts with ``_`` is private."""
    base = PACKAGE / layer
    names = []
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(p.startswith("_") for p in parts) or len(parts) == 1:
            continue
        names.append("gluon_perceptron." + ".".join(parts))
    return names


def _heading(text: str, underline: str) -> str:
    return f"{text}\n{underline * len(text)}\n"


def _literal_assignment(path: Path, name: str):
    """The literal value assigned to ``name`` at the top level of ``path`` (read, not run)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return ast.literal_eval(node.value)
    raise LookupError(f"{path}: no literal {name} = ...")


def _export_table(package_dir: Path) -> dict[str, tuple[str, ...]]:
    """A lazy package's table (module -> public names): the dict its ``__init__.py`` hands to
    ``export(__name__, {...})``, read from the source."""
    init = package_dir / "__init__.py"
    for node in ast.walk(ast.parse(init.read_text())):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "export"
                and len(node.args) == 2 and isinstance(node.args[1], ast.Dict)):
            return ast.literal_eval(node.args[1])
    raise LookupError(f"{init}: no export(__name__, {{...}}) table")


def subpackages() -> dict[str, str]:
    """``gp.<alias>`` -> its package below ``gluon_perceptron`` (``"theory": "core.theory"``)."""
    return _literal_assignment(PACKAGE / "__init__.py", "_SUBPACKAGES")


def _module_all(path: Path) -> list[str]:
    """The names a module's ``__all__`` lists (the strings in its value, which may be a sorted
    tuple: ``__all__ = sorted((...), key=str.lower)``), read, not run."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return sorted((c.value for c in ast.walk(node.value)
                           if isinstance(c, ast.Constant) and isinstance(c.value, str)),
                          key=str.lower)
    raise LookupError(f"{path}: no __all__")


def public_names(alias: str) -> dict[str, list[str]]:
    """The public names of ``gp.<alias>``, by the module that defines them (dotted, from
    ``gluon_perceptron``), in the order of the package's table; the top-level names whose module
    lies in this subpackage but which it cannot export (``getfake``, ``train``) join them. A
    subpackage that is one module (``gp.exercises``) gives its ``__all__``."""
    target = subpackages()[alias]
    location = PACKAGE.joinpath(*target.split("."))
    if not location.is_dir():
        return {f"gluon_perceptron.{target}": _module_all(location.with_suffix(".py"))}
    table: dict[str, list[str]] = {}
    for module, names in _export_table(location).items():
        table.setdefault(f"gluon_perceptron.{target}.{module}", []).extend(names)
    listed = {name for names in table.values() for name in names}
    top = _literal_assignment(PACKAGE / "__init__.py", "_MODULES")
    for module, names in top.items():
        if module.startswith(target + "."):
            extra = [n for n in names if n not in listed]
            if extra:
                table.setdefault(f"gluon_perceptron.{module}", []).extend(extra)
    return table


def api_page(alias: str) -> str:
    """The reStructuredText of one page of the API reference: ``gp.<alias>``'s docstring, then
    each of its modules with the public names it defines (the command line, ``main``, is a
    layer: its public modules, whole)."""
    if alias == "main":
        parts = [_heading("The command line: gluon_perceptron.main", "="),
                 ".. automodule:: gluon_perceptron.main\n   :no-members:\n"]
        for module in public_modules("main"):
            parts.append(_heading(module, "-"))
            package = PACKAGE.joinpath(*module.split(".")[1:], "__init__.py").is_file()
            parts.append(f".. automodule:: {module}\n" + ("   :no-members:\n" if package else ""))
        return "\n".join(parts)
    target = subpackages()[alias]
    parts = [_heading(f"gp.{alias}", "="),
             f".. automodule:: gluon_perceptron.{target}\n   :no-members:\n",
             f"Reached as ``gp.{alias}.<name>`` or imported with "
             f"``from gluon_perceptron.{alias} import <name>``.\n"]
    if alias in API_PARTS:
        listed = "\n".join(f"- :doc:`{alias}/{part}`: {what}"
                           for part, (what, _) in API_PARTS[alias].items())
        pages = "\n".join(f"   {alias}/{part}" for part in API_PARTS[alias])
        parts.append(f"Its modules, on {len(API_PARTS[alias])} pages:\n\n{listed}\n\n"
                     f".. toctree::\n   :hidden:\n\n{pages}\n")
        return "\n".join(parts)
    modules = public_names(alias)
    if list(modules) == [f"gluon_perceptron.{target}"]:  # one module: its names, no heading
        module, names = next(iter(modules.items()))
        return "\n".join(parts + [f".. currentmodule:: {module}\n"]
                         + [f".. auto{_kind(module, name)}:: {name}\n" for name in names])
    return "\n".join(parts + _module_sections(modules))


def _module_sections(modules: dict[str, list[str]]) -> list[str]:
    """The reStructuredText of some modules of an API page: each module's docstring, then the
    public names it defines."""
    parts = []
    for module, names in modules.items():
        parts.append(_heading(module.split(".", 1)[1], "-"))
        parts.append(f".. automodule:: {module}\n   :no-members:\n")
        parts.append(f".. currentmodule:: {module}\n")
        for name in names:
            parts.append(f".. auto{_kind(module, name)}:: {name}\n")
    return parts


def api_part_page(alias: str, part: str) -> str:
    """One page of a subpackage documented on several (:data:`API_PARTS`): its group of
    modules."""
    what, modules = API_PARTS[alias][part]
    table = public_names(alias)
    named = {f"gluon_perceptron.{subpackages()[alias]}.{m}" for group in API_PARTS[alias].values()
             for m in group[1]}
    last = part == list(API_PARTS[alias])[-1]
    chosen = {module: names for module, names in table.items()
              if module.rsplit(".", 1)[1] in modules or (last and module not in named)}
    title = f"gp.{alias}: {what}"
    return "\n".join([_heading(title, "="), f".. currentmodule:: gluon_perceptron."
                      f"{subpackages()[alias]}\n"] + _module_sections(chosen))


def api_pages() -> list[str]:
    """Every page of the API reference, as paths below ``api/`` without suffix (``theory``,
    ``experiments/chapter``)."""
    return ["index"] + [page for alias in API_PAGES
                        for page in [alias] + [f"{alias}/{part}"
                                               for part in API_PARTS.get(alias, {})]]


def _kind(module: str, name: str) -> str:
    """``class`` or ``function`` for a public name of ``module``, from its source (an
    assignment such as a re-exported alias is documented as data)."""
    path = PACKAGE.joinpath(*module.split(".")[1:])
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    body = ast.parse(path.read_text()).body
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return "class"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return "function"
    try:  # a table of names kept in a private module (``gp.exercises``)
        implementation = _literal_assignment(path, "_IMPLEMENTATION")
    except LookupError:
        return "data"
    return _kind(implementation, name)


def api_index() -> str:
    pages = "\n".join(f"   {alias}" for alias in API_PAGES)
    return (_heading("API reference", "=") + "\n"
            ".. automodule:: gluon_perceptron\n   :no-members:\n\n"
            "One page per public subpackage, in the order of the course: the chapter's code, "
            "Rosenblatt's trainers, the perceptron as gradient descent, the theory, beyond "
            "Rosenblatt, the data, many machines, the experiments and the plots; then the "
            "command line. Each page documents the public names of its subpackage, module by "
            "module, from their docstrings.\n\n"
            f".. toctree::\n   :maxdepth: 1\n\n{pages}\n")


def without_front_matter(text: str) -> str:
    """A notebook's JSON without the front matter of its first markdown cell (``---`` lines
    around ``numbering: ...``, read by jupyterlab-myst; Sphinx numbers per notebook itself, see
    ``conf.py``, and would read the block as a heading)."""
    nb = json.loads(text)
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            match = re.match(r"---\n.*?\n---\n", source, re.DOTALL)
            if match:
                cell["source"] = source[match.end():]
            break
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def stage(src: Path, notebooks: Path, api: bool = True,
          only: tuple[str, ...] = ()) -> list[Path]:
    """Write the Sphinx source tree into ``src`` (emptied first); returns the notebooks (those
    whose name starts with one of ``only``, when given)."""
    if src.exists():
        shutil.rmtree(src)
    (src / "notebooks").mkdir(parents=True)
    (src / "api").mkdir()
    for page in PAGES:
        shutil.copy2(DOCS / page, src / page)
    staged = []
    for nb in sorted(notebooks.glob("*.ipynb")):
        if only and not nb.name.startswith(tuple(only)):
            continue
        (src / "notebooks" / nb.name).write_text(without_front_matter(nb.read_text()))
        staged.append(src / "notebooks" / nb.name)
    if api:
        (src / "api" / "index.rst").write_text(api_index())
        for alias in API_PAGES:
            (src / "api" / f"{alias}.rst").write_text(api_page(alias))
            for part in API_PARTS.get(alias, {}):
                (src / "api" / alias).mkdir(exist_ok=True)
                (src / "api" / alias / f"{part}.rst").write_text(api_part_page(alias, part))
    else:
        (src / "api" / "index.md").write_text("# API reference\n\nNot built (`--no-api`).\n")
    return staged


# --- running Sphinx --------------------------------------------------------------------------

#: The kernels' IPython configuration: figures as "retina" PNGs, saved at twice the dpi they
#: are shown at (200 dpi for matplotlib's 100), so they stay sharp on high-resolution screens.
KERNEL_CONFIG = """\
c.InlineBackend.figure_formats = {"retina"}
# The package first: its import finder keeps MXNet from loading scikit-learn for nothing, and
# SciPy's sparse matrices and requests until used (gluon_perceptron/core/_mxnet_import.py),
# about 1.5 CPU-s per kernel whose notebook imports mxnet first.
c.InteractiveShellApp.exec_lines = ["import gluon_perceptron as _package; del _package"]
"""
#: Run by every kernel at its start: each figure's metadata says how big its legends' and
#: titles' texts are (``docs/kernel_figures.py``; the browser test reads it).
KERNEL_CONFIG += f"c.InteractiveShellApp.exec_files = [{str(DOCS / 'kernel_figures.py')!r}]\n"


def kernel_environment(out: Path | None = None) -> dict[str, str]:
    """The environment of Sphinx and of the notebook kernels it starts.

    ``MPLBACKEND`` is removed: a kernel that inherits ``Agg`` (the test suite sets it) draws
    into no output at all, and the book would have no figures. Without it ipykernel uses the
    inline backend. One thread per kernel: two notebooks run side by side on two cores. With
    ``out``, the kernels read their IPython profile from ``out/ipython`` (:data:`KERNEL_CONFIG`),
    not the reader's own, and the project's kernel that every notebook names
    (``gluon-perceptron``) is this Python, from ``out/jupyter`` (first on ``JUPYTER_PATH``):
    the book needs no kernel installed, and one of that name registered elsewhere (another
    checkout's) cannot run it.
    """
    env = dict(os.environ)
    if out is not None:
        profile = out / "ipython" / "profile_default"
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "ipython_kernel_config.py").write_text(KERNEL_CONFIG)
        env["IPYTHONDIR"] = str(out / "ipython")
        spec = out / "jupyter" / "kernels" / "gluon-perceptron"
        spec.mkdir(parents=True, exist_ok=True)
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python (gluon_perceptron)", "language": "python"}))
        env["JUPYTER_PATH"] = os.pathsep.join(
            [str(out / "jupyter")] + ([env["JUPYTER_PATH"]] if env.get("JUPYTER_PATH") else []))
    env.pop("MPLBACKEND", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # no debugger warning on stderr from ipykernel
    return env


def run_sphinx(src: Path, out: Path, jobs: int, verbose: bool) -> int:
    """Sphinx's exit status; its output (and the kernels') goes to ``out/sphinx.log``."""
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-j", str(jobs),
           "-c", str(DOCS), "-d", str(out / "doctrees"), "-w", str(out / "warnings.txt"),
           str(src), str(out / "html")]
    env = kernel_environment(out)
    if verbose:
        return run_with_warden(cmd, env=env, cwd=ROOT)
    with open(out / "sphinx.log", "w") as log:
        return run_with_warden(cmd, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


#: The warden of :func:`run_with_warden`: it reads its standard input until the build closes
#: it, or dies (the kernel closes the pipe then, even after SIGKILL), then kills the process
#: group it was given. It ignores SIGINT and SIGTERM, which are the build's to receive.
WARDEN = """\
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while sys.stdin.buffer.read(4096):
    pass
try:
    os.killpg(int(sys.argv[1]), signal.SIGKILL)
except ProcessLookupError:
    pass
"""


def run_with_warden(cmd: list[str], **popen) -> int:
    """Run ``cmd`` (Sphinx) in a process group of its own, which dies with this process.

    Sphinx's parallel workers are forks, so in its group; each notebook kernel is started in
    a session of its own by jupyter_client, with ``JPY_PARENT_PID``, and ends (ipykernel's
    parent poller) within a second of the worker that started it. The group is killed:

    - by a *warden* process (:data:`WARDEN`) when this process ends in any way, SIGKILL
      included: it holds the read end of a pipe only this process writes to;
    - here, when this process is interrupted (Ctrl-C) or Sphinx ends;
    - and Sphinx itself gets ``PR_SET_PDEATHSIG`` (SIGKILL, Linux), as the cluster's processes
      do (:func:`gluon_perceptron.core.distributed.lifeline.die_with_parent`).

    The warden kills the group before Sphinx is reaped, so its group ID cannot have been
    reused. A SIGTERM (``timeout``) ends this process as Python's default does (status -15).
    """
    sys.path.insert(0, str(ROOT))
    from gluon_perceptron.core.distributed.lifeline import die_with_parent

    child = subprocess.Popen(cmd, process_group=0, preexec_fn=die_with_parent(os.getpid()),
                             **popen)
    warden = subprocess.Popen([sys.executable, "-c", WARDEN, str(child.pid)],
                              stdin=subprocess.PIPE, start_new_session=True)
    try:
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # ended, not reaped yet
    finally:
        warden.stdin.close()  # the warden kills what is left of the group, then ends
        warden.wait()
        child.wait()
    return child.returncode


# --- checking the result ---------------------------------------------------------------------

@dataclass
class NotebookRun:
    """One notebook as the build executed it."""

    name: str
    executed: Path
    succeeded: bool
    runtime: float | None
    errors: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    stdout: list[str] = field(default_factory=list)
    images: int = 0
    draws: bool = False

    @property
    def printed(self) -> str:
        """Everything the notebook printed on stdout, in order."""
        return "".join(self.stdout)

    @property
    def problems(self) -> list[str]:
        """What is wrong with this run: an error, a warning (anything on stderr), or a notebook
        that calls a plot function but shows no figure."""
        out = []
        if not self.succeeded and not self.errors:
            out.append("did not run to the end (see execution.json)")
        out += [f"error: {e}" for e in self.errors]
        out += [f"printed on stderr: {s.strip()[:500]}" for s in self.stderr]
        if self.draws and not self.images and not self.errors:
            out.append("plots but shows no figure (was MPLBACKEND set for the kernel?)")
        return out


#: A code cell that draws: pyplot, or one of the package's plot functions.
DRAWS = re.compile(r"\bplt\.|\bplot\w*\(")


def read_runs(out: Path) -> list[NotebookRun]:
    """Every notebook of the build, read back from the executed ``.ipynb`` and execution.json."""
    report = json.loads((out / "execution.json").read_text())
    runs = []
    for docname, data in sorted(report.items()):
        executed = out / "jupyter_execute" / f"{docname}.ipynb"
        run = NotebookRun(docname, executed, bool(data.get("succeeded")), data.get("runtime"))
        if data.get("traceback") and not data.get("succeeded"):
            run.errors.append(_last_line(data["traceback"]))
        if executed.exists():
            nb = json.loads(executed.read_text())
            code = [c for c in nb["cells"] if c["cell_type"] == "code"]
            run.draws = any(DRAWS.search("".join(c["source"])) for c in code)
            for cell in code:
                for o in cell.get("outputs", []):
                    kind = o.get("output_type")
                    if kind == "error":
                        text = f"{o.get('ename')}: {o.get('evalue')}"
                        if text not in run.errors:
                            run.errors.append(text)
                    elif kind == "stream" and o.get("name") == "stderr":
                        run.stderr.append("".join(o.get("text", "")))
                    elif kind == "stream":
                        run.stdout.append("".join(o.get("text", "")))
                    elif "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {}):
                        run.images += 1
        else:
            run.errors.append(f"no executed notebook at {executed}")
        runs.append(run)
    return runs


def _last_line(traceback: str) -> str:
    plain = re.sub(r"\x1b\[[0-9;]*m", "", traceback).strip().splitlines()
    return plain[-1] if plain else "failed"


class _Loads(HTMLParser):
    """Collects the URLs a page loads by itself (scripts, styles, images, frames), not links."""

    LOADED = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src",
              "video": "src", "embed": "src", "object": "data"}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and attrs.get("href"):
            self.urls.append(attrs["href"])
        elif tag in self.LOADED and attrs.get(self.LOADED[tag]):
            self.urls.append(attrs[self.LOADED[tag]])


EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def external_loads(html: Path) -> list[str]:
    """``file: url`` for everything a page or a stylesheet of the site would fetch from another
    host (anchors to other sites are links, not loads, and are allowed)."""
    found = []
    for page in sorted(html.rglob("*.html")):
        parser = _Loads()
        parser.feed(page.read_text(errors="replace"))
        found += [f"{page.relative_to(html)}: {u}" for u in parser.urls if EXTERNAL.match(u)]
    for css in sorted(html.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(errors="replace")):
            if EXTERNAL.match(url):
                found.append(f"{css.relative_to(html)}: {url}")
    return found


def check(out: Path) -> list[str]:
    """Everything wrong with a finished build, one line each (empty when all is well)."""
    problems = []
    if not (out / "html" / "index.html").exists():
        return [f"no book at {out / 'html' / 'index.html'}"]
    for run in read_runs(out):
        problems += [f"{run.name}: {p}" for p in run.problems]
    problems += [f"loads from another host: {u}" for u in external_loads(out / "html")]
    warnings = out / "warnings.txt"
    for line in warnings.read_text().splitlines() if warnings.exists() else []:
        if "autodoc: failed to import" in line:  # a module missing from the API reference
            problems.append("API reference: " + line.split("WARNING: ", 1)[-1])
        elif "more than one target found" in line:  # a link Sphinx may send to the wrong page
            problems.append("ambiguous link: " + line.split(" [ref.", 1)[0])
    return problems


def failed_notebooks(out: Path) -> list[str]:
    """The notebooks of a finished build that have a problem (an error, a warning, no figure);
    empty when the build left no ``execution.json`` to read."""
    try:
        return [run.name for run in read_runs(out) if run.problems]
    except (OSError, ValueError):
        return []


def outcome(out: Path, problems: list[str], failed: list[str], seconds: float) -> str:
    """The build's last line: where the book is, only when nothing went wrong; else that the
    book was not built, how many notebooks failed, and where their tracebacks are.

    Parameters
    ----------
    out : Path
        The build folder.
    problems : list of str
        Everything wrong with the build (:func:`check`, and Sphinx's exit status).
    failed : list of str
        The notebooks among them (:func:`failed_notebooks`), e.g. ``notebooks/02_raises``.
    seconds : float
        How long the build took.
    """
    index = out / "html" / "index.html"
    if not problems:
        return f"Built in {seconds:.0f} s. The book: {index}"
    listed = f"every problem is listed above and in {out / 'problems.txt'}"
    if failed:
        reports = out / "html" / "reports"
        where = (f"{out / 'execution.json'}" + (f" and {reports}" if reports.exists() else "")
                 + f"; the executed notebooks are in {out / 'jupyter_execute'}")
        return (f"The book was not built: {len(failed)} notebook(s) failed "
                f"({', '.join(failed)}) in {seconds:.0f} s. Tracebacks: {where}; {listed}.")
    return (f"The book was not built: {len(problems)} problem(s) in {seconds:.0f} s; "
            f"{listed}.")


# --- alt text --------------------------------------------------------------------------------

def _plain(markdown: str) -> str:
    """Markdown (with TeX) as one line of plain text, enough for alt text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"\{[a-z:-]+\}", "", text)
    text = re.sub(r"\\(?:mathbf|mathrm|operatorname|text)\b", "", text)
    text = re.sub(r"[*`#>$\\{}]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _first_sentence(markdown: str, limit: int = 200) -> str:
    lines = [line for line in markdown.splitlines()
             if line.strip() and not line.lstrip().startswith((":::", "```", "|", "<"))]
    text = _plain(" ".join(lines))
    sentence = re.split(r"(?<=[.!?:])\s", text, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[:limit - 1].rsplit(" ", 1)[0] + "…"


def figure_captions(executed: Path) -> dict[str, str]:
    """Alt text for every figure of an executed notebook, by the SHA-256 of its PNG (myst-nb
    names the image file after it): the cell's caption (``mystnb: figure: caption`` or
    ``image: alt`` in its metadata) when it has one, else the heading the figure stands under
    and the first sentence of the text before the cell."""
    nb = json.loads(executed.read_text())
    captions, heading, before = {}, "", ""
    for cell in nb["cells"]:
        source = "".join(cell.get("source", ""))
        if cell["cell_type"] == "markdown":
            for line in source.splitlines():
                if line.startswith("#"):
                    heading, before = _plain(line), ""
            body = "\n".join(line for line in source.splitlines() if not line.startswith("#"))
            if body.strip():
                before = _first_sentence(body)
            continue
        if cell["cell_type"] != "code":
            continue
        meta = cell.get("metadata", {}).get("mystnb", {})
        given = meta.get("figure", {}).get("caption") or meta.get("image", {}).get("alt")
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if not png:
                continue
            digest = hashlib.sha256(base64.b64decode("".join(png))).hexdigest()
            if given:
                captions[digest] = _plain(given)
            else:
                text = before.rstrip(".:").rstrip() + "." if before else ""
                under = f"Figure, {heading}" if heading else "Figure"
                captions[digest] = f"{under}: {text}" if text else under
    return captions


_IMG = re.compile(r"<img\b[^>]*>")


def add_alt_text(out: Path) -> int:
    """Give every figure of the notebook pages an alt text (:func:`figure_captions`) where
    Sphinx left the file's path; returns how many were changed."""
    changed = 0
    for executed in sorted((out / "jupyter_execute").rglob("*.ipynb")):
        page = out / "html" / executed.relative_to(out / "jupyter_execute").with_suffix(".html")
        if not page.exists():
            continue
        captions = figure_captions(executed)
        html = page.read_text()
        tags = [(m, _with_alt(m.group(0), captions)) for m in _IMG.finditer(html)]
        tags = [(m, new) for m, new in tags if new is not None]
        for match, new in reversed(tags):
            html = html[:match.start()] + new + html[match.end():]
        if tags:
            page.write_text(html)
            changed += len(tags)
    return changed


def _with_alt(tag: str, captions: dict[str, str]) -> str | None:
    """The ``<img>`` tag with its caption as alt text, or None if it keeps its own (the tag
    has a real alt text, or the image is not one of the notebook's figures)."""
    src = re.search(r'\bsrc="([^"]*)"', tag)
    alt = re.search(r'\balt="([^"]*)"', tag)
    if src is None:
        return None
    digest = Path(src.group(1)).stem
    if digest not in captions or (alt and alt.group(1) not in ("", src.group(1))):
        return None
    text = html_lib.escape(captions[digest], quote=True)
    if alt:
        return tag[:alt.start(1)] + text + tag[alt.end(1):]
    return tag.replace("<img", f'<img alt="{text}"', 1)


# --- code that wraps, figures that wait ------------------------------------------------------

_HIGHLIGHT = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.DOTALL)
_TAG_OR_NEWLINE = re.compile(r"(<[^>]+>|\n)")


def code_lines(body: str) -> str:
    """A highlighted code box's HTML (what Pygments writes inside ``<pre>``) with each line in
    a block of its own, ``<span class="line" style="--indent:N">``, N its indentation.

    ``book.css`` then wraps a line too long for the screen (a phone's 390 px hold about 45
    characters) with a hanging indent: it goes on to the right of its own indentation, as
    Python's continuation lines do, instead of at the left margin. A span that runs over a
    line break (a docstring) is closed at the end of the line and opened again on the next.
    The line breaks stay in the text, hidden (``span.nl``), so the copy button copies the code
    as it is.
    """
    lines, line, open_tags = [], [], []
    for piece in _TAG_OR_NEWLINE.split(body):
        if piece == "\n":
            lines.append("".join(line + ["</span>"] * len(open_tags)))
            line = list(open_tags)
        elif piece.startswith("</"):
            if open_tags:
                open_tags.pop()
            line.append(piece)
        elif piece.startswith("<") and not piece.endswith("/>"):
            open_tags.append(piece)
            line.append(piece)
        else:
            line.append(piece)
    last = "".join(line)
    blocks = []
    for i, text in enumerate(lines + [last]):
        plain = html_lib.unescape(re.sub(r"<[^>]+>", "", text))
        if i == len(lines) and not plain:
            blocks.append(text)  # the empty remainder after the last line break
            continue
        indent = len(plain) - len(plain.lstrip(" "))
        newline = '<span class="nl">\n</span>' if i < len(lines) else ""
        blocks.append(f'<span class="line" style="--indent:{indent}">{text}{newline}</span>')
    return "".join(blocks)


_STYLE = re.compile(r"<style>.*?</style>", re.DOTALL)


def finish_page(text: str) -> str:
    """A page of the book as Sphinx wrote it, made lighter to read on a phone: every code box's
    lines as blocks (:func:`code_lines`), a ``<style>`` block that repeats an earlier one of
    the page dropped, and the notebooks' figures loaded when the reader scrolls near them
    (``loading="lazy"``), not all at once when the page opens."""
    text = _HIGHLIGHT.sub(lambda m: m.group(1) + code_lines(m.group(2)) + m.group(3), text)
    seen: set[str] = set()  # each gp.show_source output brings the same <style> (5 kB): once
    text = _STYLE.sub(lambda m: "" if m.group(0) in seen or seen.add(m.group(0)) else m.group(0),
                      text)
    return _IMG.sub(lambda m: m.group(0) if "loading=" in m.group(0)
                    else m.group(0).replace("<img", '<img loading="lazy"', 1), text)


#: The search's scripts and index (186 kB and growing), which pydata-sphinx-theme puts on every
#: page for its search-as-you-type; with that option off (the default) only the search page
#: uses them.
_SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/'
                             r'language_data\.js|searchindex\.js)"></script>')


def finish_pages(html: Path) -> int:
    """:func:`finish_page` on every page of the site, and the search's scripts taken off every
    page but the search page (unless search-as-you-type is on); returns how many pages
    changed."""
    changed = 0
    for page in sorted(html.rglob("*.html")):
        text = page.read_text()
        done = finish_page(text)
        if page != html / "search.html" and "search_as_you_type = true" not in done:
            done = _SEARCH_SCRIPTS.sub("", done)
        if done != text:
            page.write_text(done)
            changed += 1
    return changed


# --- what a first load weighs ----------------------------------------------------------------

#: One icon of a Font Awesome pack: ``name:[width,height,[aliases],"unicode",path or [paths]]``.
_ICON = re.compile(r'(?:"([^"]+)"|([\w$]+)):\[\d+,\d+,\[([^\]]*)\],"[^"]*",'
                   r'(?:"[^"]*"|\[[^\]]*\])\]')
_ICON_PACK = re.compile(r"var [\w$]+=\{(?=(?:\"[^\"]+\"|[\w$]+):\[\d)")


def subset_fontawesome(html: Path) -> int:
    """Keep, in the theme's Font Awesome script, only the icons the site names.

    pydata-sphinx-theme loads ``_static/scripts/fontawesome.js`` on every page: 1.56 MB, almost
    all of it the paths of some 2,000 icons, of which the theme's pages show about ten
    (``fa-bars``, ``fa-magnifying-glass``, ...). The icons named anywhere in the site's pages
    or scripts (``fa-<name>``, by name or alias) stay; the others go, and the script is
    otherwise unchanged. (The theme's stylesheet names every icon, for its icon font, and is
    not read.) Returns the bytes saved (0 when the file is not the expected shape, which is
    left as it is).
    """
    script = html / "_static" / "scripts" / "fontawesome.js"
    if not script.is_file():
        return 0
    named = set()
    for path in html.rglob("*"):
        if path.suffix in (".html", ".js") and path != script and path.is_file():
            named.update(re.findall(r"\bfa-([a-z0-9-]+)", path.read_text(errors="replace")))
    text = script.read_text()
    _FONTAWESOME_SOURCE[script] = text
    pieces, end = [], 0
    for pack in _ICON_PACK.finditer(text):
        if pack.start() < end:
            continue
        kept, pos = [], pack.end()
        while True:
            icon = _ICON.match(text, pos)
            if icon is None:
                return 0  # not a pack of icons as expected: change nothing
            aliases = set(re.findall(r'"([^"]+)"', icon.group(3)))
            if ({icon.group(1) or icon.group(2)} | aliases) & named:
                kept.append(icon.group(0))
            pos = icon.end()
            if text[pos] == "}":
                break
            if text[pos] != ",":
                return 0
            pos += 1
        pieces += [text[end:pack.end()], ",".join(kept)]
        end = pos
    if not pieces:
        return 0
    smaller = "".join(pieces) + text[end:]
    script.write_text(smaller)
    saved = len(text.encode()) - len(smaller.encode())
    # The stylesheet's rules that give each icon its character for the icon font (about 2,000,
    # 66 kB): those of the icons the site names stay.
    sheet = html / "_static" / "styles" / "pydata-sphinx-theme.css"
    if sheet.is_file():
        css = sheet.read_text()
        lighter = _ICON_RULE.sub(lambda m: m.group(0) if set(re.findall(
            r"\.fa-([a-z0-9-]+)", m.group(1))) & named else "", css)
        sheet.write_text(lighter)
        saved += len(css.encode()) - len(lighter.encode())
    return saved


#: A stylesheet rule that only names icons' characters: ``.fa-bars,.fa-navicon{--fa:"\f0c9"}``.
_ICON_RULE = re.compile(r'(?<=[}\s])((?:\.fa-[a-z0-9-]+,)*\.fa-[a-z0-9-]+)\{--fa:"[^"]*"\}')


#: The packs of Font Awesome's script, by the prefix it registers each under, and the web font
#: of the stylesheet that draws the same icons.
_ICON_FONTS = {"fas": "fa-solid-900", "far": "fa-regular-400", "fab": "fa-brands-400"}
#: An icon's character in a stylesheet: a private-use character, or its escape (``"\f0c9"``).
_ICON_CHAR = re.compile(r"[\ue000-\uf8ff]|\\(f[0-9a-f]{3}|e[0-9a-f]{3})\b", re.IGNORECASE)


def _icon_packs(script: str) -> dict[str, dict[int, tuple[int, str]]]:
    """Font Awesome's script's icons: prefix (``"fas"``) -> character -> (width, SVG path)."""
    packs: dict[str, dict[int, tuple[int, str]]] = {}
    for pack in _ICON_PACK.finditer(script):
        prefix = re.compile(r'\(function\(\)\{\w+\("(fa[a-z])"').search(script, pack.end())
        icons = packs.setdefault(prefix.group(1) if prefix else "", {})
        for icon in re.finditer(r'\[(\d+),\d+,\[([^\]]*)\],"([0-9a-f]+)",("[^"]*"|\[[^\]]*\])\]',
                                script[pack.end():prefix.start() if prefix else None]):
            paths = re.findall(r'"([^"]*)"', icon.group(4))
            aliases = [int(n) for n in re.findall(r"\b\d+\b", icon.group(2))]
            for char in [int(icon.group(3), 16), *aliases]:
                icons.setdefault(char, (int(icon.group(1)), paths[-1]))
    return packs


def _icon_font(icons: dict[int, tuple[int, str]], family: str, weight: int) -> bytes:
    """A WOFF font with one glyph per icon, drawn from its SVG path (Font Awesome's own
    metrics: 512 units per em, the baseline 64 above the bottom of the 512 high view box)."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.svgLib.path import parse_path

    names = {char: f"uni{char:04X}" for char in sorted(icons)}
    builder = FontBuilder(512, isTTF=False)
    builder.setupGlyphOrder([".notdef", *names.values()])
    builder.setupCharacterMap({char: name for char, name in names.items()})
    glyphs = {".notdef": T2CharStringPen(512, None).getCharString()}
    metrics = {".notdef": (512, 0)}
    for char, (width, path) in icons.items():
        pen, bounds = T2CharStringPen(width, None), BoundsPen(None)
        for target in (pen, bounds):
            parse_path(path, TransformPen(target, (1, 0, 0, -1, 0, 448)))
        glyphs[names[char]] = pen.getCharString()
        metrics[names[char]] = (width, int(bounds.bounds[0]) if bounds.bounds else 0)
    name = family.replace(" ", "") + f"-{weight}"
    builder.setupCFF(name, {"FullName": name}, glyphs, {})
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=448, descent=-64)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=448, sTypoDescender=-64, usWinAscent=448, usWinDescent=64,
                     usWeightClass=weight)
    builder.setupPost()
    builder.font.flavor = "woff"
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def lighter_icons(html: Path) -> int:
    """Draw the theme's icons with its stylesheet's web fonts, each cut to the icons the site
    shows, instead of Font Awesome's script.

    pydata-sphinx-theme loads on every page both ``fontawesome.js`` (1.56 MB: the SVG of some
    2,000 icons, which it puts in place of each ``<i class="fa-...">``) and, through its
    stylesheet, Font Awesome's web fonts (115 kB for the solid icons), which draw the icons of
    admonitions and links (``::after`` with a private-use character). Both draw the same
    shapes. Here the script leaves every page, and each web font is rebuilt (WOFF) from the
    script's own SVG paths with only the characters the site's stylesheets name: the icons of
    the pages' ``<i>`` elements (one ``.fa-<name>{--fa:"\\f0c9"}`` rule each, kept by
    :func:`subset_fontawesome`) and those of the theme's own rules. Run after
    :func:`subset_fontawesome`, on a script read before it. Returns the bytes saved on a page
    (the script and the solid font), 0 when the files are not the expected shape (then
    nothing changes).
    """
    static = html / "_static"
    script = static / "scripts" / "fontawesome.js"
    sheet = static / "styles" / "pydata-sphinx-theme.css"
    fonts = static / "vendor" / "fontawesome" / "webfonts"
    if not (script.is_file() and sheet.is_file() and fonts.is_dir()):
        return 0
    source = _FONTAWESOME_SOURCE.get(script) or script.read_text()
    packs = _icon_packs(source)
    chars = set()
    for css in static.rglob("*.css"):
        chars.update(int(m.group(1), 16) if m.group(1) else ord(m.group(0))
                     for m in _ICON_CHAR.finditer(css.read_text(errors="replace")))
    text = sheet.read_text()
    faces = re.findall(r"@font-face\{[^}]*font-family:([^;]+);[^}]*font-weight:(\d+);src:url\("
                       r"\.\./vendor/fontawesome/webfonts/([\w-]+)\.woff2\)\}", text)
    if not faces or any(font not in _ICON_FONTS.values() for _, _, font in faces):
        return 0
    saved = 0
    for family, weight, font in faces:
        prefix = next(p for p, f in _ICON_FONTS.items() if f == font)
        icons = {c: packs[prefix][c] for c in chars if c in packs.get(prefix, {})}
        woff = fonts / f"{font}.woff"
        woff.write_bytes(_icon_font(icons, family.replace("\\", "").strip("\"'"), int(weight)))
        text = text.replace(f"url(../vendor/fontawesome/webfonts/{font}.woff2)",
                            f'url(../vendor/fontawesome/webfonts/{font}.woff) format("woff")')
        if font == "fa-solid-900":
            saved += (fonts / f"{font}.woff2").stat().st_size - woff.stat().st_size
    sheet.write_text(text)
    tag = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
    for page in html.rglob("*.html"):
        page_text = page.read_text()
        lighter = tag.sub("", page_text)
        if lighter != page_text:
            page.write_text(lighter)
    return saved + script.stat().st_size


#: Font Awesome's script as the theme ships it, kept by :func:`subset_fontawesome` for
#: :func:`lighter_icons` (which needs the icons no page names by class).
_FONTAWESOME_SOURCE: dict[Path, str] = {}


#: The palette a figure is reduced to: matplotlib's figures hold a few dozen colours plus the
#: antialiasing between them, which 256 keep to the eye (the text stays sharp: the pixels are
#: not changed in number, only in the colours they may take).
FIGURE_COLOURS = 256


def lighter_figures(html: Path) -> int:
    """Store each PNG figure of the site with a palette of :data:`FIGURE_COLOURS` colours (no
    dithering) when that is smaller: a notebook's figure drops from 150-320 kB to a quarter of
    that, with its size in pixels unchanged. Returns the bytes saved."""
    import io

    from PIL import Image

    saved = 0
    for path in sorted((html / "_images").glob("*.png")):
        raw = path.read_bytes()
        with Image.open(io.BytesIO(raw)) as image:
            if image.mode == "P":
                continue
            palette = image.convert("RGBA").quantize(
                FIGURE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        smaller = io.BytesIO()
        palette.save(smaller, "PNG", optimize=True)
        if smaller.tell() < len(raw):
            path.write_bytes(smaller.getvalue())
            saved += len(raw) - smaller.tell()
    return saved


#: The stylesheets :func:`trim_stylesheets` trims: the theme's (Bootstrap, 311 kB, of which
#: the pages use about a third) and myst-nb's (the outputs of every kind of widget).
_TRIMMED_SHEETS = ("styles/pydata-sphinx-theme.css", "mystnb.*.css")
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_CSS_NAME = re.compile(r"[.#](-?[A-Za-z_][\w-]*)")


def _css_blocks(css: str):
    """The top-level blocks of a stylesheet without comments: (what precedes ``{``, the text
    between the braces), strings and nested braces respected."""
    start = 0
    while True:
        brace = css.find("{", start)
        if brace < 0:
            return
        depth, i, quote = 1, brace + 1, ""
        while depth:
            char = css[i]
            if quote:
                quote = "" if char == quote and css[i - 1] != "\\" else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            i += 1
        yield css[start:brace], css[brace + 1:i - 1]
        start = i


def _selector_used(selector: str, names: set[str]) -> bool:
    """Whether a selector may match: each class and id it requires is named somewhere in the
    site (what ``:not(...)``, ``:is(...)`` and attribute selectors hold is not required)."""
    required = re.sub(r"\([^()]*\)|\[[^\]]*\]|\"[^\"]*\"|'[^']*'", "", selector)
    required = re.sub(r"\([^()]*\)", "", required)  # one level of nesting: :not(:is(.a))
    return all(name in names for name in _CSS_NAME.findall(required))


def _trimmed(css: str, names: set[str]) -> str:
    kept = []
    for head, body in _css_blocks(css):
        head = head.strip()
        if head.startswith("@"):
            if head.split("(")[0].split()[0] in ("@media", "@supports", "@layer", "@container"):
                inner = _trimmed(body, names)
                if inner:
                    kept.append(f"{head}{{{inner}}}")
            else:  # @font-face, @keyframes, ...: kept whole
                kept.append(f"{head}{{{body}}}")
            continue
        selectors = [s for s in head.split(",") if _selector_used(s, names)]
        if selectors:
            kept.append(f"{','.join(selectors)}{{{body}}}")
    return "".join(kept)


def trim_stylesheets(html: Path) -> int:
    """Take out of the theme's and myst-nb's stylesheets the rules no page can match: a
    selector that requires a class or an id which no page or script of the site names
    (Bootstrap's utilities, widgets the book does not have). Classes the scripts set are named
    in them, so they stay; a rule stays when any of its selectors may match. The licence
    comments (``/*! ... */``) stay, the others go. Returns the bytes saved."""
    names: set[str] = set()
    for path in html.rglob("*"):
        if path.suffix in (".html", ".js") and path.is_file():
            names.update(re.findall(r"-?[A-Za-z_][\w-]*", path.read_text(errors="replace")))
    saved = 0
    for pattern in _TRIMMED_SHEETS:
        for sheet in (html / "_static").glob(pattern):
            css = sheet.read_text()
            licences = [c for c in _CSS_COMMENT.findall(css) if c.startswith("/*!")]
            lighter = "\n".join(licences + [_trimmed(_CSS_COMMENT.sub("", css), names)]) + "\n"
            if len(lighter) < len(css):
                sheet.write_text(lighter)
                saved += len(css.encode()) - len(lighter.encode())
    return saved


# --- the command -----------------------------------------------------------------------------

def build(out: Path = DEFAULT_OUT, notebooks: Path = NOTEBOOKS, *, api: bool = True,
          only: tuple[str, ...] = (), jobs: int = 2, verbose: bool = False) -> int:
    """Build the book into ``out``; returns Sphinx's exit status (the checks are separate)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in ("html", "doctrees", "jupyter_execute", "execution.json", "warnings.txt",
                "sphinx.log", "problems.txt", "ipython"):
        target = out / old
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    staged = stage(out / "src", notebooks, api=api, only=only)
    print(f"Executing {len(staged)} notebooks and building the book in {out} ...", flush=True)
    status = run_sphinx(out / "src", out, jobs, verbose)
    if (out / "html").exists() and (out / "jupyter_execute").exists():
        add_alt_text(out)
    if (out / "html").exists():
        finish_pages(out / "html")
        subset_fontawesome(out / "html")
        lighter_icons(out / "html")
        trim_stylesheets(out / "html")
        lighter_figures(out / "html")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="build folder")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="notebooks folder")
    parser.add_argument("--no-api", dest="api", action="store_false", help="no API pages")
    parser.add_argument("--only", nargs="+", default=(), metavar="NN",
                        help="only the notebooks whose name starts with NN")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks executed at once")
    parser.add_argument("--verbose", action="store_true", help="Sphinx's full output")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    status = build(args.out, args.notebooks, api=args.api, only=tuple(args.only),
                   jobs=args.jobs, verbose=args.verbose)
    seconds = time.perf_counter() - start
    out = args.out.resolve()
    warnings = [line for line in (out / "warnings.txt").read_text().splitlines()
                if "WARNING" in line] if (out / "warnings.txt").exists() else []
    if warnings:
        print(f"Sphinx warnings ({len(warnings)}, in full in {out / 'warnings.txt'}):",
              file=sys.stderr)
        print("\n".join("  " + w[:300] for w in warnings[:20]), file=sys.stderr)
    problems = [f"sphinx-build exited with {status} (see {out / 'sphinx.log'})"] if status else []
    problems += check(out)
    (out / "problems.txt").write_text("".join(p + "\n" for p in problems))
    if problems:
        print(f"The book has problems ({len(problems)}):", file=sys.stderr)
        print("\n".join("  " + p for p in problems), file=sys.stderr)
    failed = failed_notebooks(out) if problems else []
    print(outcome(out, problems, failed, seconds), file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
