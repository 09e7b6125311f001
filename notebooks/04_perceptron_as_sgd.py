# ---
# jupyter:
#   kernelspec:
#     display_name: Python (gluon_perceptron)
#     language: python
#     name: gluon-perceptron
# ---

# %% [markdown]
# ---
# numbering:
#   enumerator: "4.%s"
# ---
# # 4. The perceptron as stochastic gradient descent
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# This notebook follows the chapter
# [**"The Perceptron"**](https://github.com/zackchase/mxnet-the-straight-dope/blob/master/chapter02_supervised-learning/perceptron.ipynb)
# of *Deep Learning - The Straight Dope* {cite:p}`straightdope` (MXNet), its last section, **"Stochastic Gradient
# Descent"**: the perceptron loss, the SGD template, and the convergence bound for SGD with an
# averaged iterate {cite:p}`nesterovvial2008`.
#
# The chapter ends by reading the perceptron as an optimizer. Take the loss
# $\ell(w, b; x, y) = \max(0, -y f(x))$ with $f(x) = w^\top x + b$. It is zero on correctly
# classified points and grows linearly with how wrong a mistake is. One step of stochastic
# gradient descent on it, $(w, b) \leftarrow (w, b) - \eta\, \partial \ell$, with the
# subgradient $(-y x, -y)$ on mistakes and $0$ elsewhere, is exactly Rosenblatt's update.
#
# This notebook lets MXNet's `autograd` find that gradient, checks it against the closed form,
# runs into the one place where autograd's choice matters (the tie $y f(x) = 0$), trains the
# perceptron through `autograd` and through Gluon, and finally measures the chapter's SGD
# convergence bound on a problem whose optimum is known exactly.

# %%
import gluon_perceptron as gp  # first: MXNet then loads without scikit-learn
from gluon_perceptron.core.gradient.losses import perceptron_loss

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from mxnet import autograd, nd

# %% [markdown]
# ## The loss
#
# For a positive example the loss is $\max(0, -f(x))$, for a negative one $\max(0, f(x))$.
# Both have a kink at $f(x) = 0$, where the derivative jumps from $-1$ (or $+1$) to $0$.
# The figure below draws both losses against the score $f(x)$.

# %% mystnb={"figure": {"caption": "The perceptron loss of a negative example, max(0, f(x)), and of a positive one, max(0, -f(x)): both kink at f(x) = 0."}}
_ = gp.plots.plot_losses()

# %% [markdown]
# In the package the perceptron loss is the threshold loss $\max(0, \delta - y f(x))$ at
# $\delta = 0$ (the hinge loss is $\delta = 1$). Its body: `threshold_loss` hands one example
# with a float label to a compiled MXNet graph of the same formula (`_compiled`, a cache of
# hybridized blocks, for speed) and everything else to `hinge_of_score`, which is the formula
# itself, written once for `nd` and for Gluon's symbolic `F`:

# %%
gp.show_source(gp.perceptron_loss, gp.threshold_loss, "hinge_of_score")

# %% [markdown]
# ## Autograd next to the closed form
#
# {py:func}`~gluon_perceptron.core.gradient.losses.perceptron_loss` is an ordinary NDArray
# expression, so it can be recorded and
# differentiated. Three cases: a mistake, a correctly classified point, and a point exactly on
# the boundary (the tie, where the loss has its kink).

# %% [markdown]
# The closed form we compare with is `analytic_subgradient`: the slope of the loss is $-y$ where
# the margin is at most the threshold and 0 elsewhere, times $x$ for $w$ and times 1 for $b$:

# %%
gp.show_source(gp.analytic_subgradient)

# %%
w = nd.array([1.0, -1.0])
b = nd.array([0.5])
w.attach_grad()
b.attach_grad()
cases = {"mistake": ([2.0, 0.0], -1.0), "correct": ([2.0, 0.0], 1.0),
         "tie": ([1.5, 2.0], 1.0)}
rows = {}
for name, (x, y) in cases.items():
    with autograd.record():
        loss = perceptron_loss(w, b, nd.array(x), y)
    loss.backward()
    closed_w, closed_b = gp.analytic_subgradient(w, b, x, y)
    rows[name] = {"y f(x)": y * (np.dot(w.asnumpy(), x) + 0.5),
                  "autograd d/dw": (w.grad.asnumpy() + 0.0).tolist(),  # + 0.0: no -0.0
                  "autograd d/db": b.grad.asscalar() + 0.0,
                  "closed form d/dw": (np.asarray(closed_w) + 0.0).tolist(),
                  "closed form d/db": float(np.asarray(closed_b).ravel()[0]) + 0.0}
pd.DataFrame.from_dict(rows, orient="index")

# %% [markdown]
# The same comparison on many random problems, a third of them placed exactly on the kink,
# for the perceptron loss and for the hinge loss $\max(0, 1 - y f(x))$ of the margin
# perceptron (its kink is at $y f(x) = 1$): 200 cases per loss, autograd's gradient against the
# closed form, entry by entry (on the diagonal when they agree).

# %%
checks = {threshold: gp.experiments.compare_subgradients(200, threshold=threshold)
          for threshold in (0.0, 1.0)}

# %% mystnb={"figure": {"caption": "Autograd's gradient against the closed form, entry by entry, for the perceptron loss (left) and the hinge loss (right): every point on the diagonal."}}
fig, axes = plt.subplots(1, 2, figsize=(7.2, 4))
for ax, (threshold, check) in zip(axes, checks.items()):
    gp.plots.plot_subgradient_check(check, ax, title=f"threshold {threshold:g}")

# %% [markdown]
# They agree: the largest difference is {eval}`f"{float(checks[0.0].largest_difference):g}"` over the
# {eval}`checks[0.0].kind.size` cases of the perceptron loss
# ({eval}`int(np.sum(checks[0.0].kind == 'tie'))` of them at the kink) and {eval}`f"{float(checks[1.0].largest_difference):g}"` over
# the {eval}`checks[1.0].kind.size` of the hinge loss ({eval}`int(np.sum(checks[1.0].kind == 'tie'))` at the kink).

# %% [markdown]
# ## The trap at the tie
#
# At the kink any slope between $-1$ and $0$ is a valid subgradient, and MXNet picks one per
# operator. Three ways of writing $\max(0, -z)$ give three values of the same function but not
# the same slope at $z = 0$:

# %%
gp.show_source(gp.kink_gradient)

# %% [markdown]
# `kink_gradient` records one of the forms in `gp.KINK_FORMS` at $z$ and returns the slope
# autograd gives back:

# %%
pd.DataFrame({"slope at z = 0": [gp.kink_gradient(form) for form in gp.KINK_FORMS]},
             index=pd.Index(gp.KINK_FORMS, name="written as"))

# %% [markdown]
# Why it matters: the perceptron starts at $w = 0, b = 0$, where *every* example has
# $y f(x) = 0$. With a zero slope there, the first gradient is zero, so is the next, and SGD
# never leaves the origin. `relu_perceptron_loss` is the perceptron loss written with
# `nd.relu`; training with it makes no update at all and even reports convergence, while
# every point sits on the (non-existent) boundary.

# %%
X, Y = gp.experiments.sgd_demo_data(60, flip=0.1, seed=1)
trapped = gp.experiments.relu_trap(X, Y)
trap, right = trapped.trap, trapped.right

# %% mystnb={"figure": {"caption": "Left: autograd's slope at the tie for the three forms of max(0, -z). Right: the norm of (w, b) along SGD; with nd.relu it stays at zero."}}
_ = gp.plots.plot_relu_trap(trapped)

# %% [markdown]
# On these {eval}`len(Y)` points (labels flipped with probability 0.1), the `nd.relu`
# form makes {eval}`trap.updates` updates, ends with $\|(w, b)\|$ =
# {eval}`f"{float(np.linalg.norm(np.append(trap.w, trap.b))):g}"`, reports `converged` = {eval}`str(trap.converged)` and has a
# training error of {eval}`f"{trapped.trap_error:.0%}"` (a point on the boundary counts as an error).
# The same training with the scalar maximum makes {eval}`right.updates` updates and
# ends with a training error of {eval}`f"{trapped.right_error:.0%}"`.

# %% [markdown]
# ## The autograd training loop
#
# The chapter's SGD template is one step per example: record the loss, let `autograd` find its
# gradient, step against it. {py:func}`~gluon_perceptron.core.gradient.sgd_update.sgd_step` is that
# step:

# %%
gp.show_source(gp.sgd_step)

# %% [markdown]
# * `with autograd.record(): value = loss(w, b, x, y)` records the loss of one example, and
#   `value.backward()` writes $\partial \ell / \partial w$ into `w.grad` and
#   $\partial \ell / \partial b$ into `b.grad`;
# * `moved = b.grad.asnumpy() != 0`: the bias gradient is $-y$ on an update and 0 otherwise,
#   so it says whether the step moves at all (a correct point returns early);
# * `w -= ...`, `b -= ...` is $\theta \leftarrow \theta - \eta g$, in place; `clip` and
#   `radius` (projection onto a ball) are off unless asked for, and the bound experiment below
#   uses `radius`.
#
# {py:func}`~gluon_perceptron.core.gradient.autograd.train_autograd` runs that step over the
# examples in order, pass after pass:

# %%
gp.show_source(gp.train_autograd)

# %% [markdown]
# * `parameters_like` makes $w = 0$, $b = 0$ as NDArrays with gradients attached;
# * every epoch is one pass of `sgd_step` over the examples in data order, skipping those
#   where the loss is flat (there the step would change nothing), counting the updates; the
#   run stops after a pass without an update, or at `max_epochs`, as every trainer does;
# * `_refuse_overflow_after` stops a run whose weights overflow, with an error that says so.
#
# ## The Gluon training loop
#
# {py:func}`~gluon_perceptron.core.gradient.gluon.train_gluon` is the same training written as a
# Gluon model: a `Dense(1)` layer initialised to zero is $f(x) = w^\top x + b$:

# %%
gp.show_source(gp.train_gluon, gp.perceptron_net)

# %% [markdown]
# * `PerceptronLoss(threshold)` is a Gluon loss block for $\max(0, \delta - y f(x))$ (the same
#   `hinge_of_score` as above), and `gluon.Trainer(..., "sgd", ...)` is plain SGD (no momentum,
#   no weight decay);
# * in `one_pass`, `loss_fn(net(x), y)` under `autograd.record()`, `loss.backward()` and
#   `trainer.step(1)` are Gluon's training loop, one example per batch;
# * `bias_grad.asscalar() != 0` counts the updates, as `sgd_step` does.
#
# ## SGD, Gluon and the perceptron make the same updates
#
# `train_autograd` runs the template with $\eta = 1$, one example at a time in data order;
# `train_gluon` does the same with Gluon. On this non-separable set
# {py:func}`~gluon_perceptron.experiments.sgd.compare_trainers` checks whether they and
# both engines of `train` produce identical weights, bias and updates in every epoch.

# %%
results = gp.experiments.compare_trainers(X, Y, max_epochs=8)
assert results.identical
trainer_updates = ", ".join(map(str, results.reference.updates_per_epoch))

# %% mystnb={"figure": {"caption": "The four trainers: updates per epoch (left) and final boundaries (right), drawn on top of each other since they coincide."}}
_ = gp.plots.plot_trainers(X, Y, results)

# %% [markdown]
# The four trainers make the same updates in each of the {eval}`results.reference.epochs` epochs,
# {eval}`trainer_updates`, and end with identical weights and bias (the `assert` checks
# it). With the flipped labels no pass is free of updates: `converged` is
# {eval}`str(results.reference.converged)`.
#
# The margin perceptron is SGD on the hinge loss: it also updates on correct points whose
# margin is at most 1, which is `train(..., threshold=1)`.

# %% [markdown]
# `gp.train` is Rosenblatt's loop, shown in [notebook 02](02_perceptron_algorithm.ipynb);
# `threshold` is the margin below which it
# updates.

# %%
margin_sgd = gp.train_autograd(X, Y, max_epochs=5, loss=gp.hinge_loss)
margin_rule = gp.train(X, Y, max_epochs=5, threshold=1.0)
assert margin_sgd.updates_per_epoch == margin_rule.updates_per_epoch
assert np.array_equal(margin_sgd.w, margin_rule.w) and margin_sgd.b == margin_rule.b
margin_updates = ", ".join(map(str, margin_sgd.updates_per_epoch))

# %% [markdown]
# Both make {eval}`margin_updates` updates in their five passes and end with the same
# weights (the `assert`s check it).

# %% [markdown]
# ## The SGD bound, measured
#
# Nesterov and Vial's argument in the chapter {cite:p}`nesterovvial2008`:
#
# :::{prf:theorem} SGD with an averaged iterate
# :label: thm-sgd-bound
# Let the minimizer $\theta^*$ of the average loss $R(\theta)$ lie in a ball of radius $R$
# around the start $\theta_1 = 0$, onto which SGD projects back after every step, let every
# stochastic subgradient have norm at most $L$, and keep the weighted average
# $\bar\theta_T = \sum_{t \le T} \eta_t \theta_t / \sum_{t \le T} \eta_t$. Then
#
# $$\mathbf{E}[R(\bar\theta_T)] - R(\theta^*) \le
#   \frac{R^2 + L^2 \sum_{t \le T} \eta_t^2}{2 \sum_{t \le T} \eta_t}.$$
# :::
#
# :::{prf:proof}
# Expand $r_{t+1}^2 = \|\theta_t - \eta_t g_t - \theta^*\|^2$ (projection only shortens it):
# $r_{t+1}^2 \le r_t^2 - 2 \eta_t g_t^\top (\theta_t - \theta^*) + \eta_t^2 L^2$. In
# expectation $g_t$ is a subgradient of $R$ at $\theta_t$, so by convexity
# $\mathbf{E}[g_t^\top (\theta_t - \theta^*)] \ge \mathbf{E}[R(\theta_t)] - R(\theta^*)$.
# Summing over $t \le T$, using $r_1 \le R$ and $r_{T+1}^2 \ge 0$, and Jensen's inequality for
# the average $\bar\theta_T$ gives the bound. The experiment below measures both sides.
# :::
#
# A constant rate $\eta = R / (L \sqrt T)$ makes this $RL/\sqrt T$ but needs $T$ in advance;
# $\eta_t = (R/L)/\sqrt t$ gives $O(\log T / \sqrt T)$ at every $T$.
#
# Two slips in the chapter's version of this proof, so that you can follow it: its distance
# recursion is written $\mathbf{E}[r_{t+1} - r_t]$ where the *squared* distances
# $r_t^2 = \|\theta_t - \theta^*\|^2$ are meant (they are what the expansion of
# $\|\theta_t - \eta_t g_t - \theta^*\|^2$ gives), and it uses the letter $R$ both for the risk
# $R[w]$ and for the radius of the ball. Here $R(\theta)$, with an argument, is always the
# risk, and a bare $R$ is the radius; the $R^2$ in the numerator is the radius squared, a bound
# on $r_1^2 = \|\theta_1 - \theta^*\|^2$ when SGD starts at $\theta_1 = 0$.
#
# To see it we need $R(\theta^*)$. For the hinge loss on a fixed non-separable set it is a
# linear program (slack variables turn the piecewise-linear objective into a linear one),
# solved exactly by HiGHS through `scipy.optimize.linprog`. The assumptions are enforced, not
# hoped for: the ball has radius $R = \|\theta^*\|$ and every step projects back onto it,
# $L = \max_i \|(x_i, 1)\|$ bounds every subgradient $-y(x, 1)$, and examples are drawn
# uniformly with replacement. The run also measures the largest gradient norm and the largest
# $\|\theta_t\|$ it met. The expectation is estimated by the mean over 10 seeds.

# %%
Xb, Yb = gp.experiments.sgd_demo_data()
result = gp.experiments.sgd_bound_experiment(Xb, Yb, seeds=10)
assert result.assumptions_hold
pd.DataFrame({"gap, constant rate": result.constant_gap.mean(axis=0),
              "its bound R L / sqrt T": result.constant_bound,
              "gap, 1/sqrt t": result.anytime_gap.mean(axis=0),
              "its bound": result.anytime_bound},
             index=pd.Index(result.horizons, name="T")).round(4)

# %% [markdown]
# Here $R(\theta^*)$ = {eval}`f"{result.risk_min:.4f}"`, the radius $R$ = {eval}`f"{result.radius:.3f}"`
# and $L$ = {eval}`f"{result.lipschitz:.3f}"`. The runs met gradients of norm up to
# {eval}`f"{result.max_grad_norm:.3f}"` (so $L$ is reached, not just assumed) and iterates of norm up
# to {eval}`f"{result.max_norm:.4f}"`, inside the ball (the `assert` checks both assumptions). The
# table gives the mean gap over the {eval}`result.constant_gap.shape[0]` seeds next to each bound.

# %% mystnb={"figure": {"caption": "The measured gap of SGD's averaged iterate (mean over seeds, the band its range) against each schedule's bound (dashed)."}}
_ = gp.plots.plot_sgd_bound_experiment(result)

# %% [markdown]
# The theorem says the expected gap stays under the bound; the mean over 10 seeds estimates it,
# and here it stays under at every $T$ (the `assert` below checks this run). How *tight* the
# bound is depends on the schedule. Below, bound / gap at each $T$:

# %%
ratios = {}
for name, gap, bound in (("constant", result.constant_gap, result.constant_bound),
                         ("1/sqrt t", result.anytime_gap, result.anytime_bound)):
    mean = gap.mean(axis=0)
    assert np.all(mean <= bound)  # the theorem, at every T
    ratios[name] = bound / mean
horizons = result.horizons
constant_ratio_min = ratios["constant"].min()
constant_ratio_max = ratios["constant"].max()
anytime_ratio_first = ratios["1/sqrt t"][0]
anytime_ratio_last = ratios["1/sqrt t"][-1]
constant_ratio_last = ratios["constant"][-1]
pd.DataFrame(ratios, index=pd.Index(horizons, name="T")).T.round(1)

# %% [markdown]
# With the constant rate tuned to the horizon, $\eta = R/(L\sqrt T)$, the bound stays within
# a small factor of the measured gap at every $T$, here between {eval}`f"{constant_ratio_min:.1f}"`
# and {eval}`f"{constant_ratio_max:.1f}"` times it: it is not vacuous, and a bound that many
# times smaller would already be violated. The $1/\sqrt t$ schedule does not need $T$ in
# advance but pays for it: its bound carries the extra $\log T$ of $\sum_t \eta_t^2$, its
# measured gap does not, and its ratio grows from {eval}`f"{anytime_ratio_first:.1f}"` at
# $T$ = {eval}`int(horizons[0])` to {eval}`f"{anytime_ratio_last:.1f}"` at $T$ =
# {eval}`int(horizons[-1])`, where the constant rate's is {eval}`f"{constant_ratio_last:.1f}"`: at
# the largest $T$ it is the looser of the two bounds. Those are this run's numbers. Over 40
# runs of the same experiment on this problem with SGD seeds no notebook prints, the mean gap
# stays under both bounds at every $T$ on nearly every run (at least 34 of 40), the constant
# rate's bound is within 15 times its gap at every $T$ on nearly every run (at least 34 of 40),
# and the $1/\sqrt t$ ratio grows from the first $T$ to the last and ends above the constant
# rate's on nearly every run (at least 34 of 40): `tests/experiments/test_claims.py` checks these counts,
# and `bash run.sh claims` measures them again on fresh seeds (`tests/core/gradient/test_sgd.py` also checks
# the directions on other data).

# %% [markdown]
# ## Summary
#
# * The perceptron is stochastic gradient descent with step 1 on the loss
#   $\max(0, -y f(x))$: autograd's gradient is the closed form $-(y x, y)$ on a mistake and 0
#   elsewhere.
# * At the tie $y f(x) = 0$ the slope depends on how the loss is written: with `nd.relu(-z)` it
#   is 0, and training never leaves the origin.
# * The autograd loop, the Gluon loop and both engines of `gp.train` make the same updates and
#   end with the same weights; the margin perceptron is SGD on the hinge loss.
# * The SGD bound for the averaged iterate (Nesterov and Vial) is measured on a problem whose
#   optimum is known exactly.

# %% [markdown]
# ## Exercises
#
# Three exercises on the perceptron as gradient descent. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-04-subgradient
# Write the subgradient of the perceptron loss $\max(0, -y(w^\top x + b))$ by hand:
# `perceptron_subgradient(w, b, x, y)` returns `(grad_w, grad_b)` for one example (numpy
# arrays, `grad_b` of shape `(1,)`), with the choice the perceptron makes at the kink
# $y f(x) = 0$. `gp.exercises.check_subgradient(perceptron_subgradient)` compares it with
# MXNet's autograd on `gp.perceptron_loss` at the kink, just either side of it and far away.
# :::

# %% [markdown]
# :::{solution-start} ex-04-subgradient
# :class: dropdown
# :::
# Where $y f(x) < 0$ the loss is $-y (w^\top x + b)$, with gradient $(-y x, -y)$; where
# $y f(x) > 0$ it is 0. At the kink any convex combination is a subgradient; the perceptron
# takes $(-y x, -y)$, which is what lets it leave $w = 0$, and `gp.perceptron_loss` is
# written so that autograd does the same.

# %% jupyter={"source_hidden": true}
def perceptron_subgradient(w, b, x, y):
    if y * (w @ x + b) <= 0:
        return -y * x, np.array([-y])
    return np.zeros_like(w), np.zeros(1)


gp.exercises.check_subgradient(perceptron_subgradient)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-04-hinge
# Do the same for the hinge loss $\max(0, 1 - y f(x))$ of the margin perceptron
# (`loss="hinge"`): where is its kink, and on which *correctly classified* points does SGD on
# it still update?
# :::

# %% [markdown]
# :::{solution-start} ex-04-hinge
# :class: dropdown
# :::
# The kink is at $y f(x) = 1$; SGD updates on every point with $y f(x) \le 1$, so also on
# correct points with a margin below 1. Passing `perceptron_subgradient` with `loss="hinge"`
# fails at the first point on that kink.

# %% jupyter={"source_hidden": true}
def hinge_subgradient(w, b, x, y):
    if y * (w @ x + b) <= 1:
        return -y * x, np.array([-y])
    return np.zeros_like(w), np.zeros(1)


gp.exercises.check_subgradient(hinge_subgradient, loss="hinge")

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-04-relu
# `nd.relu(-z)` and `nd.maximum(-z, 0)` compute the same loss. Using `gp.kink_gradient`, find
# the slope autograd gives each at $z = 0$, and explain why SGD from $w = 0, b = 0$ on the
# `relu` form never moves.
# :::

# %% [markdown]
# :::{solution} ex-04-relu
# :class: dropdown
# `gp.kink_gradient("nd.relu(-z)")` is 0 and `gp.kink_gradient("nd.maximum(-z, 0)")` is -1.
# From $w = 0, b = 0$ every margin is 0, so with the `relu` form every gradient is 0, no step
# changes $(w, b)$, and every margin stays 0: the run is stuck at its start for ever.
# :::
