"""Main-job section: Multiclass."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...core.datasets import digits_split
from ...core.multiclass import (
    binary_error_rates,
    confusion_matrix,
    predict_multiclass,
    ties,
    train_one_vs_all,
    train_one_vs_one,
)
from ...plots.multiclass import plot_binary_error_rates, plot_confusion_matrix
from ..figures import save_figure

# --- the main job's section ----------------------------------------------------------------

def multiclass_section(opts) -> list:
    """One-vs-all and one-vs-one on the ten digits: accuracy, confusion, cost, imbalance."""
    split = digits_split(seed=opts.seed)
    models = [train_one_vs_all(split.X_train, split.y_train, max_epochs=20),
              train_one_vs_one(split.X_train, split.y_train, max_epochs=20)]
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    for model, ax in zip(models, axes):
        predicted = predict_multiclass(model, split.X_test)
        M = confusion_matrix(split.y_test, predicted, model.classes)
        plot_confusion_matrix(M, model.classes, ax, title=f"{model.scheme}, test set")
        cost = model.cost()
        print(f"{model.scheme}: test accuracy {np.mean(predicted == split.y_test):.3f}, "
              f"{ties(model, split.X_test)} tied test examples; {cost['perceptrons']} "
              f"perceptrons ({cost['separated']} separated their data in 20 epochs), "
              f"{cost['passes']} passes, {cost['example visits']} example visits, "
              f"{cost['updates']} updates; positives per binary problem "
              f"{model.positive_share.min():.2f}-{model.positive_share.max():.2f}")
    rates = binary_error_rates(models[0], split.X_test, split.y_test)
    plot_binary_error_rates(models[0], rates, axes[2])
    print(f"one-vs-all imbalance: mean miss rate {rates['miss'].mean():.3f} against mean "
          f"false-alarm rate {rates['false alarm'].mean():.3f}; "
          f"{rates['no positive']:.1%} of test digits claimed by no perceptron")
    return [save_figure(fig, opts.out, "10_multiclass_confusion")]
