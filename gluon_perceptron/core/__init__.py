"""The algorithms, one subpackage per concern: ``chapter`` (the chapter's own code), ``rosenblatt``
(the pass engine and the trainers built on it), ``gradient`` (losses, SGD, autograd, Gluon),
``beyond`` (beyond Rosenblatt), ``theory``, ``data`` and ``distributed``. Nothing here imports
pyplot or tqdm, or prints."""
