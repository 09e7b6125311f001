"""Figures checked by their geometry and by their arguments.

Geometry: every line a figure draws from weights is read back from the Axes (``Line2D`` data,
contour paths) and every point of it must satisfy :math:`w^\\top x + b = 0` (or the level of
its contour). Counting lines would not catch a boundary drawn with :math:`-b`.

Arguments: each plot function declares its checks with ``@validate_params``; ``ax`` shares one
rule (None or a matplotlib Axes), and the silent or foreign failures of issue 20 are named
errors.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.contour import ContourSet  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from mxnet import nd  # noqa: E402

import gluon_perceptron as gp  # noqa: E402
from gluon_perceptron.core._validation import WORDS, unchecked  # noqa: E402
from gluon_perceptron.plots._lines import draw_boundary  # noqa: E402

RNG = np.random.default_rng(20)


def _data(n: int = 30, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.5, 2.5, size=(n, 2))
    w, b = np.array([1.0, -0.7]), 0.4
    Y = np.where(X @ w + b > 0, 1.0, -1.0)
    return X, Y


def _residual(points: np.ndarray, w, b: float) -> float:
    """Largest :math:`|w^\\top x + b|` over ``points``, relative to :math:`\\|w\\|`: the
    distance of the farthest point from the line."""
    w = np.asarray(w, dtype=np.float64).reshape(-1)
    return float(np.max(np.abs(points @ w + b)) / np.linalg.norm(w))


def _lines(ax) -> list[Line2D]:
    """Lines with at least two points (legend stubs and markers of one point excluded)."""
    return [line for line in ax.get_lines() if len(line.get_xydata()) >= 2]


def _contour_levels(ax) -> list[tuple[float, np.ndarray]]:
    """``(level, vertices)`` of every non-empty line contour on ``ax``."""
    out = []
    for cs in ax.collections:
        if isinstance(cs, ContourSet) and not cs.filled:
            for level, path in zip(cs.levels, cs.get_paths()):
                vertices = np.asarray(path.vertices)
                if len(vertices):
                    out.append((float(level), vertices))
    return out


# --- geometry -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_draw_boundary_lies_on_the_plane(seed):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=2) * 10.0 ** rng.uniform(-2, 2)
    if seed % 5 == 0:
        w[seed % 2] = 0.0  # vertical and horizontal lines
    b = float(rng.normal() * 2)
    _, ax = plt.subplots()
    line = draw_boundary(ax, w, b, 3.0)
    xy = line.get_xydata()
    assert len(xy) >= 2 and np.ptp(xy, axis=0).max() > 0
    assert _residual(xy, w, b) < 1e-9


def test_draw_boundary_draws_nothing_for_zero_weights():
    _, ax = plt.subplots()
    assert draw_boundary(ax, np.zeros(2), 1.0, 3.0) is None
    assert not ax.get_lines()


@pytest.mark.parametrize("w, b", [((1.0, 0.5), 0.3), ((-0.2, 2.0), -1.1), ((3.0, 0.0), 0.5),
                                  ((0.0, -1.5), 0.9)])
def test_plotscore_contours_are_level_lines_and_the_bold_one_is_zero(w, b):
    ax = gp.plots.plotscore(np.array(w), b)
    levels = _contour_levels(ax)
    assert levels, "plotscore drew no contour"
    scale = np.abs(w).sum() * 3 + abs(b)
    for level, vertices in levels:
        score = vertices @ np.asarray(w) + b
        assert np.max(np.abs(score - level)) < 1e-4 * scale, (level, score[:3])
    zero = [v for level, v in levels if level == 0.0]
    assert zero, "no zero contour (the decision boundary) was drawn"
    assert all(_residual(v, w, b) < 1e-4 * scale for v in zero)


def test_plot_update_draws_the_boundary_of_the_update():
    X, Y = _data()
    demo = gp.demo(nd.array(X), nd.array(Y))
    assert demo.updates
    for update in demo.updates[:4]:
        _, ax = plt.subplots()
        gp.plots.plot_update(X, Y, update, ax=ax)
        w, b = np.asarray(update.w, dtype=np.float64), float(update.b)
        zero = [v for level, v in _contour_levels(ax) if level == 0.0]
        if np.any(w) and zero:
            assert all(_residual(v, w, b) < 1e-3 for v in zero)
        # the other contours are level lines of the same score
        for level, vertices in _contour_levels(ax):
            assert np.max(np.abs(vertices @ w + b - level)) < 1e-3 * (1 + abs(level))


def test_plot_boundaries_draws_each_pair_and_the_plane():
    X, Y = _data()
    weights = [(RNG.normal(size=2), float(RNG.normal())) for _ in range(5)]
    plane = (np.array([1.0, -0.7]), 0.4)
    ax = gp.plots.plot_boundaries(X, Y, weights, plane=plane)
    lines = _lines(ax)
    assert len(lines) == len(weights) + 1
    for line, (w, b) in zip(lines, weights + [plane]):
        assert _residual(line.get_xydata(), w, b) < 1e-9


def test_plot_boundaries_of_a_traced_run():
    X, Y = _data()
    res = gp.rosenblatt.train_traced(X, Y, max_epochs=5, record=True)
    weights = res.history["weights"]
    ax = gp.plots.plot_boundaries(X, Y, weights)
    drawn = [(w, b) for w, b in weights if np.any(w)]
    lines = _lines(ax)
    assert len(lines) == len(drawn)
    for line, (w, b) in zip(lines, drawn):
        assert _residual(line.get_xydata(), w, float(b)) < 1e-9


def test_plot_trainers_draws_each_final_boundary():
    X, Y = _data()
    results = {"a": gp.train(X, Y, max_epochs=5),
               "b": gp.train(X, Y, max_epochs=5, engine="faithful")}
    axes = gp.plots.plot_trainers(X, Y, results)
    lines = _lines(axes[1])
    assert len(lines) == len(results)
    for line, res in zip(lines, results.values()):
        w = np.asarray(res.w.asnumpy() if hasattr(res.w, "asnumpy") else res.w).reshape(-1)
        b = float(np.asarray(res.b.asnumpy() if hasattr(res.b, "asnumpy") else res.b).ravel()[0])
        assert _residual(line.get_xydata(), w, b) < 1e-6


def test_plot_kernel_boundary_contour_is_where_the_decision_function_is_zero():
    X, Y = _data(40, seed=3)
    run = gp.beyond.train_kernel(X, Y, max_epochs=50, kernel="linear")
    ax = gp.plots.plot_kernel_boundary(run, resolution=80)
    zero = [v for level, v in _contour_levels(ax) if level == 0.0]
    assert zero, "no decision boundary drawn"
    f = run.decision_function(np.vstack(zero))
    scale = np.abs(run.decision_function(X)).max()
    assert np.max(np.abs(f)) < 1e-6 * scale


# --- arguments ------------------------------------------------------------------------------

PLOTS = {name: getattr(gp.plots, name) for name in gp.plots.__all__}


#: The parameters of a figure that a user passes directly (data, numbers, names, a title,
#: where to draw); every other parameter is one of the package's result objects.
USER_FACING = {"X", "Y", "A", "c", "M", "classes", "x", "w", "d", "ax", "axes", "extent", "step",
               "lo", "hi", "title", "resolution", "bounds", "errorbars", "keys", "digit",
               "passes", "scales", "shifts"}


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plots_take_results_without_rules(name):
    """A figure checks only what a user passes it directly (``ax`` with the package's word for
    it); the package's result objects it draws are taken as they are."""
    function = PLOTS[name]
    rules = getattr(function, "__rules__", {})
    for param, rule in rules.items():
        if param not in USER_FACING:
            assert rule is unchecked, f"{name} checks its result {param}"
    if "ax" in rules:
        assert rules["ax"] is WORDS["ax"], f"{name} checks ax its own way"


def test_a_plot_draws_a_result_it_is_given_unchecked():
    """The test above can fail: a figure declaring a rule for a result object is caught."""
    from gluon_perceptron.core._validation import instance, validate_params

    @validate_params(result=instance(dict, "a dict"))
    def plot_thing(result):
        return result

    PLOTS["plot_thing"] = plot_thing
    try:
        with pytest.raises(AssertionError, match="plot_thing checks its result result"):
            test_plots_take_results_without_rules("plot_thing")
    finally:
        del PLOTS["plot_thing"]


@pytest.mark.parametrize("bad", ["x", 3, np.zeros(2), [None]])
def test_plotdata_refuses_an_ax_that_is_not_axes(bad):
    X, Y = _data()
    with pytest.raises(TypeError, match=r"ax must be None .* or a matplotlib Axes"):
        gp.plots.plotdata(X, Y, ax=bad)


def test_a_grid_of_the_wrong_shape_is_named():
    X, Y = _data()
    results = {"a": gp.train(X, Y, max_epochs=5)}
    _, three = plt.subplots(1, 3)
    with pytest.raises(TypeError, match=r"axes must be None .* shape \(2,\)"):
        gp.plots.plot_trainers(X, Y, results, three)
    with pytest.raises(TypeError, match=r"axes must be None"):
        gp.plots.plot_trainers(X, Y, results, "ab")


@pytest.mark.parametrize("M, error, match", [
    (np.full((2, 2), np.nan), ValueError, r"M must hold counts .* M\[0, 0\] = nan"),
    (np.array([[1, -1], [0, 2]]), ValueError, r"M must hold counts .* M\[0, 1\] = -1"),
    (np.array([[0.5, 0.5], [0.0, 1.0]]), ValueError, r"M must hold counts .* = 0.5"),
    (np.zeros((2, 2), dtype=int), ValueError, r"M holds no example"),
    (np.array([["a", "b"], ["c", "d"]]), TypeError, r"M must hold counts \(numbers\)"),
    (np.eye(3, dtype=int), ValueError, r"M must be square with one row per class"),
])
def test_plot_confusion_matrix_refuses_what_it_cannot_draw(M, error, match):
    with pytest.raises(error, match=match):
        gp.plots.plot_confusion_matrix(M, [0, 1])


def test_plot_confusion_matrix_draws_an_empty_row_and_its_accuracy():
    M = np.array([[0, 0], [1, 3]])  # no example of class 0: a row of zeros, drawn as such
    ax = gp.plots.plot_confusion_matrix(M, ["a", "b"], title="t")
    image = ax.get_images()[0].get_array()
    assert np.all(np.isfinite(image)) and np.array_equal(np.asarray(image), M)
    assert "accuracy 0.750" in ax.get_title()


@pytest.mark.parametrize("kwargs, match", [
    ({"extent": 1e308}, r"extent must fit MXNet's float32 .* extent=1e\+308"),
    ({"extent": 1e30, "step": 1e28}, r"score w.x \+ d overflowed"),
    ({"extent": 1.0, "step": 5.0}, r"step=5.0 is too coarse for extent=1.0"),
    ({"extent": 1e6}, r"step=0.02 is too fine for extent=1000000.0: .* use step >= 2000"),
    # the fuzz's find: 2,800 points per side took 730 MB
    ({"extent": 28.0}, r"step=0.02 is too fine for extent=28.0: .* use step >= 0.056"),
])
def test_plotscore_names_a_grid_it_cannot_draw(kwargs, match):
    with pytest.raises(ValueError, match=match):
        gp.plots.plotscore(np.array([1e9, 1.0]), 0.0, **kwargs)


def test_plotscore_step_hint_is_finite_for_a_large_extent():
    with pytest.raises(ValueError, match=r"use step >= ([0-9.e+]+)$") as info:
        gp.plots.plotscore(np.ones(2), 0.0, extent=1e30)
    hint = float(str(info.value).rsplit(">= ", 1)[1])
    assert np.isfinite(hint)


# --- readability ------------------------------------------------------------------------------

def test_plotdata_says_which_colour_is_which_label():
    X, Y = _data()
    ax = gp.plots.plotdata(X, Y)
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["y = +1", "y = -1"]
    assert ax.get_xlabel() == "$x_1$" and ax.get_ylabel() == "$x_2$"
