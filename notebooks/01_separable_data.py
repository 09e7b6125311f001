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
#   enumerator: "1.%s"
# ---
# # 1. A separable classification problem
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# This notebook follows the chapter
# [**"The Perceptron"**](https://github.com/zackchase/mxnet-the-straight-dope/blob/master/chapter02_supervised-learning/perceptron.ipynb)
# of *Deep Learning - The Straight Dope* {cite:p}`straightdope` (MXNet), its first section, **"A Separable Classification Problem"**: the data generator
# `getfake` and the two plotting helpers `plotdata` and `plotscore`.
#
# The perceptron looks for a linear score $f(x) = w^\top x + b$ whose sign agrees with every
# label $y \in \{-1, +1\}$. Not every problem has one, so the chapter manufactures a problem
# that certainly does: pick a random hyperplane first, then label points by the side they fall on.

# %%
import gluon_perceptron as gp  # first: MXNet then loads without scikit-learn

import textwrap

import mxnet as mx
import numpy as np
import pandas as pd

mx.random.seed(1)  # the original notebook's seed

# %% [markdown]
# ## The chapter's `getfake`, as the package runs it
#
# Below is the package's code, shown from its source (not a copy).
# {py:func}`gp.getfake <gluon_perceptron.core.chapter.sampler.getfake>` declares the checks of
# its arguments in the decorator above it, then runs the chapter's lines: `draw_plane` draws the random unit `wfake` and
# `bfake`, and `sample_faithful` is the chapter's `while` loop, with `nd.dot(tmp, wfake)`.
# Where ours differs from the chapter: the arguments are checked first (`samples`,
# `dimensions`, `epsilon`, and at most $2^{31} - 1$ elements, MXNet's limit), an `epsilon` no
# point can reach is refused at once, the loop gives up after `max_attempts` candidates instead
# of looping forever, and `shape=(dimensions,)` is written as a tuple. The random draws are the
# chapter's, in the chapter's order. (The same sampler in MXNet's NumPy interface is in
# [notebook 02's appendix](02_perceptron_algorithm.ipynb#appendix-numpy).)

# %%
gp.show_source(gp.getfake, "draw_plane", "sample_faithful")

# %% [markdown]
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

# %% [markdown]
# `X` holds {eval}`X.shape[0]` points in the plane, one per row, and `Y` their labels,
# {eval}`int((Y == 1).sum().asscalar())` of them $+1$. With `mx.random.seed(1)` this is the original notebook's
# data on MXNet 1.9: its first point is ({eval}`f"{float(X[0, 0].asscalar()):.7f}"`,
# {eval}`f"{float(X[0, 1].asscalar()):.8f}"`) with label {eval}`f"{int(Y[0].asscalar()):+d}"`.

# %% [markdown]
# ## `plotdata`
#
# The chapter scatters the points one at a time, red for $y = +1$ and blue otherwise (the
# `else:` of its `if` was lost when the chapter was extracted; its output shows both colours).
# Ours checks the input and draws one scatter per colour, on an axes it returns.

# %%
gp.show_source(gp.plotdata)

# %% mystnb={"figure": {"caption": "The chapter's fifty getfake points: red points have label +1, blue points -1."}}
ax = gp.plotdata(X, Y)
_ = ax.set_title("getfake(50, 2, 0.3) after mx.random.seed(1)")

# %% [markdown]
# `getfake` keeps the chapter's signature and returns only `(X, Y)`. To check the margin we
# need the plane too:
# {py:func}`~gluon_perceptron.core.data.synthetic.sample_separable` with `engine="faithful"`
# runs the same sampler and also
# returns `wfake`, `bfake` and how many candidates it drew.

# %%
gp.show_source(gp.sample_separable, gp.generating_margins)

# %% [markdown]
# `sample_separable` draws the plane with `draw_plane`, as `getfake` does, then hands it to
# `sample_faithful`, the chapter's loop shown above, or to a sampler that draws the candidates in
# blocks; `generating_margins` is $y_i (w^{*\top} x_i + b^*)$ for every point, in float64:

# %%
mx.random.seed(1)
fake = gp.sample_separable(50, 2, 0.3, engine="faithful")
assert np.array_equal(fake.X.asnumpy(), X.asnumpy())  # the same data as getfake's
margins = gp.generating_margins(fake.X, fake.Y, fake.wfake, fake.bfake)

# %% [markdown]
# Under the same seed it draws the same points as `getfake` (the `assert` checks it). Their
# smallest margin is {eval}`f"{float(margins.min()):.3f}"`, above $\epsilon = 0.3$, their largest norm
# {eval}`f"{float(np.linalg.norm(fake.X.asnumpy(), axis=1).max()):.2f}"`, below 3, and the sampler drew {eval}`int(fake.attempts)` candidates to
# keep 50 points.

# %% [markdown]
# ## `plotscore`
#
# The chapter scores a $300 \times 300$ grid on $[-3, 3]^2$ in one call, `nd.dot(zz, w) + d`,
# and draws labelled contours. Ours is the same computation; it also checks `w` and the grid
# size and draws the zero contour (the decision boundary) in bold.

# %%
gp.show_source(gp.plotscore)

# %% [markdown]
# The plane that made the data: its zero contour separates the colours, and no point sits in
# the band $|f| \le 0.3$ around it (that holds for every draw, by construction).

# %% mystnb={"figure": {"caption": "The generating plane's score with the data: its bold zero contour separates the colours, and no point lies within 0.3 of it."}}
ax = gp.plotscore(fake.wfake, fake.bfake)
gp.plotdata(fake.X, fake.Y, ax=ax)
_ = ax.set_title("the generating plane's score f(x) = w*.x + b*")

# %% [markdown]
# ## The chapter's sampler and a faster one
#
# The chapter's loop asks MXNet for one candidate at a time: fine for 50 points, slow for the
# convergence experiment's 170 datasets of 1000 points. `sample_separable(...,
# engine="fast")` draws candidates in blocks from the same generator and applies the same two
# tests, so the points follow the same distribution. It is a *different random stream*, though:
# under one seed the two engines give the same plane but different points.
#
# One draw cannot show "the same distribution", so
# {py:func}`~gluon_perceptron.experiments.chapter.compare_samplers` draws both under 10 seeds
# and compares the quartiles of the margins $y (w^{*\top} x + b^*)$ and the share of +1 labels,
# averaged over the seeds (with their spread over seeds).

# %%
cmp = gp.experiments.compare_samplers(range(10), samples=500)
spread = min(cmp.quartiles[e].std(axis=0).min() for e in ("faithful", "fast"))
gap_below_spread = "less" if cmp.largest_quartile_gap < spread else "more"
pd.DataFrame(
    {engine: [f"{m:.2f} ± {s:.2f}" for m, s in zip(q.mean(axis=0), q.std(axis=0))]
     + [f"{cmp.positive_share[engine].mean():.2f} ± {cmp.positive_share[engine].std():.2f}"]
     for engine, q in cmp.quartiles.items()},
    index=["margin, 1st quartile", "margin, median", "margin, 3rd quartile", "share of +1"])

# %% [markdown]
# The table gives each value's mean over the seeds ± its spread (standard deviation) from seed
# to seed. The two engines drew the same plane under {eval}`int(cmp.same_plane.sum())` of the
# {eval}`cmp.seeds.size` seeds and the same points under {eval}`int(cmp.same_points.sum())`. Their mean
# quartiles differ by at most {eval}`f"{cmp.largest_quartile_gap:.3f}"`, {eval}`gap_below_spread` than
# the smallest spread from seed to seed, {eval}`f"{float(spread):.3f}"`, on these 10 seeds. Over
# 40 such comparisons of 10 seeds each, on seeds no notebook prints, the gap is below the
# spread on nearly every comparison (at least 34 of 40): `tests/experiments/test_claims.py` checks it, and
# `bash run.sh claims` measures it again on fresh seeds.
#
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
        message = f"sample_separable{args}: {type(err).__name__}: {err}"
        print(textwrap.fill(message, 88, subsequent_indent="    "), end="\n\n")

# %% [markdown]
# ## Summary
#
# * `getfake` picks a random plane $(w^*, b^*)$ first and keeps only points inside the ball
#   $\|x\| < 3$ whose score is farther than $\epsilon$ from zero, labelled by their side: the
#   data are separable with margin $\epsilon$ by construction.
# * `plotdata` scatters the two classes and `plotscore` draws the score over a grid, its zero
#   contour bold; `sample_separable` runs the same sampler and also returns the plane.
# * The fast sampler applies the same two tests to blocks of candidates: the same distribution,
#   but another random stream (under one seed, the same plane and other points).
# * A request no point can meet is refused at once, and the number of candidates is capped, so
#   the sampler never loops forever.

# %% [markdown]
# ## Exercises
#
# Two exercises on the problem the chapter sets up. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-01-affine
# The perceptron's score $f(x) = w^\top x + b$ is *affine*. Show (notes, Exercise 1.14) that an
# affine $f$ on $\mathbb{R}^d$ is known entirely from $d + 1$ values: $b = f(0)$ and
# $w_i = f(e_i) - f(0)$, with $e_i$ the $i$-th unit vector. Then write `recover(f, d)` that
# returns `(w, b)` from those $d + 1$ calls of `f`, and check it with
# `gp.exercises.check_recover_affine(recover)`.
# :::

# %% [markdown]
# :::{solution-start} ex-01-affine
# :class: dropdown
# :::
# For affine $f$, $f(\sum_i \alpha_i x_i) = \sum_i \alpha_i f(x_i)$ whenever
# $\sum_i \alpha_i = 1$. Write $x = \sum_i x_i e_i + (1 - \sum_i x_i)\, 0$, a combination of
# $e_1, \dots, e_d, 0$ with weights summing to 1, so
# $f(x) = \sum_i x_i f(e_i) + (1 - \sum_i x_i) f(0) = \sum_i x_i (f(e_i) - f(0)) + f(0)$.

# %% jupyter={"source_hidden": true}
def recover(f, d):
    b = f(np.zeros(d))
    w = np.array([f(e) - b for e in np.eye(d)])
    return w, b


gp.exercises.check_recover_affine(recover)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-01-margin
# `getfake(samples, dimensions, epsilon)` keeps a draw $x$ only when $\|x\| < 3$ and
# $|w_{\text{fake}}^\top x + b_{\text{fake}}| > \epsilon$. Why can no $\epsilon \ge 3 +
# |b_{\text{fake}}|$ ever be satisfied, and what should a sampler do then instead of looping
# forever?
# :::

# %% [markdown]
# :::{solution} ex-01-margin
# :class: dropdown
# $w_{\text{fake}}$ has unit length, so by Cauchy–Schwarz $|w_{\text{fake}}^\top x| \le \|x\| < 3$
# and $|w_{\text{fake}}^\top x + b_{\text{fake}}| < 3 + |b_{\text{fake}}|$: no point is ever
# accepted and the chapter's `while` loop never ends. A sampler must bound its attempts and say
# why it stopped; the package's `getfake` raises `SamplingError` when the margin cannot be met
# (or is met too rarely), naming the margin.
# :::
