# %% [markdown]
# # 2. The perceptron algorithm
#
# This notebook follows the chapter **"The Perceptron"** of *Deep Learning - The Straight Dope*
# (MXNet), the part of **"A Separable Classification Problem"** that defines `perceptron` and
# runs it once over `getfake(50, 2, 0.3)`, printing every update.
#
# Rosenblatt's rule is the simplest learner there is. Start from $w = 0$, $b = 0$ and look at
# the examples one by one. When an example is on the wrong side, or exactly on the boundary,
# that is when $y\,(w^\top x + b) \le 0$, nudge the parameters towards it:
#
# $$w \leftarrow w + y\,x, \qquad b \leftarrow b + y.$$
#
# Otherwise leave them alone. Only mistakes cost anything, which is also why the final weights
# are simply a signed sum of the examples it got wrong.

# %%
import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
from mxnet import nd

import gluon_perceptron as gp

mx.random.seed(1)  # the original notebook's seed

# %% [markdown]
# ## The chapter's step, as the package runs it
#
# `gp.perceptron(w, b, x, y)` is the chapter's step, shown from the package's source: it checks
# its arguments, then `_ndarray_step` does the chapter's `nd.dot(w, x)`, the test `<= 0` and the
# in-place updates. Where ours differs from the chapter: the input checks (NDArrays, shapes, a
# label of -1 or +1), the optional `learning_rate` $\eta$ and `threshold` $\delta$ (the chapter's
# are 1 and 0), a refusal when the margin is NaN or inf, and the `return 0` of the chapter's
# lost `else:` (in the extracted text it sits, unreachable, under `return 1`).

# %%
gp.show_source(gp.perceptron, "_ndarray_step")

# %% [markdown]
# It changes `w` and `b` **in place** (they must be NDArrays) and returns 1 when it updated,
# 0 otherwise. Note the `<=`: at the very start $w = 0, b = 0$, every score is 0, and the tie
# counts as a mistake. Without that the algorithm would never leave zero.

# %%
w, b = nd.zeros(shape=(2,)), nd.zeros(shape=(1,))
print("tie at zero  ->", gp.perceptron(w, b, nd.array([1.0, 2.0]), 1), w.asnumpy(), b.asscalar())
print("correct point ->", gp.perceptron(w, b, nd.array([2.0, 1.0]), 1), w.asnumpy(), b.asscalar())
print("mistake      ->", gp.perceptron(w, b, nd.array([1.0, 1.0]), -1), w.asnumpy(), b.asscalar())

# %% [markdown]
# ## The chapter's run
#
# Fifty points with margin 0.3 and a single pass in data order. `gp.demo` runs the chapter's
# loop and returns every update; `run.trace` is the text the chapter's loop prints. With
# `mx.random.seed(1)` this is exactly what the original notebook prints today on MXNet 1.9.1:
# five updates, the first on `[-0.3469252 -0.22134334]`, label 1.

# %%
mx.random.seed(1)
X, Y = gp.getfake(50, 2, 0.3)
run = gp.demo(X, Y)
print(run.trace)

# %% [markdown]
# ## The chapter's printed trace (2017)
#
# The chapter's own printout shows four updates on other points: it was made in 2017 with an
# older MXNet, whose random number generator produced a different stream for the same seed, so
# `mx.random.seed(1)` no longer draws those points. The trace can still be checked: it lists
# each point that caused an update and the parameters after it, and since the perceptron only
# changes $(w, b)$ on an update, feeding those four points to `perceptron` from zero must give
# the printed weights.

# %%
replay = gp.experiments.replay_printed_trace()
for x, y, pw, pb, rw, rb in zip(replay.x, replay.y, replay.printed_w, replay.printed_b,
                                replay.replayed_w, replay.replayed_b):
    print(f"data {x}, label {y:+.0f}:  printed w {pw}, b {pb:+.0f}   replayed w {rw}, b {rb:+.0f}")
print("every point updated and every printed weight reproduced:", replay.reproduces,
      f"(largest difference {replay.max_difference:.1e}, float32 rounding of the print)")

# %% [markdown]
# ## Each update, drawn

# %%
updates = run.updates
cols = min(4, len(updates))
rows = -(-len(updates) // cols)
fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.2 * rows), squeeze=False)
for ax, update in zip(axes.flat, updates):
    gp.plots.plot_update(X, Y, update, ax=ax)
    ax.title.set_fontsize(7)
for ax in axes.flat[len(updates):]:
    ax.axis("off")
fig.tight_layout()

# %% [markdown]
# The first update always happens on the first example (the tie at zero). Each update drags the
# bold zero contour towards the offending point (ringed in green). After the single pass the
# weights are the signed sum of the updated examples, as the rule says:

# %%
signed_sum = sum(u.y * u.x for u in updates)
print("w from the run:      ", run.w.asnumpy())
print("sum of y*x, mistakes:", signed_sum)
print("training error after one pass:", gp.error_rate(run.w.asnumpy(), run.b.asscalar(), X, Y))

# %% [markdown]
# ## One pass over many draws
#
# How typical is this draw? `demo_statistics` repeats the chapter's run (`getfake(50, 2, 0.3)`
# and one pass from zero) under 50 seeds.

# %%
stats = gp.experiments.demo_statistics(range(50))
print(f"updates in one pass: mean {stats.updates.mean():.1f}, std {stats.updates.std():.1f}, "
      f"range {stats.updates.min()} to {stats.updates.max()}")
print(f"first update on the first example in {np.sum(stats.first_update == 0)} of "
      f"{stats.seeds.size} draws")
print(f"one pass separates the data in {stats.separated} of {stats.seeds.size} draws; "
      f"mean training error after it {stats.training_error.mean():.3f}")

# %% [markdown]
# So one pass need not separate the data: it fails to in a sizeable share of the draws.
#
# ## Until it separates: `train`
#
# `gp.train` repeats passes until one makes no update (`converged=True`) or a bound on passes
# is reached; the bound is required, since on data that cannot be separated the rule never
# stops on its own. Two engines make exactly the same updates: `engine="faithful"` calls the
# chapter's NDArray step per example, while the default `engine="fast"` runs the same loop
# compiled (or in numpy blocks).

# %%
slow = gp.train(X, Y, max_epochs=100, engine="faithful")
fast = gp.train(X, Y, max_epochs=100)
print("updates per pass:", fast.updates_per_epoch, "converged:", fast.converged)
print("identical runs:", slow.updates_per_epoch == fast.updates_per_epoch
      and np.array_equal(slow.w, fast.w) and slow.b == fast.b)
ax = gp.plotscore(fast.w, fast.b)
gp.plotdata(X, Y, ax=ax)
ax.set_title(f"after {fast.epochs} passes: training error "
             f"{gp.error_rate(fast.w, fast.b, X, Y):.0%}")

# %% [markdown]
# On XOR, four points no line can separate, the same call stops at its bound and says so:

# %%
Xx, Yx = gp.xor_data()
r = gp.train(Xx, Yx, max_epochs=20)
print("converged:", r.converged, "| updates per pass:", r.updates_per_epoch[:8], "...")


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


# %%
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
