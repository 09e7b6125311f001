# %% [markdown]
# # 4. The perceptron as stochastic gradient descent
#
# This notebook follows the chapter **"The Perceptron"** of *Deep Learning - The Straight Dope*
# (MXNet), its last section, **"Stochastic Gradient Descent"**: the perceptron loss, the SGD
# template, and the convergence bound for SGD with an averaged iterate.
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

import matplotlib.pyplot as plt
import numpy as np
from mxnet import autograd, nd

import gluon_perceptron as gp
from gluon_perceptron.core.gradient.losses import perceptron_loss

# %% [markdown]
# ## The loss
#
# For a positive example the loss is $\max(0, -f(x))$, for a negative one $\max(0, f(x))$.
# Both have a kink at $f(x) = 0$, where the derivative jumps from $-1$ (or $+1$) to $0$.

# %%
gp.plots.plot_losses()

# %% [markdown]
# ## Autograd next to the closed form
#
# `perceptron_loss(w, b, x, y)` is an ordinary NDArray expression, so it can be recorded and
# differentiated. Three cases: a mistake, a correctly classified point, and a point exactly on
# the boundary (the tie, where the loss has its kink).

# %%
w = nd.array([1.0, -1.0])
b = nd.array([0.5])
w.attach_grad()
b.attach_grad()
cases = {"mistake": ([2.0, 0.0], -1.0), "correct": ([2.0, 0.0], 1.0),
         "tie": ([1.5, 2.0], 1.0)}
for name, (x, y) in cases.items():
    with autograd.record():
        loss = perceptron_loss(w, b, nd.array(x), y)
    loss.backward()
    closed_w, closed_b = gp.analytic_subgradient(w, b, x, y)
    print(f"{name:8s} y f = {y * (np.dot(w.asnumpy(), x) + 0.5):+.1f}  "
          f"autograd: {w.grad.asnumpy()}, {b.grad.asnumpy()}   "
          f"closed form: {closed_w}, {closed_b}")

# %% [markdown]
# The same comparison on many random problems, a third of them placed exactly on the kink,
# for the perceptron loss and for the hinge loss $\max(0, 1 - y f(x))$ of the margin
# perceptron (its kink is at $y f(x) = 1$). Every gradient entry lands on the diagonal.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
for ax, threshold in zip(axes, (0.0, 1.0)):
    check = gp.experiments.compare_subgradients(150, threshold=threshold)
    gp.plots.plot_subgradient_check(check, ax, title=f"threshold {threshold:g}")
    print(f"threshold {threshold:g}: largest difference {check.largest_difference} over "
          f"{check.kind.size} cases, {np.sum(check.kind == 'tie')} of them at the kink")

# %% [markdown]
# ## The trap at the tie
#
# At the kink any slope between $-1$ and $0$ is a valid subgradient, and MXNet picks one per
# operator. Three ways of writing $\max(0, -z)$ give three values of the same function but not
# the same slope at $z = 0$:

# %%
for form in gp.KINK_FORMS:
    print(f"{form:36s} slope at z = 0: {gp.kink_gradient(form)}")

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
print(f"nd.relu form:    {trap.updates} updates, w = {trap.w}, b = {trap.b}, "
      f"converged = {trap.converged}, training error {trapped.trap_error:.0%}")
print(f"scalar maximum:  {right.updates} updates, training error {trapped.right_error:.0%}")
gp.plots.plot_relu_trap(trapped)

# %% [markdown]
# ## SGD, Gluon and the perceptron make the same updates
#
# `train_autograd` runs the chapter's SGD template (compute $f(x)$, take the gradient with
# `autograd`, step $w \leftarrow w - \eta g$) with $\eta = 1$, one example at a time in data
# order. `train_gluon` does the same with `gluon.nn.Dense(1)`, a `PerceptronLoss` block and
# `gluon.Trainer('sgd')`. On this non-separable set all of them and both engines of `train`
# produce identical weights, bias and updates in every epoch.

# %%
results = gp.experiments.compare_trainers(X, Y, max_epochs=8)
for name, r in results.items():
    print(f"{name:17s} updates per epoch {r.updates_per_epoch}  w = {r.w}  b = {r.b}")
print("identical:", results.identical)
gp.plots.plot_trainers(X, Y, results)

# %% [markdown]
# The margin perceptron is SGD on the hinge loss: it also updates on correct points whose
# margin is at most 1, which is `train(..., threshold=1)`.

# %%
margin_sgd = gp.train_autograd(X, Y, max_epochs=5, loss=gp.hinge_loss)
margin_rule = gp.train(X, Y, max_epochs=5, threshold=1.0)
print(margin_sgd.updates_per_epoch, margin_rule.updates_per_epoch,
      np.array_equal(margin_sgd.w, margin_rule.w))

# %% [markdown]
# ## The SGD bound, measured
#
# Nesterov and Vial's argument in the chapter: if the minimizer $\theta^*$ of the average loss
# $R(\theta)$ lies in a ball of radius $R$ that SGD projects back onto, if every stochastic
# subgradient has norm at most $L$, and if we keep the weighted average
# $\bar\theta = \sum_t \eta_t \theta_t / \sum_t \eta_t$, then
#
# $$\mathbf{E}[R(\bar\theta_T)] - R(\theta^*) \le
#   \frac{R^2 + L^2 \sum_{t \le T} \eta_t^2}{2 \sum_{t \le T} \eta_t}.$$
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
print(f"R(theta*) = {result.risk_min:.4f};  R = {result.radius:.3f},  L = {result.lipschitz:.3f}")
print(f"largest gradient norm seen {result.max_grad_norm:.3f} (<= L),  "
      f"largest ||theta_t|| {result.max_norm:.4f} (<= R):  {result.assumptions_hold}")
print("    T   gap (constant)  bound R L/sqrt T   gap (1/sqrt t)  its bound")
for i, T in enumerate(result.horizons):
    print(f"{T:5d}   {result.constant_gap[:, i].mean():14.4f}  {result.constant_bound[i]:16.4f}"
          f"   {result.anytime_gap[:, i].mean():14.4f}  {result.anytime_bound[i]:9.4f}")
gp.plots.plot_sgd_bound_experiment(result)

# %% [markdown]
# The measured gap (mean over seeds, the band shows the spread) stays under its bound at every
# $T$, for both schedules, and shrinks as $T$ grows. The bound is not vacuous: at some $T$ it
# is less than ten times the measured gap, so a bound ten times smaller would already be
# violated.

# %%
for name, gap, bound in (("constant", result.constant_gap, result.constant_bound),
                         ("1/sqrt t", result.anytime_gap, result.anytime_bound)):
    mean = gap.mean(axis=0)
    print(f"{name:9s} under the bound at every T: {bool(np.all(mean <= bound))};  "
          f"bound / gap from {np.min(bound / mean):.1f} to {np.max(bound / mean):.1f}")


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


# %%
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


# %%
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
