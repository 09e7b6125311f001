"""``python -m gluon_perceptron``: run the main job (see :mod:`gluon_perceptron.cli`)."""

import sys

from .cli import main

sys.exit(main())
