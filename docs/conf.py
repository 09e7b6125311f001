"""Sphinx configuration of the book: the executed notebooks, the API reference, the slips.

Do not call ``sphinx-build`` on this folder directly: ``docs/build.py`` (``bash run.sh book``)
assembles the source tree (these pages, the notebooks, one API page per layer) in the build
folder, runs Sphinx on it with this file, and checks what the notebooks printed.
"""

from __future__ import annotations

import atexit
import importlib.util
import itertools
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import matplotlib
import sphinx.builders
from jupyter_client.manager import AsyncKernelManager, KernelManager

# autodoc imports the plots in this process: no window. The notebook kernels are other
# processes; build.py removes MPLBACKEND from their environment so they draw inline (a kernel
# that inherits MPLBACKEND=Agg shows no figure at all).
matplotlib.use("Agg")

project = "gluon_perceptron"
author = "gluon_perceptron contributors"
copyright = "the gluon_perceptron contributors; chapter text: MXNet's The Straight Dope"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx_copybutton",
    "sphinx_exercise",
    "sphinx_proof",
    "sphinx_togglebutton",
    "sphinxcontrib.bibtex",
]
# Not sphinx-codeautolink: it stops the build ("pop from empty list" in doctree-read) on any
# page that holds a sphinx-exercise block, and every notebook page has exercises.

# MathJax 3 from the pip package sphinx-mathjax-offline, copied into _static/mathjax: the pages
# load it from the site, never from a CDN. (Its files are used, not its Sphinx extension, which
# does the same copy but does not declare itself safe for parallel reading: with it, Sphinx
# would execute the notebooks one at a time.)
_MATHJAX = importlib.util.find_spec("sphinx-mathjax-offline")
if _MATHJAX is None or _MATHJAX.origin is None:
    raise RuntimeError("the book needs MathJax from sphinx-mathjax-offline: "
                       "pip install -e '.[book]'")
# Not the combined tex-chtml.js (1.16 MB, a third of it the right-click menu): the loader and
# the pieces the pages use, 0.77 MB, so a page with formulas opens under 1.5 MB (issue 29).
# Packages beyond ams and newcommand (\boldsymbol, ...) load on first use (autoload).
mathjax_path = "mathjax/startup.js"
mathjax3_config = {"loader": {"load": ["input/tex", "output/chtml", "a11y/assistive-mml"]}}

exclude_patterns = ["_build", "**.ipynb_checkpoints", "notebooks/*.py"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
master_doc = "index"

# --- notebooks: executed once per build, every error and warning kept for the checks -------
# Sphinx's parallel read (-j 2) splits the pages into fixed batches of up to 10, so one process
# may get all the slow notebooks while the other idles. Each notebook is a batch of its own,
# first, so each process takes the next notebook as soon as it is free; the other pages keep
# Sphinx's batches. (Every batch is a fork whose whole environment is pickled back: one batch
# per page made the API pages cost 26 more CPU-seconds than the notebooks saved.)
if hasattr(sphinx.builders, "make_chunks"):
    _sphinx_chunks = sphinx.builders.make_chunks

    def _one_notebook_per_chunk(pages, nproc, maxbatch=10):
        notebooks = [page for page in pages if page.startswith("notebooks/")]
        rest = [page for page in pages if not page.startswith("notebooks/")]
        return [[page] for page in notebooks] + (_sphinx_chunks(rest, nproc, maxbatch)
                                                 if rest else [])

    sphinx.builders.make_chunks = _one_notebook_per_chunk

# The kernels talk to the build over Unix sockets, not TCP ports on 127.0.0.1. A kernel's TCP
# ports are picked free by jupyter_client, released, and bound again by the kernel a moment
# later; a cluster of the distributed tests, running beside the build, once took one in
# between ("Address already in use") and the build failed. A socket file cannot be taken that
# way. The files go in a short private folder (a socket's path has at most 107 bytes), named
# by the process and a count (the parallel read starts kernels from two processes at once);
# the folder is removed when the build ends.
_IPC_DIR = tempfile.mkdtemp(prefix="gluon-perceptron-kernels-")
_IPC_COUNT = itertools.count()
KernelManager.class_traits()["transport"].default_value = "ipc"
for _manager in (KernelManager, AsyncKernelManager):  # traitlets finds it in the class itself
    _manager._ip_default = lambda self: os.path.join(_IPC_DIR, f"{os.getpid()}-{next(_IPC_COUNT)}")
atexit.register(shutil.rmtree, _IPC_DIR, ignore_errors=True)

# "inline": the kernel runs beside the reader of each page, so the prose's inline expressions
# (`` {eval}`f"{x:.2f}"` ``, which jupyterlab-myst also evaluates) are evaluated where they stand.
nb_execution_mode = "inline"
# An inline expression is any one-line Python expression (myst-nb's default allows only a name).
nb_eval_name_regex = r"^[^\n]+$"
# Stop a notebook at its first error, as a reader running it would; the traceback stays in the
# executed notebook and in execution.json, which the build and the tests read.
nb_execution_allow_errors = False
nb_execution_raise_on_error = False
nb_execution_timeout = int(os.environ.get("GLUON_PERCEPTRON_BOOK_TIMEOUT", "600"))
nb_execution_show_tb = False  # the traceback goes to execution.json and build.py prints it
nb_merge_streams = True
# No widgets in the notebooks: keep myst-nb from adding RequireJS from a CDN.
nb_ipywidgets_js = {}
# colon_fence: `:::{exercise}`, `:::{solution}` and `:::{prf:theorem}` blocks in markdown cells.
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
# One numbering per notebook, the same as in JupyterLab (jupyterlab-myst numbers from the
# `numbering: enumerator: "NN.%s"` front matter of each notebook's first cell, which build.py
# strips from the book's copy): exercise k of notebook NN is "Exercise NN.k", its figure k
# "Figure NN.k", its theorem k "Theorem NN.k" (see _number_per_notebook below).
numfig = True
numfig_format = {"figure": "Figure %s", "table": "Table %s", "code-block": "Listing %s"}

# --- exercises, theorems, references, copy buttons -----------------------------------------
# sphinx-proof 0.4 declares itself safe for parallel reading but its domain has no
# merge_domaindata, so Sphinx -j 2 stops ("merge_domaindata must be implemented"). The domain
# keeps nothing in its domain data (its proofs are in env.proof_list, which sphinx-proof merges
# on env-merge-info), so there is nothing to merge.
from sphinx.domains import Domain  # noqa: E402
from sphinx_proof.domain import ProofDomain  # noqa: E402

if ProofDomain.merge_domaindata is Domain.merge_domaindata:
    def _merge_nothing(self, docnames, otherdata) -> None:
        return None

    ProofDomain.merge_domaindata = _merge_nothing

# A solution is collapsed until the reader opens it (sphinx-togglebutton): every solution block
# of sphinx-exercise, whether or not it says `:class: dropdown`.
togglebutton_selector = ".toggle, .admonition.dropdown, .solution.admonition"
bibtex_bibfiles = ["references.bib"]
bibtex_reference_style = "author_year"


# One citation style: the text cites "(Rosenblatt, 1958)" and the bibliography labels that
# entry [Rosenblatt, 1958], in the order of its authors (pybtex's plain style numbers them).
import pybtex.plugin  # noqa: E402
from pybtex.richtext import Text  # noqa: E402
from pybtex.style.formatting.plain import Style as _PlainStyle  # noqa: E402
from pybtex.style.labels import BaseLabelStyle  # noqa: E402


class _AuthorYearLabels(BaseLabelStyle):
    """Labels as the text cites: one author, two ("Minsky and Papert"), or the first and "et
    al."; then the year, with a letter when two entries would have the same label."""

    def format_labels(self, sorted_entries):
        labels = [self._label(entry) for entry in sorted_entries]
        for label in set(labels):
            if labels.count(label) > 1:
                letters = iter("abcdefghijklmnopqrstuvwxyz")
                labels = [f"{x}{next(letters)}" if x == label else x for x in labels]
        return iter(labels)

    @staticmethod
    def _label(entry) -> str:
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [Text.from_latex(" ".join(p.last_names)).render_as("text") for p in people]
        if len(names) > 2 or "others" in names:
            who = f"{names[0]} et al."
        else:
            who = " and ".join(names) or entry.fields.get("key", "?")
        return f"{who}, {entry.fields.get('year', 'n.d.')}"


class _AuthorYearStyle(_PlainStyle):
    default_label_style = _AuthorYearLabels


pybtex.plugin.register_plugin("pybtex.style.formatting", "gp_author_year", _AuthorYearStyle)
bibtex_default_style = "gp_author_year"
# The copy button copies the code, never the prompts or the output of a cell.
copybutton_exclude = ".linenos, .gp, .go"
copybutton_selector = "div.highlight pre"

# --- API reference ---------------------------------------------------------------------------
# A [source] link beside every function and class, to its module's code as a page of the site
# (viewcode reads the installed package: nothing is fetched).
extensions.append("sphinx.ext.viewcode")
# Signatures name the function, not its module again (the page's heading names the module):
# they fit a phone's screen.
add_module_names = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_mock_imports: list[str] = []
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = True
napoleon_use_ivar = True
napoleon_preprocess_types = True

# --- HTML ------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "gluon_perceptron"
html_theme_options = {
    # Every entry of the right-hand contents shown (issue 29), down to a class's members.
    "show_toc_level": 4,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
}
# An explicit colour mode: without one the theme logs an error in the browser console.
html_context = {"default_mode": "auto"}
html_static_path = [str(Path(_MATHJAX.origin).parent / "static"), "_static"]
# Code, outputs and tables readable at 1280 px without sideways scrolling (book.css).
html_css_files = ["book.css"]
html_last_updated_fmt = None
html_show_sourcelink = False


def _write_execution_report(app, exception) -> None:
    """Write ``execution.json`` beside the HTML: for every notebook, whether it ran to the end,
    how long it took, and the traceback if it did not (myst-nb keeps these in the environment).
    """
    if exception is not None or app.builder.name != "html":
        return
    from myst_nb.sphinx_ import NbMetadataCollector

    report = {}
    for docname in sorted(app.env.found_docs):
        data = NbMetadataCollector.get_doc_data(app.env).get(docname, {}).get("exec_data")
        if data:
            report[docname] = {key: data.get(key) for key in
                               ("succeeded", "runtime", "method", "error", "traceback")}
    Path(app.outdir).parent.joinpath("execution.json").write_text(
        json.dumps(report, indent=1, default=str))


def _number_per_notebook(app, env) -> list[str]:
    """Renumber what Sphinx numbered across the book, per notebook: the k-th figure (exercise,
    theorem, ...) of ``notebooks/NN_name`` is NN.k, whichever notebooks the build holds."""
    for docname, numbers in env.toc_fignumbers.items():
        notebook = re.match(r"notebooks/(\d+)_", docname)
        if notebook is None:
            continue
        for ids in numbers.values():
            for k, name in enumerate(sorted(ids, key=ids.get), start=1):
                ids[name] = (int(notebook.group(1)), k)
    return []


def setup(app):
    app.connect("build-finished", _write_execution_report)
    # after Sphinx's own numbering (TocTreeCollector, priority 500)
    app.connect("env-get-updated", _number_per_notebook, priority=900)
