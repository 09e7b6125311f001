"""Example 2.2's Boolean perceptrons, XOR's impossibility, the two-point loss surface."""

import dataclasses

import matplotlib
import numpy as np
import pytest

import gluon_perceptron as gp
from gluon_perceptron.core.theory.expressivity import truth_table
from gluon_perceptron.experiments import expressivity as exp_expressivity
from gluon_perceptron.main.sections import expressivity as expressivity_sections

TRUTH = {"AND": lambda a, b: a and b, "OR": lambda a, b: a or b}


@pytest.mark.parametrize("name", ["AND", "OR"])
def test_binary_tables(name):
    w, b = gp.theory.BOOLEAN_PERCEPTRONS[name]
    table = truth_table(w, b)
    assert np.all(table.lin != 0)
    for x, out in zip(table.inputs, table.output):
        expected = TRUTH[name](bool(x[0] > 0), bool(x[1] > 0))
        assert (out > 0) == expected


def test_the_books_weights():
    """Notebook 8: AND = x1 + x2 - 1, OR = x1 + x2 + 1, NOT = -x1."""
    for name, (w, b) in {"AND": ([1, 1], -1), "OR": ([1, 1], 1), "NOT": ([-1], 0)}.items():
        np.testing.assert_array_equal(gp.theory.BOOLEAN_PERCEPTRONS[name][0], w)
        assert float(np.squeeze(gp.theory.BOOLEAN_PERCEPTRONS[name][1])) == b


def test_not_table():
    table = truth_table(*gp.theory.BOOLEAN_PERCEPTRONS["NOT"])
    assert np.all(table.lin != 0)
    np.testing.assert_array_equal(table.output, -table.inputs[:, 0])
    assert "lin(x) = -1*x1" in exp_expressivity.format_truth_table("NOT")


@pytest.mark.parametrize("name", ["AND", "OR", "NOT"])
def test_the_perceptron_learns_them(name):
    run = gp.theory.learn_boolean(name)
    X, Y = gp.theory.boolean_data(name)
    assert run.converged
    np.testing.assert_array_equal(gp.predict(run.w, run.b, X), Y)


def test_xor_has_no_perceptron():
    X, Y = gp.xor_data()
    np.testing.assert_array_equal(gp.theory.boolean_data("XOR")[1], Y)
    # adding the conditions pairwise gives 2b < 0 and 2b > 0: every (w, b) fails somewhere
    rng = np.random.default_rng(0)
    params = rng.normal(size=(100_000, 3)) * rng.exponential(size=(100_000, 1)) * 10
    ok = (Y[:, None] * (X @ params[:, :2].T + params[:, 2])).min(axis=0) > 0
    assert not ok.any()
    assert not gp.theory.is_separable(X, Y)


def test_xor_never_converges_and_cycles():
    run = gp.theory.learn_boolean("XOR", max_epochs=500)
    assert not run.converged and min(run.updates_per_epoch) > 0
    path, period = gp.theory.xor_cycle()
    # by hand from theta = 0: (1,1,-1), (0,2,0), (1,1,1), (0,0,0), so back at 0 after one pass
    assert period == 1 and not path.converged
    np.testing.assert_array_equal(path.thetas[-4:], [[1, 1, -1], [0, 2, 0], [1, 1, 1], [0, 0, 0]])
    assert np.abs(path.thetas).max() == 2        # bounded, as Theorem 1.35 promises


def test_loss_matches_closed_form():
    X, Y = gp.theory.two_point_data()
    rng = np.random.default_rng(1)
    W = rng.normal(size=(1000, 2)) * 3
    closed = np.maximum(0, W[:, 0] + W[:, 1]) + np.maximum(0, -(2 * W[:, 0] + W[:, 1]))
    np.testing.assert_allclose(gp.theory.total_perceptron_loss(W, X, Y), closed)
    zero = (W[:, 0] + W[:, 1] <= 0) & (2 * W[:, 0] + W[:, 1] >= 0)
    np.testing.assert_array_equal(gp.theory.total_perceptron_loss(W, X, Y) == 0, zero)


def test_two_point_path_by_hand():
    """Replayed by hand from w = 0 with the update on y w.x <= 0."""
    path = gp.rosenblatt.update_path(*gp.theory.two_point_data(), max_epochs=100, bias=False)
    expected = [(0, 0), (-1, -1), (1, 0), (0, -1), (2, 0), (1, -1), (0, -2), (2, -1),
                (1, -2), (3, -1), (2, -2), (1, -3), (3, -2), (2, -3)]
    np.testing.assert_array_equal(path.thetas, expected)
    assert path.converged
    assert gp.theory.total_perceptron_loss(path.w, *gp.theory.two_point_data()) == 0
    X, Y = gp.theory.two_point_data()
    np.testing.assert_array_equal(Y * (X @ path.w), [1.0, 1.0])  # both margins exactly 1


def test_plot_and_section(tmp_path):
    matplotlib.use("Agg")
    ax = gp.plots.plot_loss_surface()
    assert ax.get_xlabel() == "w1"
    from gluon_perceptron.main.job import Options

    paths = expressivity_sections.expressivity_section(Options(out=tmp_path, progress=False))
    assert [p.name for p in paths] == ["08_loss_surface.png"] and paths[0].stat().st_size > 0
    with pytest.raises(ValueError, match="name"):
        gp.theory.boolean_data("NAND")


def test_expressivity_experiment_backs_notebook_8():
    """Notebook 8 and the main job's section, on the object they share (deterministic)."""
    result = exp_expressivity.expressivity_experiment(xor_epochs=1000)
    for name in ("AND", "OR", "NOT"):
        run = result.learned[name]
        X, Y = gp.theory.boolean_data(name)
        assert run.converged and np.array_equal(gp.predict(run.w, run.b, X), Y)
        assert not any(" lin = 0 " in line or "lin = +0 " in line or "lin = -0 " in line
                       for line in result.tables[name].splitlines())   # no score is ever 0
    xor = result.learned["XOR"]
    assert not result.xor_separable and not xor.converged
    assert xor.epochs == 1000 and set(xor.updates_per_epoch) == {4}
    assert result.xor_cycle.found and result.xor_cycle.period == 1
    assert np.abs(result.xor_cycle.path.thetas).max() == 2
    assert result.path.converged and result.path.w.tolist() == [2.0, -3.0]
    assert result.final_loss == 0.0


def test_results_are_dataclasses():
    table = truth_table([1.0, 1.0], -1.0)
    assert set(f.name for f in dataclasses.fields(table)) == {"inputs", "lin", "output"}
    with pytest.raises(TypeError):  # the dict shim is gone: nothing used it
        table["lin"]
    path, period = gp.theory.xor_cycle()
    assert period == 1 and path.updates == 4
    short = gp.theory.xor_cycle(max_epochs=1)
    assert short.found  # XOR is back at 0 after its first pass
    # XOR has one table in the package: boolean_data returns xor_data's
    for a, b in zip(gp.theory.boolean_data("XOR"), gp.xor_data()):
        np.testing.assert_array_equal(a, b)


def test_loss_surface_plot_trains_nothing():
    ax = gp.plots.plot_loss_surface()
    assert ax.get_legend() is None and len(ax.lines) == 0   # no path was computed
    path = gp.rosenblatt.update_path(*gp.theory.two_point_data(), max_epochs=100, bias=False)
    ax = gp.plots.plot_loss_surface(path=path)
    assert len(ax.lines) == 2


def test_total_perceptron_loss_names_a_non_numeric_w():
    """Issue 20: strings in W gave numpy's raw conversion message."""
    with pytest.raises(ValueError, match="W must hold real numbers"):
        gp.theory.total_perceptron_loss(["a", "b"], np.ones((2, 2)), [1, -1])


def test_total_perceptron_loss_names_its_overflow():
    with pytest.raises(ValueError, match="total_perceptron_loss overflowed"):
        gp.theory.total_perceptron_loss([[1e200, 1e200]], [[1e200, 1e200]], [-1])


def test_the_expressivity_functions_declare_their_checks():
    for f in (gp.theory.boolean_data, gp.theory.learn_boolean,
              gp.theory.xor_cycle, gp.theory.total_perceptron_loss):
        assert f.__rules__, f.__name__
    with pytest.raises(ValueError, match="max_epochs"):
        gp.theory.learn_boolean("AND", max_epochs=0)
    with pytest.raises(ValueError, match="max_epochs"):
        gp.theory.xor_cycle(max_epochs=-1)
    with pytest.raises(ValueError, match="W's last axis must have 2 entries"):
        gp.theory.total_perceptron_loss(np.ones(3), np.ones((2, 2)), [1, -1])
