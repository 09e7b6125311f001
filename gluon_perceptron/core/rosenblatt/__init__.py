"""Rosenblatt's perceptron: the one pass engine and its driver, the trainers built on it
(plain, batched, the variants, multiclass) and their results."""
