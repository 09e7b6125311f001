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
``max_attempts`` candidates instead of looping forever (at once when the drawn plane leaves
too little room to fill the request), and ``shape=(dimensions,)`` is a tuple.
"""

from __future__ import annotations

import math

import mxnet as mx
import numpy as np
from mxnet import nd
from scipy.special import gammainc

from .. import _checks
from .._arrays import SQUARABLE
from .._validation import (
    Rule,
    bound_text,
    count,
    finite_values,
    real,
    such_that,
    validate_params,
)

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


def _check_shape(samples: int, dimensions: int) -> tuple[int, int]:
    """Check the size of a sampled ``X`` (two counts a rule has checked): within MXNet's array
    limit, ``samples`` within :data:`MAX_SAMPLES`."""
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


def drawn_points(per_sample: int, who: str):
    """The rule of an experiment's ``samples`` when it draws ``per_sample * samples`` points
    with the samplers: an integer >= 2 whose points stay within :data:`MAX_SAMPLES`, refused
    before anything is drawn (the samplers' own rule is skipped when the package calls them)."""
    top = MAX_SAMPLES // per_sample
    times = f"{per_sample} * {{name}}" if per_sample > 1 else "{name}"  # formatted by such_that
    return such_that(count(minimum=2, maximum=2**80), lambda samples, args: samples <= top,
                     f"{{name}}={{value:,}} is more than {top:,}: {who} draws {times} points and "
                     f"the samplers draw at most {MAX_SAMPLES:,}; use fewer samples")


#: The arguments that size a sample (of :func:`getfake`, its NumPy-interface twin, and
#: ``sample_separable`` and ``getfake_noisy``): ``samples`` and ``dimensions`` within
#: :func:`_check_shape`; an ``epsilon`` no plane can reach is refused by the plane's draw.
SAMPLE_RULES = dict(samples=count(maximum=2**80), dimensions=Rule(
    lambda d, name, args: _check_shape(args["samples"], count(maximum=2**80)(d, name, args))[1],
    "count(), X fits", ("samples",)), epsilon=real(minimum=0.0))

#: ``epsilon`` as experiments check it before anything is drawn: a plane draws
#: ``bfake ~ N(0, 1)``, and a margin of ``RADIUS + 10`` would need ``|bfake| > 10``.
_REACHABLE = real(minimum=0.0, maximum=RADIUS + 10.0,
                  why=f"points have norm < {RADIUS}, so |w.x + b| < {RADIUS} + |bfake|")

#: The ``epsilons`` of an experiment that draws data for each of several margins and bounds
#: its updates: margins from ``1 / SQUARABLE`` (the bounds divide by their square) to below
#: ``RADIUS`` (a margin of RADIUS or more is reachable only by planes with ``|bfake| >
#: epsilon - RADIUS``, so most draws would fail).
MARGINS = such_that(
    finite_values(strict=True), lambda eps, args: np.all((1 / SQUARABLE <= eps) & (eps < RADIUS)),
    f"{{name}} must hold margins in [{bound_text(1 / SQUARABLE)}, {RADIUS:g}): bounds divide by "
    f"their square, points have norm < {RADIUS:g} (chapter: 0.025 to 0.425), got {{value!r:.60}}")


def _check_sampler_args(samples: int, dimensions: int, epsilon, max_attempts: int | None):
    """The arguments of a sample an experiment will draw, checked up front: the shape its
    counts give (:func:`_check_shape`) and the ``epsilon`` it asks for (:data:`_REACHABLE`);
    ``max_attempts`` None means :func:`_default_attempts`."""
    samples, dimensions = _check_shape(samples, dimensions)
    attempts = _default_attempts(samples) if max_attempts is None else max_attempts
    return samples, dimensions, _REACHABLE(epsilon, "epsilon", {}), attempts


def _default_attempts(samples: int) -> int:
    """The default bound on candidates: ``100 * samples + 10_000``, at most 10**9."""
    return min(100 * samples + 10_000, _checks.MAX_COUNT)


def draw_plane(dimensions: int, epsilon: float, ctx: mx.Context | None = None
                ) -> tuple[nd.NDArray, nd.NDArray]:
    """Draw the chapter's random unit ``wfake`` and ``bfake ~ N(0, 1)`` (on ``ctx``)."""
    ctx = mx.current_context() if ctx is None else ctx
    wfake = nd.random_normal(shape=(dimensions,), ctx=ctx)   # fake weight vector for separation
    bfake = nd.random_normal(shape=(1,), ctx=ctx)            # fake bias
    wfake = wfake / nd.norm(wfake)                  # rescale to unit length
    _refuse_unreachable(epsilon, float(bfake.asscalar()))
    return wfake, bfake


def _refuse_unreachable(epsilon: float, bfake: float) -> None:
    """Refuse a margin the drawn plane cannot leave: every kept point has norm < ``RADIUS``,
    so its score ``|wfake.x + bfake|`` is below ``RADIUS + |bfake|``."""
    reach = RADIUS + abs(bfake)
    if epsilon >= reach:
        raise ValueError(
            f"epsilon={epsilon} cannot be reached for this draw: points have norm < {RADIUS}, "
            f"so |wfake.x + bfake| < {RADIUS} + |bfake| = {reach:.3f}; use a smaller epsilon "
            f"(the chapter uses 0.025 to 0.425)")


def _give_up(kept: int, samples: int, attempts: int, dimensions: int, epsilon: float):
    rate = kept / attempts if attempts else 0.0
    raise SamplingError(
        f"rejection sampling stopped after max_attempts={attempts} draws with only {kept} of "
        f"samples={samples} points accepted (acceptance rate {rate:.2e}). A point is kept only "
        f"if its norm is < {RADIUS} and |wfake.x + bfake| > epsilon={epsilon}; with "
        f"dimensions={dimensions} that is rare. Use a smaller epsilon or fewer dimensions, "
        f"or raise max_attempts.")


def _acceptance(epsilon: float, bfake: float, dimensions: int) -> float:
    """The chance that one candidate is kept, for a unit ``wfake``: with :math:`z = w^\\top x
    \\sim N(0, 1)` and the rest of :math:`x` independent of it,

    .. math:: p = \\int_{|z + b| > \\epsilon} \\varphi(z)\\,
              P\\big(\\chi^2_{d-1} < 9 - z^2\\big)\\, dz,

    by the midpoint rule on 4096 points of each side (ample for the refusal it decides)."""
    total = 0.0
    for low, high in ((max(-RADIUS, epsilon - bfake), RADIUS),
                      (-RADIUS, min(RADIUS, -epsilon - bfake))):
        if high <= low:
            continue
        edges = np.linspace(low, high, 4097)
        z = 0.5 * (edges[1:] + edges[:-1])
        room = np.maximum(RADIUS**2 - z**2, 0.0)
        inside = gammainc((dimensions - 1) / 2, room / 2) if dimensions > 1 else 1.0
        density = np.exp(-z**2 / 2) / math.sqrt(2 * math.pi)
        total += float(np.sum(density * inside) * (high - low) / z.size)
    return total


def _refuse_hopeless(samples: int, dimensions: int, epsilon: float, bfake: float,
                     max_attempts: int) -> None:
    """Refuse at once, with the sampler's error, a request that ``max_attempts`` candidates
    will not fill: by Chernoff's bound on the binomial tail, the chance of ``samples``
    acceptances (each with the chance :func:`_acceptance`) is below :math:`e^{-9} \\approx
    10^{-4}`."""
    p = _acceptance(epsilon, bfake, dimensions)
    mean = max_attempts * p
    if mean >= samples:
        return
    log_chance = -math.inf if mean <= 0.0 else \
        -mean + samples * (1.0 + math.log(mean) - math.log(samples))
    if log_chance < -9.0:
        raise SamplingError(
            f"rejection sampling would stop after max_attempts={max_attempts} draws with fewer "
            f"than samples={samples} points: for this plane (bfake={bfake:.3f}) the acceptance "
            f"rate is {p:.2e}, since a kept point needs norm < {RADIUS} and "
            f"|wfake.x + bfake| > epsilon={epsilon} (dimensions={dimensions}). Use a smaller "
            f"epsilon (the chapter uses 0.025 to 0.425) or fewer dimensions, or raise "
            f"max_attempts.")


def sample_faithful(samples, dimensions, epsilon, wfake, bfake, max_attempts, ctx=None):
    """The chapter's loop: one candidate at a time, all in NDArray (on ``ctx``)."""
    ctx = mx.current_context() if ctx is None else ctx
    _refuse_hopeless(samples, dimensions, epsilon, float(bfake.asscalar()), max_attempts)
    # making some linearly separable data, simply by choosing the labels accordingly
    X = nd.zeros(shape=(samples, dimensions), ctx=ctx)
    Y = nd.zeros(shape=(samples,), ctx=ctx)

    i = 0
    attempts = 0
    while i < samples:
        if attempts >= max_attempts:   # ours: a bound instead of looping forever
            _give_up(i, samples, attempts, dimensions, epsilon)
        attempts += 1
        tmp = nd.random_normal(shape=(1, dimensions), ctx=ctx)
        margin = nd.dot(tmp, wfake) + bfake
        if (nd.norm(tmp).asscalar() < RADIUS) & (abs(margin.asscalar()) > epsilon):
            X[i, :] = tmp[0]
            Y[i] = 1 if margin.asscalar() > 0 else -1
            i += 1
    return X, Y, attempts


@validate_params(**SAMPLE_RULES)
def getfake(samples: int, dimensions: int, epsilon: float,
            ctx: mx.Context | None = None) -> tuple[nd.NDArray, nd.NDArray]:
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
    ctx : mxnet.Context, optional
        Where ``X`` and ``Y`` (and every draw) live; default ``mx.cpu()``.

    Returns
    -------
    X : NDArray, shape (samples, dimensions)
    Y : NDArray, shape (samples,), labels in {-1, +1}

    Raises
    ------
    SamplingError
        After ``100 * samples + 10_000`` candidates without enough accepted points (the chapter
        would loop forever), or at once when the drawn plane leaves too little room beyond
        ``epsilon`` for that many candidates to give ``samples`` points.

    Notes
    -----
    MXNet's global generator drives every draw: ``mx.random.seed(1)`` (the original notebook's
    seed) and then ``getfake(50, 2, 0.3)`` give the original notebook's data on MXNet 1.9.
    """
    ctx = mx.cpu() if ctx is None else ctx
    wfake, bfake = draw_plane(dimensions, epsilon, ctx)
    X, Y, _ = sample_faithful(samples, dimensions, epsilon, wfake, bfake,
                               _default_attempts(samples), ctx)
    return X, Y
