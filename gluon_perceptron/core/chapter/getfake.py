"""The chapter's own data code: ``getfake`` and its one-candidate-at-a-time sampler.

*Deep Learning - The Straight Dope*, chapter "The Perceptron", section "A Separable
Classification Problem". The chapter makes a separable problem by drawing a random hyperplane
:math:`w^\\top x + b = 0` with :math:`\\|w\\| = 1`, :math:`b \\sim N(0, 1)`, and keeping only
Gaussian points :math:`x \\sim N(0, I_d)` that lie inside the ball :math:`\\|x\\| < 3` and at
least ``epsilon`` away from the plane in score, :math:`|w^\\top x + b| > \\epsilon`. The label is
the side of the plane, so :math:`(w, b)` separates the data with margin ``epsilon`` by
construction.

The code below reads like the chapter's, line for line (``nd.random_normal``, ``nd.dot``,
``nd.norm``, the same order of draws, so ``mx.random.seed(1)`` gives the original notebook's
data). Where it differs: its arguments are checked first, the sampling loop gives up after
``max_attempts`` candidates instead of looping forever, and ``shape=(dimensions,)`` is a tuple.
"""

from __future__ import annotations

from mxnet import nd

from .. import _checks

#: Points are kept only when their norm is below this radius (the chapter's ``nd.norm(tmp) < 3``).
RADIUS = 3.0


#: MXNet refuses arrays with more elements than this (its tensors index with int32).
MAX_ELEMENTS = _checks.MAX_ELEMENTS


#: Most points a sampler draws: its default bound of 100 candidates a point stays within the
#: 10**9 draws ``max_attempts`` allows.
MAX_SAMPLES = 10**7


#: The trace the chapter printed in 2017 (an older MXNet's random stream): for each update the
#: point, its label, and the weight and bias printed after the update, digit for digit.
PRINTED_TRACE: tuple[tuple[tuple[float, float], float, tuple[float, float], float], ...] = (
    ((0.57595438, -0.95017916), -1.0, (-0.57595438, 0.95017916), -1.0),
    ((-0.3469252, 0.03751944), 1.0, (-0.92287958, 0.98769861), 0.0),
    ((-1.80471897, -2.04010558), 1.0, (-2.72759867, -1.05240703), 1.0),
    ((0.60334933, -1.08074296), -1.0, (-3.33094788, 0.02833593), 0.0),
)


class SamplingError(ValueError):
    """The rejection sampler hit its bound on attempts before it had enough points."""


def _check_shape(samples, dimensions, min_samples: int = 1) -> tuple[int, int]:
    """Check the size of a sampled ``X``: both counts positive, within MXNet's array limit."""
    samples = _checks.positive_int(samples, "samples", minimum=min_samples, maximum=2**80)
    dimensions = _checks.positive_int(dimensions, "dimensions", maximum=2**80)
    if samples * dimensions > MAX_ELEMENTS:
        raise ValueError(
            f"samples * dimensions = {samples} * {dimensions} = {samples * dimensions} elements "
            f"is more than MXNet's limit of 2**31 - 1 = {MAX_ELEMENTS} elements per array; "
            f"use fewer samples or dimensions")
    if samples > MAX_SAMPLES:
        raise ValueError(
            f"samples={samples:,} is more than {MAX_SAMPLES:,}, the most points the samplers "
            f"draw (the rejection sampler's bound of 100 candidates a point must stay within "
            f"{_checks.MAX_COUNT:,} draws); use fewer samples")
    return samples, dimensions


def _check_sampler_args(samples, dimensions, epsilon, max_attempts):
    samples, dimensions = _check_shape(samples, dimensions)
    epsilon = _checks.finite_float(epsilon, "epsilon", minimum=0.0)
    if epsilon >= RADIUS + 10.0:
        raise ValueError(
            f"epsilon={epsilon} cannot be reached: every kept point has norm < {RADIUS}, so its "
            f"score |w.x + b| is below {RADIUS} + |bfake| and bfake ~ N(0, 1); use an epsilon "
            f"well below {RADIUS} (the chapter uses 0.025 to 0.425)")
    if max_attempts is None:
        max_attempts = _default_attempts(samples)
    max_attempts = _checks.positive_int(max_attempts, "max_attempts")
    return samples, dimensions, epsilon, max_attempts


def _default_attempts(samples: int) -> int:
    """The default bound on candidates: ``100 * samples + 10_000``, at most 10**9."""
    return min(100 * samples + 10_000, _checks.MAX_COUNT)


def _draw_plane(dimensions: int, epsilon: float) -> tuple[nd.NDArray, nd.NDArray]:
    """Draw the chapter's random unit ``wfake`` and ``bfake ~ N(0, 1)``."""
    wfake = nd.random_normal(shape=(dimensions,))   # fake weight vector for separation
    bfake = nd.random_normal(shape=(1,))            # fake bias
    wfake = wfake / nd.norm(wfake)                  # rescale to unit length
    reach = RADIUS + abs(float(bfake.asscalar()))
    if epsilon >= reach:
        raise ValueError(
            f"epsilon={epsilon} cannot be reached for this draw: points have norm < {RADIUS}, "
            f"so |wfake.x + bfake| < {RADIUS} + |bfake| = {reach:.3f}; use a smaller epsilon "
            f"(the chapter uses 0.025 to 0.425)")
    return wfake, bfake


def _give_up(kept: int, samples: int, attempts: int, dimensions: int, epsilon: float):
    rate = kept / attempts if attempts else 0.0
    raise SamplingError(
        f"rejection sampling stopped after max_attempts={attempts} draws with only {kept} of "
        f"samples={samples} points accepted (acceptance rate {rate:.2e}). A point is kept only "
        f"if its norm is < {RADIUS} and |wfake.x + bfake| > epsilon={epsilon}; with "
        f"dimensions={dimensions} that is rare. Use a smaller epsilon or fewer dimensions, "
        f"or raise max_attempts.")


def _sample_faithful(samples, dimensions, epsilon, wfake, bfake, max_attempts):
    """The chapter's loop: one candidate at a time, all in NDArray."""
    # making some linearly separable data, simply by choosing the labels accordingly
    X = nd.zeros(shape=(samples, dimensions))
    Y = nd.zeros(shape=(samples,))

    i = 0
    attempts = 0
    while i < samples:
        if attempts >= max_attempts:   # ours: a bound instead of looping forever
            _give_up(i, samples, attempts, dimensions, epsilon)
        attempts += 1
        tmp = nd.random_normal(shape=(1, dimensions))
        margin = nd.dot(tmp, wfake) + bfake
        if (nd.norm(tmp).asscalar() < RADIUS) & (abs(margin.asscalar()) > epsilon):
            X[i, :] = tmp[0]
            Y[i] = 1 if margin.asscalar() > 0 else -1
            i += 1
    return X, Y, attempts


def getfake(samples: int, dimensions: int, epsilon: float) -> tuple[nd.NDArray, nd.NDArray]:
    """The chapter's ``getfake``: separable data with margin ``epsilon``, as NDArrays.

    Draws :math:`w \\sim N(0, I_d)`, normalised to :math:`\\|w\\| = 1`, and
    :math:`b \\sim N(0, 1)`; then keeps candidates :math:`x \\sim N(0, I_d)` one at a time while
    :math:`\\|x\\| < 3` and :math:`|w^\\top x + b| > \\epsilon`, labelled
    :math:`y = \\operatorname{sign}(w^\\top x + b)`. Use :func:`sample_separable` to also get the
    generating plane ``(wfake, bfake)``, or for the faster batched sampler.

    Parameters
    ----------
    samples, dimensions : int
        Shape of ``X``; both at least 1, and ``samples * dimensions`` at most MXNet's
        :math:`2^{31} - 1` elements.
    epsilon : float
        Margin to keep around the plane, ``>= 0``.

    Returns
    -------
    X : NDArray, shape (samples, dimensions)
    Y : NDArray, shape (samples,), labels in {-1, +1}

    Raises
    ------
    SamplingError
        After ``100 * samples + 10_000`` candidates without enough accepted points (the chapter
        would loop forever).

    Notes
    -----
    MXNet's global generator drives every draw: ``mx.random.seed(1)`` (the original notebook's
    seed) and then ``getfake(50, 2, 0.3)`` give the original notebook's data on MXNet 1.9.
    """
    samples, dimensions, epsilon, max_attempts = _check_sampler_args(
        samples, dimensions, epsilon, None)
    wfake, bfake = _draw_plane(dimensions, epsilon)
    X, Y, _ = _sample_faithful(samples, dimensions, epsilon, wfake, bfake, max_attempts)
    return X, Y
