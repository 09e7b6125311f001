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
#   enumerator: "8.%s"
# ---
# # 8. Expressivity and the loss surface
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# A single perceptron can compute AND, OR and NOT, but not XOR {cite:p}`minskypapert1969`. And
# its training rule is a subgradient step on a piecewise-linear loss
# ([notebook 04](04_perceptron_as_sgd.ipynb)), which we can draw for a two-point example.
# The XOR run of the [chapter](https://github.com/zackchase/mxnet-the-straight-dope/blob/master/chapter02_supervised-learning/perceptron.ipynb)
# {cite:p}`straightdope` is in [notebook 02](02_perceptron_algorithm.ipynb); what the
# perceptron does on data no line separates is [notebook 05](05_black_and_white.ipynb).

# %%
import gluon_perceptron as gp

import matplotlib.pyplot as plt
import numpy as np

# %% [markdown]
# ## AND, OR, NOT
#
# Encode true as +1 and false as −1, and read the perceptron lin(x) = w·x + b as true when
# it is positive. The book's weights are AND = x₁ + x₂ − 1, OR = x₁ + x₂ + 1, NOT = −x₁.
# The truth tables:

# %%
for name in gp.theory.BOOLEAN_PERCEPTRONS:
    print(gp.experiments.format_truth_table(name))

# %% [markdown]
# No score is ever 0, so each table is unambiguous. The perceptron rule also *finds* weights
# for these functions when trained on their truth tables.
# {py:func}`~gluon_perceptron.core.theory.expressivity.learn_boolean` is the chapter's
# perceptron (`gp.train`, with bias, passes in order from zero) on the table's four (or two)
# rows:

# %%
gp.show_source(gp.theory.learn_boolean, gp.theory.boolean_data, gp.predict)

# %% [markdown]
# `boolean_data` gives the truth table: every row of $\pm 1$ inputs with the function's label,
# and
# `predict` is the sign of the score (a score of 0 gives $-1$), which the check below compares
# with the table:

# %%
prose = {}  # the numbers the prose below shows
learned = {name: gp.theory.learn_boolean(name) for name in ("AND", "OR", "NOT")}
correct = 0
for name, run in learned.items():
    X, Y = gp.theory.boolean_data(name)
    correct += run.converged and np.array_equal(gp.predict(run.w, run.b, X), Y)
    prose[f"{name.lower()}_updates"] = run.updates
not_w = float(learned["NOT"].w[0])
not_b = float(learned["NOT"].b)
and_w1 = float(learned["AND"].w[0])
and_w2 = float(learned["AND"].w[1])
and_b = float(learned["AND"].b)

# %% [markdown]
# The rule gets {eval}`int(correct)` of the 3 tables right. It finds AND after
# {eval}`prose['and_updates']` update(s), with the book's weights w = ({eval}`f"{and_w1:g}"`,
# {eval}`f"{and_w2:g}"`), b = {eval}`f"{and_b:g}"`; OR after {eval}`prose['or_updates']`, again
# with the book's weights; and NOT after {eval}`prose['not_updates']`, with
# w = {eval}`f"{not_w:g}"` and b = {eval}`f"{not_b:g}"`: twice the book's −x₁, the same
# function. A perceptron's weights are fixed only up to a
# positive factor.

# %% [markdown]
# ## XOR has no perceptron
#
# XOR wants lin < 0 at (−1,−1) and (+1,+1), and lin > 0 at (−1,+1) and (+1,−1). Add the
# first two conditions: 2b < 0. Add the last two: 2b > 0. No (w, b) can do both (Minsky and
# Papert). A linear program
# ({py:func}`~gluon_perceptron.core.theory.separability.is_separable`) agrees. The perceptron
# never stops updating: every pass makes a mistake, and its weights go around a cycle.
# {py:func}`~gluon_perceptron.core.theory.expressivity.xor_cycle` finds the cycle: it runs one
# pass of `train` at a time, remembers every pass-end $(w, b)$, and stops at the first one it
# has seen before. The rule is deterministic, so from there the run repeats for ever, and the
# distance between the two visits is the period.

# %%
gp.show_source(gp.theory.xor_cycle, gp.theory.is_separable)

# %% [markdown]
# `is_separable` asks a linear program for a $\theta$ with $a_i^\top \theta > 0$ on every row
# (`None` when there is none); `gp.xor_data` is the four points of [notebook
# 02](02_perceptron_algorithm.ipynb).

# %%
X, Y = gp.xor_data()
run = gp.theory.learn_boolean("XOR", max_epochs=1000)
path, period = gp.theory.xor_cycle()
assert not gp.theory.is_separable(X, Y) and not run.converged

# %% [markdown]
# The linear program finds no separating line (the `assert` above), and in
# {eval}`run.epochs` passes the perceptron does not converge: every pass errs on at least
# {eval}`min(run.updates_per_epoch)` of the 4 points. The weights at the end of a pass repeat every
# {eval}`period` pass(es), and no weight is ever larger than
# {eval}`f"{float(np.abs(path.thetas).max()):g}"` in absolute value: the run goes around a short cycle, forever,
# without blowing up.

# %% [markdown]
# ## The loss surface of a two-point example
#
# Without a bias (pad a constant feature if you need one), the perceptron's loss on an
# example is max(0, −y w·x). For (1,1) labelled −1 and (2,1) labelled +1, the total is
#
# L(w) = max(0, w₁ + w₂) + max(0, −2w₁ − w₂).
#
# It is zero on the cone w₁ + w₂ ≤ 0 ≤ 2w₁ + w₂ (shaded below) and rises linearly
# elsewhere (level sets 1, 2, …). The package evaluates it on a whole grid of weights at once
# ({py:func}`~gluon_perceptron.core.theory.expressivity.total_perceptron_loss`):

# %%
gp.show_source(gp.theory.total_perceptron_loss, gp.theory.two_point_data)

# %% [markdown]
# From w = 0 the perceptron updates on every example with
# y w·x ≤ 0, and the path zig-zags into the zero-loss cone.

# %% [markdown]
# `update_path` (shown in [notebook 06](06_convergence_bounds.ipynb)) records every weight vector of
# the run.

# %% mystnb={"figure": {"caption": "The loss L(w) of the two-point example: zero on the shaded cone, level sets 1, 2, ... elsewhere; the perceptron's path from w = 0 (red) zig-zags into the cone and stops there (star)."}}
X2, Y2 = gp.theory.two_point_data()
path = gp.rosenblatt.update_path(X2, Y2, max_epochs=100, bias=False)
margins = Y2 * (X2 @ path.w)
gp.plots.plot_loss_surface(path=path)
plt.show()

# %% [markdown]
# The run makes {eval}`path.updates` updates and stops at
# w = ({eval}`f"{float(path.w[0]):g}"`, {eval}`f"{float(path.w[1]):g}"`), inside the cone (the loss there is
# {eval}`f"{float(gp.theory.total_perceptron_loss(path.w, X2, Y2)):g}"`), where both examples have a margin of at least
# {eval}`f"{float(margins.min()):g}"`.
# The updates are subgradient steps on L with step 1. At the kink y w·x = 0 the rule takes
# the subgradient −y x, the one that moves, and that is how the run leaves w = 0.

# %% [markdown]
# ## Summary
#
# * AND, OR and NOT are single perceptrons; XOR is not (its four conditions ask for $2b < 0$ and
#   $2b > 0$), and on XOR the perceptron cycles for ever.
# * The perceptron's loss on a two-point example is piecewise linear and zero on a cone of
#   weights; the rule is a subgradient step on it.

# %% [markdown]
# ## Exercises
#
# Two exercises on what one perceptron can compute. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-08-nand
# With true $= +1$ and false $= -1$, find weights $(w, b)$ for NAND and for NOR (a score of 0
# does not count as either), and check them with `gp.exercises.check_gate("NAND", w, b)` and
# `gp.exercises.check_gate("NOR", w, b)`. (Every Boolean function is a circuit of NAND gates:
# a network of perceptrons computes anything.)
# :::

# %% [markdown]
# :::{solution-start} ex-08-nand
# :class: dropdown
# :::
# NAND is "not AND": negate the book's AND, $x_1 + x_2 - 1$, to $-x_1 - x_2 + 1$; NOR negates
# OR, $x_1 + x_2 + 1$, to $-x_1 - x_2 - 1$. The scores are $\pm 1$ and $\pm 3$, never 0.

# %% jupyter={"source_hidden": true}
print(gp.exercises.check_gate("NAND", [-1.0, -1.0], 1.0))
print(gp.exercises.check_gate("NOR", [-1.0, -1.0], -1.0))

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-08-xor
# Prove that no $(w, b)$ computes XOR on $\pm 1$ inputs: write the four inequalities
# $y\,(w^\top x + b) > 0$ and add them in suitable pairs.
# :::

# %% [markdown]
# :::{solution} ex-08-xor
# :class: dropdown
# XOR is true at $(-1, 1)$ and $(1, -1)$ and false at $(-1, -1)$ and $(1, 1)$:
# $-w_1 + w_2 + b > 0$, $w_1 - w_2 + b > 0$, $w_1 + w_2 - b > 0$ and $-w_1 - w_2 - b > 0$.
# The first two add up to $2b > 0$, the last two to $-2b > 0$: a contradiction. This is why
# the perceptron cycles on XOR for ever (`gp.theory.xor_cycle`).
# :::
