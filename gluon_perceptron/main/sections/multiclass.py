"""Main-job section: Multiclass."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ...core.data.real import digits_split
from ...experiments.multiclass import multiclass_demo
from ...plots.multiclass import plot_binary_error_rates, plot_confusion_matrix
from ..figures import save_figure

#: What this section runs smaller than its notebook, so that the main job takes seconds
#: (printed under the section's title and kept in index.json).
SMALLER_THAN_THE_BOOK = (
    "split 0 only (notebook 10 also repeats it on 20 splits)",
)


def multiclass_section(opts) -> list:
    """One-vs-all and one-vs-one on the ten digits: accuracy, confusion, cost, imbalance."""
    demo = multiclass_demo(digits_split(seed=opts.seed), max_epochs=20)
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    for result, ax in zip(demo.schemes, axes):
        model, cost = result.model, result.cost
        plot_confusion_matrix(result.confusion, model.classes, ax,
                              title=f"{model.scheme}, test set")
        print(f"{model.scheme}: test accuracy {result.accuracy:.3f}, "
              f"{result.ties} tied test examples; {cost.perceptrons} "
              f"perceptrons ({cost.separated} separated their data in 20 epochs), "
              f"{cost.passes} passes, {cost.example_visits} example visits, "
              f"{cost.updates} updates; positives per binary problem "
              f"{model.positive_share.min():.2f}-{model.positive_share.max():.2f}")
    rates = demo.rates
    plot_binary_error_rates(demo.one_vs_all.model, rates, axes[2])
    print(f"one-vs-all imbalance: mean miss rate {rates.miss.mean():.3f} against mean "
          f"false-alarm rate {rates.false_alarm.mean():.3f}; "
          f"{rates.no_positive:.1%} of test digits claimed by no perceptron")
    return [save_figure(fig, opts.out, "10_multiclass_confusion")]
