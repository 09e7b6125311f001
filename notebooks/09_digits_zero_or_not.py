# %% [markdown]
# # 9. Real digits: "0 or not 0"
#
# The lecture slides leave the toy data behind and hand the perceptron real handwriting: MNIST,
# with every 0 labelled $+1$ and every other digit $-1$. Nobody promises that this data can be
# split by a hyperplane, so the slides train for a fixed number of epochs, plot a learning curve,
# and then look at the weights as a picture.
#
# We repeat the demo on the small handwritten digits that ship with scikit-learn (1,797 images
# of 8x8 pixels, grey levels 0 to 16), so it runs offline and in a second. If you have the four
# MNIST files on disk, `gp.mnist_split(folder)` reads them (see the end) and everything below
# works the same way, only slower.

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import gluon_perceptron as gp

# %% [markdown]
# ## The data
#
# `gp.digits_split` loads the digits, scales the pixels to $[0, 1]$, shuffles with a seed and
# keeps a quarter for testing. The split is reproducible: the same seed gives the same rows.

# %%
split = gp.digits_split(seed=0)
print("train:", split.X_train.shape, " test:", split.X_test.shape)
print("share of zeros in the test set:", np.mean(split.y_test == 0).round(3))

fig, axes = plt.subplots(1, 8, figsize=(10, 1.6))
for ax, x, y in zip(axes, split.X_train, split.y_train):
    gp.plot_digit(x, ax, title=f"label {y}")

# %% [markdown]
# ## Padding, or a bias?
#
# The slides append a constant 1 to every image and learn a single weight vector with no bias:
# $\operatorname{sign}(\tilde w^\top \tilde x)$ with $\tilde x = (x, 1)$. The last weight then
# *is* the bias. Started from zero, that homogeneous perceptron on padded data makes exactly the
# updates `gp.train` makes on the raw images with a bias, so the two views are the same run.
# `split.padded()` applies `gp.pad_constant` to both parts if you want the padded form (the
# relaxation notebook uses it).

# %%
Y_train = gp.one_vs_rest(split.y_train, 0)
Y_test = gp.one_vs_rest(split.y_test, 0)
padded = split.padded()
print("padded shape:", padded.X_train.shape, " last column:", np.unique(padded.X_train[:, -1]))

# %% [markdown]
# ## What would guessing score?
#
# The slides ask what a random guess achieves. A fair coin is right half the time. But the
# classes are far from balanced here: only about a tenth of the digits are zeros, so the lazy
# rule "always say *not 0*" is right about nine times out of ten. That majority baseline, not
# the coin, is the bar a classifier has to clear.

# %%
base = gp.baselines(Y_train, Y_test)
for name, value in base.items():
    print(f"{name:28s} {value:.3f}")

# %% [markdown]
# ## The learning curve
#
# `gp.learning_curve` trains for exactly 20 epochs, one `gp.train(..., max_epochs=1)` call at a
# time, each starting from the weights the last one left, and measures accuracy on both parts
# after every epoch. Beside it runs the averaged perceptron (`gp.train_averaged`), which
# predicts with the mean of all the weights visited so far.

# %%
zero = gp.learning_curve(split, 0, epochs=20)
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
gp.plot_learning_curve(zero, base, axes)
print("updates per epoch:", zero.updates.tolist())
print("test accuracy after each epoch:", zero.test_accuracy.round(3).tolist())

# %% [markdown]
# The perceptron is above the majority baseline by more than five points from the very first
# epoch. Later on an epoch makes no update at all: the training set is separated, and the
# curves stop moving. So "0 or not 0" on these digits *is* linearly separable, which is not
# something the slides could assume in advance.
#
# Not every digit is that easy. "8 or not 8" never separates in 20 epochs: every epoch still
# makes dozens of mistakes, and each mistake drags the boundary around, so the plain
# perceptron's test accuracy jumps from epoch to epoch. The averaged perceptron smooths those
# jumps away.

# %%
eight = gp.learning_curve(split, 8, epochs=20)
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
gp.plot_learning_curve(eight, gp.baselines(gp.one_vs_rest(split.y_train, 8),
                                           gp.one_vs_rest(split.y_test, 8)), axes)
print("updates per epoch:", eight.updates.tolist())
print("spread of test accuracy over the last 10 epochs: plain",
      np.ptp(eight.test_accuracy[-10:]).round(3), " averaged",
      np.ptp(eight.averaged_test_accuracy[-10:]).round(3))

# %% [markdown]
# ## Looking at the weights
#
# A linear rule on images has one weight per pixel, so its weights are an image too. Red pixels
# are where ink counts *for* the digit, blue where ink counts *against* it. For 0 the centre
# is blue: a 0 has a hole there, and ink in the middle is evidence of some other digit. The
# ring around it is mostly red.
#
# The slides show the same picture for 3, 5 and 8. Each weight image looks like a rough
# template: "this digit's average ink minus everyone else's" (`digits.mean_image_contrast`),
# which is what a linear rule can best exploit. The correlation printed under the figure
# measures how close the two are.

# %%
curves = [zero] + [gp.learning_curve(split, d, epochs=20, averaged=False) for d in (3, 5)]
curves.append(eight)
gp.plot_digit_weights(split, curves)
for curve in curves:
    template = gp.mean_image_contrast(split, curve.digit)
    print(f"{curve.digit}: correlation of weights with the mean-image contrast "
          f"{np.corrcoef(curve.w, template)[0, 1]:.2f}")
print("centre 2x2 weights of '0 or not':", zero.w.reshape(8, 8)[3:5, 3:5].ravel())

# %% [markdown]
# ## With your own MNIST
#
# Nothing is downloaded. If you have the four IDX files (`train-images-idx3-ubyte`,
# `train-labels-idx1-ubyte`, `t10k-images-idx3-ubyte`, `t10k-labels-idx1-ubyte`, gzipped or
# not) in a folder, point `MNIST` at it. The reader checks the magic number, the sizes and that
# images and labels agree, and says which file is wrong if one is. The 28x28 weights show the
# same kind of template as the 8x8 ones.

# %%
MNIST = Path("~/data/mnist").expanduser()  # change to your folder
if MNIST.is_dir():
    mnist = gp.mnist_split(MNIST)
    curve = gp.learning_curve(mnist, 0, epochs=5, averaged=False)
    print("MNIST '0 or not 0', test accuracy per epoch:", curve.test_accuracy.round(4))
    gp.plot_weights(curve.w)
else:
    print(f"no MNIST files in {MNIST}; skipping")
