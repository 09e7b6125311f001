"""The perceptron as gradient descent: its losses, SGD with autograd, and Gluon."""
