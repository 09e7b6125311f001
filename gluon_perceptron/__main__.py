"""``python -m gluon_perceptron``: run the main job (see :mod:`gluon_perceptron.main.cli`)."""

from .main.cli import run

run()
