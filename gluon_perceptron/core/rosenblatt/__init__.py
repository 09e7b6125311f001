"""Rosenblatt's perceptron: the trainers (plain, batched, the variants, multiclass), each its
own loop (their fast twins are in ``core/fast/``), the driver and overflow guard they share,
and their results.

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "training": ("error_rate", "predict", "train"),
    "results": ("TrainResult",),
    "batched": ("train_batched",),
    "variants": ("train_aggressive", "train_averaged", "train_pocket", "train_projected"),
    "traced": ("notes_sequence", "train_traced", "update_path"),
    "multiclass": ("predict_multiclass", "train_one_vs_all", "train_one_vs_one"),
})
