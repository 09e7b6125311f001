r"""The kernels of the kernel perceptron and the Forgetron (scikit-learn's conventions;
``gamma=None`` means :math:`1/d`):

- ``"linear"``: :math:`K(x, z) = x^\top z`;
- ``"poly"``: :math:`K(x, z) = (\gamma x^\top z + c_0)^{p}` (``degree`` :math:`p`, ``coef0``);
- ``"rbf"``: :math:`K(x, z) = \exp(-\gamma \|x - z\|^2)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from mxnet import nd

from .._validation import count, one_of, optional, real

KERNELS = ("linear", "poly", "rbf")


@dataclass(frozen=True)
class KernelFunction:
    """A kernel and its parameters, already checked (``gamma`` resolved to a number)."""

    kind: str
    degree: int
    gamma: float
    coef0: float

    def matrix(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """:math:`K(a_i, b_j)` for all rows of ``A`` and ``B``, in float64.

        Computed in place: the peak memory is one ``len(A) x len(B)`` float64 matrix for the
        linear and polynomial kernels, two for the Gaussian one (:data:`GRAM_PEAK`).
        """
        A = A.astype(np.float64, copy=False)
        B = B.astype(np.float64, copy=False)
        if self.kind == "rbf":
            K = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :]
            K -= 2.0 * A @ B.T
            np.maximum(K, 0.0, out=K)
            with np.errstate(over="ignore"):  # -inf for a huge gamma: exp gives its limit, 0
                K *= -self.gamma
            return np.exp(K, out=K)
        with np.errstate(over="ignore", invalid="ignore"):  # inf: the trainers' guards refuse it
            K = A @ B.T
            if self.kind == "poly":
                K *= self.gamma
                K += self.coef0
                K **= self.degree
        return K

    def diagonal(self, A: np.ndarray) -> np.ndarray:
        """:math:`K(a_i, a_i)` for every row."""
        A = A.astype(np.float64, copy=False)
        if self.kind == "rbf":
            return np.ones(A.shape[0])
        sq = (A * A).sum(1)
        return (self.gamma * sq + self.coef0) ** self.degree if self.kind == "poly" else sq

    def ndarray_column(self, X: nd.NDArray, x: nd.NDArray) -> nd.NDArray:
        """:math:`K(x_i, x)` for every row of ``X``, computed in MXNet NDArray."""
        if self.kind == "rbf":
            diff = X - x.reshape((1, -1))
            return nd.exp(-self.gamma * nd.sum(diff * diff, axis=1))
        dots = nd.dot(X, x)
        if self.kind == "poly":
            return (self.gamma * dots + self.coef0) ** self.degree
        return dots


#: Rules of the kernel arguments, shared by every function that takes a kernel.
KERNEL_RULES = dict(kernel=one_of(*KERNELS), degree=count(),
                    gamma=optional(real(positive=True)), coef0=real())


def _kernel(kernel: str, degree: int, gamma: float | None, coef0: float,
            dimensions: int) -> KernelFunction:
    """The kernel of checked arguments, ``gamma=None`` resolved to :math:`1/d`; its numbers as
    float and int (a Python int beyond int64 is not one numpy can multiply an array by)."""
    return KernelFunction(kernel, int(degree), 1.0 / dimensions if gamma is None else float(gamma),
                          float(coef0))
