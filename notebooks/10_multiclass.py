# %% [markdown]
# # 10. Ten digits with binary perceptrons
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
# never depend on chance.

# %%
import matplotlib.pyplot as plt
import numpy as np

import gluon_perceptron as gp

split = gp.digits_split(seed=0)

# %% [markdown]
# ## Training all the perceptrons at once
#
# The binary runs never interact, so `gp.train_one_vs_all` and `gp.train_one_vs_one` hand them
# to `gp.train_batched` together: one shared image matrix, one row of $\pm 1$ labels per
# perceptron, and for one-vs-one a mask saying which images each pair uses. The result is
# identical to training each perceptron on its own with `gp.train` (`engine="loop"` does just
# that, and the tests compare the two). Every run gets at most 20 epochs.

# %%
ova = gp.train_one_vs_all(split.X_train, split.y_train, max_epochs=20)
ovo = gp.train_one_vs_one(split.X_train, split.y_train, max_epochs=20)
loop = gp.train_one_vs_all(split.X_train, split.y_train, max_epochs=20, engine="loop")
print("batched and one-by-one weights equal:", np.allclose(ova.W, loop.W))

# %% [markdown]
# `train_batched` runs each perceptron's loop in compiled code, one after the other. The same
# batching can be written in MXNet itself: since every perceptron walks through the images in
# the same order, at image $i$ one NDArray computation can score it under all ten weight
# vectors at once, $s = W x_i + b$, and update exactly the rows that err,
# $W \mathrel{+}= (u \odot y_{:,i})\, x_i^\top$ with $u = [y_{:,i} \odot s \le 0]$.
# That is `engine="ndarray"`. It pays MXNet's overhead on every image, so we try it on the
# first 300 training images only; it gives the very same perceptrons.

# %%
few_X, few_y = split.X_train[:300], split.y_train[:300]
lockstep = gp.train_one_vs_all(few_X, few_y, max_epochs=4, engine="ndarray")
compiled = gp.train_one_vs_all(few_X, few_y, max_epochs=4)
print("lockstep NDArray and compiled weights identical:",
      np.array_equal(lockstep.W, compiled.W) and np.array_equal(lockstep.b, compiled.b))

# %% [markdown]
# ## Accuracy and where the errors go
#
# The confusion matrix counts test images by true class (rows) and predicted class (columns);
# the diagonal holds the hits.

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 5))
for model, ax in zip((ova, ovo), axes):
    predicted = gp.predict_multiclass(model, split.X_test)
    M = gp.confusion_matrix(split.y_test, predicted, model.classes)
    gp.plot_confusion_matrix(M, model.classes, ax, title=model.scheme)
    print(f"{model.scheme}: test accuracy {np.mean(predicted == split.y_test):.3f}, "
          f"ties broken on {gp.ties(model, split.X_test)} test images")

# %% [markdown]
# Both schemes get about 95 % of the test digits right or better, and one-vs-one does a little
# better.
#
# ## What each scheme costs
#
# `model.cost()` counts the perceptrons, the passes they made, the *example visits* (one
# margin test $y\,(w^\top x + b) \le 0$ each) and the updates. One-vs-one trains more than four
# times as many perceptrons, yet each sees only two classes, and all 45 pairs turn out to be
# separable, so they stop early. In total it looks at far fewer examples than one-vs-all,
# most of whose ten perceptrons run all 20 epochs without ever separating their data.

# %%
for model in (ova, ovo):
    print(model.scheme, model.cost())

# %% [markdown]
# ## The imbalance one-vs-all lives with
#
# Each one-vs-all perceptron sees one positive for every nine negatives (`positive_share`);
# each one-vs-one perceptron sees about as many of each. Trained on such lopsided data, a
# perceptron learns that "not mine" is usually right: on the test set it *misses* its own
# class (scores it $\le 0$) far more often than it raises a *false alarm* on another class.
# For some images no perceptron says "mine" at all, and only the argmax, which picks the least
# negative score, rescues the prediction.

# %%
print("positives per one-vs-all problem:", ova.positive_share.round(3))
print("positives per one-vs-one problem: from", ovo.positive_share.min().round(3),
      "to", ovo.positive_share.max().round(3))
rates = gp.binary_error_rates(ova, split.X_test, split.y_test)
gp.plot_binary_error_rates(ova, rates)
print("mean miss rate", rates["miss"].mean().round(3),
      " mean false-alarm rate", rates["false alarm"].mean().round(3))
print(f"test images claimed by no one-vs-all perceptron: {rates['no positive']:.1%}")
