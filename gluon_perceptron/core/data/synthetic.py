"""Data for the chapter: the separable fake data of ``getfake`` and a few small classics.

The chapter makes a separable problem by drawing a random hyperplane
:math:`w^\\top x + b = 0` with :math:`\\|w\\| = 1`, :math:`b \\sim N(0, 1)`, and keeping only
Gaussian points :math:`x \\sim N(0, I_d)` that lie inside the ball :math:`\\|x\\| < 3` and at
least ``epsilon`` away from the plane in score, :math:`|w^\\top x + b| > \\epsilon`. The label is
the side of the plane, so :math:`(w, b)` separates the data with margin ``epsilon`` by
construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import erf, sqrt

import mxnet as mx
import numpy as np
from mxnet import nd

from .. import _validation as rule
from .._arrays import FLOAT32_MAX
from .._convert import as_features, as_labels, as_scalar, as_vector
from .._validation import validate_params, vector
from ..chapter.sampler import (
    MAX_SAMPLES,
    RADIUS,
    SAMPLE_RULES,
    _check_shape,
    _default_attempts,
    _give_up,
    draw_plane,
    sample_faithful,
)


def _mx_seed(seed: int | None) -> None:
    """``seed=None`` keeps MXNet's global generator as it is; an int (checked by the caller
    with ``_checks.seed``) seeds it first."""
    if seed is not None:
        mx.random.seed(int(seed))  # MXNet takes a Python int only


# --- the rules of the generators' arguments ---------------------------------------------------

#: ``separation`` of :func:`gaussian_classes` (for a caller that passes its own on, trusted).
SEPARATION = rule.real(minimum=0.0, maximum=FLOAT32_MAX,
                       why="X is float32: the class means would be inf; a few units will do")


def _permutation(n: int) -> np.ndarray:
    """A uniform permutation of ``range(n)`` from MXNet's generator (int64: float32 indices
    are not exact beyond 2**24)."""
    return nd.random.shuffle(nd.arange(n, dtype="int64")).asnumpy()


# --- the separable data -----------------------------------------------------------------------

@dataclass
class FakeData:
    """A dataset from :func:`sample_separable` together with the plane that generated it.

    Attributes
    ----------
    X : NDArray, shape (samples, dimensions)
    Y : NDArray, shape (samples,), labels in {-1, +1}
    wfake : NDArray, shape (dimensions,), unit norm
    bfake : NDArray, shape (1,)
    attempts : int
        How many candidate points the rejection sampler drew.
    """

    X: nd.NDArray
    Y: nd.NDArray
    wfake: nd.NDArray
    bfake: nd.NDArray
    attempts: int


def _sample_batched(samples, dimensions, epsilon, wfake, bfake, max_attempts):
    """Same distribution as the chapter's loop, drawing candidates in blocks.

    Candidates come from the same generator (``nd.random_normal``, so ``mx.random.seed`` fixes
    them) and pass the same two tests, so the accepted points have the same distribution; they
    are a different random stream from the one-at-a-time loop, so the points differ.
    """
    X, Y, attempts = _sample_blocks(samples, dimensions, epsilon, wfake.asnumpy(),
                                    bfake.asnumpy()[0], max_attempts)
    return nd.array(X), nd.array(Y), attempts


def _sample_blocks(samples, dimensions, epsilon, w, b, max_attempts):
    """:func:`_sample_batched` with the plane ``w`` (float32 array) and ``b`` (float32) as
    numpy and the points returned as numpy float32 arrays ``X, Y``, with ``attempts``."""
    chunks_x, chunks_y = [], []
    kept = attempts = 0
    rate = 0.5  # a first guess, refined from what the blocks accept
    while kept < samples:
        if attempts >= max_attempts:
            _give_up(kept, samples, attempts, dimensions, epsilon)
        need = samples - kept
        block = int(min(max_attempts - attempts, max(64, 1.2 * need / max(rate, 1e-3))))
        tmp = nd.random_normal(shape=(block, dimensions)).asnumpy()
        attempts += block
        margin = tmp @ w + b
        ok = (np.sqrt(np.sum(tmp * tmp, axis=1)) < RADIUS) & (np.abs(margin) > epsilon)
        idx = np.flatnonzero(ok)[:need]
        chunks_x.append(tmp[idx])
        chunks_y.append(np.where(margin[idx] > 0, 1.0, -1.0).astype(np.float32))
        kept += idx.size
        rate = max(ok.mean(), 1.0 / block)
    return np.concatenate(chunks_x), np.concatenate(chunks_y), attempts


def _separable_numpy(samples: int, dimensions: int, epsilon: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``sample_separable(samples, dimensions, epsilon)`` for the package's own experiments
    (arguments trusted), as numpy: the same draws from MXNet's generator and the same numbers,
    without the round trip of the points through NDArray. Returns ``X, Y`` (float32), ``wfake``
    (float32, shape (d,)) and ``bfake`` (float32, shape (1,))."""
    wfake, bfake = draw_plane(dimensions, epsilon)
    w, b = wfake.asnumpy(), bfake.asnumpy()
    X, Y, _ = _sample_blocks(samples, dimensions, epsilon, w, b[0], _default_attempts(samples))
    return X, Y, w, b


@validate_params(**SAMPLE_RULES, max_attempts=rule.optional(rule.count()))
def sample_separable(samples: int, dimensions: int, epsilon: float, *,
                     engine: str = "fast", max_attempts: int | None = None,
                     seed: int | None = None) -> FakeData:
    """Draw a linearly separable dataset and return it with its generating hyperplane.

    Draws :math:`w \\sim N(0, I_d)`, normalised to :math:`\\|w\\| = 1`, and
    :math:`b \\sim N(0, 1)`; then keeps candidates :math:`x \\sim N(0, I_d)` with
    :math:`\\|x\\| < 3` and :math:`|w^\\top x + b| > \\epsilon`, labelled
    :math:`y = \\operatorname{sign}(w^\\top x + b)`. Hence
    :math:`y_i (w^\\top x_i + b) > \\epsilon` for every point.

    Parameters
    ----------
    samples, dimensions : int
        Shape of ``X``; both at least 1, ``samples`` at most 10**7, and
        ``samples * dimensions`` at most MXNet's :math:`2^{31} - 1` elements.
    epsilon : float
        Margin to keep around the plane, ``>= 0``.
    engine : {"fast", "faithful"}
        ``"faithful"`` is the chapter's one-candidate-at-a-time NDArray loop (about 100 us a
        candidate); ``"fast"`` draws candidates in blocks, giving the same distribution but a
        different random stream.
    max_attempts : int, optional
        Bound on candidates drawn (default ``100 * samples + 10_000``, at most 10**9).
        Reaching it raises :class:`SamplingError` with the acceptance rate seen, instead of
        looping forever.
    seed : int, optional
        The one generator is MXNet's global one (``mx.random``), as in the chapter. ``None``
        (default) draws from it as it stands (fresh unless you seeded it); an int in
        :math:`[0, 2^{32})` calls ``mx.random.seed(seed)`` first, so it reproduces.

    Returns
    -------
    FakeData
        ``X, Y, wfake, bfake, attempts``.
    """
    if samples > MAX_SAMPLES:  # a trusted caller skipped the rule: never allocate past it
        _check_shape(samples, dimensions)
    _mx_seed(seed)
    wfake, bfake = draw_plane(dimensions, epsilon)
    sampler = sample_faithful if engine == "faithful" else _sample_batched
    if max_attempts is None:
        max_attempts = _default_attempts(samples)
    try:
        X, Y, attempts = sampler(samples, dimensions, epsilon, wfake, bfake, max_attempts)
    except (MemoryError, mx.base.MXNetError) as exc:
        if not isinstance(exc, MemoryError) and "allocate" not in str(exc):
            raise
        raise MemoryError(_out_of_memory(samples, dimensions)) from exc
    return FakeData(X, Y, wfake, bfake, attempts)


def _out_of_memory(samples: int, dimensions: int) -> str:
    """What a failed allocation of the sampler means, and that the process should restart."""
    need = 2 * samples * dimensions * 4 / 2**30  # X and a block of candidates, float32
    return (f"not enough memory to draw samples={samples:,} points in dimensions={dimensions:,} "
            f"(about {need:.1f} GiB at once); use fewer samples or dimensions. After a failed "
            f"allocation MXNet 1.9.1 can hang on its next call in this process (seen in 1 of "
            f"6 trials): restart Python, or the notebook's kernel, before going on")


def xor_data() -> tuple[np.ndarray, np.ndarray]:
    """The four XOR points with +/-1 coordinates; no line separates them (Minsky-Papert).

    Returns
    -------
    X : ndarray, shape (4, 2)
        ``(-1,-1), (-1,+1), (+1,-1), (+1,+1)``.
    Y : ndarray, shape (4,)
        ``+1`` where exactly one coordinate is ``+1``.
    """
    X = np.array([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
    Y = np.array([-1.0, 1.0, 1.0, -1.0])
    return X, Y


@validate_params(value=rule.such_that(
    rule.real(), lambda v, args: abs(v) <= np.finfo(args["X"].dtype).max, "{name}={value:g} does "
    "not fit X's dtype {args[X].dtype.name}: the column would be inf; use a value of about 1 (or "
    "cast X to float64)", ("X",)))
def pad_constant(X, value: float = 1.0) -> np.ndarray:
    """Append a constant feature: :math:`\\tilde x = (x, c)`, so ``w.x + b = (w, b/c).x~``.

    Training a homogeneous perceptron (no bias) on padded data is the same as training one
    with a bias on the original data, when ``value = 1``.
    """
    X = as_features(X)
    return np.hstack([X, np.full((X.shape[0], 1), value, dtype=X.dtype)])


@validate_params(wfake=vector(size_of="X"))
def generating_margins(X, Y, wfake, bfake) -> np.ndarray:
    """Per-point margins :math:`y_i (w^\\top x_i + b)` with respect to a given plane."""
    X, Y, wfake, bfake = as_features(X), as_labels(Y), as_vector(wfake), as_scalar(bfake)
    return Y.astype(np.float64) * (X.astype(np.float64) @ wfake.astype(np.float64) + bfake)


@dataclass
class NoisyData:
    """Separable data from :func:`sample_separable` with a fraction of its labels flipped.

    Attributes
    ----------
    X : NDArray, shape (samples, dimensions)
    Y : NDArray, shape (samples,)
        The noisy labels, in {-1, +1}.
    Y_clean : NDArray, shape (samples,)
        The labels before flipping: the side of the generating plane.
    flipped : ndarray of bool, shape (samples,)
        Which labels were flipped; ``Y = where(flipped, -Y_clean, Y_clean)``.
    wfake : NDArray, shape (dimensions,), unit norm
    bfake : NDArray, shape (1,)
    """

    X: nd.NDArray
    Y: nd.NDArray
    Y_clean: nd.NDArray
    flipped: np.ndarray
    wfake: nd.NDArray
    bfake: nd.NDArray


@validate_params(**SAMPLE_RULES, flip=rule.fraction())
def getfake_noisy(samples: int, dimensions: int, epsilon: float, flip: float, *,
                  engine: str = "fast", seed: int | None = None) -> NoisyData:
    """The chapter's fake data with exactly ``round(flip * samples)`` labels flipped.

    The points and the clean labels come from :func:`sample_separable`; then a set of
    :math:`k = \\operatorname{round}(p\\, n)` indices, uniform among all :math:`\\binom{n}{k}`,
    has its label negated. Because the flips do not depend on :math:`x`, the generating plane
    errs on exactly the flipped points, and for :math:`p < 1/2` it is still the best classifier
    of the noisy distribution (its error :math:`p` is the Bayes error). For :math:`k \\ge 1`
    and a flipped point inside the convex hull of its clean class, no line separates the data.

    Parameters
    ----------
    samples, dimensions, epsilon : as in :func:`sample_separable`
    flip : float
        Fraction :math:`p \\in [0, 1]` of labels to flip.
    engine : {"fast", "faithful"}
        Sampler for the points (see :func:`sample_separable`).
    seed : int, optional
        The one generator is MXNet's global one, which draws the points and then the flips:
        ``None`` draws from it as it stands; an int calls ``mx.random.seed(seed)`` first.

    Returns
    -------
    NoisyData
        Reproducible under ``mx.random.seed``.
    """
    fake = sample_separable(samples, dimensions, epsilon, engine=engine, seed=seed)
    flipped = np.zeros(samples, dtype=bool)
    flipped[_permutation(samples)[:int(round(flip * samples))]] = True
    Y_clean = fake.Y.asnumpy()
    Y = nd.array(np.where(flipped, -Y_clean, Y_clean))
    return NoisyData(fake.X, Y, fake.Y, flipped, fake.wfake, fake.bfake)


@dataclass
class GaussianClasses:
    """Two overlapping Gaussian classes, :math:`x \\mid y \\sim N(y\\,\\mu, I)`.

    Attributes
    ----------
    X : NDArray, shape (samples, dimensions)
    Y : NDArray, shape (samples,), labels in {-1, +1}, half of each (one more -1 if odd)
    mean : ndarray, shape (dimensions,)
        :math:`\\mu`, the mean of class +1 (class -1 has mean :math:`-\\mu`).
    bayes_error : float
        :math:`\\Phi(-\\|\\mu\\|)`, the error of the best classifier, which is linear here:
        :math:`\\operatorname{sign}(\\mu^\\top x)`.
    """

    X: nd.NDArray
    Y: nd.NDArray
    mean: np.ndarray
    bayes_error: float


@validate_params(samples=rule.count(minimum=2, maximum=2**80),
                 dimensions=SAMPLE_RULES["dimensions"], separation=SEPARATION)
def gaussian_classes(samples: int, dimensions: int, separation: float, *,
                     seed: int | None = None) -> GaussianClasses:
    """Overlapping classes: :math:`N(\\pm\\mu, I)` with :math:`\\|2\\mu\\| =` ``separation``.

    The direction of :math:`\\mu` is uniform on the sphere. With equal priors and equal
    covariances the Bayes classifier is the perpendicular bisector of the two means,
    :math:`\\operatorname{sign}(\\mu^\\top x)`, a *linear* rule with error
    :math:`\\Phi(-\\|\\mu\\|) = \\Phi(-\\text{separation}/2)`: that is the best any linear
    separator can do on this distribution, and more than 0 for every finite separation, so
    (with enough samples) no line separates the data.

    Parameters
    ----------
    samples : int
        Number of points, at least 2 (at most 10**7).
    dimensions : int
    separation : float
        Distance :math:`\\|2\\mu\\| \\ge 0` between the class means.
    seed : int, optional
        The one generator is MXNet's global one: ``None`` draws from it as it stands; an int
        calls ``mx.random.seed(seed)`` first.

    Returns
    -------
    GaussianClasses
        The same ``seed`` (or the same state of MXNet's generator) gives the same classes.
    """
    _mx_seed(seed)
    direction = nd.random_normal(shape=(dimensions,)).asnumpy().astype(np.float64)
    mean = 0.5 * separation * direction / np.linalg.norm(direction)
    Y = np.where(np.arange(samples) < samples // 2, 1.0, -1.0)
    Y = Y[_permutation(samples)]
    noise = nd.random_normal(shape=(samples, dimensions)).asnumpy().astype(np.float64)
    X = noise + Y[:, None] * mean
    bayes = 0.5 * (1.0 + erf(-0.5 * separation / sqrt(2.0)))
    return GaussianClasses(nd.array(X), nd.array(Y), mean, bayes)
