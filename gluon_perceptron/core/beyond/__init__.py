"""Beyond Rosenblatt: the kernel perceptron and the Forgetron, the second-order perceptron, and
the smooth and rescaled perceptrons for the separation problem."""
