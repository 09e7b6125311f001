"""``python -m gluon_perceptron.distributed``: :mod:`gluon_perceptron.main.cluster`'s command.

An entry point, not a module of the core layer: it only hands over to the command line."""

from gluon_perceptron.main.cluster import run

run()
