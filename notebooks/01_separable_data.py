# %% [markdown]
# # 1. A separable classification problem
#
# The perceptron looks for a linear score $f(x) = w^\top x + b$ whose sign agrees with every
# label $y \in \{-1, +1\}$. Not every problem has one, so the chapter manufactures a problem
# that certainly does: pick a random hyperplane first, then label points by the side they fall on.
#
# This notebook walks through that generator, `getfake`, as `gluon_perceptron` ships it.

# %%
import mxnet as mx
import numpy as np

import gluon_perceptron as gp

mx.random.seed(0)

# %% [markdown]
# ## How `getfake` builds the data
#
# * a direction $w^*$ drawn from a standard normal and rescaled to length one, and an offset
#   $b^* \sim N(0, 1)$;
# * candidate points $x \sim N(0, I_d)$, one at a time;
# * a candidate survives only if it lies inside the ball $\|x\| < 3$ **and** its score is far
#   from zero, $|w^{*\top} x + b^*| > \epsilon$;
# * its label is the sign of that score.
#
# Every kept point therefore satisfies $y\,(w^{*\top} x + b^*) > \epsilon$: the plane
# $(w^*, b^*)$ separates the data with margin $\epsilon$ (in score units; since $\|w^*\| = 1$ it
# is also the geometric distance to the plane).

# %%
X, Y = gp.getfake(50, 2, 0.3)
print(X.shape, Y.shape, "labels:", sorted(set(Y.asnumpy().tolist())))
ax = gp.plotdata(X, Y)
ax.set_title("getfake(50, 2, 0.3): red is +1, blue is -1")

# %% [markdown]
# `getfake` keeps the chapter's signature and returns only `(X, Y)`. To check the margin we
# need the plane too: `sample_separable` runs the same sampler and also returns `wfake`,
# `bfake` and how many candidates it drew.

# %%
mx.random.seed(0)
fake = gp.sample_separable(50, 2, 0.3, engine="faithful")
print("same data as getfake under the same seed:",
      np.array_equal(fake.X.asnumpy(), X.asnumpy()))
margins = gp.generating_margins(fake.X, fake.Y, fake.wfake, fake.bfake)
print(f"smallest margin {margins.min():.3f} > epsilon = 0.3;",
      f"largest norm {np.linalg.norm(fake.X.asnumpy(), axis=1).max():.2f} < 3;",
      f"{fake.attempts} candidates drawn for 50 points")

# %% [markdown]
# The plane that made the data, drawn with `plotscore`: its zero contour (bold) separates the
# colours, and no point sits in the band $|f| \le 0.3$ around it.

# %%
ax = gp.plotscore(fake.wfake, fake.bfake)
gp.plotdata(fake.X, fake.Y, ax=ax)
ax.set_title("the generating plane's score f(x) = w*.x + b*")

# %% [markdown]
# ## The chapter's sampler and a faster one
#
# The chapter's loop asks MXNet for one candidate at a time: fine for 50 points, slow for the
# convergence experiment's 170 datasets of 1000 points. `sample_separable(...,
# engine="batched")` draws candidates in blocks from the same generator and applies the same two
# tests, so the points follow the same distribution. It is a *different random stream*, though:
# under one seed the two engines give the same plane but different points.

# %%
mx.random.seed(1)
slow = gp.sample_separable(2000, 2, 0.2, engine="faithful")
mx.random.seed(1)
fast = gp.sample_separable(2000, 2, 0.2, engine="batched")
print("same plane:", np.array_equal(slow.wfake.asnumpy(), fast.wfake.asnumpy()))
for name, f in [("faithful", slow), ("batched", fast)]:
    m = gp.generating_margins(f.X, f.Y, f.wfake, f.bfake)
    print(f"{name:9s} margin quartiles {np.quantile(m, [0.25, 0.5, 0.75]).round(2)}, "
          f"share of +1 labels {np.mean(f.Y.asnumpy() == 1):.2f}")

# %% [markdown]
# ## When the request cannot be met
#
# Rejection sampling can spin forever if almost nothing passes the tests: an `epsilon` larger
# than any score inside the ball, or so many dimensions that hardly any Gaussian point has norm
# below 3. The package refuses impossible margins at once and caps the number of candidates
# (`max_attempts`), reporting the acceptance rate it saw.

# %%
for args in [(10, 2, 50.0), (10, 40, 0.1)]:
    try:
        gp.sample_separable(*args, max_attempts=5000)
    except ValueError as err:
        print(f"sample_separable{args}: {type(err).__name__}: {err}\n")
