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
#   enumerator: "10.%s"
# ---
# # 10. Ten digits with binary perceptrons
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# A perceptron answers yes or no. To tell ten digits apart, the notes (Remark 1.36) build a
# multiclass rule out of several binary ones, in one of two ways.
#
# * **One-vs-all**: one perceptron per class $k$, trained with class $k$ as $+1$ and the rest
#   as $-1$. A new image goes to the class whose perceptron gives the highest score,
#   $\hat y = \operatorname{argmax}_k\, w_k^\top x + b_k$. Ten perceptrons, each trained on
#   every image.
# * **One-vs-one**: one perceptron per *pair* of classes $k < k'$, trained only on the images of
#   those two. Each pair votes for one of its two classes, and the class with the most votes
#   wins. $\binom{10}{2} = 45$ perceptrons, each on about a fifth of the data.
#
# Ties need a rule. Here both schemes give them to the smallest class label, so predictions
# never depend on chance. A train/test split is a random draw: what this notebook says about
# accuracy, cost and separability is measured on 20 splits of the 8x8 digits, not only on the
# one shown first.

# %% [markdown]
# The page calls `gp.data.digits_split`, shown in [notebook 09](09_digits_zero_or_not.ipynb), and
# `gp.train`, shown in [notebook 02](02_perceptron_algorithm.ipynb).

# %%
import gluon_perceptron as gp

import matplotlib.pyplot as plt
import numpy as np

split = gp.data.digits_split(seed=0)

# %% [markdown]
# ## Training all the perceptrons at once
#
# The binary runs never interact, so both schemes build one row of $\pm 1$ labels per
# perceptron and hand all the rows to `gp.train_batched` together:

# %%
gp.show_source(gp.rosenblatt.train_one_vs_all, gp.rosenblatt.train_one_vs_one)

# %% [markdown]
# * One-vs-all: row $k$ of `Y` is $+1$ where the label is class $k$, $-1$ elsewhere, and the
#   `mask` is all true: every perceptron sees every image.
# * One-vs-one: `pairs` lists the 45 pairs $(k, k')$ with $k < k'$; row $(k, k')$ of `Y` is
#   $+1$ for class $k$ and $-1$ otherwise, and the `mask` keeps only the images of class $k$
#   or $k'$, so each pair's perceptron sees its two classes and nothing else.
# * `train_batched` runs one perceptron per row (`engine="fast"`, the default, compiled), and
#   `_model` keeps the weights, the pairs and the counts.
#
# The result is identical to training each perceptron on its own with `gp.train`, as the cell
# below checks. Every run gets at most 20 epochs.

# %%
ova = gp.rosenblatt.train_one_vs_all(split.X_train, split.y_train, max_epochs=20)
one_by_one = [gp.train(split.X_train, np.where(split.y_train == k, 1.0, -1.0), max_epochs=20)
              for k in ova.classes]
all(np.array_equal(r.w, w) and r.b == b for r, w, b in zip(one_by_one, ova.W, ova.b))

# %% [markdown]
# `train_batched` runs each perceptron's loop in compiled code, one after the other. The same
# batching can be written in MXNet itself: since every perceptron walks through the images in
# the same order, at image $i$ one NDArray computation can score it under all ten weight
# vectors at once, $s = W x_i + b$, and update exactly the rows that err,
# $W \mathrel{+}= (u \odot y_{:,i})\, x_i^\top$ with $u = [y_{:,i} \odot s \le 0]$.
# That is `engine="faithful"`, the loop `train_batched` shows (the one lockstep loop of the
# package, which both schemes call); the default `engine="fast"` hands the same arguments to
# the compiled twin. The NDArray loop pays MXNet's overhead on
# every image, so we try it on the first 300 training images only; it gives the very same
# perceptrons.

# %%
gp.show_source(gp.train_batched)

# %% [markdown]
# `W` holds one weight vector per row, `Yd` one label row per perceptron and `Kd` the mask
# (one-vs-one hides from each pair the images of other classes). At image $i$, `margins` is
# $y_{:,i} \odot (W x_i + b)$ for every perceptron at once; `u` is 1 for the rows that err on
# it, may see it (`Kd`) and are still running (`runs`), and zero elsewhere, so with
# `step` $= \eta\, y_{:,i} \odot u$, `W += step x_i` updates exactly the erring rows. A perceptron whose pass makes no
# update stops; the others go on.

# %%
few_X, few_y = split.X_train[:300], split.y_train[:300]
lockstep = gp.rosenblatt.train_one_vs_all(few_X, few_y, max_epochs=4, engine="faithful")
compiled = gp.rosenblatt.train_one_vs_all(few_X, few_y, max_epochs=4)
np.array_equal(lockstep.W, compiled.W) and np.array_equal(lockstep.b, compiled.b)

# %% [markdown]
# ## Accuracy and where the errors go
#
# To predict, one-vs-all takes the argmax of the ten scores; one-vs-one counts, for each
# image, the votes of the 45 pairs (a pair votes for its first class when its score is
# positive, else for its second) and takes the argmax of the votes:

# %%
gp.show_source(gp.rosenblatt.predict_multiclass, "scores", "votes")

# %% [markdown]
# `np.argmax` returns the first of equal maxima, so a tie goes to the smallest class label.
# `np.add.at` adds one vote per pair and image, even when the same class wins several pairs.
#
# `gp.experiments.multiclass_demo` trains both schemes on a split and measures them on its test
# part (the main job's section runs the same function on split 0). The confusion matrix counts
# test images by true class (rows) and predicted class (columns); the diagonal holds the hits.

# %% mystnb={"figure": {"caption": "Confusion matrices on split 0's test images, one-vs-all (left) and one-vs-one (right): true class in rows, prediction in columns."}}
demo = gp.experiments.multiclass_demo(split, max_epochs=20)
fig, axes = plt.subplots(1, 2, figsize=(7.2, 4.2))
for result, ax in zip(demo.schemes, axes):
    gp.plots.plot_confusion_matrix(result.confusion, result.model.classes, ax, title=result.scheme)

# %% [markdown]
# On split 0, one-vs-all classifies {eval}`f"{demo.one_vs_all.accuracy:.1%}"` of the test digits right and
# one-vs-one {eval}`f"{demo.one_vs_one.accuracy:.1%}"`. A tie decided the prediction of
# {eval}`int(demo.one_vs_all.ties)` test images under one-vs-all, where scores are real numbers, and of
# {eval}`int(demo.one_vs_one.ties)` under one-vs-one, where votes are small integers.
#
# That is one split. `gp.experiments.multiclass_over_splits` repeats the whole measurement on
# 20 splits (seeds 0 to 19; the main job runs only split 0). The counts below are these
# splits'; the frequencies are measured on 40 splits no notebook prints
# (`tests/core/rosenblatt/test_multiclass.py` checks them on those splits, `bash run.sh claims` again on
# fresh ones).

# %%
runs = gp.experiments.multiclass_over_splits(range(20), max_epochs=20)
n = len(runs.seeds)
acc_ova, acc_ovo = runs.accuracy.T

# %% [markdown]
# Both schemes get about 95 % of the test digits right, one-vs-all a few points less and, on
# these splits, with a wider spread from split to split: over the {eval}`n` splits, one-vs-all scores
# between {eval}`f"{acc_ova.min():.1%}"` and {eval}`f"{acc_ova.max():.1%}"` (median
# {eval}`f"{np.median(acc_ova):.1%}"`), one-vs-one between {eval}`f"{acc_ovo.min():.1%}"` and
# {eval}`f"{acc_ovo.max():.1%}"` (median {eval}`f"{np.median(acc_ovo):.1%}"`). One-vs-one is usually
# above 95 %, not always: here on {eval}`int(np.sum(acc_ovo > 0.95))` of {eval}`n` splits
# and above 95 % on most splits no notebook prints (at least 29 of 40). It is ahead of
# one-vs-all on most splits: here
# better on {eval}`int(np.sum(acc_ovo > acc_ova))`, equal on {eval}`int(np.sum(acc_ovo == acc_ova))` and worse on
# {eval}`int(np.sum(acc_ovo < acc_ova))`, and ahead on most splits no notebook prints (at least
# 32 of 40).
#
# ## What each scheme costs, and which pairs are separable
#
# `model.cost()` counts the perceptrons, the passes they made, the *example visits* (one
# margin test $y\,(w^\top x + b) \le 0$ each) and the updates.

# %%
for result in demo.schemes:
    print(result.scheme)
    for key, value in result.cost.as_dict().items():
        print(f"    {key:16s} {value:>10,}")

# %% [markdown]
# One-vs-one trains four and a half times as many perceptrons, yet each sees only two classes
# and most of its runs stop early: a run stops after a pass with no update, i.e. once it has
# separated its pair. Is every pair separable? A perceptron that stopped has proved it for its
# pair (its weights separate the pair's images). But "not separated within 20 epochs" is *not*
# "not separable": such a run may simply need more epochs. For those pairs the exact linear
# program of `gp.theory.is_separable` decides.

# %% [markdown]
# The linear program finds all 45 pairs separable on {eval}`int(np.sum(runs.pairs_separable == 45))` of the
# {eval}`n` splits. The perceptron finds that out within 20 epochs for all 45 on
# only {eval}`int(np.sum(runs.pairs_separated == 45))` of them; on the others it leaves a few pairs unseparated
# (it separates at least {eval}`int(runs.pairs_separated.min())` of the 45 on every split), which the linear
# program shows are separable all the same. In total one-vs-one looks at fewer than half as
# many examples as one-vs-all (at most {eval}`f"{np.max(runs.visits[:, 1] / runs.visits[:, 0]):.2f}"` times as many, over
# these splits, and fewer than half on nearly every split no notebook prints (at least 34 of
# 40)), whose ten
# perceptrons mostly run all 20 epochs without separating their data:
# {eval}`int(runs.ova_full_runs.min())` to {eval}`int(runs.ova_full_runs.max())` of the ten do, per split.
#
# ## The imbalance one-vs-all lives with
#
# Each one-vs-all perceptron sees one positive for every nine negatives (`positive_share`);
# each one-vs-one perceptron sees about as many of each. Trained on such lopsided data, a
# perceptron learns that "not mine" is usually right: on the test set it *misses* its own
# class (scores it $\le 0$) far more often than it raises a *false alarm* on another class.
# For some images no perceptron says "mine" at all, and only the argmax, which picks the least
# negative score, rescues the prediction.

# %% mystnb={"figure": {"caption": "Miss and false-alarm rates of each one-vs-all perceptron on split 0's test set: for most classes the misses are far more frequent."}}
ova = demo.one_vs_all.model
ovo = demo.one_vs_one.model
ax = gp.plots.plot_binary_error_rates(ova, demo.rates)
ratio = runs.miss / runs.false_alarm

# %% [markdown]
# On split 0 the positives make up {eval}`f"{ova.positive_share.min():.1%}"` to
# {eval}`f"{ova.positive_share.max():.1%}"` of each one-vs-all problem and {eval}`f"{ovo.positive_share.min():.1%}"` to
# {eval}`f"{ovo.positive_share.max():.1%}"` of each one-vs-one problem. The one-vs-all perceptrons miss
# their own class several times as often as they raise a false alarm: the mean miss rate is
# {eval}`f"{ratio.min():.1f}"` to {eval}`f"{ratio.max():.1f}"` times the mean false-alarm rate over
# the {eval}`n` splits, more than twice on {eval}`int(np.sum(ratio > 2))` of them and
# more than three times on {eval}`int(np.sum(ratio > 3))`, and more than twice on most splits no
# notebook prints (at least 32 of 40). And {eval}`f"{runs.no_positive.min():.1%}"` to
# {eval}`f"{runs.no_positive.max():.1%}"` of the test digits are claimed by none of them.

# %% [markdown]
# ## Summary
#
# * One-vs-all trains ten perceptrons on every image; one-vs-one trains 45, each on two classes;
#   `gp.train_batched` runs them all at once, and ties go to the smallest class.
# * Both schemes get about 95 % of the 8x8 test digits right over the splits measured.
# * The one-vs-all problems are imbalanced: their perceptrons miss their own class more often
#   than they raise a false alarm.

# %% [markdown]
# ## Exercises
#
# Two exercises on building ten classes out of binary perceptrons. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-10-argmax
# Write the one-vs-all prediction `one_vs_all(W, b, X)`: for each row $x$ of `X`, the index
# $k$ of the largest score $w_k^\top x + b_k$ (`W` has one row per class), a tie going to the
# smallest index. Check it with `gp.exercises.check_one_vs_all(one_vs_all)`, whose
# integer-valued scores tie often.
# :::

# %% [markdown]
# :::{solution-start} ex-10-argmax
# :class: dropdown
# :::
# `np.argmax` returns the *first* maximum, which is the smallest index among tied scores.

# %% jupyter={"source_hidden": true}
def one_vs_all(W, b, X):
    return np.argmax(X @ W.T + b, axis=1)


gp.exercises.check_one_vs_all(one_vs_all)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-10-cost
# With $c$ classes of $m$ training examples each, how many binary perceptrons does each scheme
# train, and on how many examples in total per pass? Compare for $c = 10$.
# :::

# %% [markdown]
# :::{solution} ex-10-cost
# :class: dropdown
# One-vs-all: $c$ perceptrons, each on all $cm$ examples, $c^2 m$ per pass. One-vs-one:
# $\binom{c}{2}$ perceptrons, each on $2m$ examples, $c(c - 1) m$ per pass. For $c = 10$:
# 10 vs 45 perceptrons, but $100m$ vs $90m$ examples per pass, and each one-vs-one task is
# smaller and usually easier to separate.
# :::
