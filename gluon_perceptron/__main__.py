"""``python -m gluon_perceptron``: run the main job (see :mod:`gluon_perceptron.cli`)."""

import sys

from .main.cli import main

sys.exit(main())
