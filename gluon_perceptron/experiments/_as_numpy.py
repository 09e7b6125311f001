"""Arrays as the package's trusted functions take them.

An experiment's arguments are checked once, by its ``validate_params`` rules; the public
functions its body calls then run unchecked, so they get numpy arrays, not NDArrays.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from mxnet import nd


def numpy(a) -> np.ndarray:
    """``a`` as a numpy array, in its own dtype (an NDArray is copied to the host)."""
    return a.asnumpy() if isinstance(a, nd.NDArray) else np.asarray(a)


def numpy_pair(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """``(X, Y)`` as numpy arrays, ``Y`` in ``X``'s dtype (as ``features`` then ``labels``)."""
    X = numpy(X)
    return X, numpy(Y).astype(X.dtype, copy=False)


class NumpyDraw:
    """A draw of the sampler (``FakeData``) as numpy: ``X, Y`` in the sampler's float32, the
    generating plane ``wfake`` (float32) and ``bfake`` (a float)."""

    def __init__(self, fake):
        self.X, self.Y = numpy_pair(fake.X, fake.Y)
        self.wfake = numpy(fake.wfake)
        self.bfake = float(numpy(fake.bfake).reshape(-1)[0])

    @classmethod
    def of(cls, X, Y, wfake, bfake) -> NumpyDraw:
        """The draw of these arrays (a sampler's own numpy output, taken as they are)."""
        return cls(SimpleNamespace(X=X, Y=Y, wfake=wfake, bfake=bfake))


def numpy_draw(fake) -> NumpyDraw:
    """``fake`` (what ``sample_separable`` and ``getfake_noisy`` draw) as numpy arrays."""
    return NumpyDraw(fake)
