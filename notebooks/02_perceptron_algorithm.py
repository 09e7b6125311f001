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
#   enumerator: "2.%s"
# ---
# # 2. The perceptron algorithm
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# This notebook follows the chapter
# [**"The Perceptron"**](https://github.com/zackchase/mxnet-the-straight-dope/blob/master/chapter02_supervised-learning/perceptron.ipynb)
# of *Deep Learning - The Straight Dope* {cite:p}`straightdope` (MXNet), the part of
# **"A Separable Classification Problem"** that defines `perceptron` and runs it once over
# `getfake(50, 2, 0.3)`, printing every update. The data come from
# [notebook 01](01_separable_data.ipynb).
#
# Rosenblatt's rule {cite:p}`rosenblatt1958` is the simplest learner there is. Start from $w = 0$, $b = 0$ and look at
# the examples one by one. When an example is on the wrong side, or exactly on the boundary,
# that is when $y\,(w^\top x + b) \le 0$, nudge the parameters towards it:
#
# $$w \leftarrow w + y\,x, \qquad b \leftarrow b + y.$$
#
# Otherwise leave them alone. Only mistakes cost anything, which is also why the final weights
# are simply a signed sum of the examples it got wrong.

# %%
import gluon_perceptron as gp  # first: MXNet then loads without scikit-learn

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import pandas as pd
from mxnet import nd

mx.random.seed(1)  # the original notebook's seed

# %% [markdown]
# ## The chapter's step, as the package runs it
#
# {py:func}`gp.perceptron(w, b, x, y) <gluon_perceptron.core.chapter.perceptron_step.perceptron>` is the
# chapter's step, shown from the package's source: the decorator above it declares the checks
# of its arguments, then its body does the chapter's `nd.dot(w, x)`, the test `<= 0` and the
# in-place updates. Where ours differs from the chapter: the input checks (NDArrays, shapes, a
# label of -1 or +1), the optional `learning_rate` $\eta$ and `threshold` $\delta$ (the chapter's
# are 1 and 0), a refusal when the margin is NaN or inf, and the `return 0` of the chapter's
# lost `else:` (in the extracted text it sits, unreachable, under `return 1`).

# %%
gp.show_source(gp.perceptron)

# %% [markdown]
# It changes `w` and `b` **in place** (they must be NDArrays) and returns 1 when it updated,
# 0 otherwise. Note the `<=`: at the very start $w = 0, b = 0$, every score is 0, and the tie
# counts as a mistake. Without that the algorithm would never leave zero.

# %%
w, b = nd.zeros(shape=(2,)), nd.zeros(shape=(1,))
rows = {}
for name, x, y in [("tie at zero", [1.0, 2.0], 1), ("correct point", [2.0, 1.0], 1),
                   ("mistake", [1.0, 1.0], -1)]:
    updated = gp.perceptron(w, b, nd.array(x), y)
    rows[name] = {"x": x, "y": y, "returns": updated, "w after": w.asnumpy().tolist(),
                  "b after": b.asscalar()}
pd.DataFrame.from_dict(rows, orient="index")

# %% [markdown]
# ## The chapter's run
#
# Fifty points with margin 0.3 and a single pass in data order.
# {py:func}`gp.demo <gluon_perceptron.experiments.chapter.demo>` runs the chapter's
# loop and returns every update; `run.trace` is the text the chapter's loop prints. With
# `mx.random.seed(1)` this is exactly what the original notebook prints today on MXNet 1.9.1.

# %%
mx.random.seed(1)
X, Y = gp.getfake(50, 2, 0.3)
run = gp.demo(X, Y)
print(run.trace)

# %% [markdown]
# The pass makes {eval}`len(run.updates)` updates, the first on the first point,
# ({eval}`f"{float(run.updates[0].x[0]):.7f}"`, {eval}`f"{float(run.updates[0].x[1]):.8f}"`), label
# {eval}`f"{int(run.updates[0].y):+d}"`.

# %% [markdown]
# ## The chapter's printed trace (2017)
#
# The chapter's own printout shows four updates on other points: it was made in 2017 with an
# older MXNet, whose `nd.random_normal` drew a different stream for the same seed, so
# `mx.random.seed(1)` no longer draws those points with the chapter's NDArray code (MXNet's
# NumPy interface still does: see [the appendix](#appendix-numpy)). The trace can still be checked: it lists
# each point that caused an update and the parameters after it, and since the perceptron only
# changes $(w, b)$ on an update, feeding those four points to `perceptron` from zero must give
# the printed weights.

# %%
replay = gp.experiments.replay_printed_trace()
assert replay.updated.all() and replay.reproduces
pair = "({:.4f}, {:.4f})".format
pd.DataFrame({"data": [pair(*x) for x in replay.x], "label": replay.y.astype(int),
              "printed w": [pair(*w) for w in replay.printed_w],
              "replayed w": [pair(*w) for w in replay.replayed_w],
              "printed b": replay.printed_b.astype(int),
              "replayed b": replay.replayed_b.astype(int)},
             index=pd.RangeIndex(1, len(replay.y) + 1, name="update"))

# %% [markdown]
# Each of the {eval}`len(replay.y)` printed points causes an update when replayed, and
# every printed weight is reproduced (the `assert` checks both), up to
# {eval}`f"{replay.max_difference:.1e}"`: the float32 rounding of the print. The table shows them
# to four decimals.

# %% [markdown]
# ## Each update, drawn
#
# One panel per update of the pass, in order: the score of the weights *after* the update
# (bold: its zero contour, the decision boundary), the data (red $+1$, blue $-1$) and the point
# that caused the update, ringed in green.

# %% mystnb={"figure": {"caption": "The chapter's pass, one panel per update: the score after it (bold: the boundary) and the point that caused it, ringed in green."}}
updates = run.updates
cols = min(3, len(updates))
rows = -(-len(updates) // cols)
fig, axes = plt.subplots(rows, cols, figsize=(2.5 * cols, 3.2 * rows), squeeze=False)
for k, (ax, u) in enumerate(zip(axes.flat, updates), start=1):
    gp.plots.plot_update(X, Y, u, ax=ax)
    ax.set_title(f"update {k}, on example {u.index}\n"
                 f"w = [{u.w[0]:.2f}, {u.w[1]:.2f}], b = {u.b:g}", fontsize=12)
for ax in axes.flat[len(updates):]:
    fig.delaxes(ax)  # no empty panels
fig.tight_layout()

# %% [markdown]
# The first update happens on the first example, on every draw: from $w = 0, b = 0$ its score
# is the tie 0. Each update drags the
# bold zero contour towards the offending point (ringed in green). After the single pass the
# weights are the signed sum of the updated examples, as the rule says:

# %%
signed_sum = sum(u.y * u.x for u in updates)
np.testing.assert_allclose(signed_sum, run.w.asnumpy(), rtol=1e-6)

# %% [markdown]
# Both are ({eval}`f"{float(run.w[0].asscalar()):.4f}"`, {eval}`f"{float(run.w[1].asscalar()):.4f}"`) (the cell checks that they
# agree), and the training error after this one pass is {eval}`f"{gp.error_rate(run.w.asnumpy(), run.b.asscalar(), X, Y):.0%}"`.

# %% [markdown]
# ## One pass over many draws
#
# How typical is this draw? `demo_statistics` repeats the chapter's run (`getfake(50, 2, 0.3)`
# and one pass from zero) under 50 seeds.
# ({py:func}`~gluon_perceptron.experiments.chapter.demo_statistics`)

# %%
stats = gp.experiments.demo_statistics(range(50))
u = stats.updates

# %% [markdown]
# Over the {eval}`stats.seeds.size` draws, one pass makes between {eval}`int(u.min())` and
# {eval}`int(u.max())` updates, {eval}`f"{u.mean():.1f}"` on average, and its first update
# is on the first example in {eval}`int(np.sum(stats.first_update == 0))` of them (on every draw, by the tie at
# zero). One pass separates the data on {eval}`int(stats.separated)` draws; on the other
# {eval}`int(stats.seeds.size - stats.separated)` it does not, and the mean training error after the pass is
# {eval}`f"{stats.training_error.mean():.1%}"`. So one pass need not separate the data.
#
# ## Until it separates: `train`
#
# {py:func}`gp.train <gluon_perceptron.core.rosenblatt.training.train>` repeats passes until one
# makes no update (`converged=True`) or a bound on passes
# is reached; the bound is required, since on data that cannot be separated the rule never
# stops on its own. Two engines make exactly the same updates: `engine="faithful"` calls the
# chapter's NDArray step per example, while the default `engine="fast"` runs the same loop
# compiled (or in numpy blocks).

# %%
gp.show_source(gp.train)

# %% [markdown]
# Under `engine="faithful"` the loop is the chapter's step on each example in turn: the margin
# $y(w^\top x + b)$ and, on a mistake or a tie, $w \leftarrow w + \eta y x$,
# $b \leftarrow b + \eta y$. The outer loop is the budget of passes, and a pass without an
# update ends it; the two guard lines only refuse margins or weights that overflowed. With the
# default `engine="fast"` the first line hands the same arguments to the compiled twin.

# %%
slow = gp.train(X, Y, max_epochs=100, engine="faithful")
fast = gp.train(X, Y, max_epochs=100)
assert slow.updates_per_epoch == fast.updates_per_epoch  # the same updates,
assert np.array_equal(slow.w, fast.w) and slow.b == fast.b  # the same weights
train_updates = ", ".join(map(str, fast.updates_per_epoch))

# %% [markdown]
# Both engines make the same updates and end with the same weights (the `assert`s check it).
# The updates per pass are {eval}`train_updates`: pass {eval}`fast.epochs` makes
# none, so `converged` is {eval}`str(fast.converged)`.

# %% [markdown]
# The figure's title reports the training error: the share of points with
# $y(w^\top x + b) \le 0$, ties counted as errors. `predict` is the sign of the same score:

# %%
gp.show_source(gp.error_rate, gp.predict)

# %% mystnb={"figure": {"caption": "The weights train ends with and the data: the bold zero contour is the learned boundary."}}
ax = gp.plotscore(fast.w, fast.b)
gp.plotdata(X, Y, ax=ax)
_ = ax.set_title(f"after {fast.epochs} passes: training error "
                 f"{gp.error_rate(fast.w, fast.b, X, Y):.0%}")

# %% [markdown]
# On XOR, four points no line can separate, the same call stops at its bound and says so:

# %%
gp.show_source(gp.xor_data)

# %%
Xx, Yx = gp.xor_data()
r = gp.train(Xx, Yx, max_epochs=20)
lo, hi = min(r.updates_per_epoch), max(r.updates_per_epoch)
xor_updates = f"{lo}" if lo == hi else f"{lo} to {hi}"

# %% [markdown]
# `converged` is {eval}`str(r.converged)` after {eval}`r.epochs` passes, with
# {eval}`xor_updates` updates in each pass: the rule keeps cycling.

# %% [markdown]
# (appendix-numpy)=
# ## Appendix: the chapter in today's MXNet
#
# The chapter was written for MXNet's `nd` (NDArray) interface. MXNet today is written, as in
# [*Dive into Deep Learning*](https://d2l.ai), with its NumPy interface:
# `from mxnet import np, npx` and `npx.set_np()`. The package has the chapter's two functions
# in it too, {py:func}`~gluon_perceptron.core.chapter.numpy_interface.getfake_np` and
# {py:func}`~gluon_perceptron.core.chapter.numpy_interface.perceptron_np`:

# %%
gp.show_source(gp.chapter.getfake_np, "draw_plane_np", "sample_np")

# %% [markdown]
# Line for line the chapter's `getfake`: `np.random.normal(size=...)` for
# `nd.random_normal(shape=...)`, `np.linalg.norm` for `nd.norm`, `.item()` for `.asscalar()`.
# The step:

# %%
gp.show_source(gp.chapter.perceptron_np)

# %% [markdown]
# * `@use_np` (from `mxnet.util`) turns the NumPy semantics on for the call only, and restores
#   the caller's mode on return. `npx.set_np()` switches them on for the whole thread, and
#   NDArray code after it can change behaviour (a reduction then has shape `()`, not `(1,)`),
#   so the package does not call it: these functions work whether or not you did;
# * `(np.dot(w, x) + b).item()` is the score as a Python float, and `w += ...`, `b += ...`
#   update the `mxnet.numpy` arrays in place, as in the NDArray step.
#
# Fed the same data, the two steps make the same updates and the same weights, to the last
# bit (`tests/experiments/test_chapter.py` checks it on data no notebook uses). Here on this notebook's
# data:

# %%
Xn, Yn = X.as_np_ndarray(), Y.as_np_ndarray()
w_nd, b_nd = nd.zeros(2), nd.zeros(1)
w_np, b_np = mx.np.zeros(2), mx.np.zeros(1)
steps = [(gp.perceptron(w_nd, b_nd, X[i], Y[i]),
          gp.chapter.perceptron_np(w_np, b_np, Xn[i], Yn[i])) for i in range(len(Y))]
assert all(a == b for a, b in steps)  # the same update at every step
assert np.array_equal(w_nd.asnumpy(), w_np.asnumpy())  # the same weights, to the bit
assert np.array_equal(b_nd.asnumpy(), b_np.asnumpy())

# %% [markdown]
# Over the {eval}`len(steps)` steps both make the same {eval}`sum(a for a, _ in steps)` updates and
# end with bit-identical weights.

# %% [markdown]
# The sampler is another matter. Both samplers draw from MXNet's one generator, but MXNet's
# NumPy `normal` uses both numbers of each pair its Gaussian sampler makes, where
# `nd.random_normal` (in MXNet 1.9) uses one. The NumPy stream turns out to be the one the
# chapter's 2017 MXNet drew: after `mx.random.seed(1)`, `getfake_np(50, 2, 0.3)` and one pass
# of `perceptron_np` make the four updates the chapter printed, which the NDArray code no
# longer does.

# %%
mx.random.seed(1)
Xp, Yp = gp.chapter.getfake_np(50, 2, 0.3)
w_np, b_np = mx.np.zeros(2), mx.np.zeros(1)
for x, y in zip(Xp, Yp):
    if gp.chapter.perceptron_np(w_np, b_np, x, y):
        print("data", x.asnumpy(), "label", y.item(),
              "-> w", w_np.asnumpy(), "b", b_np.item())
print("the chapter printed, after its last update: w", gp.chapter.PRINTED_TRACE[-1][2],
      "b", gp.chapter.PRINTED_TRACE[-1][3])

# %% [markdown]
# ## Summary
#
# * Rosenblatt's step: when $y\,(w^\top x + b) \le 0$, add $y x$ to $w$ and $y$ to $b$. The tie
#   counts as a mistake; without it the run never leaves $w = 0, b = 0$.
# * The final weights are the signed sum of the examples the run erred on.
# * The chapter's 2017 trace still checks: its printed points, replayed, give its printed
#   weights; MXNet's NumPy interface draws the 2017 stream again.
# * One pass need not separate the data. `gp.train` repeats passes until one makes no update,
#   or stops at its bound and says so (`converged=False`, as on XOR).

# %% [markdown]
# ## Exercises
#
# Three exercises on Rosenblatt's rule. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-02-step
# Write the chapter's step yourself: `my_step(w, b, x, y)` takes NDArrays `w` (shape `(d,)`),
# `b` (shape `(1,)`), `x` (shape `(d,)`) and a label `y` of $\pm 1$; when
# $y\,(w^\top x + b) \le 0$ it adds $y x$ to `w` and $y$ to `b` **in place** and returns 1,
# otherwise it returns 0. Check it with `gp.exercises.check_step(my_step)`. What does the
# checker say about a step that tests `< 0` instead of `<= 0`?
# :::

# %% [markdown]
# :::{solution-start} ex-02-step
# :class: dropdown
# :::
# `w += ...` changes the NDArray in place (`w = w + ...` would only rebind the name). A step
# with `< 0` never leaves $w = 0, b = 0$, where every margin is a tie: the checker fails it on
# its first case, "a tie", where `gp.perceptron` updates and it does not.

# %% jupyter={"source_hidden": true}
def my_step(w, b, x, y):
    if y * (nd.dot(w, x) + b).asscalar() <= 0:
        w += y * x
        b += y
        return 1
    return 0


gp.exercises.check_step(my_step)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-02-rate
# Run the perceptron from $w = 0, b = 0$ with a learning rate $\eta > 0$ instead of 1. Show that
# it makes exactly the same mistakes, and that its weights are $\eta$ times those of the run
# with $\eta = 1$. Why does this fail when the run starts from some other $(w_0, b_0)$?
# :::

# %% [markdown]
# :::{solution} ex-02-rate
# :class: dropdown
# By induction on the updates: if $(w_t, b_t) = \eta (w'_t, b'_t)$, the two runs' margins
# $y (w_t^\top x + b_t) = \eta\, y (w'^\top_t x + b'_t)$ have the same sign (and are 0
# together), so they update on the same examples, and the update $\eta (y x, y)$ keeps the
# factor. At the start $0 = \eta \cdot 0$. From $(w_0, b_0) \ne 0$, the start is *not* $\eta$
# times itself, so the relative size of the start and the steps changes with $\eta$ and the
# mistakes can differ.
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-02-signed-sum
# Show that after any run from zero, $w = \sum_i c_i y_i x_i$ and $b = \sum_i c_i y_i$, where
# $c_i$ is the number of updates made on example $i$. Which examples have $c_i > 0$ when the
# data are separable by a wide margin? (This is the dual form behind the kernel perceptron of
# notebook 13.)
# :::

# %% [markdown]
# :::{solution} ex-02-signed-sum
# :class: dropdown
# Each update adds $(y_i x_i, y_i)$ for the example $i$ it is made on, and nothing else ever
# changes $(w, b)$; summing the updates gives the formula. Only examples the run got wrong
# (or tied) at some point have $c_i > 0$; with a wide margin the run stops after few updates,
# so few examples, typically near the boundary or early in the order, carry all the weight.
# :::
