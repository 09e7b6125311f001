"""Every notebook runs top to bottom, calls the package instead of redefining it, has no outputs,
and what it prints backs the claims its prose makes (the claims below, one function per notebook).

The same claims are also checked on other seeds by the module tests; here they are checked on the
notebook's own run, so a notebook whose text and numbers drift apart fails.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
PACKAGE_FUNCTIONS = re.compile(r"^\s*def (getfake|plotdata|plotscore|perceptron|train)\(",
                               re.MULTILINE)


def test_there_are_notebooks():
    """Numbered 01, 02, ... without gaps, so an empty or partial glob cannot pass silently."""
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert len(numbers) >= 11 and numbers == list(range(1, len(numbers) + 1))


def test_every_notebook_has_its_source_and_they_agree():
    """``notebooks/NN_name.py`` (jupytext percent) is the source; the ``.ipynb`` is built from it
    by ``python tools/notebooks.py build`` and must not drift from it."""
    root = Path(__file__).resolve().parent.parent
    missing = [p.name for p in NOTEBOOKS if not p.with_suffix(".py").exists()]
    assert not missing, f"notebooks without a .py source: {missing}"
    proc = subprocess.run([sys.executable, str(root / "tools" / "notebooks.py"), "check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    nb = json.loads(path.read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "a notebook with no code"
    for cell in code:
        src = "".join(cell["source"])
        assert not PACKAGE_FUNCTIONS.search(src), "redefines a package function"
        assert cell.get("outputs", []) == [], "outputs are not committed (see README)"
    assert any("gluon_perceptron" in "".join(c["source"]) for c in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    os.environ["MPLBACKEND"] = "Agg"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert not errors, [f"{e['ename']}: {e['evalue']}" for e in errors]
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    check = CLAIMS.get(path.name[:2])
    if check is not None:
        check(printed)


# --- the notebooks' claims, read from what they print ---------------------------------------

def _count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text))


def _floats(pattern: str, text: str) -> np.ndarray:
    """Every match of a pattern with groups, as a float array (one row per match)."""
    return np.array(re.findall(pattern, text), dtype=float)


def _claims_01(text):
    assert "same data as getfake under the same seed: True" in text
    m = _floats(r"smallest margin ([\d.]+) > epsilon = ([\d.]+); largest norm ([\d.]+) < 3", text)
    assert m.shape == (1, 3) and m[0, 0] > m[0, 1] and m[0, 2] < 3
    assert "same plane: True" in text
    # "the points follow the same distribution": quartiles and label shares close
    q = _floats(r"margin quartiles \[([\d.]+) +([\d.]+) +([\d.]+) *\], share of \+1 labels "
                r"([\d.]+)", text)
    assert q.shape == (2, 4) and np.abs(q[0] - q[1]).max() < 0.1
    assert "ValueError: epsilon=50.0 cannot be reached" in text  # refused at once
    assert "SamplingError: rejection sampling stopped after max_attempts=5000" in text


def _claims_02(text):
    assert _count(r"tie at zero  -> 1 ", text) == 1 and _count(r"correct point -> 0 ", text) == 1
    assert "identical runs: True" in text
    w = _floats(r"w from the run: +\[ *([-\d.e]+) +([-\d.e]+) *\]", text)
    s = _floats(r"sum of y\*x, mistakes: \[ *([-\d.e]+) +([-\d.e]+) *\]", text)
    np.testing.assert_allclose(w, s, rtol=1e-5)
    assert _count(r"converged: True", text) == 1  # the separable run
    assert _count(r"converged: False \| updates per pass: \[4, 4, 4, 4, 4, 4, 4, 4\]", text) == 1


def _claims_03(text):
    for claim in ("all runs converged: True", "every run within its own bound: True",
                  "bound with the true ||(w*, b*)|| never exceeded: True",
                  "where b*^2 <= 1 the chapter's own bound holds: True"):
        assert claim in text, claim
    share = _floats(r"(\d+)% of the planes have b\*\^2 > 1", text)
    assert 20 <= share.item() <= 45  # "about a third"
    rows = _floats(r"mean updates +([\d.]+), largest updates/bound ([\d.]+)", text)
    assert rows.shape == (3, 2)
    assert np.all(rows[:, 1] < 1)  # never past the bound
    assert np.all(np.diff(rows[:, 0]) > 0)  # the counts grow with size, then with dimension


def _claims_04(text):
    assert _count(r"largest difference 0\.0\n", text) == 2
    assert _count(r"slope at z = 0: -1\.0", text) == 1
    assert _count(r"slope at z = 0: 0\.0", text) == 2
    assert re.search(r"nd\.relu form: +0 updates, .*converged = True, training error 100%", text)
    assert "identical: True" in text
    assert re.search(r"\n\[[\d, ]+\] \[[\d, ]+\] True\n", text)  # margin SGD = threshold 1
    assert re.search(r"\(<= L\),  largest \|\|theta_t\|\| [\d.]+ \(<= R\):  True", text)
    table = _floats(r"\n +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)", text)
    assert table.shape == (5, 5)
    for gap, bound in ((table[:, 1], table[:, 2]), (table[:, 3], table[:, 4])):
        assert np.all(gap <= bound) and np.all(np.diff(gap) < 0)  # under it, and shrinking
        assert np.min(bound / gap) < 10  # not vacuous
    assert _count(r"under the bound at every T: True", text) == 2


def _claims_05(text):
    assert _count(r"separable: False", text) == 3
    assert _count(r"converged=False  passes=300  fewest updates in a pass=[1-9]", text) == 3
    norms = _floats(r"over the first tenth ([\d.]+), over all ([\d.]+), bound ([\d.e+]+)", text)
    assert norms.shape == (3, 3)
    assert np.all(norms[:2, 2] >= 1e6) and np.all(norms[:2, 1] < 4)  # millions against ~3
    np.testing.assert_allclose(norms[2], [2.0, 2.0, 23.1])  # XOR: 23.1 against 2
    assert np.all(norms[:, 1] <= 1.25 * norms[:, 0])  # the running maximum levels off
    mistakes = re.search(r"aggressive mistakes at t = \[([\d, ]+)\]", text).group(1)
    assert [32, 64, 128, 256, 512, 1024, 2048, 4096] == [int(t) for t in mistakes.split(",")][-8:]
    assert len(re.search(r"perceptron mistakes at t = \[([\d, ]+)\]", text).group(1)
               .split(",")) <= 5
    blow = _floats(r"after 300 passes: (\d+) = 300 x ([\d.]+)", text)
    assert blow[0, 0] == pytest.approx(300 * blow[0, 1], rel=0.01)
    tail = dict(zip(re.findall(r"\n  (\w[\w +]*?) +mean [\d.]+", text),
                    _floats(r"mean ([\d.]+)  std ([\d.]+)  range ([\d.]+)", text)))
    refs = _floats(r"Bayes ([\d.]+), generating plane ([\d.]+), hinge LP ([\d.]+)", text)[0]
    plain = tail["plain"]
    assert plain[0] > refs[1] + 0.1 and plain[2] >= 0.1  # far above, jumping by tens of points
    for name in ("pocket", "averaged"):
        assert tail[name][1] < plain[1] / 3 and tail[name][0] <= refs[1] + 0.08
    assert tail["decaying"][2] > 0.05  # decaying step alone: the boundary still moves
    assert tail["projected"][0] > refs[1] + 0.1  # projection: far above the best line
    assert "pocket training error never increases: True" in text
    hinge = _floats(r"optimum ([\d.]+), decaying \+ margin ([\d.]+)", text)[0]
    assert hinge[0] <= hinge[1] <= 1.05 * hinge[0]


def _claims_06(text):
    assert "all converged: True" in text
    assert _count(r"exceeded: False", text) == 4 and "exceeded: True" not in text
    assert "Part 1 at every update: True" in text and "Part 2 at every update: True" in text
    assert "same examples updated on: True" in text
    assert "same parameters after every update: True" in text
    gen = _floats(r"generating plane: margin ([\d.]+) .*bound (\d+)", text)[0]
    opt = _floats(r"optimal margin gamma_2 = ([\d.]+), bound (\d+)", text)[0]
    assert opt[0] >= gen[0] and opt[1] <= gen[1]  # the optimal margin gives the smaller bound
    plain = _floats(r"theta_0 = 0, delta = 0: +(\d+) updates, bound (\d+)", text)[0]
    assert plain[0] <= plain[1]
    rows = _floats(r": +(\d+) updates; plain bound (\d+), \(1\.4\) (\d+)", text)
    assert rows.shape == (4, 3) and np.all(rows[:, 0] <= rows[:, 2])  # (1.4) always holds
    assert rows[1, 0] > rows[1, 1] and rows[3, 0] > rows[3, 1]  # the plain bound is passed
    one_d = _floats(r"updates: (\d+)\n.*eps = 10: ([\d.]+)\n.*b\*: .* = ([\d.]+)", text)[0]
    assert one_d[1] < one_d[0] <= one_d[2]
    homog = re.search(r"lambda = 0\.01, 1, 100: \[(\d+), (\d+), (\d+)\]", text).groups()
    assert len(set(homog)) == 1  # without a bias scaling changes nothing
    bias = re.search(r"bias of the moved plane: \[([-\d., ]+)\]", text).group(1).split(",")
    assert np.all(np.diff(np.abs(np.array(bias, dtype=float))) > 0)  # |b*| grows with the shift


def _claims_07(text):
    rows = _floats(r"n = +(\d+), mistakes = +(\d+), \|\|w\*\|\| = ([\d.]+), smallest margin "
                   r"of w\* = ([\d.]+)", text)
    assert rows.shape == (4, 4)
    np.testing.assert_array_equal(rows[:, 0], [4, 25, 50, 100])  # min(1/gamma^2, d)
    np.testing.assert_array_equal(rows[:, 1], rows[:, 0])
    np.testing.assert_allclose(rows[:, 3], [0.5, 0.2, 0.1, 0.1])
    assert np.all(rows[:, 2] <= 1.0)
    assert "gamma_2 = 0.1000 (1/sqrt(n) = 0.1000), bound R^2/gamma_2^2 = 100.0, " \
           "perceptron updates = 100" in text
    assert "16 mistakes out of 16" in text
    table = _floats(r"\n +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+)", text)
    assert table.shape == (5, 5)
    n, loo, _, support, bound = table.T
    assert np.all(loo <= support) and np.all(support <= bound)  # the theorem in every row
    assert bound[0] > 1  # loose: more than 1 for the smallest N
    assert np.all(np.diff(bound) < 0) and loo[-1] < loo[0]  # both fall with N


def _claims_08(text):
    assert _count(r"table correct: True", text) == 3
    assert "separable: False" in text and "converged=False, updates per pass [4]" in text
    assert "repeat every 1 pass(es); largest |weight| seen: 2\n" in text
    assert "converged=True, final w = [ 2. -3.], loss there = 0.0" in text
    assert not re.search(r"lin = [+-]?0 ", text)  # no score is ever 0


def _claims_09(text):
    share = _floats(r"share of zeros in the test set: ([\d.]+)", text).item()
    assert 0.07 < share < 0.13  # "about a tenth"
    majority = _floats(r"majority +([\d.]+)", text).item()
    assert majority == pytest.approx(1 - share, abs=1e-3)
    updates = [np.array(u.split(","), dtype=int)
               for u in re.findall(r"updates per epoch: \[([\d, ]+)\]", text)]
    accuracy = np.array(re.search(r"test accuracy after each epoch: \[([\d., ]+)\]", text)
                        .group(1).split(","), dtype=float)
    assert np.all(accuracy > majority + 0.05)  # five points above, from the first epoch
    assert 0 in updates[0] and np.all(updates[0][list(updates[0]).index(0):] == 0)
    assert np.all(updates[1] >= 24)  # "8 or not 8": dozens of mistakes in every epoch
    spread = _floats(r"plain ([\d.]+)  averaged ([\d.]+)", text)[0]
    assert spread[1] < spread[0] / 2
    assert np.all(_floats(r"mean-image contrast ([\d.]+)", text) > 0.5)
    centre = re.search(r"centre 2x2 weights of '0 or not': \[([-\d. ]+)\]", text).group(1)
    assert np.all(np.array(centre.split(), dtype=float) < 0)  # the hole of a 0 is blue


def _claims_10(text):
    assert "batched and one-by-one weights equal: True" in text
    assert "lockstep NDArray and compiled weights identical: True" in text
    acc = dict(re.findall(r"(one-vs-\w+): test accuracy ([\d.]+)", text))
    assert float(acc["one-vs-all"]) > 0.94 and float(acc["one-vs-one"]) > float(acc["one-vs-all"])
    cost = {scheme: ast.literal_eval(d)
            for scheme, d in re.findall(r"\n(one-vs-\w+) (\{.*\})", text)}
    ova, ovo = cost["one-vs-all"], cost["one-vs-one"]
    assert ovo["perceptrons"] > 4 * ova["perceptrons"] and ovo["separated"] == 45
    assert ova["passes"] > (ova["perceptrons"] - ova["separated"]) * 20 - 1  # most ran all 20
    assert ova["separated"] < ova["perceptrons"] / 2
    assert ovo["example visits"] < ova["example visits"] / 2
    rates = _floats(r"mean miss rate ([\d.]+)  mean false-alarm rate ([\d.]+)", text)[0]
    assert rates[0] > 3 * rates[1]
    assert _floats(r"claimed by no one-vs-all perceptron: ([\d.]+)%", text).item() > 0


def _claims_11(text):
    assert re.search(r"eta = 1: converged=False after 60 iterations", text)
    fast = _floats(r"eta = 2: converged=True after (\d+) iterations", text)
    assert fast.size == 1 and fast.item() <= 20  # inside after a handful of reflections
    assert "tol = 0:    converged False" in text and "tol = 1e-9: converged True" in text
    assert "A: (65, 1348)  c: (1348,)" in text  # 1,348 inequalities in 65 unknowns
    table = {}
    for rule, cells in re.findall(r"\n(\w+) +((?:\d+ +\*? +)+)", text):
        table[rule] = [(int(n), star != "*") for n, star in re.findall(r"(\d+) +(\*?)", cells)]
    assert set(table) == {"cyclic", "randomized", "permuted", "max_distance", "max_residual"}
    for rule, row in table.items():  # columns: eta = 0.5, 1, 1.5, 2
        assert row[3][1] and row[3][0] < row[1][0], rule  # reflections win
    blind, greedy = ("cyclic", "randomized", "permuted"), ("max_distance", "max_residual")
    assert not any(table[r][1][1] for r in blind)  # projections: still outside after 50 epochs
    for col in range(4):
        assert max(table[g][col][0] for g in greedy) < min(table[b][col][0] for b in blind)
    assert "test accuracy: 1.0" in text or _floats(r"test accuracy: ([\d.]+)", text).item() > 0.99


CLAIMS = {name[-2:]: check for name, check in list(globals().items())
          if name.startswith("_claims_")}
