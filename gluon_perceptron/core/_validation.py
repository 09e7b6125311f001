"""Argument checks declared once, at the public edge (scikit-learn's ``validate_params``).

A public function declares a *rule* for each of its parameters; its body is the algorithm and
never checks::

    @validate_params(X=features(), Y=labels(of="X"), max_epochs=count(),
                     learning_rate=real(positive=True), w0=optional(vector(size_of="X")))
    def train(X, Y, *, max_epochs, learning_rate=1.0, w0=None):
        ...

A rule is a callable ``rule(value, name, args) -> value``: it raises ``ValueError`` or
``TypeError`` naming the argument (the messages of :mod:`._checks`). It only checks: the body
is called with the arguments as the user gave them and converts them itself, in one visible
line (:mod:`._convert`: ``X = as_features(X)``). What a rule returns (``X`` as a float numpy
array) is for the rules after it: ``args`` holds the parameters already checked, in the order
the rules are declared, so a rule can follow another argument (``Y``'s length follows ``X``).

Only the *outermost* call of a decorated function checks. It runs its body with a context flag
set, and any decorated function called while the flag is set (the package calling itself) runs
its body directly on the arguments as given. ``skip_nested=False`` is for a function that calls
a user's code (a loss, a callback): it checks its own arguments but leaves the flag unset, so
what the user's code calls is checked again. The flag is a :class:`contextvars.ContextVar`,
reset in ``finally``: an exception does not leave it set, and a new thread starts unset.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import numbers
from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from . import _checks
from ._arrays import _is_ndarray

if TYPE_CHECKING:
    import mxnet as mx

#: True while the body of an outer checked call runs: the package's own calls are trusted.
_TRUSTED = contextvars.ContextVar("gluon_perceptron_trusted", default=False)


class Rule:
    """A named rule: ``check(value, name, args) -> value``, shown as ``text`` (e.g.
    ``count(maximum=100)``) in a function's ``__rules__``; ``needs`` names the parameters it reads
    from ``args``, which must be declared before it."""

    def __init__(self, check: Callable[[Any, str, dict], Any], text: str, needs: tuple = ()):
        self.check, self.text, self.needs = check, text, needs

    def __call__(self, value, name: str, args: dict):
        return self.check(value, name, args)

    def __repr__(self) -> str:
        return self.text


def _text(factory: str, **given: tuple) -> str:
    """``factory(name=value, ...)`` for the rule's repr, listing only what is not the default
    (``given`` maps each parameter to ``(value, default)``)."""
    return f"{factory}({', '.join(f'{k}={v!r}' for k, (v, d) in given.items() if v != d)})"


def _calling(check: str, text: str, **options) -> Rule:
    """The rule ``_checks.<check>(value, name, **options)``, looked up at each call (a test
    may wrap it)."""
    return Rule(lambda value, name, args: getattr(_checks, check)(value, name, **options), text)


# --- the decorator ----------------------------------------------------------------------------

# Two signatures for mypy: rules only, so that shared dicts of rules unpack (``**RUN_RULES``;
# against the one below a rule could fill ``skip_nested``), and rules with the options.
@overload
def validate_params(**rules: Callable) -> Callable: ...  # noqa: E704


@overload
def validate_params(*, skip_nested: bool = True, returns: Callable | None = None,
                    **rules: Callable) -> Callable: ...  # noqa: E704


def validate_params(*, skip_nested: object = True, returns: Callable | None = None,
                    **rules: Callable) -> Callable:  # object: as the overload above allows
    """Declare a rule for every parameter of the decorated function; check outer calls only.

    Parameters
    ----------
    skip_nested : bool
        True (default): the body runs trusted, so the decorated functions it calls do not check
        again. False, for a function that calls a user's code: it checks its own arguments but
        the calls made from its body (and the user's code) are checked.
    returns : callable, optional
        A rule for the result of an outer call, ``returns(result, function_name, arguments)``.
    **rules : callable
        ``parameter=rule`` for every parameter (:data:`unchecked` for one that needs none),
        except the package's parameter words (:data:`WORDS`: ``X``, ``Y``, ``seed``, ...),
        which take their one rule unless declared. Rules run in the order of the signature; a
        rule that reads another argument (``labels(of="X")``) waits for it.

    Returns
    -------
    callable
        The decorator. The wrapper keeps the function's name, docstring, signature and
        ``__wrapped__``, and exposes the rules as ``__rules__``.

    Raises
    ------
    TypeError
        At decoration time, when a parameter has no rule, a rule names no parameter, a rule is
        not callable, a rule reads an argument it cannot follow, or a declared rule is the
        word's own (leave it out).
    """
    def decorate(function: Callable) -> Callable:
        signature = inspect.signature(function)
        where = f"validate_params of {function.__qualname__}"
        missing = [p for p in signature.parameters if p not in rules and p not in WORDS]
        unknown = [r for r in rules if r not in signature.parameters]
        spelled = [r for r in rules if r in WORDS and repr(rules[r]) == repr(WORDS[r])]
        if missing or unknown or spelled:
            raise TypeError(f"{where}: every parameter needs a rule (unchecked for none), the "
                            f"words' own are implied; missing {missing}, unknown {unknown}, "
                            f"implied {spelled}")
        for name, rule in rules.items():
            if not callable(rule):
                raise TypeError(f"{where}: the rule of {name} must be callable as "
                                f"rule(value, name, args), got {rule!r:.60}")
        every = {p: rules.get(p, WORDS.get(p)) for p in signature.parameters}
        plan = _Plan(signature, _ordered(every, where))

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if _TRUSTED.get():
                return function(*args, **kwargs)
            checked = _check_call(function, plan, args, kwargs)
            token = _TRUSTED.set(bool(skip_nested))  # skip_nested=False leaves it False
            try:
                result = function(*args, **kwargs)
            finally:
                _TRUSTED.reset(token)
            return result if returns is None else returns(result, function.__name__, checked)

        setattr(wrapper, "__rules__", MappingProxyType(dict(plan.order)))  # noqa: B010 - not in wraps' type
        return wrapper

    return decorate


def _ordered(rules: dict, where: str) -> tuple:
    """The ``(name, rule)`` pairs in the order of the signature, a rule that reads other
    arguments (its ``needs``) moved after them."""
    order: list = []
    pending = list(rules.items())
    while pending:
        placed = {name for name, _ in order}
        ready = next((k for k, (_, rule) in enumerate(pending)
                      if set(getattr(rule, "needs", ())) <= placed), None)
        if ready is None:
            name, rule = pending[0]
            raise TypeError(f"{where}: the rule of {name} ({rule!r:.60}) reads "
                            f"{[n for n in rule.needs if n not in placed]}, which no rule "
                            f"before it checks")
        order.append(pending.pop(ready))
    return tuple(order)


class _Plan:
    """What checking a call of one function needs, computed once at decoration: its signature,
    its rules in order, and for a plain signature (no positional-only parameter, no ``*args``
    or ``**kwargs``) the names and defaults that bind a call without ``Signature.bind``."""

    def __init__(self, signature: inspect.Signature, order: tuple):
        self.signature, self.order, params = signature, order, signature.parameters.values()
        plain = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params)
        self.positional = tuple(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD)
        self.names = frozenset(signature.parameters) if plain else frozenset()
        self.defaults = {p.name: p.default for p in params if p.default is not p.empty}


def _check_call(function: Callable, plan: _Plan, args: tuple, kwargs: dict) -> dict:
    """Check one outer call: bind the arguments (defaults included) and run every rule in the
    order declared. The body is then called with the arguments as given (it converts them
    itself, in one visible line); the checked arguments returned are for a ``returns`` rule.
    The one entry into checking (``benchmarks/validation_share.py`` counts its calls)."""
    given = dict(zip(plan.positional, args))
    if plan.names and len(args) <= len(given) and kwargs.keys() <= plan.names - given.keys() \
            and len(arguments := {**plan.defaults, **given, **kwargs}) == len(plan.names):
        return _apply(plan.order, arguments)  # a plain call, bound without Signature.bind
    try:  # the general case, and the exact TypeError of a call that does not bind
        bound = plan.signature.bind(*args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"{function.__name__}() {exc}") from None
    bound.apply_defaults()
    return _apply(plan.order, bound.arguments)


def _apply(order: tuple, arguments: dict) -> dict:
    """Run the rules in order on the bound ``arguments``; each sees those checked before it
    (as its rule left it: ``labels(of="X")`` reads ``X``'s shape). Returns them, checked."""
    checked: dict = {}
    for name, rule in order:
        checked[name] = rule(arguments[name], name, checked)
    return checked


def trusted() -> bool:
    """True while the body of an outer checked call runs (nested calls are not checked)."""
    return _TRUSTED.get()


# --- rules ------------------------------------------------------------------------------------

#: The rule of an argument that needs no check (passed through as given).
unchecked = Rule(lambda value, name, args: value, "unchecked")


def features(dtype=None) -> Rule:
    """``X``: a finite 2-D float array (n, d), n, d >= 1 (:func:`._checks.features`): float32
    and float64 keep their precision, unless ``dtype`` (e.g. ``np.float64``) is given."""
    to = None if dtype is None else np.dtype(dtype)

    def check(value, name: str, args: dict) -> np.ndarray:
        X = _checks.features(value, name)
        return X if to is None else X.astype(to, copy=False)
    return Rule(check, "features()" if to is None else f"features(dtype={to.name})")


def features_for(width: Callable[[Any], int], model: str = "model") -> Rule:
    """``X`` as :func:`features`, for the trained ``model`` (an argument declared before it):
    ``width(model)`` columns, the features it was trained on (``predict_multiclass``)."""
    def check(value, name: str, args: dict) -> np.ndarray:
        X, d = _checks.features(value, name), width(args[model])
        if X.shape[1] != d:
            raise ValueError(f"{name} has {X.shape[1]} features but the {model} was trained on {d}")
        return X
    return Rule(check, f"features_for({model!r})", (model,))


def labels(of: str | None = "X") -> Rule:
    """``Y``: -1/+1 labels, one per row of the argument ``of`` and in its dtype (or float64
    of any length when ``of`` is None)."""
    return Rule(lambda value, name, args: _checks.labels(
        value, None if of is None else args[of].shape[0], name,
        np.float64 if of is None else args[of].dtype), _text("labels", of=(of, None)),
        () if of is None else (of,))


def _label(y, name: str, args: dict) -> float:
    a = _checks.to_numpy(y, name)
    if a.size != 1 or not _checks._real(a):
        got = f"got an array of shape {a.shape}" if _is_ndarray(y) else f"-1 or +1, got {y!r:.60}"
        raise ValueError(f"{name} must be a single label, {got}")
    if float(a.reshape(-1)[0]) not in (1.0, -1.0):
        raise ValueError(f"{name} must be -1 or +1, got {float(a.reshape(-1)[0])}")
    return float(a.reshape(-1)[0])


def class_labels(of: str | None = "X", whole: bool = False) -> Rule:
    """``y``: class labels (any type: numbers, strings), a 1-D array or a column, one per row
    of the argument ``of`` (None: any length), none NaN or inf, as a 1-D numpy array. With
    ``whole`` (the multiclass trainers): integers, strings or whole-valued floats (each
    distinct float would be a class of its own), and at least 2 classes."""
    def check(y, name: str, args: dict) -> np.ndarray:
        yn = _checks.one_per_row(y, name, None if of is None else args[of].shape[0])
        if yn.size == 0:
            raise ValueError(f"{name} is empty: pass one label per example")
        if yn.dtype.kind in "fc" and not np.all(np.isfinite(yn)):
            raise ValueError(f"{name} must hold class labels, found NaN or inf; drop those "
                             f"examples first")
        if whole and (yn.dtype.kind == "c" or (yn.dtype.kind == "O" and not all(
                isinstance(v, str) for v in yn))):
            raise ValueError(f"{name} must hold class labels (integers or strings), got dtype "
                             f"{yn.dtype}")
        fractional = np.unique(yn[yn != np.round(yn)]) if whole and yn.dtype.kind == "f" \
            else np.empty(0)
        if len(fractional):
            raise ValueError(f"{name} must hold class labels (whole numbers such as the digits 0 "
                             f"to 9), found {len(fractional)} non-integer values such as "
                             f"{fractional[:3].tolist()}: each distinct value would become a "
                             f"class of its own; round or bin {name} first")
        if whole and np.unique(yn).size < 2:
            raise ValueError(f"{name} must hold at least 2 classes, got {np.unique(yn).tolist()}")
        return yn
    return Rule(check, _text("class_labels", of=(of, "X"), whole=(whole, False)),
                () if of is None else (of,))


def label() -> Rule:
    """One label, -1 or +1, from a number or a one-element array (NDArray too); a float."""
    return Rule(_label, "label()")


def count(minimum: int = 1, maximum: int = _checks.MAX_COUNT, at_most: str | None = None) -> Rule:
    """An integer in ``minimum .. maximum`` (epochs, steps, sizes), as ``int``; with
    ``at_most``, also at most that argument (an integer, or a sequence's length), declared
    before it: ``last=count(at_most="epochs")``."""
    def check(value, name: str, args: dict) -> int:
        value = _checks.positive_int(value, name, minimum=minimum, maximum=maximum)
        if at_most is not None:
            whole = isinstance(args[at_most], numbers.Integral)
            most = int(args[at_most]) if whole else len(args[at_most])
            if value > most:
                what = f"{at_most}={most}" if whole else f"the {most} values of {at_most}"
                raise ValueError(f"{name}={value} is more than {what}; use at most {most}")
        return value
    return Rule(check, _text("count", minimum=(minimum, 1), maximum=(maximum, _checks.MAX_COUNT),
                             at_most=(at_most, None)), () if at_most is None else (at_most,))


def fits(rule: Rule, size: Callable[[Any, dict], int], what: str, needs: tuple = ()) -> Rule:
    """``rule``, then the table the value asks for, ``size(value, args)`` numbers, must fit
    (:func:`._checks.elements`: MXNet's limit, a quarter of the memory); ``what`` names that
    table, formatted with ``value`` and the arguments: ``fits(count(), lambda epochs, args:
    3 * epochs, "the recorded weights (epochs={value} passes x 3 numbers)")``; ``needs`` names
    the other arguments ``size`` reads."""
    def check(value, name: str, args: dict):
        value = rule(value, name, args)
        _checks.elements(size(value, args), what.format(value=value, **args))
        return value
    return Rule(check, f"fits({rule!r}, {what!r:.40})", tuple(getattr(rule, "needs", ())) + needs)


def repeats() -> Rule:
    """A number of repetitions (trials, draws): an integer in ``1 .. MAX_REPEATS``."""
    return _calling("repeats", "repeats()")


def seed() -> Rule:
    """None or an integer seed in ``0 .. 2**32 - 1``."""
    return _calling("seed", "seed()")


def seeds(maximum: int = _checks.MAX_REPEATS) -> Rule:
    """A count ``k`` (meaning ``range(k)``) or a non-empty sequence of seeds; a list."""
    return _calling("seeds", _text("seeds", maximum=(maximum, _checks.MAX_REPEATS)),
                    maximum=maximum)


def real(minimum: float | None = None, positive: bool = False, maximum: float | None = None,
         why: str = "") -> Rule:
    """A finite real number (``>= minimum``; ``> 0`` when ``positive``), as ``float``.

    With ``maximum``, also at most ``maximum`` (in size, ``|value|``, unless ``positive``);
    ``why`` says in the error message what the bound protects (``"its square enters the
    bound"``).
    """
    def check(value, name: str, args: dict) -> float:
        value = _checks.finite_float(value, name, minimum=minimum, strictly_positive=positive)
        if maximum is not None and abs(value) > maximum:
            bound = f"{maximum:g}".replace("e+", "e")
            what = f"in (0, {bound}]" if positive else f"at most {bound} in size"
            raise ValueError(f"{name} must be {what}{f' ({why})' if why else ''}, got {value!r}")
        return value
    return Rule(check, _text("real", minimum=(minimum, None), positive=(positive, False),
                             maximum=(maximum, None)))


def scalar(minimum: float | None = None, positive: bool = False) -> Rule:
    """Like :func:`real`, also accepting a one-element array (e.g. an NDArray ``b``)."""
    return _calling("scalar", _text("scalar", minimum=(minimum, None), positive=(positive, False)),
                    minimum=minimum, strictly_positive=positive)


def fraction() -> Rule:
    """A finite number in [0, 1], as ``float``."""
    return _calling("fraction", "fraction()")


def one_of(*options) -> Rule:
    """One of ``options`` (e.g. ``one_of("fast", "faithful")``), returned as given."""
    return _calling("choice", f"one_of({', '.join(map(repr, options))})",
                    options=frozenset(options))


def names(*options: str) -> Rule:
    """A non-empty sequence of names, each one of ``options`` (``names("uniform",
    "weighted")``; a string alone is refused: ``("uniform",)`` names one), as a tuple."""
    def check(value, name: str, args: dict) -> tuple:
        items = () if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__") else \
            tuple(_checks.choice(v, f"{name}[k]", frozenset(options)) for v in list(value)[:1000])
        if not items:
            raise ValueError(f"{name} must be a non-empty sequence of names from {list(options)}, "
                             f"e.g. {name}=({options[0]!r},), got {value!r:.60}")
        return items
    return Rule(check, f"names({', '.join(map(repr, options))})")


def flag() -> Rule:
    """True or False (numpy's too), as ``bool``."""
    return _calling("flag", "flag()")


def _progress(value, name: str, args: dict):
    if value is not None and not isinstance(value, (bool, np.bool_)) and not callable(value):
        raise TypeError(f"{name} must be None or a callable like tqdm.tqdm "
                        f"(called as {name}(items, desc=...)), got {value!r:.60}")
    return None if value is None or isinstance(value, (bool, np.bool_)) else value


def progress() -> Rule:
    """None or a callable like ``tqdm`` (the old booleans mean None)."""
    return Rule(_progress, "progress()")


def vector(size_of: str | None = None) -> Rule:
    """One finite vector as a 1-D float array; with ``size_of``, one entry per feature (column)
    of that argument."""
    return Rule(lambda value, name, args: _checks.vector(
        value, name, size=None if size_of is None else args[size_of].shape[1]),
        _text("vector", size_of=(size_of, None)), () if size_of is None else (size_of,))


def finite_values(minimum: float = 0.0, strict: bool = False) -> Rule:
    """A non-empty 1-D float64 array of finite numbers, each ``>= minimum`` (``>`` if
    ``strict``)."""
    return _calling("finite_values", _text("finite_values", minimum=(minimum, 0.0),
                                           strict=(strict, False)), minimum=minimum, strict=strict)


def counts(minimum: int = 1, maximum: int = _checks.MAX_COUNT) -> Rule:
    """A non-empty sequence of integers in ``minimum .. maximum``, as a list."""
    return _calling("counts", _text("counts", minimum=(minimum, 1),
                                    maximum=(maximum, _checks.MAX_COUNT)),
                    minimum=minimum, maximum=maximum)


def instance(cls: type | tuple[type, ...], hint: str) -> Rule:
    """An instance of ``cls`` (``TypeError`` otherwise; ``hint`` says where one comes from)."""
    def check(value, name: str, args: dict):
        _checks.instance(value, cls, name, hint)
        return value
    shown = ", ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    return Rule(check, f"instance({shown}, {hint!r})")


def optional(rule: Callable) -> Rule:
    """``rule``, except that None passes through unchanged."""
    return Rule(lambda value, name, args: None if value is None else rule(value, name, args),
                f"optional({rule!r})", tuple(getattr(rule, "needs", ())))


def ndarray(why: str) -> Rule:
    """An mxnet NDArray, returned as is (``TypeError`` otherwise); ``why`` says what needs one,
    e.g. ``"perceptron updates w and b in place"``."""
    def check(value, name: str, args: dict):
        if not _is_ndarray(value):
            raise TypeError(f"{name} must be an mxnet NDArray ({why}), got "
                            f"{type(value).__name__}; wrap it with nd.array(...)")
        return value
    return Rule(check, f"ndarray({why!r})")


def function(hint: str) -> Rule:
    """A callable argument (a loss, a schedule, a callback), returned as given; ``hint`` says
    what is expected, for the ``TypeError`` of a value that is not callable: ``"loss must be a
    function {hint}, got str 'hinge'"``. A body that calls a user's function converts it first,
    in one visible line: :func:`user_code`."""
    def check(value, name: str, args: dict):
        if not callable(value):
            raise TypeError(f"{name} must be a function {hint}, got {type(value).__name__} "
                            f"{value!r:.40}")
        return value
    return Rule(check, f"function({hint!r:.40})")


def user_code(value, name: str, returns: tuple[type, str, str] | None = None):
    """``value`` as a trusted body should call it, the one line that converts a callable
    argument: None, a non-callable and the package's own decorated functions (they have
    ``__rules__``) as given (a trusted body calls them unchecked, and fast); any other callable
    is the user's code, wrapped to run with the trusted flag unset, so that the package
    functions *it* calls are checked. With ``returns=(cls, what, why)`` the wrapper also refuses
    a result that is no ``cls`` with a ``TypeError`` (``"loss must return {what}, but 'f'
    returned ndarray{why}"``)."""
    if not callable(value) or hasattr(value, "__rules__"):
        return value

    @functools.wraps(value)
    def untrusted(*args, **kwargs):
        token = _TRUSTED.set(False)
        try:
            result = value(*args, **kwargs)
        finally:
            _TRUSTED.reset(token)
        if returns is not None and not isinstance(result, returns[0]):
            raise TypeError(f"{name} must return {returns[1]}, but "
                            f"{getattr(value, '__name__', value)!r:.60} returned "
                            f"{type(result).__name__}{returns[2]}")
        return result
    return untrusted


def _context(value, name: str, args: dict) -> mx.Context:
    import mxnet as mx  # here: a process whose functions take no ctx never imports MXNet

    if value is not None and not isinstance(value, mx.Context):
        raise TypeError(f"{name} must be an mxnet Context such as mx.cpu() or mx.gpu(0), got "
                        f"{type(value).__name__} {value!r:.60}")
    return mx.cpu() if value is None else value


def context():
    """The rule of a ``ctx=`` argument: an ``mx.Context``; None means ``mx.cpu()``."""
    return Rule(_context, "context()")


def _ax(value, name: str, args: dict):
    # matplotlib's Axes by its class's name: core imports no drawing library
    if value is not None and not any(c.__module__.startswith("matplotlib.axes")
                                     and c.__name__ == "Axes" for c in type(value).__mro__):
        raise TypeError(f"{name} must be None (a new figure) or a matplotlib Axes, e.g. "
                        f"plt.subplots()[1], got {type(value).__name__} {value!r:.40}")
    return value


#: The package's parameter words, one meaning each (one word for one idea): a parameter of a
#: checked function so named takes this rule unless the function declares its own.
WORDS: dict[str, Rule] = dict(
    X=features(), Y=labels(of="X"), w0=optional(vector(size_of="X")), bias=flag(),
    max_epochs=count(), max_iterations=count(), learning_rate=real(positive=True),
    threshold=real(minimum=0.0), C=real(positive=True), seed=seed(), seeds=seeds(),
    trials=repeats(), progress=progress(), ctx=context(), ax=Rule(_ax, "ax"),
    title=optional(instance(str, "a title")))


# --- added by c33e ----------------------------------------------------------------------------

def such_that(rule: Rule, holds: Callable[[Any, dict], object], message: str,
              needs: tuple = (), error: type[Exception] = ValueError) -> Rule:
    """``rule``, then ``holds(value, args)`` must be true of the value it checked, else an
    ``error`` (``ValueError``; ``TypeError`` for a value of the wrong kind) of ``message``
    formatted with the argument's ``name``, that ``value`` and the arguments checked before it
    (``args``): ``such_that(real(positive=True), lambda v, args: v < 1, "{name} must be below
    1, got {value}")``; ``needs`` names the arguments ``holds`` reads."""
    def check(value, name: str, args: dict):
        value = rule(value, name, args)
        if not holds(value, args):
            raise error(message.format(name=name, value=value, args=args))
        return value
    return Rule(check, f"such_that({rule!r}, {message!r:.40})",
                tuple(getattr(rule, "needs", ())) + needs)
