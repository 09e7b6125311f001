"""Argument checks declared once, at the public edge (scikit-learn's ``validate_params``).

A public function declares a *rule* for each of its parameters; its body is the algorithm and
never checks::

    @validate_params(engine=one_of("fast", "faithful"))  # X, Y, max_epochs, ...: the words
    def train(X, Y, *, max_epochs, learning_rate=1.0, w0=None, engine="fast"):
        ...

A rule is a callable ``rule(value, name, args) -> value``: it raises ``ValueError`` or
``TypeError`` naming the argument (the messages of :mod:`._checks`). It only checks: the body
is called with the arguments as the user gave them and converts them itself, in one visible
line (:mod:`._convert`: ``X = as_features(X)``). What a rule returns (``X`` as a float numpy
array) is for the rules after it: ``args`` holds the parameters already checked, in the order
of the signature, except that a rule that reads other arguments (its ``needs``: ``Y``'s length
follows ``X``) runs after them. The package's parameter words (:data:`WORDS`) take their rule
without a declaration.

Only the *outermost* call of a decorated function checks. It runs its body with a context flag
set, and any decorated function called while the flag is set (the package calling itself) runs
its body directly on the arguments as given. ``skip_nested=False`` is for a function that calls
a user's code (a loss, a callback): it checks its own arguments but leaves the flag unset, so
what the user's code calls is checked again. The flag is a :class:`contextvars.ContextVar`,
reset in ``finally``: an exception does not leave it set, and a new thread starts unset.

A rule's repr (``Rule.text``, shown in a function's ``__rules__``) is the factory call that
made it, listing only the arguments that are not the default: ``count(maximum=100)``.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable, Sized
from types import MappingProxyType
from typing import Any

import numpy as np

from . import _checks
from ._arrays import FLOAT32_MAX, FLOAT32_TINY, _is_ndarray

#: True while the body of an outer checked call runs: the package's own calls are trusted.
_TRUSTED = contextvars.ContextVar("gluon_perceptron_trusted", default=False)


class Rule:
    """A named rule: ``check(value, name, args) -> value``, shown as ``text`` (e.g.
    ``count(maximum=100)``) in a function's ``__rules__``; ``needs`` names the parameters it reads
    from ``args``, which run before it."""

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

def validate_params(*, skip_nested: object = True, returns: Callable | None = None,
                    **rules: Callable) -> Callable:
    """Declare a rule for every parameter of the decorated function; check outer calls only.

    Parameters
    ----------
    skip_nested : bool
        True (default): the body runs trusted, so the decorated functions it calls do not check
        again. False, for a function that calls a user's code: it checks its own arguments but
        the calls made from its body (and the user's code) are checked. (Typed ``object`` so
        that a shared dict of rules unpacks, ``**SAMPLE_RULES``, without mypy taking a rule for
        it.)
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
        plan = _Plan(function, rules)

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if _TRUSTED.get():
                return function(*args, **kwargs)
            checked = _check_call(function, plan, args, kwargs)
            result = _run(function, bool(skip_nested), args, kwargs)  # False: leaves it False
            return result if returns is None else returns(result, function.__name__, checked)

        setattr(wrapper, "__rules__", MappingProxyType(plan.rules))  # noqa: B010 - not in wraps' type
        return wrapper

    return decorate


def _run(function: Callable, trusted: bool, args: tuple, kwargs: dict):
    """``function(*args, **kwargs)`` with the trusted flag set to ``trusted``, reset after."""
    token = _TRUSTED.set(trusted)
    try:
        return function(*args, **kwargs)
    finally:
        _TRUSTED.reset(token)


class _Plan:
    """What checking a call of one function needs, computed once at decoration: its signature;
    its rules in the order they run (the words' own where none is declared; refused if a rule
    is missing, names no parameter, is not callable or spells out a word's own); and for a
    plain signature (no positional-only parameter, no ``*args`` or ``**kwargs``) the names and
    defaults that bind a call without ``Signature.bind``."""

    def __init__(self, function: Callable, rules: dict):
        self.signature = inspect.signature(function)
        params, where = self.signature.parameters, f"validate_params of {function.__qualname__}"
        missing = [p for p in params if p not in rules and p not in WORDS]
        unknown = [r for r in rules if r not in params]
        spelled = [r for r in rules if r in WORDS and repr(rules[r]) == repr(WORDS[r])]
        if missing or unknown or spelled:
            raise TypeError(f"{where}: every parameter needs a rule (unchecked for none), the "
                            f"words' own are implied; missing {missing}, unknown {unknown}, "
                            f"implied {spelled}")
        for name, rule in rules.items():
            if not callable(rule):
                raise TypeError(f"{where}: the rule of {name} must be callable as "
                                f"rule(value, name, args), got {rule!r:.60}")
        self.rules = _ordered({p: rules.get(p, WORDS.get(p)) for p in params}, where)
        values = params.values()
        self.positional = [p.name for p in values if p.kind is p.POSITIONAL_OR_KEYWORD]
        plain = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in values)
        self.names = frozenset(params) if plain else frozenset()
        self.defaults = {p.name: p.default for p in values if p.default is not p.empty}


def _ordered(rules: dict, where: str) -> dict:
    """The rules in the order of the signature, a rule that reads other arguments (its
    ``needs``) moved after them; a rule that reads what no rule checks is refused."""
    order: dict = {}
    while pending := [name for name in rules if name not in order]:
        ready = [n for n in pending if set(getattr(rules[n], "needs", ())) <= order.keys()]
        if not ready:
            rule = rules[pending[0]]
            raise TypeError(f"{where}: the rule of {pending[0]} ({rule!r:.60}) reads "
                            f"{[n for n in rule.needs if n not in order]}, which no rule "
                            f"before it checks")
        order[ready[0]] = rules[ready[0]]
    return order


def _check_call(function: Callable, plan: _Plan, args: tuple, kwargs: dict) -> dict:
    """Check one outer call: bind the arguments (defaults included; a plain call without
    ``Signature.bind``, any other with it, and Python's own ``TypeError`` for a call that does
    not bind) and run every rule in order, each seeing the arguments checked before it (as its
    rule left them: ``labels(of="X")`` reads ``X``'s shape). The body is then called with the
    arguments as given (it converts them itself, in one visible line); the checked arguments
    returned are for a ``returns`` rule. The one entry into checking
    (``benchmarks/validation_share.py`` counts its calls)."""
    given = dict(zip(plan.positional, args))
    arguments = {**plan.defaults, **given, **kwargs}
    if not plan.names or len(args) > len(given) or not kwargs.keys() <= plan.names - given.keys() \
            or len(arguments) != len(plan.names):
        try:
            bound = plan.signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{function.__name__}() {exc}") from None
        bound.apply_defaults()
        arguments = bound.arguments
    checked: dict = {}
    for name, rule in plan.rules.items():
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
    return Rule(lambda value, name, args: _checks.features(value, name, to),
                "features()" if to is None else f"features(dtype={to.name})")


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
    def check(value, name: str, args: dict) -> np.ndarray:
        if of is None:
            return _checks.labels(value, name=name)
        return _checks.labels(value, args[of].shape[0], name, args[of].dtype, of)
    return Rule(check, _text("labels", of=(of, None)), () if of is None else (of,))


def class_labels(of: str | None = "X", whole: bool = False) -> Rule:
    """``y``: class labels (any type: numbers, strings), a 1-D array or a column, one per row
    of the argument ``of`` (None: any length), none NaN or inf, as a 1-D numpy array. With
    ``whole`` (the multiclass trainers): integers, strings or whole-valued floats (each
    distinct float would be a class of its own), and at least 2 classes."""
    def check(y, name: str, args: dict) -> np.ndarray:
        yn = _checks.one_per_row(y, name, None) if of is None else \
            _checks.one_per_row(y, name, args[of].shape[0], of)
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


def _label(y, name: str, args: dict) -> float:
    a = _checks.to_numpy(y, name)
    if a.size != 1 or not _checks._real(a):
        got = f"got an array of shape {a.shape}" if _is_ndarray(y) else f"-1 or +1, got {y!r:.60}"
        raise ValueError(f"{name} must be a single label, {got}")
    if float(a.item()) not in (1.0, -1.0):
        raise ValueError(f"{name} must be -1 or +1, got {float(a.item())}")
    return float(a.item())


def label() -> Rule:
    """One label, -1 or +1, from a number or a one-element array (NDArray too); a float."""
    return Rule(_label, "label()")


def count(minimum: int = 1, maximum: int = _checks.MAX_COUNT, at_most: str | None = None) -> Rule:
    """An integer in ``minimum .. maximum`` (epochs, steps, sizes), as ``int``; with
    ``at_most``, also at most that argument (an integer, or a sequence's length), which runs
    before it: ``last=count(at_most="epochs")``."""
    def check(value, name: str, args: dict) -> int:
        value = _checks.positive_int(value, name, minimum=minimum, maximum=maximum)
        most = args.get(at_most)  # None without at_most
        limit = len(most) if isinstance(most, Sized) else most  # an integer is its own limit
        if limit is not None and value > limit:
            what = f"{at_most}={most}" if limit is most else f"the {limit} values of {at_most}"
            raise ValueError(f"{name}={value} is more than {what}; use at most {limit}")
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
    """A number of repetitions (trials, draws): :func:`count` up to ``MAX_REPEATS``."""
    return Rule(count(maximum=_checks.MAX_REPEATS).check, "repeats()")


def seed() -> Rule:
    """None or an integer seed in ``0 .. 2**32 - 1``."""
    return _calling("seed", "seed()")


def seeds(maximum: int = _checks.MAX_REPEATS) -> Rule:
    """A count ``k`` (meaning ``range(k)``) or a non-empty sequence of seeds; a list."""
    return _calling("seeds", _text("seeds", maximum=(maximum, _checks.MAX_REPEATS)),
                    maximum=maximum)


def bound_text(bound: float) -> str:
    """A bound as the messages write it: ``1e150``, not Python's ``1e+150``."""
    return f"{bound:g}".replace("e+", "e")


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
            bound = bound_text(maximum)
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
    """A finite number in [0, 1], as ``float``: :func:`real` from 0 up to 1."""
    return Rule(real(minimum=0.0, maximum=1.0, why="a fraction").check, "fraction()")


def one_of(*options) -> Rule:
    """One of ``options`` (e.g. ``one_of("fast", "faithful")``), returned as given."""
    return _calling("choice", f"one_of({', '.join(map(repr, options))})",
                    options=frozenset(options))


def names(*options: str) -> Rule:
    """A non-empty sequence of names, each one of ``options`` (``names("uniform",
    "weighted")``; a string alone is refused: ``("uniform",)`` names one), as a tuple."""
    def check(value, name: str, args: dict) -> tuple:
        wanted = f"{name} must be a non-empty sequence of names from {list(options)}, e.g. " \
                 f"{name}=({options[0]!r},)"
        return tuple(_checks.choice(v, f"{name}[k]", frozenset(options))
                     for v in _checks.sequence(value, wanted, 1000))
    return Rule(check, f"names({', '.join(map(repr, options))})")


def flag() -> Rule:
    """True or False (numpy's too), as ``bool``."""
    return _calling("flag", "flag()")


def _progress(value, name: str, args: dict):
    off = value is None or isinstance(value, (bool, np.bool_))
    _checks.typed(value, name, off or callable(value),
                  f"None or a callable like tqdm.tqdm (called as {name}(items, desc=...))")
    return None if off else value


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
    shown = ", ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    return Rule(lambda value, name, args: _checks.instance(value, cls, name, hint),
                f"instance({shown}, {hint!r})")


def optional(rule: Callable) -> Rule:
    """``rule``, except that None passes through unchanged."""
    return Rule(lambda value, name, args: None if value is None else rule(value, name, args),
                f"optional({rule!r})", tuple(getattr(rule, "needs", ())))


def ndarray(why: str) -> Rule:
    """An mxnet NDArray, returned as is (``TypeError`` otherwise); ``why`` says what needs one,
    e.g. ``"perceptron updates w and b in place"``."""
    wanted = f"an mxnet NDArray ({why}; wrap it with nd.array(...))"
    return Rule(lambda value, name, args: _checks.typed(value, name, _is_ndarray(value), wanted),
                f"ndarray({why!r})")


def function(hint: str) -> Rule:
    """A callable argument (a loss, a schedule, a callback), returned as given; ``hint`` says
    what is expected, for the ``TypeError`` of a value that is not callable: ``"loss must be a
    function {hint}, got str 'hinge'"``. A body that calls a user's function converts it first,
    in one visible line: :func:`user_code`."""
    return Rule(lambda value, name, args: _checks.typed(value, name, callable(value),
                                                        f"a function {hint}"),
                f"function({hint!r:.40})")


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
        result = _run(value, False, args, kwargs)
        if returns is not None and not isinstance(result, returns[0]):
            raise TypeError(f"{name} must return {returns[1]}, but "
                            f"{getattr(value, '__name__', value)!r:.60} returned "
                            f"{type(result).__name__}{returns[2]}")
        return result
    return untrusted


def _context(value, name: str, args: dict):
    """An ``mx.Context`` (None: ``mx.cpu()``); MXNet imported here, so that a process whose
    functions take no ``ctx`` never imports it."""
    import mxnet as mx

    _checks.typed(value, name, value is None or isinstance(value, mx.Context),
                  "an mxnet Context such as mx.cpu() or mx.gpu(0)")
    return mx.cpu() if value is None else value


def context():
    """The rule of a ``ctx=`` argument: an ``mx.Context``; None means ``mx.cpu()``."""
    return Rule(_context, "context()")


# --- lists, shapes, conditions -------------------------------------------------------------

def items(kinds: type | tuple[type, ...], what: str, each: Callable | None = None) -> Rule:
    """A non-empty list or tuple of ``kinds``, as a list; ``what`` names them in the
    ``TypeError`` (``"strings such as ['ssh', '{host}', '{command}']"``). ``each(item, name)``,
    if given, checks every item and returns it as the list holds it (``parse_host``)."""
    def check(value, name: str, args: dict) -> list:
        if not isinstance(value, (list, tuple)) or not value \
                or not all(isinstance(item, kinds) for item in value):
            raise TypeError(f"{name} must be a non-empty list of {what}, got {value!r:.60}")
        return list(value) if each is None else [each(item, name) for item in value]
    return Rule(check, f"items({what!r:.40})")


def shaped(rows: int | None = None, columns: int | None = None, *, at_least: bool = False,
           words: tuple[str, str] = ("examples", "features"), why: str = "") -> Rule:
    """``X`` as :func:`features`, with ``rows`` rows and ``columns`` columns where given (at
    least that many with ``at_least``); the message calls them ``words`` and says ``why``:
    ``shaped(2, at_least=True, why="one to hold out, the rest to train on")``."""
    def check(value, name: str, args: dict) -> np.ndarray:
        X = _checks.features(value, name)
        for axis, want in enumerate((rows, columns)):
            if want is not None and (X.shape[axis] < want if at_least else X.shape[axis] != want):
                raise ValueError(f"{name} must hold {'at least ' * at_least}{want} {words[axis]} "
                                 f"({why}), got {X.shape[axis]}")
        return X
    return Rule(check, _text("shaped", rows=(rows, None), columns=(columns, None),
                             at_least=(at_least, False)))


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


# --- the package's words ---------------------------------------------------------------------

def _ax(value, name: str, args: dict):
    """None or a matplotlib ``Axes``, known by its class's name: core imports no drawing
    library."""
    axes = any(c.__module__.startswith("matplotlib.axes") and c.__name__ == "Axes"
               for c in type(value).__mro__)
    return _checks.typed(value, name, value is None or axes,
                         "None (a new figure) or a matplotlib Axes, e.g. plt.subplots()[1]")


#: The engines of every trainer and sampler: the loop in the function's body, and its twin
#: (the same decisions, bit for bit).
ENGINES = ("fast", "faithful")

#: How iterative parameter mixing averages the workers' weights after a round (McDonald, Hall
#: and Mann, 2010): equally, or in proportion to each worker's mistakes in the round.
MIXINGS = ("uniform", "weighted")

#: The ``learning_rate`` of the trainers that hand it to Gluon's SGD (``train_gluon``, its
#: sharded and distributed twins): MXNet takes it as float32, so a rate above float32's largest
#: number fails inside MXNet, and one below its smallest normal number becomes 0, no step at all
#: (the zero weights came back as if trained).
GLUON_RATE = such_that(
    real(positive=True), lambda rate, args: FLOAT32_TINY <= rate <= FLOAT32_MAX,
    f"{{name}}={{value}} is outside what Gluon's SGD can use, [{FLOAT32_TINY:.3g}, "
    f"{FLOAT32_MAX:.3g}] (MXNet passes the rate as float32: smaller becomes 0, larger "
    f"overflows). From w = 0, b = 0 the perceptron's rate only rescales (w, b), so "
    f"{{name}}=1.0 makes the same decisions")

#: The package's parameter words, one meaning each (one word for one idea): a parameter of a
#: checked function so named takes this rule unless the function declares its own.
WORDS: dict[str, Rule] = dict(
    X=features(), Y=labels(of="X"), w0=optional(vector(size_of="X")), bias=flag(),
    max_epochs=count(), max_iterations=count(), learning_rate=real(positive=True),
    threshold=real(minimum=0.0), C=real(positive=True), seed=seed(), seeds=seeds(),
    trials=repeats(), progress=progress(), ctx=context(), ax=Rule(_ax, "ax"),
    title=optional(instance(str, "a title")), engine=one_of(*ENGINES), record=flag(),
    shuffle=flag(), unit_interval=flag(), bfake=scalar(), R=real(minimum=0.0),
    timeout=real(positive=True), mixing=one_of(*MIXINGS))
