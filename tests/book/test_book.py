"""The book (``docs/build.py``, ``bash run.sh book``), built once per test run by the ``book``
fixture, checked as a reader sees it: every page opened in headless Chromium.

The browser is Debian's ``chromium-headless-shell`` (``apt-get install chromium-headless-shell``)
driven by Playwright for Python (``pip install -e '.[test]'``); ``playwright install`` is never
needed. Without the browser these tests skip, except under ``CI=true``, where they fail.
``GLUON_PERCEPTRON_CHROMIUM=/path/to/binary`` picks another Chromium.
``GLUON_PERCEPTRON_SCREENSHOTS=DIR`` saves a screenshot of every page into DIR.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

#: Building the book executes every notebook (or waits for the worker that does): far beyond
#: the suite's default per-test timeout (pyproject.toml).
pytestmark = pytest.mark.timeout(3600)

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gluon_perceptron_book_build",
                                               ROOT / "docs" / "build.py")
assert _spec is not None and _spec.loader is not None
builder = sys.modules.get(_spec.name) or importlib.util.module_from_spec(_spec)
if _spec.name not in sys.modules:
    sys.modules[_spec.name] = builder
    _spec.loader.exec_module(builder)

#: Every page the book must have, from the sources: the notebooks, the hand-written pages, the
#: API reference (one page per subpackage), and Sphinx's own (index of names, modules, search,
#: and sphinx-proof's index of theorems).
HANDWRITTEN = [Path(page).with_suffix(".html").as_posix() for page in builder.PAGES
               if page.endswith(".md")]
PAGES = (HANDWRITTEN + [f"api/{page}.html" for page in builder.api_pages()]
         + [f"notebooks/{p.stem}.html" for p in sorted(builder.NOTEBOOKS.glob("*.ipynb"))]
         + ["genindex.html", "py-modindex.html", "search.html", "prf-prf.html"])

HOW_TO_INSTALL = ("the browser test needs Debian's chromium-headless-shell "
                  "(as root: apt-get update && apt-get install -y chromium-headless-shell) and "
                  "Playwright for Python (.venv/bin/python -m pip install -e '.[test]'); "
                  "never run `playwright install`")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


def chromium_binary() -> str | None:
    """Debian's headless Chromium, or the one ``GLUON_PERCEPTRON_CHROMIUM`` names."""
    chosen = os.environ.get("GLUON_PERCEPTRON_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    for name in ("chromium-headless-shell", "chromium"):
        found = shutil.which(name)
        if found:
            return found
    return None


def unavailable(reason: str):
    """Skip, with how to install what is missing; under CI=true the browser is required."""
    message = f"{reason}: {HOW_TO_INSTALL}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (required under CI=true)", pytrace=False)
    pytest.skip(message)


def built(book) -> Path:
    html = book.out / "html"
    if not (html / "index.html").exists():
        pytest.fail(f"the book was not built:\n{book.log[-4000:]}")
    return html


# --- the build itself -----------------------------------------------------------------------

def test_book_has_every_page(book):
    """Every page of PAGES exists, and every page built is in PAGES (so each one is opened)."""
    html = built(book)
    pages = {p.relative_to(html).as_posix() for p in html.rglob("*.html")
             if not p.relative_to(html).parts[0].startswith("_")}
    assert not set(PAGES) - pages, f"missing: {sorted(set(PAGES) - pages)}"
    assert not pages - set(PAGES), f"not checked in the browser: {sorted(pages - set(PAGES))}"


def test_book_loads_nothing_from_another_host(book):
    """No script, style, image or font of any page comes from a CDN (the pages work offline)."""
    html = built(book)
    assert (html / "_static" / "mathjax" / "startup.js").exists(), "MathJax is not served"
    assert not builder.external_loads(html)


def test_book_build_reports_no_problem(book):
    """What ``bash run.sh book`` checks after building, but the notebooks (each has its own
    test, ``test_notebook_runs``): Sphinx succeeded, every module of the API reference imported,
    no page loads anything from another host."""
    built(book)
    assert "sphinx-build exited" not in book.log, book.log[-4000:]
    problems = [p for p in builder.check(book.out) if not p.startswith("notebooks/")]
    assert not problems, "\n".join(problems)


def _notebook(cells: list[str]) -> str:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A test notebook")]
                                  + [nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nbformat.writes(nb)


#: A cell of :func:`small_build`'s good notebook whose kernel prints how it talks to the build:
#: its transport, whether its address is an absolute path, whether that path's folder exists.
_TRANSPORT = ("import json, os\nfrom ipykernel.connect import get_connection_info\n"
              "info = get_connection_info(unpack=True)\n"
              "print(info['transport'], os.path.isabs(info['ip']), "
              "os.path.isdir(os.path.dirname(info['ip'])))")


@pytest.fixture(scope="module")
def small_build(tmp_path_factory):
    """A build (``docs/build.py --no-api``) of small notebooks: a good one, whose kernel also
    reports its transport (:data:`_TRANSPORT`), one that raises, one that warns and one that
    plots into no figure (a kernel each: four, not five). Returns (the build folder, the
    finished process). Built once per test run: under pytest-xdist the first worker to ask
    builds it under a file lock, as the ``book`` fixture does."""
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # one folder for every worker of this run
    folder, done = shared / "small-build", shared / "small-build.json"
    with FileLock(str(shared / "small-build.lock")):
        if not done.exists():
            proc = _small_build(folder)
            done.write_text(json.dumps([proc.returncode, proc.stdout, proc.stderr]))
        status, stdout, stderr = json.loads(done.read_text())
    return folder / "out", subprocess.CompletedProcess([], status, stdout, stderr)


def _small_build(folder: Path) -> subprocess.CompletedProcess:
    notebooks = folder / "notebooks"
    notebooks.mkdir(parents=True)
    (notebooks / "01_good.ipynb").write_text(_notebook(["print('fine')", _TRANSPORT]))
    (notebooks / "02_raises.ipynb").write_text(_notebook(["print('before')", "1 / 0",
                                                          "print('after')"]))
    (notebooks / "03_warns.ipynb").write_text(_notebook(
        ["import warnings\nwarnings.warn('look out')"]))
    (notebooks / "04_no_figure.ipynb").write_text(_notebook(
        ["import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
         "plt.plot([1, 2])"]))
    # one notebook at a time: for five tiny notebooks Sphinx's forks cost more than they save
    return subprocess.run(
        [sys.executable, str(ROOT / "docs" / "build.py"), "--out", str(folder / "out"),
         "--notebooks", str(notebooks), "--no-api", "--jobs", "1"], capture_output=True,
        text=True)


def test_a_broken_notebook_fails_the_build(small_build):
    """The machinery the notebook tests rely on: a notebook that raises, one that warns, and
    one that plots into no figure are each reported, by name, and the build exits 1."""
    out, proc = small_build
    assert proc.returncode == 1, proc.stdout + proc.stderr
    runs = {run.name: run for run in builder.read_runs(out)}
    good = runs["notebooks/01_good"]
    assert not good.problems and good.printed.splitlines()[0] == "fine"
    raised = runs["notebooks/02_raises"]
    assert not raised.succeeded and raised.printed == "before\n"  # stopped at the error
    assert any("ZeroDivisionError" in p for p in raised.problems)
    assert any("look out" in p for p in runs["notebooks/03_warns"].problems)
    assert any("no figure" in p for p in runs["notebooks/04_no_figure"].problems)
    for name in ("02_raises", "03_warns", "04_no_figure"):
        assert f"notebooks/{name}:" in proc.stderr, proc.stderr
    assert "notebooks/01_good:" not in proc.stderr, proc.stderr


def test_kernels_talk_over_unix_sockets(small_build):
    """The book's kernels use IPC transport, so no TCP port is picked, released and bound again
    (a cluster test running beside the build once took such a port): a kernel the build
    started (``docs/conf.py``'s kernel managers) says so from inside."""
    out, proc = small_build
    run = {run.name: run for run in builder.read_runs(out)}["notebooks/01_good"]
    assert not run.problems, (run.problems, proc.stderr[-2000:])
    assert run.printed.split() == ["fine", "ipc", "True", "True"], run.printed


# --- in the browser -------------------------------------------------------------------------

class _Quiet(SimpleHTTPRequestHandler):
    """Serves the book as the README tells a reader to (``python -m http.server``): every file
    as it is on disk, nothing compressed, so a page's first load is measured in the bytes that
    way of serving it sends. (A static host that compresses, such as GitHub Pages, sends
    less: :func:`compressed` gives that figure too.)"""

    def log_message(self, *args):
        pass


#: The files a static host sends gzip-compressed (GitHub Pages, Read the Docs, nginx's gzip).
COMPRESSED = (".html", ".css", ".js", ".svg", ".json", ".txt", ".map")


@functools.lru_cache(maxsize=512)
def _gzipped_size(path: str, mtime_ns: int) -> int:
    return len(gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0))


def compressed(html: Path, base: str, fetched: dict[str, int]) -> int:
    """What the files of a first load (URL -> bytes sent) weigh when a host gzip-compresses
    its text files."""
    total = 0
    for url, size in fetched.items():
        path = html / unquote(urlsplit(url[len(base) - 1:]).path).lstrip("/")
        if path.suffix in COMPRESSED and path.is_file():
            total += _gzipped_size(str(path), path.stat().st_mtime_ns)
        else:
            total += size
    return total


class _Server(ThreadingHTTPServer):
    """The book's server: a browser that drops a connection it no longer needs (a page left
    before a file arrived) is not an error worth a traceback on the test run's stderr."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def site(book):
    """The built book served on 127.0.0.1 (a free port) for as long as the tests need it."""
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built(book))))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def launched_chromium():
    """Debian's chromium-headless-shell under Playwright, closed when the generator ends (the
    browser fixtures here and of the JupyterLab test ``yield from`` it)."""
    binary = chromium_binary()
    if binary is None:
        unavailable("no chromium-headless-shell found")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed")
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=binary, args=CHROMIUM_FLAGS)
    except Exception as exc:  # noqa: BLE001 - any launch failure means no browser
        playwright.stop()
        unavailable(f"{binary} does not start under Playwright ({exc})")
    try:
        yield chromium
    finally:
        chromium.close()
        playwright.stop()


@pytest.fixture(scope="module")
def browser():
    yield from launched_chromium()


#: Run in the page once it has loaded: waits for MathJax and the images, then reports what a
#: reader would see go wrong.
INSPECT = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  const images = [...document.images];
  images.forEach(img => { img.loading = 'eager'; });
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done); img.addEventListener('error', done);
    setTimeout(done, 15000);
  })));
  const text = el => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 120);
  const prose = document.querySelector('main') || document.body;
  const copy = prose.cloneNode(true);
  copy.querySelectorAll('pre, code, script, style, textarea, mjx-container, .highlight')
      .forEach(el => el.remove());
  const raw = (copy.textContent.match(/\\$[^\\s$][^$]*?\\$|\\\\\\(|\\\\\\[|\\\\begin\\{/g) || []);
  return {
    mathjax: !!(window.MathJax && MathJax.startup),
    broken_images: images.filter(img => !(img.complete && img.naturalWidth > 0))
                         .map(img => img.currentSrc || img.src),
    cell_images: document.querySelectorAll('.cell_output img').length,
    untypeset: [...document.querySelectorAll('.math')]
                 .filter(el => !el.querySelector('mjx-container')).map(text),
    math_errors: [...document.querySelectorAll('mjx-merror, [data-mjx-error]')]
                   .map(el => el.getAttribute('data-mjx-error') || text(el)),
    raw_tex: raw.slice(0, 10),
    error_cells: [...document.querySelectorAll(
                    '.cell_output .traceback, .output.traceback, .output.stderr, .output.error')]
                   .map(text),
    tracebacks: [...document.querySelectorAll('.cell_output')]
                  .filter(el => el.textContent.includes('Traceback (most recent call last)'))
                  .map(text),
    sphinx_errors: [...document.querySelectorAll('.system-message, .problematic')].map(text),
    code_blocks: document.querySelectorAll('div.highlight pre').length,
    copy_buttons: document.querySelectorAll('button.copybtn').length,
    // Code and outputs that scroll sideways at this width (1280 px).
    sideways: [...document.querySelectorAll(
                 'div.highlight pre, .cell_output pre, .cell_output .output, .cell_output')]
                .filter(el => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
                .map(el => `${el.scrollWidth} px in ${el.clientWidth} px: ${text(el)}`),
    page_sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    // Shown images with fewer than 1.5 pixels per displayed pixel, or no alt text of their own.
    // (Icons under 64 px, such as the module index's, are not figures.)
    soft_images: images.filter(img => img.complete && img.naturalWidth > 0 &&
                                      img.getBoundingClientRect().width >= 64 &&
                                      img.naturalWidth < 1.5 * img.getBoundingClientRect().width)
                       .map(img => `${img.naturalWidth} px shown at ` +
                                   `${Math.round(img.getBoundingClientRect().width)} px: ` +
                                   img.getAttribute('src')),
    no_alt: images.filter(img => {
                  const alt = (img.getAttribute('alt') || '').trim();
                  const src = img.getAttribute('src') || '';
                  return !alt || alt === src || src.endsWith(alt) ||
                         /\\.(png|svg|jpe?g)$/i.test(alt);
                }).map(img => img.getAttribute('src')),
    // A notebook's figure without a caption under it, or whose alt text is not that caption
    // (up to the curly quotes, ellipses and spacing Sphinx gives the caption).
    uncaptioned: [...document.querySelectorAll('.cell_output img')].filter(img => {
                  const plain = t => t.replace(/[\\u2018\\u2019]/g, "'").replace(/\\u2026/g, '...')
                                      .replace(/[\\u201c\\u201d]/g, '"')
                                      .replace(/\\s+/g, ' ').trim();
                  const cap = img.closest('figure')?.querySelector('.caption-text');
                  return !cap || plain(img.getAttribute('alt') || '') !== plain(cap.textContent);
                }).map(img => img.getAttribute('src')),
    // Leftover reprs of what a plotting call returned.
    reprs: [...document.querySelectorAll('.cell_output pre')]
             .map(el => el.textContent.trim())
             .filter(t => /^(Text\\(|<Axes|\\[<matplotlib|<matplotlib\\.)/.test(t))
             .map(t => t.slice(0, 80)),
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
    exercises: document.querySelectorAll('div.exercise').length,
    // A solution whose body a reader sees before opening it.
    open_solutions: [...document.querySelectorAll('.solution')]
                      .filter(el => [...el.children]
                        .filter(c => !c.classList.contains('admonition-title'))
                        .some(c => c.getClientRects().length > 0 &&
                                   getComputedStyle(c).visibility !== 'hidden'))
                      .map(text),
    theorems: document.querySelectorAll('.theorem, div.proof').length,
    citations: document.querySelectorAll('.citation, dl.citation > dt').length,
    // A dollar sign left in the prose (math whose delimiters MyST did not take, such as a
    // display formula run into its paragraph).
    dollars: [...copy.textContent.matchAll(/[^$]{0,40}\\$+[^$]{0,40}/g)]
               .map(m => m[0].replace(/\\s+/g, ' ').trim()).slice(0, 10),
    // Entries of the right-hand contents the reader cannot read whole: hidden, or cut off at
    // the sidebar's edge.
    sidebar_entries: document.querySelectorAll('.bd-sidebar-secondary nav a').length,
    sidebar_cut: (() => {
      const bar = document.querySelector('.bd-sidebar-secondary');
      if (!bar || !bar.getClientRects().length) return [];
      const edge = bar.getBoundingClientRect();
      return [...bar.querySelectorAll('nav a')].filter(a => {
        const r = a.getBoundingClientRect();
        return !a.getClientRects().length || getComputedStyle(a).visibility === 'hidden' ||
               a.scrollWidth > a.clientWidth + 1 || r.right > edge.right + 1 ||
               r.left < edge.left - 1;
      }).map(text);
    })(),
    // Functions and classes of the API reference without a link to their source.
    documented: document.querySelectorAll('dl.py.function > dt, dl.py.class > dt').length,
    no_source: [...document.querySelectorAll('dl.py.function > dt, dl.py.class > dt')]
                 .filter(dt => !dt.querySelector('.viewcode-link'))
                 .map(dt => dt.id || text(dt)),
    // Icons not drawn: an <i class="fa-..."> shown that has no character, or whose character
    // the icon font lacks (it is then as wide as monospace's box for a missing character).
    missing_icons: [...document.querySelectorAll('i[class*="fa-"]')]
                     .filter(i => i.getClientRects().length).filter(i => {
      const before = getComputedStyle(i, '::before');
      const glyph = before.content.replace(/^"|"$/g, '');
      if (!glyph || before.content === 'none' || before.content === 'normal') return true;
      const context = document.createElement('canvas').getContext('2d');
      const width = family => {
        context.font = `${before.fontWeight} 100px ${family}`;
        return context.measureText(glyph).width;
      };
      return Math.abs(width(`${before.fontFamily}, monospace`) - width('monospace')) < 0.5;
    }).map(i => i.className),
    // Each figure of a notebook and the width it is shown at.
    figures: [...document.querySelectorAll('.cell_output img')]
               .map(img => [img.getAttribute('src'), img.getBoundingClientRect().width]),
  };
}"""

#: Waits, once a page has loaded, for what opening it fetches by itself: MathJax's components
#: and the fonts of its formulas, the page's fonts. (Figures below the first screen load when
#: the reader scrolls to them.)
SETTLE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await document.fonts.ready;
  // Then until no new file has been asked for in 300 ms (at most 10 s).
  const count = () => performance.getEntriesByType('resource').length;
  for (let seen = -1, waited = 0; seen !== count() && waited < 10000; waited += 300) {
    seen = count();
    await new Promise(done => setTimeout(done, 300));
  }
}"""

#: Run at a phone's width (390 px): what scrolls sideways, code that loses its indentation where
#: it wraps, the width each figure is shown at.
PHONE_INSPECT = """() => {
  const text = el => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  const doc = document.documentElement;
  const width = doc.clientWidth;
  // If the page scrolls sideways: the outermost elements that reach past its right edge and
  // that no box of their own scrolls or clips (the drawers of the sidebars are off the screen
  // on purpose).
  const past = el => el.getClientRects().length && el.getBoundingClientRect().right > width + 1;
  const held = el => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.position === 'fixed' || style.visibility === 'hidden') return true;
      if (style.overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 1) {
        return true;
      }
    }
    return getComputedStyle(el).position === 'fixed';
  };
  const wide = doc.scrollWidth > width + 1
    ? [`the page is ${doc.scrollWidth} px wide`].concat(
        [...document.body.querySelectorAll('*')]
          .filter(el => past(el) && !past(el.parentElement) && !held(el))
          .map(el => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ` +
                     `${Math.round(el.getBoundingClientRect().right)} px: ${text(el)}`))
    : [];
  const boxes = [...document.querySelectorAll('div.highlight pre, .cell_output pre')]
                  .filter(el => el.getClientRects().length);
  const scrolling = boxes.filter(el => el.scrollWidth > el.clientWidth + 1)
                         .map(el => `${el.scrollWidth} px in ${el.clientWidth} px: ${text(el)}`);
  const collapsed = boxes.filter(el => !/^(pre|pre-wrap|break-spaces)$/
                                         .test(getComputedStyle(el).whiteSpace)).map(text);
  // A line of code that wraps must go on to the right of its own indentation.
  const unindented = [];
  for (const pre of boxes) {
    const style = getComputedStyle(pre);
    const lines = pre.textContent.replace(/\\n$/, '').split('\\n');
    const lineHeight = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
    if (pre.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
        <= lines.length * lineHeight + 2) continue;  // no line wraps
    const probe = document.createElement('span');
    probe.textContent = '0'.repeat(20);
    pre.appendChild(probe);
    const ch = probe.getBoundingClientRect().width / 20;
    probe.remove();
    const left = pre.getBoundingClientRect().left + pre.clientLeft +
                 parseFloat(style.paddingLeft);
    const nodes = [];
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(), at = 0; n; n = walker.nextNode()) {
      nodes.push([n, at]); at += n.data.length;
    }
    const locate = offset => {
      let i = nodes.length - 1;
      while (i > 0 && nodes[i][1] > offset) i -= 1;
      return [nodes[i][0], Math.min(offset - nodes[i][1], nodes[i][0].data.length)];
    };
    let start = 0;
    for (const line of lines) {
      const end = start + line.length;
      if (line.trim()) {
        const range = document.createRange();
        range.setStart(...locate(start));
        range.setEnd(...locate(end));
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const top = Math.min(...rects.map(r => r.top));
        const later = rects.filter(r => r.top > top + lineHeight / 2);
        const indent = line.length - line.trimStart().length;
        // (A line indented deeper than half the box may go on from its middle.)
        const box = pre.clientWidth - parseFloat(style.paddingLeft) -
                    parseFloat(style.paddingRight);
        if (later.length && Math.min(...later.map(r => r.left)) - left <
                            Math.min((indent + 1) * ch, box / 2) - 0.5) {
          unindented.push(line.trim().slice(0, 60));
        }
      }
      start = end + 1;
    }
  }
  return {
    width: width, wide: wide.slice(0, 10), scrolling: scrolling, collapsed: collapsed,
    unindented: unindented.slice(0, 10),
    figures: [...document.querySelectorAll('.cell_output img')]
               .map(img => [img.getAttribute('src'), img.getBoundingClientRect().width]),
  };
}"""


#: What opening a page may download (issue 29), in bytes on the wire as the README's way of
#: serving the book sends them (``python -m http.server``: nothing compressed, :class:`_Quiet`):
#: on a slow phone link every megabyte is seconds before the page can be read.
FIRST_LOAD_LIMIT = 1_500_000
#: A phone's screen (CSS pixels), as in issue 29's measurements.
PHONE = {"width": 390, "height": 844}
#: The smallest legend and panel-title text a figure may show, in CSS pixels, at each width.
SMALLEST_TEXT = {1280: {"legend": 8, "title": 10}, 390: {"legend": 6, "title": 6}}


def inspect_page(browser, url: str, screenshot: Path | None = None,
                 phone: bool = True, html: Path | None = None) -> tuple[list[str], dict]:
    """Open ``url`` in a fresh page at 1280 px; returns (problems, what INSPECT measured, with
    ``first_load`` (URL -> bytes sent) and, with ``html`` (the folder served),
    ``first_load_compressed`` (:func:`compressed`), and, with ``phone``, what PHONE_INSPECT
    measured once the same page is narrowed to a phone's 390 px, under ``"phone"``)."""
    base = url[:url.index("/", len("http://")) + 1]
    problems: list[str] = []
    fetched: dict[str, int] = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def route(r):
        request_url = r.request.url
        if request_url.startswith(base) or urlsplit(request_url).scheme in ("data", "blob"):
            r.continue_()
        else:
            problems.append(f"request to another host, blocked: {request_url}")
            r.abort()

    def received(r):
        if r.status >= 400:
            problems.append(f"HTTP {r.status}: {r.url}")
        if r.url.startswith(base):
            fetched[r.url] = int(r.headers.get("content-length") or 0)

    try:
        context.route("**/*", route)
        page = context.new_page()
        # Generous: the API pages typeset hundreds of formulas, and the other xdist worker and
        # the notebook kernels share the two cores. (No timing is asserted.)
        page.set_default_timeout(180_000)
        page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
        page.on("console", lambda msg: problems.append(f"console error: {msg.text}")
                if msg.type == "error" else None)
        page.on("response", received)
        page.on("requestfailed", lambda r: problems.append(
            f"request failed: {r.url} ({r.failure})") if r.url.startswith(base) else None)
        response = page.goto(url, wait_until="load")
        assert response is not None and response.ok, f"{url}: {response and response.status}"
        page.evaluate(SETTLE)
        first_load = dict(fetched)  # before INSPECT makes every image load
        seen = page.evaluate(INSPECT)
        seen["first_load"] = first_load
        if html is not None:
            seen["first_load_compressed"] = compressed(html, base, first_load)
        if screenshot is not None:
            page.screenshot(path=str(screenshot), full_page=True)
        if phone:
            page.set_viewport_size(PHONE)
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => done()))")
            seen["phone"] = page.evaluate(PHONE_INSPECT)
            if screenshot is not None:
                page.screenshot(path=str(screenshot.with_name(screenshot.stem + "-390.png")),
                                full_page=True)
    finally:
        context.close()
    labels = {"broken_images": "image does not load", "untypeset": "formula not typeset",
              "math_errors": "MathJax error", "raw_tex": "raw TeX in the text",
              "dollars": "a stray $ in the text",
              "error_cells": "cell shows an error or stderr",
              "tracebacks": "cell shows a traceback",
              "sphinx_errors": "Sphinx error on the page",
              "sideways": "scrolls sideways at 1280 px",
              "soft_images": "figure has fewer than 1.5 pixels per displayed pixel",
              "no_alt": "image without alt text of its own (the file name)",
              "uncaptioned": "figure without a caption, or whose alt text is not its caption",
              "reprs": "output is a leftover repr (end the cell with `;` or plt.show())",
              "open_solutions": "solution shown open (it should be collapsed)",
              "sidebar_cut": "contents entry hidden or cut off in the right-hand sidebar",
              "no_source": "API entry without a link to its source",
              "missing_icons": "icon not drawn"}
    for key, label in labels.items():
        problems += [f"{label}: {item}" for item in seen[key]]
    if seen["page_sideways"]:
        problems.append("the page itself scrolls sideways at 1280 px")
    if seen["code_blocks"] and seen["copy_buttons"] < seen["code_blocks"]:
        problems.append(f"{seen['code_blocks']} code blocks but {seen['copy_buttons']} copy "
                        f"buttons")
    total = sum(first_load.values())
    if total > FIRST_LOAD_LIMIT:
        largest = sorted(first_load.items(), key=lambda item: -item[1])[:6]
        gzipped = (f"; {seen['first_load_compressed'] / 1e6:.2f} MB gzip-compressed"
                   if "first_load_compressed" in seen else "")
        problems.append(f"a first load fetches {total / 1e6:.2f} MB as python -m http.server "
                        f"sends it (at most {FIRST_LOAD_LIMIT / 1e6:.1f} MB{gzipped}): "
                        + ", ".join(
                            f"{u[len(base):]} {n / 1e3:.0f} kB" for u, n in largest))
    if phone:
        at = seen["phone"]
        problems += [f"scrolls sideways at {at['width']} px: {w}" for w in at["wide"]]
        problems += [f"code box scrolls sideways at {at['width']} px: {c}"
                     for c in at["scrolling"]]
        problems += [f"code box collapses its spaces: {c}" for c in at["collapsed"]]
        problems += [f"wrapped line of code loses its indentation at {at['width']} px: {c}"
                     for c in at["unindented"]]
    return problems, seen


@functools.cache
def figure_fonts(executed: Path) -> dict[str, dict]:
    """For each figure of an executed notebook, by its file's name (the SHA-256 of the PNG,
    as myst-nb names it): its width in pixels and its smallest legend and title texts, as the
    book's kernels record them in the output's metadata (``docs/kernel_figures.py``)."""
    found = {}
    for cell in json.loads(executed.read_text())["cells"]:
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                digest = hashlib.sha256(base64.b64decode("".join(png))).hexdigest()
                found[digest] = output.get("metadata", {}).get("image/png", {})
    return found


def text_sizes(fonts: dict[str, dict], figures: list, width: int) -> list[str]:
    """What is too small to read among the legends and panel titles of a page's figures (pairs
    of the image's ``src`` and the width it is shown at), at a viewport ``width`` px wide;
    ``fonts`` is :func:`figure_fonts` of the page's notebook."""
    problems = []
    for src, shown in figures:
        digest = Path(urlsplit(src).path).stem
        meta = fonts.get(digest)
        if meta is None or "fonts" not in meta or not meta.get("width"):
            problems.append(f"figure without the sizes of its texts in its metadata: {src}")
            continue
        for kind, (pixels, words) in meta["fonts"].items():
            size = pixels * shown / meta["width"]
            if size < SMALLEST_TEXT[width][kind] - 0.05:
                problems.append(f"{kind} text of {size:.1f} px at {width} px (at least "
                                f"{SMALLEST_TEXT[width][kind]}): {words!r} in {src}")
    return problems


@functools.cache
def _anchors(page: Path) -> frozenset[str]:
    """The ids and names a page of the site defines (the targets of ``page.html#...``)."""
    text = page.read_text(errors="replace")
    return frozenset(re.findall(r'\s(?:id|name)="([^"]+)"', text))


def broken_links(html: Path, base: str, page: str, links: list[str]) -> list[str]:
    """The links of ``page`` to the site itself whose file or anchor does not exist."""
    broken = []
    for link in sorted(set(links)):
        if not link.startswith(base):
            continue
        parts = urlsplit(link)
        path = unquote(parts.path).lstrip("/")
        target = html / path
        if path == "" or path.endswith("/"):
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{link} (no file {target.relative_to(html)})")
        elif parts.fragment and target.suffix == ".html" and \
                unquote(parts.fragment) not in _anchors(target):
            broken.append(f"{link} (no anchor #{parts.fragment} in {target.relative_to(html)})")
    return [f"{page}: link does not resolve: {b}" for b in broken]


@pytest.mark.parametrize("name", PAGES)
def test_page_in_the_browser(name, book, site, browser):
    """Loads with no JavaScript or console error and no request to another host; every image
    loads; every formula is typeset by MathJax with no error and no raw TeX left; no cell shows
    an error, a traceback or a warning; a notebook page shows every figure the notebook drew.

    And what issue 29 asks of every page: a first load of at most 1.5 MB; no stray ``$``; every
    entry of the right-hand contents visible whole; on API pages, a source link for every
    function and class; legends and panel titles of at least 8 and 10 px at 1280 px. Then, at
    a phone's 390 px: the page does not scroll sideways, nor does any code box, a wrapped line
    of code goes on to the right of its indentation, and legends and titles keep 6 px.

    A notebook's page ends with its exercises (at least two sphinx-exercise blocks), every
    solution collapsed (checked here, on the page already open, not by a second load)."""
    shots = os.environ.get("GLUON_PERCEPTRON_SCREENSHOTS")
    shot = Path(shots) / (name.replace("/", "_") + ".png") if shots else None
    if shot is not None:
        shot.parent.mkdir(parents=True, exist_ok=True)
    problems, seen = inspect_page(browser, site + name, shot, html=built(book))
    problems += broken_links(built(book), site, name, seen["links"])
    executed = book.out / "jupyter_execute" / name.replace(".html", ".ipynb")
    fonts = figure_fonts(executed) if name.startswith("notebooks/") else {}
    problems += text_sizes(fonts, seen["figures"], 1280)
    problems += text_sizes(fonts, seen["phone"]["figures"], PHONE["width"])
    if name.startswith("api/") and name[4:-5] not in ("index", *builder.API_PARTS):
        assert seen["documented"], f"{name}: no function or class documented"
    assert not problems, f"{name}:\n" + "\n".join(problems)
    if name.startswith("notebooks/"):  # it ends with exercises, their solutions collapsed
        assert seen["exercises"] >= 2, f"{name}: {seen['exercises']} exercises"
        outputs = [o for c in json.loads(executed.read_text())["cells"]
                   for o in c.get("outputs", [])]
        figures = sum("image/png" in o.get("data", {}) for o in outputs)
        assert seen["cell_images"] >= figures, (
            f"{name}: {figures} figures in the executed notebook, {seen['cell_images']} shown")
    if name in ("api/theory.html", "slips.html"):
        assert seen["mathjax"], f"{name}: MathJax did not load"
    if name == "reading.html":  # the example of each kind of block renders
        assert seen["exercises"] >= 1 and seen["theorems"] >= 2, (name, seen["exercises"],
                                                                  seen["theorems"])
    if name == "bibliography.html":
        assert seen["citations"] >= 20, f"{name}: {seen['citations']} references"


def test_book_has_a_bibliography(book):
    """A bibliography page in the table of contents, and the pages' citations point into it.
    One citation style: each entry is labelled as the text cites it ([Rosenblatt, 1958]), and
    every citation of the text is the label of its entry."""
    html = built(book)
    page = html / "bibliography.html"
    assert page.is_file()
    assert 'href="bibliography.html"' in (html / "index.html").read_text()
    text = page.read_text()
    for key in ("Rosenblatt", "Novikoff", "Minsky", "Freund", "McDonald"):
        assert key in text, f"the bibliography does not list {key}"
    assert "bibliography.html#" in (html / "slips.html").read_text()
    plain = lambda fragment: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).strip()  # noqa: E731
    labels = {}  # anchor -> label
    for anchor, label in re.findall(r'<div class="citation" id="([^"]+)"[^>]*>\s*<span class='
                                    r'"label">(.*?)</span>\s*<p>', text, re.DOTALL):
        labels[anchor] = plain(label).strip("[]")
    assert len(labels) >= 20, f"{len(labels)} labelled entries in the bibliography"
    odd = [label for label in labels.values() if not re.fullmatch(r"\D.*, \d{4}[a-z]?", label)]
    assert not odd, f"entries not labelled by author and year: {odd}"
    cited = []
    for source in html.rglob("*.html"):
        for anchor, words in re.findall(r'href="[./]*bibliography\.html#([^"]+)"[^>]*>(.*?)</a>',
                                        source.read_text(), re.DOTALL):
            cited.append((source.relative_to(html).as_posix(), anchor, plain(words)))
    assert cited, "no page cites the bibliography"
    # "[Novikoff, 1962]" is the label; "Novikoff [1962]" ({cite:t}) links its year.
    wrong = [c for c in cited if c[1] in labels and c[2] != labels[c[1]]
             and c[2] != labels[c[1]].rsplit(", ", 1)[-1]]
    assert not wrong, f"citations that are not their entry's label: {wrong[:5]}"
    assert "first entry" not in text


def test_api_pages_are_light(book):
    """No page of the API reference weighs more than 300 kB (issue 29: a phone opens it), and
    every public checker of the exercises is documented (``gp.exercises``)."""
    html = built(book)
    heavy = {p.relative_to(html).as_posix(): p.stat().st_size
             for p in (html / "api").rglob("*.html") if p.stat().st_size > 300_000}
    assert not heavy, f"API pages over 300 kB: {heavy}"
    from gluon_perceptron import exercises

    page = (html / "api" / "exercises.html").read_text()
    missing = [name for name in exercises.__all__ if f'id="gluon_perceptron.experiments.exercises.'
               f'{name}"' not in page]
    assert not missing, f"not documented on api/exercises.html: {missing}"
