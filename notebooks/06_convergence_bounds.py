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
#   enumerator: "6.%s"
# ---
# # 6. Convergence bounds, measured
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# The convergence theorem ([notebook 03](03_convergence_theorem.ipynb), from the
# [chapter](https://github.com/zackchase/mxnet-the-straight-dope/blob/master/chapter02_supervised-learning/perceptron.ipynb)
# {cite:p}`straightdope`) promises that on separable data the perceptron stops after a
# number of updates fixed by two numbers only: how far the points reach from the origin
# (the radius R) and how wide a gap some separating plane leaves (the margin gamma). This
# notebook puts every version of that promise next to real update counts:
#
# * Novikoff's R²/γ² for a perceptron without bias ({prf:ref}`thm-novikoff`),
# * the chapter's 2(R²+1)/ε² with a bias, which the chapter states for a separator with
#   ‖w\*‖ ≤ 1 and b\*² ≤ 1,
# * the lecture notes' general bound (1.4), for any starting point and threshold δ
#   ({prf:ref}`thm-general-bound`),
# * the best of all of them, from the optimal margin γ₂ (a hard-margin SVM on the padded
#   examples (x, 1), whose norm counts the bias too).
#
# :::{prf:theorem} Novikoff's bound
# :label: thm-novikoff
# Let $\|a_i\| \le R$ for every example and let a unit vector $u$ separate them with margin
# $\gamma > 0$: $a_i^\top u \ge \gamma$. Then the perceptron without bias, from $\theta_0 = 0$,
# makes at most $R^2/\gamma^2$ updates, in any order of the examples
# {cite:p}`novikoff1962,block1962`. With a bias, pad $x$ with a constant 1 (below: it is the
# same run): $a_i = y_i(x_i, 1)$, $R^2 \to R^2 + 1$ and $u = (w^*, b^*)$, which gives
# $(R^2 + 1)(\|w^*\|^2 + b^{*2})/\gamma^2$ for a separator of margin $\gamma$.
# :::
#
# The proof is watched update by update in [The proof, live](#the-proof-live) below.
#
# :::{prf:theorem} The general bound (1.4)
# :label: thm-general-bound
# Let $\|a_i\| \le R_a$ and $a_i^\top u \ge s > 0$ for some $u$. The perceptron that starts
# at $\theta_0$ and updates whenever $\langle \theta, a_i \rangle \le \delta$ ($\delta \ge 0$)
# makes at most
#
# $$t \le \frac{(2\delta + R_a^2)\|u\|^2 + 2 s \|u\| \|\theta_0\|}{s^2}$$
#
# updates.
# :::
#
# :::{prf:proof}
# Each update adds $a_i^\top u \ge s$ to $u^\top \theta$, so
# $u^\top \theta_t \ge -\|u\|\|\theta_0\| + t s$. It adds
# $2\langle \theta, a_i\rangle + \|a_i\|^2 \le 2\delta + R_a^2$ to $\|\theta\|^2$, so
# $\|\theta_t\|^2 \le \|\theta_0\|^2 + t(2\delta + R_a^2)$. Cauchy-Schwarz,
# $u^\top \theta_t \le \|u\|\|\theta_t\|$, joins the two; squaring and solving for $t$ gives
# the bound (with $\theta_0 = 0$, $\delta = 0$ and $\|u\| = 1$, $s = \gamma$:
# {prf:ref}`thm-novikoff`). Measured below in
# [The general bound (1.4)](#the-general-bound-14-a-start-and-a-threshold).
# :::
#
# Then we watch the proof happen along one run, check that padding a constant feature is the
# same thing as a bias, and see what rescaling or moving the data does.

# %%
import gluon_perceptron as gp  # first: MXNet then loads without scikit-learn

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np

mx.random.seed(0)
np.random.seed(0)

# %% [markdown]
# The package computes each bound with one line of arithmetic (`_finite_bound` only refuses
# a bound that overflowed to infinity):

# %%
gp.show_source(gp.theory.novikoff_bound, gp.theory.chapter_bound, gp.theory.bias_bound,
               "general_bound")

# %% [markdown]
# ## Bounds against counts on many datasets
#
# {py:func}`~gluon_perceptron.experiments.convergence.bound_experiment` draws getfake
# datasets over a grid of dimensions, sizes and margins, 8 per cell, and records, for each, the updates of the perceptron with bias (trained from zero
# until a pass makes no update) and of the perceptron without bias (on the same data moved so
# that the generating plane passes through the origin), next to each bound.

# %%
prose = {}  # the numbers the prose below shows
rec = gp.experiments.bound_experiment(dimensions=(2, 5, 10, 20), samples=(100, 1000),
                                      epsilons=(0.1, 0.3), trials=8)
ok = rec.b ** 2 <= 1
every = slice(None)
for key, count, bound, sel in [("bias", "updates", "bias_bound", every),
                               ("optimal", "updates", "optimal_bound", every),
                               ("chapter", "updates", "chapter_bound", ok),
                               ("novikoff", "homogeneous_updates", "novikoff_bound", every)]:
    r = rec[count][sel] / rec[bound][sel]
    prose[f"{key}_exceeded"] = int((r > 1).sum())
    prose[f"{key}_largest"] = r.max()

# %% [markdown]
# All {eval}`int(rec.converged.sum())` of the {eval}`rec.updates.size` runs converged, and no count reached
# its bound, as the theorems say: the count went past the bias bound
# (R²+1)(1+b\*²)/γ² on {eval}`prose['bias_exceeded']` datasets, past the optimal-margin bound
# (R²+1)/γ₂² on {eval}`prose['optimal_exceeded']`, past Novikoff's bound without bias on
# {eval}`prose['novikoff_exceeded']`, and past the chapter's 2(R²+1)/ε² on
# {eval}`prose['chapter_exceeded']` of the datasets its condition b\*² ≤ 1 covers. The bounds are
# loose: the largest ratio count/bound is {eval}`f"{prose['bias_largest']:.2f}"`,
# {eval}`f"{prose['optimal_largest']:.2f}"`, {eval}`f"{prose['novikoff_largest']:.2f}"` and
# {eval}`f"{prose['chapter_largest']:.2f}"` for these four. {eval}`int((~ok).sum())` of the planes have
# b\*² > 1, outside the chapter's condition; its bound was exceeded on
# {eval}`int((rec.updates[~ok] > rec.chapter_bound[~ok]).sum())` of them. Left below, every bound against every count; right, the
# medians against the dimension.

# %% mystnb={"figure": {"caption": "Left: each bound against the measured count, one point per dataset; all lie above the diagonal. Right: median counts and bounds against the dimension; the bounds stay flat."}}
gp.plots.plot_bound_experiment(rec)
plt.show()

# %% [markdown]
# On the right, the count and the bound are plotted against the dimension. Neither bound has
# d or n in its formula. With getfake every point has norm below 3 and margin above ε, so the
# chapter's bound stays the same whatever d and n are. The measured counts are another
# matter. Their quartiles per dimension:

# %%
dims, medians = rec.median_by_dimension("updates")
print("updates per dimension, quartiles [25% 50% 75%] over", int(rec.updates.size / dims.size),
      "datasets each:")
for d, q in zip(dims, rec.quartiles_by_dimension("updates")):
    print(f"  d = {d:2d}: {q}")

# %% [markdown]
# Over {eval}`int(rec.updates.size / dims.size)` datasets per dimension the median count grows from d = 2 to
# d = 10, by a factor of {eval}`f"{medians[2] / medians[0]:.2f}"`, and from d = 10 to d = 20 much less, if
# at all (a factor of {eval}`f"{medians[3] / medians[2]:.2f}"`). The spread within each dimension, shown
# by the quartiles, is as large as the change between dimensions, so one dataset per cell
# could not show this.
#
# The factor between d = 2 and d = 10 is itself a random number. `dimension_growth` redraws the
# grid's d = 2 and d = 10 datasets (8 per cell, 32 per dimension) for 40 seeds, only training
# (no bounds), and gives its spread:

# %%
growth = gp.experiments.dimension_growth(40, dimensions=(2, 10))
ratios = growth.ratios(10)

# %% [markdown]
# So the growth from d = 2 to d = 10 is real, on {eval}`int(np.sum(ratios > 1))` of the
# {eval}`ratios.size` grids, but its size varies: the factor has median
# {eval}`f"{np.median(ratios):.2f}"`, quartiles {eval}`f"{np.percentile(ratios, 25):.2f}"` and
# {eval}`f"{np.percentile(ratios, 75):.2f}"`, and ranges from {eval}`f"{ratios.min():.2f}"` to
# {eval}`f"{ratios.max():.2f}"`: roughly two- to fourfold, not a fixed number. Over 40 other grids,
# which no notebook prints, the count grows from d = 2 to d = 10 on nearly every grid (at least
# 38 of 40), by a factor between 1.5 and 5 on nearly every grid (at least 37 of 40)
# (`tests/experiments/test_claims.py` checks both, `bash run.sh claims` measures them on fresh seeds).
#
# The optimal margin γ₂ gives the smallest of these bounds. It comes from
# {py:func}`~gluon_perceptron.core.theory.margins.optimal_margin`, which solves the quadratic program
# min ‖θ‖² over θ = (w, b) subject to y_i (w·x_i + b) ≥ 1. That is the hard-margin SVM of the
# padded examples (x_i, 1): the bias is penalised like a weight, where the usual SVM leaves b
# out of the norm. `tests/core/theory/test_margins.py` checks the answer
# independently: the KKT conditions, random perturbations and a brute-force search over
# directions.

# %%
gp.show_source(gp.theory.optimal_margin, gp.theory.generating_plane_bound)

# %% [markdown]
# `optimal_margin` checks that a separating plane exists and hands the rows $a_i$ to the
# quadratic program; `generating_plane_bound` measures $R$ and the margin $\gamma$ of the plane
# the data was drawn from and evaluates `bias_bound` (above) with them. `gp.sample_separable`
# draws the data as in [notebook 01](01_separable_data.ipynb), and `gp.train` is the loop shown in
# [notebook 02](02_perceptron_algorithm.ipynb).

# %%
fake = gp.sample_separable(300, 2, 0.1)
opt = gp.theory.optimal_margin(fake.X, fake.Y)
info = gp.theory.generating_plane_bound(fake.X, fake.Y, fake.wfake, fake.bfake)
run = gp.train(fake.X, fake.Y, max_epochs=10_000)

# %% [markdown]
# On 300 getfake points in the plane with ε = 0.1, the generating plane has margin
# {eval}`f"{info.gamma / np.sqrt(1 + info.b**2):.4f}"` per unit (w\*, b\*) and bound {eval}`f"{info.bound:.0f}"`; the
# optimal plane, held up by {eval}`len(opt.support)` support vectors, has margin γ₂ =
# {eval}`f"{opt.gamma:.4f}"` and bound {eval}`f"{opt.bound:.0f}"`. The perceptron needed
# {eval}`run.updates` updates.

# %% [markdown]
# ## The proof, live
#
# The proof of {prf:ref}`thm-novikoff` tracks two numbers along the run, for any separator u:
#
# * **Part 1**: each update adds at least s = minᵢ yᵢ u·(xᵢ, 1) to u·θ_t, so
#   u·θ_t ≥ t s;
# * **Part 2**: each update adds at most R² + 1 to ‖θ_t‖², because the update
#   happens only when the point is misclassified (or on the boundary).
#
# By Cauchy-Schwarz, Part 1 says ‖θ_t‖² ≥ (t s/‖u‖)². That lower bound grows like t² and
# the upper bound only like t, so the two must cross. The crossing point is the bound.
# `proof_trace` replays the rule update by update (`update_path`, the same updates as
# `train`) and records both quantities. Here u is the optimal separator.

# %% mystnb={"figure": {"caption": "Left: progress along u stays above Part 1's line. Right: the squared norm stays under Part 2's line, which the lower bound from Part 1 (slope 2) overtakes at the bound."}}
fake = gp.sample_separable(200, 2, 0.05)
best = gp.theory.optimal_margin(fake.X, fake.Y).theta
trace = gp.experiments.proof_trace(fake.X, fake.Y, best)
gp.plots.plot_proof_trace(trace)
plt.show()

# %% [markdown]
# On 200 points with ε = 0.05 the run makes {eval}`trace.path.updates` updates against a
# bound of {eval}`f"{trace.bound:.0f}"`. Part 1 holds at {eval}`int(np.sum(trace.progress >= trace.lower - 1e-9))` and Part 2 at
# {eval}`int(np.sum(trace.norm2 <= trace.upper + 1e-9))` of the {eval}`trace.progress.size` points of the run (from t = 0), as
# the proof says they must.

# %% [markdown]
# ## Padding a constant feature is a bias
#
# Appending a constant 1 to every x and running the perceptron *without* bias makes exactly
# the same updates as running it *with* a bias on the original data: the last weight plays
# the role of b. The two runs are equal to the last bit (and `tests/core/theory/test_bounds.py` checks
# this on many datasets).

# %%
gp.show_source(gp.rosenblatt.update_path, gp.data.pad_constant)

# %% [markdown]
# `update_path` is the plain rule again, with steps of 1, recording every $\theta$ it passes
# through; `bias=False` leaves $b$ out. `pad_constant` appends the column of ones:

# %%
X, Y = fake.X.asnumpy(), fake.Y.asnumpy()
with_bias = gp.rosenblatt.update_path(X, Y, max_epochs=1000, bias=True)
padded = gp.rosenblatt.update_path(gp.data.pad_constant(X), Y, max_epochs=1000, bias=False)
assert np.array_equal(with_bias.examples, padded.examples)  # the same examples updated on
assert np.array_equal(with_bias.thetas, padded.thetas)      # the same (w, b), bit for bit

# %% [markdown]
# The two asserts pass: both runs update on the same examples, in the same order, and hold
# the same parameters after each of their {eval}`padded.updates` updates.

# %% [markdown]
# ## The general bound (1.4): a start and a threshold
#
# Start the run at θ₀ ≠ 0 or update whenever the margin is below δ > 0, and the bound has to
# grow: (1.4) ({prf:ref}`thm-general-bound`) adds 2δ to R² and a term 2 s‖u‖‖θ₀‖. The plain bound (θ₀ = 0, δ = 0) is then
# no longer valid: for a large enough δ, or a start far enough on the wrong side, the
# measured count goes past it, while (1.4) still holds.

# %% [markdown]
# `separator` writes the generating plane as one vector $u = (w^*, b^*)$:

# %%
gp.show_source(gp.theory.separator)

# %%
mx.random.seed(0)
fake = gp.sample_separable(200, 2, 0.2)
u = gp.theory.separator(fake.wfake, fake.bfake)
plain = gp.experiments.proof_trace(fake.X, fake.Y, u)
print(f"theta_0 = 0, delta = 0: {plain.path.updates} updates, bound {plain.bound:.0f}")
variants = []
for delta in (5.0, 20.0):
    tr = gp.experiments.proof_trace(fake.X, fake.Y, u, threshold=delta)
    variants.append(tr)
    print(f"delta = {delta:4.0f}: {tr.path.updates:5d} updates; plain bound {plain.bound:.0f}, "
          f"(1.4) {tr.bound:.0f}")
for m in (10.0, 1000.0):
    tr = gp.experiments.proof_trace(fake.X, fake.Y, u, w0=-m * u[:-1], b0=float(-m * u[-1]))
    variants.append(tr)
    print(f"theta_0 = -{m:g} u: {tr.path.updates:5d} updates; plain bound {plain.bound:.0f}, "
          f"(1.4) {tr.bound:.0f}")
past_plain = sum(tr.path.updates > plain.bound for tr in variants)

# %% [markdown]
# Of the four runs with a threshold or a start, {eval}`past_plain` go past the plain
# bound and {eval}`sum(tr.path.updates > tr.bound for tr in variants)` past their bound (1.4).

# %% [markdown]
# The chapter states the condition of its 2(R²+1)/ε²: a separator with ‖w\*‖ ≤ 1 and
# b\*² ≤ 1. The condition matters. On getfake data it never showed: in the experiment above,
# none of the planes with |b\*| > 1 gave a count above 2(R²+1)/ε², because the bound is loose
# enough. With data far from the origin the count does pass it. Take two 1-D points, 10
# labelled -1 and 30 labelled +1. The plane x = 20 has ‖w\*‖ = 1 and margin 10, but b\* = -20:

# %% [markdown]
# `radius` is $R = \max_i \|x_i\|$ (computed without overflow for huge entries):

# %%
gp.show_source(gp.theory.radius)

# %%
X1, Y1 = np.array([[10.0], [30.0]]), np.array([-1.0, 1.0])
run = gp.train(X1, Y1, max_epochs=100_000)
R1 = gp.theory.radius(X1)

# %% [markdown]
# The perceptron makes {eval}`run.updates` updates, far past the chapter's
# 2(R²+1)/ε² = {eval}`f"{gp.theory.chapter_bound(R1, 10.0):.2f}"` with ε = 10. With the true b\* the bias bound
# (R²+1)(1+b\*²)/ε² = {eval}`f"{gp.theory.bias_bound(R1, 10.0, 1.0, -20.0):.0f}"` still holds.

# %% [markdown]
# ## Data normalization (Exercise 1.29)
#
# Scaling x → λx or moving x → x + x̄ keeps the data separable: the generating plane moves
# with it (margin λγ, bias λb\* − w\*·x̄). Without a bias and from zero, scaling changes
# nothing at all, since every w_t is scaled by λ and no sign changes. With a bias it matters:
# the constant 1 in (x, 1) does not scale, so the bound and the count both depend on λ.
#
# A translation changes b\* only through its component along w\*: moving the data parallel to
# the plane leaves b\* alone (it changes only R). So we move the data a distance c along
# the unit normal ±w\*, choosing the sign that carries the plane away from the origin:
# |b\*| then grows by exactly c, R grows too, and with them the generating plane's bound
# (R²+1)(1+b\*²)/γ².

# %% [markdown]
# `shift_plane_to_origin` moves every point by $b^* w^* / \|w^*\|^2$, which carries the plane
# $w^{*\top} x + b^* = 0$ through the origin (rescaling $w^*$ first when its squared norm would
# leave the floats):

# %%
gp.show_source(gp.theory.shift_plane_to_origin)

# %% mystnb={"figure": {"caption": "Updates and the optimal-margin bound with a bias. Left: against the scale lambda of the data. Right: against the distance c the data moved along the normal."}}
fake = gp.sample_separable(200, 2, 0.1)
Xh = gp.theory.shift_plane_to_origin(fake.X, fake.wfake, fake.bfake)
scaled_runs = [gp.experiments.transformed_run(Xh, fake.Y, fake.wfake, np.zeros(1), scale=s)
               for s in (0.01, 1.0, 100.0)]
for name, r in zip(("small", "unit", "large"), scaled_runs):
    prose[f"homogeneous_{name}"] = r.homogeneous_updates
scales = np.logspace(-1.5, 1.5, 9)
runs = [gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, scale=float(s))
        for s in scales]
w_unit = fake.wfake.asnumpy() / np.linalg.norm(fake.wfake.asnumpy())
away = -np.sign(float(fake.bfake.asscalar())) * w_unit  # moving along it increases |b*|
shifts = [0.0, 1.0, 3.0, 10.0]
moved = [gp.experiments.transformed_run(fake.X, fake.Y, fake.wfake, fake.bfake, shift=c * away)
         for c in shifts]
gp.plots.plot_transformed_runs(scales, runs, shifts, moved)
plt.show()
for key, r in (("c0", moved[0]), ("c10", moved[-1])):
    prose[f"moved_b_{key}"] = abs(r.b)
    prose[f"moved_R_{key}"] = r.R
    prose[f"moved_bound_{key}"] = r.bias_bound

# %% [markdown]
# Without a bias, with the data moved through the origin, the counts for λ = 0.01, 1 and 100
# are {eval}`prose['homogeneous_small']`, {eval}`prose['homogeneous_unit']` and
# {eval}`prose['homogeneous_large']`: scaling changes nothing. With a bias, moving the data
# c = 10 along the normal takes |b\*| from {eval}`f"{prose['moved_b_c0']:.2f}"` to
# {eval}`f"{prose['moved_b_c10']:.2f}"`, R from {eval}`f"{prose['moved_R_c0']:.2f}"` to
# {eval}`f"{prose['moved_R_c10']:.2f}"`, and the generating plane's bound (R²+1)(1+b\*²)/γ² from
# {eval}`f"{prose['moved_bound_c0']:.0f}"` to {eval}`f"{prose['moved_bound_c10']:.0f}"`.

# %% [markdown]
# ## Summary
#
# * Novikoff's $R^2/\gamma^2$, the chapter's $2(R^2 + 1)/\epsilon^2$, the general bound (1.4)
#   and the optimal-margin bound stand beside real counts, and no count passes its bound.
# * The proof's two halves can be watched along a run.
# * Padding a constant 1 is a bias: the padded run without bias is the run with bias, bit for
#   bit.
# * A start $\theta_0 \ne 0$ or a threshold $\delta > 0$ needs the general bound; scaling and
#   moving the data change the run with a bias.

# %% [markdown]
# ## Exercises
#
# Two exercises on padding and on moving the data. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-06-padded
# Write `padded_run(X, Y, max_epochs)`: append a constant 1 to every example, run the
# perceptron **without** a bias on the padded examples (passes in data order from zero, until a
# pass without an update or `max_epochs` passes), and return the first $d$ weights as `w` and
# the last as `b`. `gp.exercises.check_padded_run(padded_run)` compares it with `gp.train` on
# data with exact ties, duplicate points and XOR: the padded run *is* the bias run.
# :::

# %% [markdown]
# :::{solution-start} ex-06-padded
# :class: dropdown
# :::
# With $\theta = (w, b)$ and $a = (x, 1)$, $\theta^\top a = w^\top x + b$, and the update
# $\theta \mathrel{+}= y a$ is $w \mathrel{+}= y x$, $b \mathrel{+}= y$: the same test, the
# same updates, in the same order.

# %% jupyter={"source_hidden": true}
def padded_run(X, Y, max_epochs):
    A = np.column_stack([X, np.ones(len(X))])
    theta = np.zeros(A.shape[1])
    for _ in range(max_epochs):
        updates = 0
        for a, y in zip(A, Y):
            if y * (theta @ a) <= 0:
                theta += y * a
                updates += 1
        if updates == 0:
            break
    return theta[:-1], theta[-1]


gp.exercises.check_padded_run(padded_run)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-06-normalize
# (Notes, Exercise 1.29.) Separable data are scaled, $x_i \to \lambda x_i$ with $\lambda > 0$,
# or translated, $x_i \to x_i + \bar x$. Are they still separable? For the perceptron
# *without* bias from zero, does scaling change the mistakes? With a bias? How do $R$ and the
# margin, hence the bound, change?
# :::

# %% [markdown]
# :::{solution} ex-06-normalize
# :class: dropdown
# Both stay separable: $(w, b)$ becomes $(w, \lambda b)$ under scaling and
# $(w, b - w^\top \bar x)$ under translation. Without bias, scaling multiplies every margin of
# every iterate by $\lambda$ (the iterates are $\lambda$ times the original ones, as in
# exercise 2 of notebook 02): the same mistakes, and $R^2/\gamma^2$ is unchanged. With a bias
# the padded examples are $(\lambda x_i, 1)$: the constant no longer scales with the data, so
# the run and the bound $2(R^2 + 1)/\epsilon^2$ change (shrinking the data makes the bias
# relatively large). A translation changes $R$, and with it the bound and the run, although
# the margin between the classes is the same: starting from $w_0 = 0, b_0 = -w^\top \bar x$
# would undo it, but the perceptron does not know $w$. `gp.experiments.transformed_run`
# measures both.
# :::
