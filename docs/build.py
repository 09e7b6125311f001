"""Build the book: the notebooks executed, the API reference, the chapter's slips, as HTML.

    python docs/build.py                    # into docs/_build (what ``bash run.sh book`` does)
    python docs/build.py --out DIR          # anywhere else (the tests build into a temp folder)
    python docs/build.py --notebooks DIR --no-api   # other notebooks, no API pages
    python docs/build.py --only 03 05 --no-api      # some of the notebooks only

The build assembles a Sphinx source tree in ``OUT/src`` (the pages of ``docs/``, the notebooks'
``.ipynb``, one API page per layer of the package), runs Sphinx with ``docs/conf.py``, which
executes every notebook once with myst-nb, and writes:

- ``OUT/html/index.html``: the book;
- ``OUT/jupyter_execute/notebooks/NN_name.ipynb``: each notebook as executed, with its outputs;
- ``OUT/execution.json``: per notebook, whether it ran to the end, its runtime, its traceback;
- ``OUT/warnings.txt``: Sphinx's warnings.

It then checks the result (every notebook ran without an error or a warning, every page loads
only files of the site) and exits 1 if not, naming the notebook and the error. Nothing here
needs the network: MathJax comes with the site (sphinx-mathjax-offline).
"""

from __future__ import annotations

import argparse
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

#: The package's layers, in import order, each one page of the API reference.
LAYERS = ("core", "experiments", "plots", "main")
#: The hand-written pages copied into the source tree.
PAGES = ("index.md", "slips.md")


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


def api_page(layer: str) -> str:
    """The reStructuredText of one layer's API page: the layer's docstring, then each module."""
    package = f"gluon_perceptron.{layer}"
    parts = [_heading(f"API: {package}", "="),
             f".. automodule:: {package}\n   :no-members:\n"]
    for module in public_modules(layer):
        parts.append(_heading(module, "-"))
        # a package's __all__ re-exports its modules' names: document them once, in the module
        package = PACKAGE.joinpath(*module.split(".")[1:], "__init__.py").is_file()
        parts.append(f".. automodule:: {module}\n" + ("   :no-members:\n" if package else ""))
    return "\n".join(parts)


def api_index() -> str:
    layers = "\n".join(f"   {layer}" for layer in LAYERS)
    return (_heading("API reference", "=") + "\n"
            ".. automodule:: gluon_perceptron\n   :no-members:\n\n"
            "Every public module of the package, layer by layer, from its docstrings.\n\n"
            f".. toctree::\n   :maxdepth: 2\n\n{layers}\n")


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
        shutil.copy2(nb, src / "notebooks" / nb.name)
        staged.append(src / "notebooks" / nb.name)
    if api:
        (src / "api" / "index.rst").write_text(api_index())
        for layer in LAYERS:
            (src / "api" / f"{layer}.rst").write_text(api_page(layer))
    else:
        (src / "api" / "index.md").write_text("# API reference\n\nNot built (`--no-api`).\n")
    return staged


# --- running Sphinx --------------------------------------------------------------------------

def kernel_environment() -> dict[str, str]:
    """The environment of Sphinx and of the notebook kernels it starts.

    ``MPLBACKEND`` is removed: a kernel that inherits ``Agg`` (the test suite sets it) draws
    into no output at all, and the book would have no figures. Without it ipykernel uses the
    inline backend. One thread per kernel: two notebooks run side by side on two cores.
    """
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # no debugger warning on stderr from ipykernel
    return env


def run_sphinx(src: Path, out: Path, jobs: int, verbose: bool) -> int:
    """Sphinx's exit status; its output (and the kernels') goes to ``out/sphinx.log``."""
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-j", str(jobs),
           "-c", str(DOCS), "-d", str(out / "doctrees"), "-w", str(out / "warnings.txt"),
           str(src), str(out / "html")]
    if verbose:
        return subprocess.run(cmd, env=kernel_environment(), cwd=ROOT).returncode
    with open(out / "sphinx.log", "w") as log:
        return subprocess.run(cmd, env=kernel_environment(), cwd=ROOT, stdout=log,
                              stderr=subprocess.STDOUT).returncode


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


# --- the command -----------------------------------------------------------------------------

def build(out: Path = DEFAULT_OUT, notebooks: Path = NOTEBOOKS, *, api: bool = True,
          only: tuple[str, ...] = (), jobs: int = 2, verbose: bool = False) -> int:
    """Build the book into ``out``; returns Sphinx's exit status (the checks are separate)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for old in ("html", "doctrees", "jupyter_execute", "execution.json", "warnings.txt",
                "sphinx.log", "problems.txt"):
        target = out / old
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    staged = stage(out / "src", notebooks, api=api, only=only)
    print(f"Executing {len(staged)} notebooks and building the book in {out} ...", flush=True)
    return run_sphinx(out / "src", out, jobs, verbose)


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
