"""The main job's sections: each runs experiments and plots and saves PNGs; the only code that
prints.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from tqdm import tqdm

from ..core.bounds import amaldi_hauser_bound
from ..core.data import getfake, sample_separable, xor_data
from ..core.datasets import digits_split, one_vs_rest
from ..core.expressivity import (
    BOOLEAN_PERCEPTRONS,
    learn_boolean,
    total_perceptron_loss,
    two_point_data,
    xor_cycle,
)
from ..core.geometry import _split, is_separable, optimal_margin
from ..core.losses import relu_perceptron_loss
from ..core.multiclass import (
    binary_error_rates,
    confusion_matrix,
    predict_multiclass,
    ties,
    train_one_vs_all,
    train_one_vs_one,
)
from ..core.relaxation import RULES as RELAXATION_RULES
from ..core.relaxation import perceptron_system, relaxation_method, wedge_system
from ..core.rosenblatt import error_rate
from ..core.sgd import train_autograd
from ..core.variants import notes_sequence, run_online, train_aggressive, update_path
from ..experiments.black_and_white import (
    SECTION_EPOCHS,
    _nonseparable_runs,
    remedies_experiment,
    step_errors,
    tail_stats,
)
from ..experiments.chapter import demo, margin_experiment, margin_experiment_faithful
from ..experiments.convergence import bound_experiment, proof_trace, transformed_run
from ..experiments.digits import SLIDE_DIGITS, baselines, learning_curve
from ..experiments.expressivity import format_truth_table
from ..experiments.optimality import adversary_run, generalization_experiment
from ..experiments.relaxation import ETAS, compare_rules
from ..experiments.sgd import (
    compare_subgradients,
    compare_trainers,
    sgd_bound_experiment,
    sgd_demo_data,
)
from ..plots.black_and_white import (
    plot_aggressive,
    plot_boundaries,
    plot_nonseparable,
    plot_remedies,
    plot_unguarded,
)
from ..plots.chapter import plot_losses, plot_margin_experiment, plot_update, plotdata
from ..plots.convergence import plot_bound_experiment, plot_proof_trace
from ..plots.digits import plot_digit_weights, plot_learning_curve
from ..plots.expressivity import plot_loss_surface
from ..plots.multiclass import plot_binary_error_rates, plot_confusion_matrix
from ..plots.relaxation import plot_rule_comparison, plot_wedge_paths
from ..plots.sgd import (
    plot_relu_trap,
    plot_sgd_bound_experiment,
    plot_subgradient_check,
    plot_trainers,
)
from .figures import save_figure

# --- the main job's sections -------------------------------------------------------------

def demo_section(opts) -> list:
    """The demo: ``getfake(50, 2, 0.3)``, one printed pass, a figure per update."""
    X, Y = getfake(50, 2, 0.3)
    w, b, updates = demo(X, Y)
    paths = []
    fig, ax = plt.subplots(figsize=(5, 5))
    plotdata(X, Y, ax=ax)
    ax.set_title("getfake(50, 2, 0.3)")
    paths.append(save_figure(fig, opts.out, "01_data"))
    for k, update in enumerate(updates, start=1):
        fig, ax = plt.subplots(figsize=(5, 5))
        plot_update(X, Y, update, ax=ax)
        paths.append(save_figure(fig, opts.out, f"02_update_{k:02d}"))
    print(f"one pass made {len(updates)} updates; final w = {w.asnumpy()}, "
          f"b = {b.asscalar()}")
    return paths


def experiment_section(opts) -> list:
    """Updates against the margin: corrected experiment (and the faithful one on request)."""
    faithful = None
    if opts.faithful_experiment:
        print("running the chapter's experiment exactly as written (1 to 2 minutes)...")
        # as in the chapter, it continues from the weights the demo left (same seed, same data)
        w, b, _ = demo(*getfake(50, 2, 0.3), verbose=False)
        faithful = margin_experiment_faithful(w=w, b=b, progress=opts.progress)
    else:
        print("(the chapter's own experiment, which never resets w, b and makes one pass, "
              "takes 1 to 2 minutes: add --faithful-experiment to run it too)")
    result = margin_experiment(progress=opts.progress)
    broken = ~result.chapter_assumptions
    print(f"{result.updates.size} runs, all converged: {bool(result.converged.all())}; "
          f"updates never above their bound: {bool(np.all(result.updates <= result.bound))}")
    print(f"{int(broken.sum())} of {broken.size} generating planes have b*^2 > 1, where the "
          f"chapter's 2(R^2+1)/eps^2 is not guaranteed; (R^2+1)(1+b*^2)/gamma^2 still holds")
    print(" epsilon  mean updates  max updates  median bound")
    for i, e in enumerate(result.epsilons):
        print(f"  {e:5.3f}  {result.updates[:, i].mean():12.1f}  "
              f"{result.updates[:, i].max():11.0f}  {np.median(result.bound[:, i]):12.0f}")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_margin_experiment(result, ax=ax, faithful=faithful)
    ax.set_title("updates against the margin (10 trials x 1000 points)")
    return [save_figure(fig, opts.out, "03_updates_vs_margin")]


def loss_section(opts) -> list:
    """The chapter's plot of max(0, f) and max(0, -f)."""
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_losses(ax=ax)
    ax.set_title("the perceptron's hinge-like losses")
    return [save_figure(fig, opts.out, "04_losses")]


# --- the main job's section ----------------------------------------------------------------

def digits_section(opts) -> list:
    """The "0 or not 0" demo, its baselines and learning curve, and the weights of 0, 3, 5, 8."""
    split = digits_split(seed=opts.seed)
    curves = [learning_curve(split, d, epochs=20, averaged=d in (0, 8))
              for d in tqdm(SLIDE_DIGITS, desc="digits", disable=not opts.progress)]
    zero, eight = curves[0], curves[-1]
    base = baselines(one_vs_rest(split.y_train, 0), one_vs_rest(split.y_test, 0))
    print(f"scikit-learn digits: {len(split.y_train)} train, {len(split.y_test)} test, "
          f"8x8 pixels; 20 epochs each")
    print(f'"0 or not 0": test accuracy {zero.test_accuracy[-1]:.3f} (averaged perceptron '
          f'{zero.averaged_test_accuracy[-1]:.3f}); baselines: coin flip 0.5, majority '
          f'{base["majority"]:.3f}; updates in the last epoch: {zero.updates[-1]}')
    for curve in curves[1:]:
        print(f'"{curve.digit} or not": test accuracy {curve.test_accuracy[-1]:.3f}, '
              f'updates in epoch 20: {curve.updates[-1]}')
    print(f'"8 or not 8", test accuracy over epochs 11-20: plain perceptron '
          f'{eight.test_accuracy[10:].min():.3f}-{eight.test_accuracy[10:].max():.3f}, '
          f'averaged {eight.averaged_test_accuracy[10:].min():.3f}-'
          f'{eight.averaged_test_accuracy[10:].max():.3f}')
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    plot_learning_curve(zero, base, axes[0])
    plot_learning_curve(eight, baselines(one_vs_rest(split.y_train, 8),
                                         one_vs_rest(split.y_test, 8)), axes[1])
    fig.subplots_adjust(hspace=0.35)
    paths = [save_figure(fig, opts.out, "09_digits_learning_curve")]
    fig, axes = plt.subplots(2, len(curves), figsize=(2.8 * len(curves), 5.6), squeeze=False)
    plot_digit_weights(split, curves, axes)
    fig.suptitle("learned weights: red = ink there argues for the digit, blue = against")
    paths.append(save_figure(fig, opts.out, "09_digits_weights"))
    return paths


def black_and_white_section(opts) -> list:
    """Non-separable data, broken rules and remedies: four figures and the measured numbers."""
    paths = []
    part1 = _nonseparable_runs(SECTION_EPOCHS)
    data, traces = part1["data"], part1["traces"]
    bounds = {name: amaldi_hauser_bound(*xy) for name, xy in data.items()}
    Xx, Yx = data["XOR"]
    xor_run = run_online(np.tile(Xx, (5, 1)), np.tile(Yx, 5))
    steps = {"XOR": (step_errors(xor_run, Xx, Yx), xor_run.norms, len(Yx))}
    fig, axes = plt.subplots(3, 3, figsize=(12, 9))
    plot_nonseparable(traces, axes, bounds=bounds, steps=steps)
    fig.suptitle("plain perceptron on non-separable data: never converges, stays bounded")
    fig.subplots_adjust(hspace=0.45, wspace=0.3, top=0.92)
    paths.append(save_figure(fig, opts.out, "05_nonseparable"))
    print(f"part 1: plain perceptron, {SECTION_EPOCHS} passes from w = 0, b = 0 (data "
          f"separable by a line? {[is_separable(*xy) for xy in data.values()]})")
    for name, res in traces.items():
        norms = np.asarray(res.history["norm"])
        first, rest = np.array_split(norms, [norms.size // 10])
        print(f"  {name:22s} updates/pass min {min(res.updates_per_epoch)}, mean "
              f"{res.updates / res.epochs:.1f}; max ||(w,b)|| first tenth {first.max():.2f}, "
              f"rest {rest.max():.2f}; theorem's bound {bounds[name]:.3g}")
    print(f"  (XOR is back at (w, b) = 0 after every pass; within a pass ||(w,b)|| reaches "
          f"{xor_run.norms.max():.2f})")

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, name in zip(axes[:2], ("20% label noise", "overlapping Gaussians")):
        plot_boundaries(*data[name], traces[name].history["weights"][-8:], ax=ax)
        ax.set_title(f"{name}: boundaries after the last 8 passes", fontsize=9)
    xor_steps = [_split(th) for th in xor_run.thetas[:4]]
    plot_boundaries(Xx, Yx, xor_steps, ax=axes[2], extent=2.0)
    axes[2].set_title("XOR: boundaries after steps 1-4 (step 4: back to 0)", fontsize=9)
    paths.append(save_figure(fig, opts.out, "05_moving_boundary"))

    Xs, Ys = notes_sequence(2**12)
    plain, aggressive = run_online(Xs, Ys), run_online(Xs, Ys, rule="aggressive")
    noisy = data["20% label noise"]
    unguarded = train_aggressive(*noisy, max_epochs=SECTION_EPOCHS)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    plot_aggressive(plain, aggressive, axes[:2])
    plot_unguarded(traces["20% label noise"], unguarded, axes[2])
    axes[2].set_title("20% label noise: weight norm", fontsize=10)
    fig.subplots_adjust(wspace=0.3)
    paths.append(save_figure(fig, opts.out, "05_broken_rules"))
    at = np.flatnonzero(aggressive.mistakes) + 1
    print(f"part 2: notes' sequence, T = {Xs.shape[0]}: perceptron {int(plain.mistakes.sum())} "
          f"mistakes; aggressive {int(aggressive.mistakes.sum())}, at t = {at.tolist()}; "
          f"||theta_T|| {plain.norms[-1]:.2f} vs {aggressive.norms[-1]:.0f}")
    plain_norm = traces["20% label noise"].history["norm"][-1]
    print(f"        unguarded rule on the noisy data: ||(w,b)|| after {SECTION_EPOCHS} passes "
          f"{unguarded.history['norm'][-1]:.0f} (plain: {plain_norm:.2f})")

    remedies = remedies_experiment(150, epochs=200, progress=opts.progress)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.6), sharey=True)
    plot_remedies(remedies, axes)
    fig.suptitle("20% label noise, 150 training / 150 held-out points")
    paths.append(save_figure(fig, opts.out, "05_remedies"))
    print(f"part 3: held-out error over the last 100 of 200 passes (Bayes {remedies.flip:.3f}, "
          f"generating plane {remedies.plane_error:.3f}, hinge LP {remedies.hinge_error:.3f})")
    for name, errs in remedies.errors.items():
        stats = tail_stats(errs, 100)
        print(f"  {name:18s} mean {stats.mean:.3f}  std {stats.std:.3f}  "
              f"range {stats.spread:.3f}")
    return paths


def expressivity_section(opts) -> list:
    """AND/OR/NOT tables, XOR's endless cycle, the two-point loss surface with the path."""
    for name in BOOLEAN_PERCEPTRONS:
        print(format_truth_table(name))
    X, Y = xor_data()
    run = learn_boolean("XOR", max_epochs=1000)
    _, period = xor_cycle()
    print(f"XOR: linearly separable (linprog)? {is_separable(X, Y)}; perceptron after "
          f"{run.epochs} passes: converged={run.converged}, {run.updates} updates, its "
          f"weights repeat every {period} pass(es)")
    learned = {name: learn_boolean(name).converged for name in ("AND", "OR", "NOT")}
    print(f"trained from zero, the perceptron learns AND/OR/NOT: {learned}")
    path = update_path(*two_point_data(), max_epochs=100, bias=False)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    plot_loss_surface(path=path, ax=ax)
    ax.set_title("loss of (1,1)/-1 and (2,1)/+1: zero region shaded,\n"
                 "levels 1, 2, ...; the perceptron's path", fontsize=9)
    print(f"two-point example: {path.updates} updates, final w = {path.w.tolist()}, "
          f"loss there = {total_perceptron_loss(path.w, *two_point_data()):g}")
    return [save_figure(fig, opts.out, "08_loss_surface")]


# --- the main job's section ----------------------------------------------------------------

def multiclass_section(opts) -> list:
    """One-vs-all and one-vs-one on the ten digits: accuracy, confusion, cost, imbalance."""
    split = digits_split(seed=opts.seed)
    models = [train_one_vs_all(split.X_train, split.y_train, max_epochs=20),
              train_one_vs_one(split.X_train, split.y_train, max_epochs=20)]
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    for model, ax in zip(models, axes):
        predicted = predict_multiclass(model, split.X_test)
        M = confusion_matrix(split.y_test, predicted, model.classes)
        plot_confusion_matrix(M, model.classes, ax, title=f"{model.scheme}, test set")
        cost = model.cost()
        print(f"{model.scheme}: test accuracy {np.mean(predicted == split.y_test):.3f}, "
              f"{ties(model, split.X_test)} tied test examples; {cost['perceptrons']} "
              f"perceptrons ({cost['separated']} separated their data in 20 epochs), "
              f"{cost['passes']} passes, {cost['example visits']} example visits, "
              f"{cost['updates']} updates; positives per binary problem "
              f"{model.positive_share.min():.2f}-{model.positive_share.max():.2f}")
    rates = binary_error_rates(models[0], split.X_test, split.y_test)
    plot_binary_error_rates(models[0], rates, axes[2])
    print(f"one-vs-all imbalance: mean miss rate {rates['miss'].mean():.3f} against mean "
          f"false-alarm rate {rates['false alarm'].mean():.3f}; "
          f"{rates['no positive']:.1%} of test digits claimed by no perceptron")
    return [save_figure(fig, opts.out, "10_multiclass_confusion")]


# --- the main job's section ----------------------------------------------------------------

def relaxation_section(opts) -> list:
    """Projections against reflections on a thin wedge; rules and eta on "0 or not 0"."""
    A, c = wedge_system(0.1)
    w0 = np.array([0.0, 0.5])
    paths = {f"eta = {eta:g}": relaxation_method(A, c, eta=eta, w0=w0, max_iterations=60,
                                          record=True) for eta in (1.0, 2.0)}
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_wedge_paths(paths, A, c, ax)
    ax.set_title("cyclic relaxation on |w2| <= 0.1 (w1 - 1): projections creep, "
                 "reflections jump in", fontsize=9)
    out = [save_figure(fig, opts.out, "11_relaxation_wedge")]

    split = digits_split(seed=opts.seed)
    Y = one_vs_rest(split.y_train, 0)
    A, c = perceptron_system(split.X_train, Y)
    bound = 50 * len(Y)
    table = compare_rules(A, c, max_iterations=bound, seed=opts.seed)
    print(f'"0 or not 0" as A^T w <= -1: {A.shape[1]} inequalities in {A.shape[0]} unknowns; '
          f"bound {bound} iterations (50 epochs)")
    print("  rule          " + "".join(f"   eta={eta:<4g}" for eta in ETAS))
    for rule in RELAXATION_RULES:
        cells = [table[(rule, eta)] for eta in ETAS]
        print(f"  {rule:13s}" + "".join(f"{r.iterations:>10d}{'' if r.converged else '*'}"
                                         .ljust(11) for r in cells))
    print("  (* = not feasible at the bound; every other w was checked against all "
          "inequalities)")
    best = table[("max_distance", 2.0)]
    Y_test = one_vs_rest(split.y_test, 0)
    print(f"  max distance, eta = 2: feasible after {best.iterations} iterations; its w has "
          f"test accuracy {1 - error_rate(best.w[:-1], best.w[-1], split.X_test, Y_test):.3f}")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    plot_rule_comparison(table, ax)
    ax.set_title('relaxation method on "0 or not 0" (digits, 1348 inequalities): '
                 "iterations to feasibility", fontsize=9)
    out.append(save_figure(fig, opts.out, "11_relaxation_rules"))
    return out


def sgd_section(opts) -> list:
    """The perceptron as SGD: autograd vs closed form, the relu trap, SGD vs the perceptron,
    and the SGD bound measured against :math:`T`."""
    paths = []
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    for ax, delta, name in zip(axes, (0.0, 1.0), ("perceptron loss max(0, -z)",
                                                   "hinge loss max(0, 1 - z)")):
        check = compare_subgradients(60, threshold=delta)
        worst = np.abs(check["autograd"] - check["closed_form"]).max()
        plot_subgradient_check(check, ax, title=f"{name}: largest difference {worst:g}")
        print(f"{name}: autograd vs closed form on 60 cases "
              f"({int(np.sum(check['kind'] == 'tie'))} exactly at the kink): "
              f"largest difference {worst:g}")
    paths.append(save_figure(fig, opts.out, "04_sgd_autograd_vs_closed_form"))

    X, Y = sgd_demo_data(60, flip=0.1, seed=1)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_relu_trap(X, Y, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_relu_trap"))
    trap = train_autograd(X, Y, max_epochs=5, loss=relu_perceptron_loss)
    print(f"relu trap: train_autograd with nd.relu makes {trap.updates} updates and stops at "
          f"w = {trap.w}, b = {trap.b} (reported converged={trap.converged})")

    results = compare_trainers(X, Y, max_epochs=8)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    plot_trainers(X, Y, results, axes)
    paths.append(save_figure(fig, opts.out, "04_sgd_vs_perceptron"))
    ref = results["train (faithful)"]
    same = all(np.array_equal(r.w, ref.w) and r.b == ref.b and
               r.updates_per_epoch == ref.updates_per_epoch for r in results.values())
    print(f"train (faithful, fast), train_autograd, train_gluon identical: {same}; "
          f"updates per epoch {ref.updates_per_epoch}")

    Xb, Yb = sgd_demo_data()
    result = sgd_bound_experiment(Xb, Yb, seeds=10, progress=opts.progress)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    plot_sgd_bound_experiment(result, ax)
    ax.set_title(f"SGD on the hinge loss, 200 points: R = {result.radius:.2f}, "
                 f"L = {result.lipschitz:.2f}, 10 seeds", fontsize=9)
    paths.append(save_figure(fig, opts.out, "04_sgd_bound"))
    print(f"bound experiment: R(w*) = {result.risk_min:.4f} (LP, HiGHS); R = {result.radius:.3f}, "
          f"L = {result.lipschitz:.3f}; max gradient norm seen {result.max_grad_norm:.3f}, "
          f"max ||theta_t|| over all steps {result.max_norm:.3f}")
    print("      T  gap const  bound RL/sqrt T  gap 1/sqrt t  anytime bound")
    for i, T in enumerate(result.horizons):
        print(f"  {T:5d}  {result.constant_gap[:, i].mean():9.4f}  "
              f"{result.constant_bound[i]:15.4f}  {result.anytime_gap[:, i].mean():12.4f}  "
              f"{result.anytime_bound[i]:13.4f}")
    return paths


def convergence_section(opts) -> list:
    """Bounds against measured counts; the proof, live; the normalization exercise."""


    rec = bound_experiment(samples=(100, 300), trials=1, progress=opts.progress)
    ok = rec["b"] ** 2 <= 1
    print(f"{rec['updates'].size} getfake datasets (d in {sorted(set(rec['dimensions']))}, "
          f"n in {sorted(set(rec['samples']))}, eps in {sorted(set(rec['epsilon']))}), "
          f"all converged: {bool(rec['converged'].all() and rec['homogeneous_converged'].all())}")
    for name, count, bound, sel in [
            ("(R^2+1)(1+b*^2)/gamma^2", "updates", "bias_bound", slice(None)),
            ("(R^2+1)/gamma_2^2 (optimal)", "updates", "optimal_bound", slice(None)),
            ("2(R^2+1)/eps^2 where b*^2 <= 1", "updates", "chapter_bound", ok),
            ("Novikoff R^2/gamma^2, no bias", "homogeneous_updates", "novikoff_bound",
             slice(None))]:
        ratio = rec[count][sel] / rec[bound][sel]
        print(f"  {name:34s} never exceeded: {bool(np.all(ratio <= 1))}; "
              f"largest measured/bound = {ratio.max():.3f}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    plot_bound_experiment(rec, axes)
    axes[0].set_title("every bound holds, often by a factor 10-100", fontsize=10)
    axes[1].set_title("counts stay below bounds that do not grow with d or n", fontsize=10)
    paths = [save_figure(fig, opts.out, "06_bounds_vs_measured")]

    fake = sample_separable(200, 2, 0.05)
    trace = proof_trace(fake.X, fake.Y, optimal_margin(fake.X, fake.Y).theta)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_proof_trace(trace, axes)
    fig.suptitle(f"the proof, live, with the optimal separator u: {trace.path.updates} updates, "
                 f"bound {trace.bound:.0f}",
                 fontsize=10)
    paths.append(save_figure(fig, opts.out, "06_proof_live"))
    print(f"proof, live: {trace.path.updates} updates; Part 1 and Part 2 hold at every update: "
          f"{bool(np.all(trace.progress >= trace.lower - 1e-9))}, "
          f"{bool(np.all(trace.norm2 <= trace.upper + 1e-9))}")

    scales = [0.1, 1.0, 10.0]
    runs = [transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=lam)
            for lam in scales]
    print("normalization x -> lambda x (Exercise 1.29), with bias, same dataset:")
    print("  lambda   updates   optimal bound")
    for lam, r in zip(scales, runs):
        print(f"  {lam:6.1f}  {r['updates']:8d}  {r['optimal_bound']:14.0f}")
    return paths


def optimality_section(opts) -> list:
    """Theorem 1.34's adversary against the perceptron; the leave-one-out bound."""


    gammas = np.array([0.5, 0.3, 0.2, 0.15, 0.1, 0.07, 0.05])
    dims = 100
    forced = [adversary_run(float(g), dims).mistakes for g in gammas]
    limit = np.minimum(np.floor(1 / gammas**2 * (1 + 1e-12)), dims)
    print(f"adversary (d = {dims}): forced mistakes {forced}, min(1/gamma^2, d) = "
          f"{limit.astype(int).tolist()}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    ax.plot(1 / gammas**2, limit, "k--", label="min(1/gamma^2, d)")
    ax.plot(1 / gammas**2, forced, "o", label="mistakes the adversary forced on the perceptron")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / gamma^2")
    ax.set_ylabel("mistakes")
    ax.set_title(f"Theorem 1.34 (d = {dims})", fontsize=10)
    ax.legend(fontsize=8)

    sizes = [25, 50, 100, 200]
    stats = [generalization_experiment(n, 20, epsilon=0.5, progress=opts.progress)
             for n in sizes]
    ax = axes[1]
    for key, label, style in [("bound", "E[R_a^2/gamma_2^2]/(N+1)", "s--"),
                              ("updates", "mistakes of the full run /(N+1)", "^:"),
                              ("support", "|I|/(N+1) (examples updated on)", "v:"),
                              ("loo", "leave-one-out error", "o-"),
                              ("test", "error on fresh points", "x-")]:
        ax.plot(sizes, [np.mean(s[key]) for s in stats], style, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("training points N")
    ax.set_ylabel("rate (mean over 20 draws)")
    ax.set_title("Theorem 2.6: leave-one-out error below E[R^2/gamma^2]/(N+1)", fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
    print(" N    leave-one-out  fresh-test   bound")
    for n, s in zip(sizes, stats):
        print(f" {n:3d}  {s['loo'].mean():13.4f}  {s['test'].mean():10.4f}  "
              f"{s['bound'].mean():6.3f}")
    return [save_figure(fig, opts.out, "07_optimality_generalization")]
