# %% [markdown]
# # 2. The perceptron algorithm
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

mx.random.seed(0)

# %% [markdown]
# ## One step
#
# `gp.perceptron(w, b, x, y)` is the chapter's step. It changes `w` and `b` **in place** (they
# must be NDArrays) and returns 1 when it updated, 0 otherwise. Note the `<=`: at the very
# start $w = 0, b = 0$, every score is 0, and the tie counts as a mistake. Without that the
# algorithm would never leave zero.

# %%
w, b = nd.zeros(shape=(2,)), nd.zeros(shape=(1,))
print("tie at zero  ->", gp.perceptron(w, b, nd.array([1.0, 2.0]), 1), w.asnumpy(), b.asscalar())
print("correct point ->", gp.perceptron(w, b, nd.array([2.0, 1.0]), 1), w.asnumpy(), b.asscalar())
print("mistake      ->", gp.perceptron(w, b, nd.array([1.0, 1.0]), -1), w.asnumpy(), b.asscalar())

# %% [markdown]
# ## The chapter's run
#
# Fifty points with margin 0.3 and a single pass in data order, printing every update in the
# chapter's format. `gp.demo` does the loop and also returns each update, so we can draw the
# score after every one of them. (Your numbers differ from the chapter's printout: its random
# seed is unknown.)

# %%
X, Y = gp.getfake(50, 2, 0.3)
w, b, updates = gp.demo(X, Y)

# %%
cols = min(4, len(updates))
rows = -(-len(updates) // cols)
fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.2 * rows), squeeze=False)
for ax, update in zip(axes.flat, updates):
    gp.plot_update(X, Y, update, ax=ax)
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
print("w from the run:      ", w.asnumpy())
print("sum of y*x, mistakes:", signed_sum)
print("training error after one pass:", gp.error_rate(w.asnumpy(), b.asscalar(), X, Y))

# %% [markdown]
# ## Until it separates: `train`
#
# One pass need not separate the data. `gp.train` repeats passes until one makes no update
# (`converged=True`) or a bound on passes is reached; the bound is required, since on data that
# cannot be separated the rule never stops on its own. Two engines make exactly the same
# updates: `engine="faithful"` calls the chapter's NDArray step per example, while the default
# `engine="fast"` computes the scores of the next block of examples at once with the current
# weights and jumps to the first mistake.

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
