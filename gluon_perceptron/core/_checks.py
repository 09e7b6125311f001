"""Input checks shared by the package.

Every public function validates what a learner passes *before* it reaches MXNet, so a mistake
gives a ``ValueError`` (or ``TypeError``) that names the argument and says how to fix it,
instead of a traceback from deep inside the C++ engine or, worse, a silently wrong result.
Each check takes ``(value, name, ...)`` and returns the value converted, for the rules of
:mod:`._validation` that call them (a rule's later rules read it; the body converts its own
arguments, with :mod:`._convert`).
"""

from __future__ import annotations

import itertools
import math
import numbers
import os
import sys
import warnings

import numpy as np

from ._arrays import _is_ndarray
from ._convert import as_features, as_numpy, as_vector

#: The largest count (epochs, steps, trials, draws, ...) any function accepts: a billion passes
#: is far beyond anything that finishes, and a bound must still fit a machine integer.
MAX_COUNT = 10**9

#: The most repetitions (trials, draws, seeds, runs) an experiment accepts: each is a whole
#: training run, and a million of them is already days of work.
MAX_REPEATS = 10**6

#: The largest seed every generator accepts (numpy's legacy seeding and MXNet take 0 .. 2**32-1).
SEED_MAX = 2**32 - 1

#: The most elements one array may hold: MXNet's limit (2**31 - 1); numpy arrays built from a
#: user's sizes are held to it too, so a size is refused before anything is allocated.
MAX_ELEMENTS = 2**31 - 1


def to_numpy(a, name: str) -> np.ndarray:
    """Return ``a`` (NDArray, numpy array or nested sequence) as a numpy array; a ragged
    sequence is a ``ValueError`` and anything numpy refuses a ``TypeError`` (numpy's own
    message kept), both naming the argument."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.VisibleDeprecationWarning)  # noqa: NPY201
            return as_numpy(a)
    except np.VisibleDeprecationWarning:  # noqa: NPY201 (numpy < 1.24 here)
        raise ValueError(f"{name} is ragged (rows of different lengths); pass a rectangular "
                         f"array") from None
    except Exception as exc:
        raise TypeError(f"{name} must be an array (numpy or mxnet NDArray): {exc}") from exc


def _integer(value) -> bool:
    """An integer (numpy's too), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _real(a: np.ndarray) -> bool:
    """Whether ``a`` holds real numbers (no strings, objects or complex numbers)."""
    return np.issubdtype(a.dtype, np.number) and not np.issubdtype(a.dtype, np.complexfloating)


def _got(value, a: np.ndarray) -> str:
    """What a message says was passed instead of an array of the right shape."""
    return f"a {type(value).__name__}" if a.ndim == 0 else f"shape {a.shape}"


def sequence(value, wanted: str, limit: int) -> list:
    """The first ``limit`` items of ``value``, a non-empty sequence: an iterable that is not a
    string, an NDArray, a numpy array of other than one dimension or a one-shot iterator (a
    generator: reading it here would leave nothing for the body). Otherwise a ``ValueError``:
    ``f"{wanted}, got ..."``."""
    if isinstance(value, (str, bytes)) or _is_ndarray(value) or getattr(value, "ndim", 1) != 1 \
            or not hasattr(value, "__iter__") or iter(value) is value:
        raise ValueError(f"{wanted}, got {value!r:.60}")
    items = list(itertools.islice(value, limit))
    if not items:
        raise ValueError(f"{wanted}, got an empty sequence")
    return items


def positive_int(value, name: str, *, minimum: int = 1, maximum: int = MAX_COUNT) -> int:
    """Check that ``value`` is an integer in ``minimum .. maximum`` and return it as ``int``."""
    if not _integer(value) or value < minimum:
        shown = int(value) if _integer(value) else f"{value!r:.60}"
        raise ValueError(f"{name} must be an integer >= {minimum}, got {shown}")
    if value > maximum:
        raise ValueError(f"{name} must be at most {maximum:,}, got {int(value):,}")
    return int(value)


def seed(value, name: str = "seed") -> int | None:
    """``None``, or an integer seed in ``0 .. SEED_MAX`` (what numpy and MXNet both accept)."""
    if value is not None and (not _integer(value) or value < 0):
        raise ValueError(f"{name} must be None or an integer in 0 .. 2**32 - 1 = {SEED_MAX}, "
                         f"got {value!r:.60}")
    if value is not None and value > SEED_MAX:
        raise ValueError(f"{name} must be below 2**32 = {SEED_MAX + 1} (MXNet's generator and "
                         f"numpy's legacy seeding take no more), got {value}")
    return None if value is None else int(value)


def seeds(value, name: str = "seeds", *, maximum: int = MAX_REPEATS) -> list[int]:
    """A non-empty list of seeds: a count ``k`` meaning ``range(k)``, or a sequence of at most
    ``maximum`` of them, each checked as :func:`positive_int` checks an integer in
    ``0 .. SEED_MAX``."""
    if _integer(value):
        return list(range(positive_int(value, name, maximum=maximum)))
    wanted = f"{name} must be a count or a non-empty sequence of integer seeds in 0 .. {SEED_MAX}"
    items = sequence(value, wanted, maximum + 1)
    if len(items) > maximum:
        raise ValueError(f"{name} holds more than {maximum:,} seeds")
    return [positive_int(s, f"{name}[k]", minimum=0, maximum=SEED_MAX) for s in items]


def counts(values, name: str, *, minimum: int = 1, maximum: int = MAX_COUNT) -> list[int]:
    """A non-empty sequence of integers in ``minimum .. maximum`` (e.g. worker counts), each
    checked as :func:`positive_int` checks one (the first million only)."""
    items = sequence(values, f"{name} must be a non-empty sequence of integers >= {minimum}",
                     MAX_REPEATS)
    return [positive_int(v, name, minimum=minimum, maximum=maximum) for v in items]


def elements(count: int, what: str, itemsize: int = 8) -> None:
    """Refuse, before allocating, an array of ``count`` elements above :data:`MAX_ELEMENTS`, or
    one that would take more than a quarter of this machine's physical memory (an experiment
    holds a few such arrays at once, so one that size would end in a MemoryError half-way);
    a system that does not say how much memory it has (not POSIX) is held to the first only."""
    if count > MAX_ELEMENTS:
        raise ValueError(f"{what} would need {count:,} elements, more than the limit of "
                         f"2**31 - 1 = {MAX_ELEMENTS:,} per array; use smaller sizes")
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        memory = 0
    if memory and count * itemsize > memory // 4:
        raise ValueError(f"{what} would need {count * itemsize / 2**30:.1f} GiB, more than a "
                         f"quarter of this machine's {memory / 2**30:.1f} GiB of memory; use "
                         f"smaller sizes")


def finite_float(value, name: str, *, minimum: float | None = None,
                 strictly_positive: bool = False) -> float:
    """Check that ``value`` is a finite real number (optionally bounded below), not subnormal:
    MXNet refuses a scalar below 2.2e-308 in size from inside its operators."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if value != 0 and abs(value) < sys.float_info.min:
        allowed = "at least" if strictly_positive else "0 or at least"
        raise ValueError(f"{name} must be {allowed} {sys.float_info.min:.3g} in size (smaller "
                         f"numbers are subnormal), got {value!r}")
    if strictly_positive and value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def features(X, name: str = "X", dtype=None) -> np.ndarray:
    """Return ``X`` as a finite 2-D float array of shape ``(n, d)`` with ``n, d >= 1``.

    Float32 and float64 inputs keep their precision, anything else becomes float64, unless
    ``dtype`` (e.g. ``np.float64``) is given. Finiteness is first tried with one cheap
    reduction in the array's own dtype (a float32 sum that overflows only sends a finite ``X``
    to the elementwise search, which then finds nothing).
    """
    a = to_numpy(X, name)
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D with shape (samples, dimensions), got "
                         f"{_got(X, a)}; reshape a single example with x.reshape(1, -1)")
    if a.size == 0:
        raise ValueError(f"{name} must hold at least one example and one feature, "
                         f"got shape {a.shape}")
    if not _real(a):
        raise ValueError(f"{name} must hold real numbers, got dtype {a.dtype}")
    a = as_features(a, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(a.sum()) or np.all(np.isfinite(a)):
            return a
    i, j = np.argwhere(~np.isfinite(a))[0]
    raise ValueError(f"{name} must be finite, but {name}[{i}, {j}] = {a[i, j]}; drop or impute "
                     f"NaN/inf rows first")


def one_per_row(y, name: str, n: int | None, of: str = "X") -> np.ndarray:
    """``y`` as a 1-D numpy array (a column or a row is flattened), one entry per example
    (``n`` of them, when given: the rows of the argument ``of``): labels of any kind."""
    a = to_numpy(y, name)
    a = a.reshape(-1) if a.ndim == 2 and 1 in a.shape else a
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per example), got {_got(y, a)}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{of} and {name} must have the same length: {of} has {n} examples, "
                         f"{name} has {a.shape[0]} labels")
    return a


def labels(Y, n: int | None = None, name: str = "Y", dtype=np.float64,
           of: str = "X") -> np.ndarray:
    """Return ``Y`` as a 1-D array of -1/+1 labels (length ``n`` if given: the rows of the
    argument ``of``), in ``dtype``."""
    a = one_per_row(Y, name, n, of)
    if not _real(a):
        raise ValueError(f"{name} must hold the numbers -1 and +1, got dtype {a.dtype}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite and in {{-1, +1}}, found NaN or inf")
    bad = (a != 1) & (a != -1)
    if np.any(bad):
        hint = " (0/1 labels? use Y = 2 * Y - 1)" if set(np.unique(a)) <= {0, 1} else ""
        raise ValueError(f"{name} must hold only -1 and +1, found "
                         f"{np.unique(a[bad])[:5].tolist()}{hint}")
    return a.astype(dtype)


def choice(value, name: str, options) -> str:
    """Check that ``value`` is one of ``options`` (unhashable values are refused too)."""
    try:
        known = value in options
    except TypeError:
        known = False
    if not known:
        raise ValueError(f"{name} must be one of {sorted(options)}, got {value!r:.60}")
    return value


def _one_line(a: np.ndarray, name: str, what: str, n: str) -> np.ndarray:
    """``a`` flattened, if it is one line of numbers: shape ``(n,)``, ``(n, 1)`` or ``(1, n)``
    (a table is refused, not read row after row: its shape would be lost)."""
    if a.ndim > 2 or (a.ndim == 2 and 1 not in a.shape):
        raise ValueError(f"{name} must be {what}, of shape ({n},), ({n}, 1) or (1, {n}), got "
                         f"shape {a.shape}")
    return a.reshape(-1)


def vector(v, name: str, size: int | None = None) -> np.ndarray:
    """Return ``v`` (one vector, of shape ``(d,)``, ``(d, 1)``, ...) as a finite 1-D array.

    Float32 and float64 keep their precision, as in :func:`features`; anything else becomes
    float64. ``size``, if given, is the number of entries required: one per feature of ``X``.
    """
    a = to_numpy(v, name)
    if not _real(a):
        raise ValueError(f"{name} must be a vector of real numbers, got {type(v).__name__} "
                         f"{v!r:.60}")
    a = as_vector(_one_line(a, name, "one vector", "d"))
    if a.size == 0:
        raise ValueError(f"{name} must hold at least one number, got an empty array")
    if size is not None and a.size != size:
        raise ValueError(f"{name} has {a.size} entries but X has {size} features: pass one "
                         f"number per feature")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {a}; drop or replace its NaN/inf entries")
    return a


def scalar(value, name: str, **bounds) -> float:
    """Like :func:`finite_float`, also accepting a one-element array (e.g. an NDArray ``b``)."""
    if isinstance(value, np.ndarray) or _is_ndarray(value):
        if value.size != 1:
            raise ValueError(f"{name} must be a single number, got an array of shape {value.shape}")
        value = to_numpy(value, name).reshape(-1)[0].item()
    return finite_float(value, name, **bounds)


def typed(value, name: str, ok: bool, wanted: str):
    """``value``, if ``ok``; else a ``TypeError``: ``f"{name} must be {wanted}, got {type}
    {value!r}"`` (the one message of an argument of the wrong kind: an NDArray, a function,
    an Axes, ...)."""
    if not ok:
        raise TypeError(f"{name} must be {wanted}, got {type(value).__name__} {value!r:.40}")
    return value


def instance(value, cls, name: str, hint: str):
    """``value``, unless it is no ``cls``: then :func:`typed`'s ``TypeError``, ``hint`` saying
    where one comes from."""
    names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    article = "an" if names[0] in "AEIOU" else "a"
    return typed(value, name, isinstance(value, cls), f"{article} {names} ({hint})")


def one_float_dtype(w, b, x) -> None:
    """The NDArrays ``w``, ``b`` and ``x`` share one float dtype (MXNet's ``dot`` refuses a mix
    with an "Incompatible attr" error from inside the engine)."""
    dw = np.dtype(w.dtype)
    if not np.issubdtype(dw, np.floating):
        raise TypeError(f"w must hold floats (float32 or float64), got {dw.name}; use "
                        f"w = w.astype('float32')")
    for name, a in (("b", b), ("x", x)):
        if np.dtype(a.dtype) != dw:
            raise TypeError(f"{name} has dtype {np.dtype(a.dtype).name} but w has {dw.name}: "
                            f"MXNet needs one dtype; cast with {name}.astype(w.dtype) (or build "
                            f"w and b in {np.dtype(a.dtype).name})")


def flag(value, name: str) -> bool:
    """Check that ``value`` is a boolean (``True``/``False``, numpy's too) and return it."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def finite_values(values, name: str, *, minimum: float = 0.0, strict: bool = False) -> np.ndarray:
    """A non-empty 1-D float array of finite numbers, each ``>= minimum`` (``> minimum`` when
    ``strict``), or a ValueError naming the argument. One number is a sequence of one, and a
    row or a column is a sequence, as for :func:`vector`; a table is refused, not read row after
    row (its shape would be lost in the result)."""
    a = _one_line(to_numpy(values, name), name, "a number or one sequence of numbers", "n")
    if not _real(a) or a.size == 0 or not np.all(np.isfinite(a)) \
            or np.any(a <= minimum if strict else a < minimum):
        raise ValueError(f"{name} must be a non-empty sequence of finite numbers "
                         f"{'>' if strict else '>='} {minimum:g}, got {values!r:.60}")
    return a.astype(np.float64)
