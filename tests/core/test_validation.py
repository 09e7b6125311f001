"""Argument rules declared once (``core/_validation.py``): what the decorator refuses, what an
outer call checks and converts, and that nested calls (the package calling itself) are not
checked again, while calls made from a user's code are."""

from __future__ import annotations

import inspect
import itertools
import threading

import numpy as np
import pytest
from mxnet import nd

import gluon_perceptron as gp
from gluon_perceptron.core import _validation, rosenblatt
from gluon_perceptron.core import _validation as rule
from gluon_perceptron.core._convert import as_features, as_labels, as_vector
from gluon_perceptron.core._validation import validate_params
from gluon_perceptron.core.gradient.subgradients import average_loss

RNG = np.random.default_rng(0)
X = RNG.normal(size=(30, 3))
Y = np.where(X[:, 0] + 0.2 > 0, 1.0, -1.0)


@pytest.fixture
def spy(monkeypatch):
    """Counts the entries into ``_validation._check_call`` (one per checked call)."""
    calls: list[str] = []
    real = _validation._check_call

    def counting(function, *args):
        calls.append(function.__name__)
        return real(function, *args)

    monkeypatch.setattr(_validation, "_check_call", counting)
    return calls


# --- decoration time --------------------------------------------------------------------------

def test_a_parameter_without_a_rule_is_refused_at_decoration():
    with pytest.raises(TypeError, match=r"missing \['b'\], unknown \[\]"):
        @validate_params(a=rule.count())
        def f(a, b):
            return a + b


def test_a_rule_for_no_parameter_is_refused_at_decoration():
    with pytest.raises(TypeError, match=r"missing \[\], unknown \['c'\]"):
        @validate_params(a=rule.count(), c=rule.count())
        def f(a):
            return a


def test_a_rule_reading_an_argument_no_rule_checks_is_refused_at_decoration():
    with pytest.raises(TypeError, match=r"rule of Y .* reads \['X'\], which no rule before"):
        @validate_params()
        def f(Y):  # Y, the word, follows X's length and dtype: there is no X
            return Y


def test_rules_run_in_the_signature_order_a_rule_after_what_it_reads():
    order: list[str] = []

    def logged(name):
        return rule.Rule(lambda value, n, args: order.append(n) or value, name)

    @validate_params(c=logged("c"), a=logged("a"),
                     b=rule.Rule(lambda value, n, args: order.append(n) or value, "b", ("c",)))
    def f(a, b, c):
        return a

    f(1, 2, 3)
    assert order == ["a", "c", "b"]  # b reads c: it waits for it


def test_the_package_words_are_implied_and_may_be_narrowed():
    @validate_params(max_epochs=rule.count(maximum=10))
    def f(X, Y, *, max_epochs=5, seed=None, ax=None):
        return X

    assert list(f.__rules__) == ["X", "Y", "max_epochs", "seed", "ax"]
    assert f.__rules__["Y"] is _validation.WORDS["Y"]
    assert repr(f.__rules__["max_epochs"]) == "count(maximum=10)"
    with pytest.raises(ValueError, match="Y"):
        f(X, Y[:-1])
    with pytest.raises(ValueError, match="max_epochs"):
        f(X, Y, max_epochs=11)
    with pytest.raises(TypeError, match="ax must be None .* or a matplotlib Axes"):
        f(X, Y, ax="left")


def test_a_word_spelled_out_with_its_own_rule_is_refused_at_decoration():
    with pytest.raises(TypeError, match=r"implied \['X', 'seed'\]"):
        @validate_params(X=rule.features(), seed=rule.seed())
        def f(X, seed=None):
            return X



def test_contributing_lists_every_word_and_mixing_is_one():
    """CONTRIBUTING's list of the words is the words (it had fallen seven behind); ``mixing``,
    once declared by six functions, is a word: every trainer refuses the same bad value."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "CONTRIBUTING.md").read_text()
    listed = text.split("(`rule.WORDS`: ", 1)[1].split(")", 1)[0]
    assert [w.strip(" `\n") for w in listed.split(",")] == list(_validation.WORDS)
    for trainer in (gp.distributed.train_mixed, gp.distributed.train_distributed,
                    gp.distributed.mixing_round):
        assert trainer.__rules__["mixing"] is _validation.WORDS["mixing"]
    X, Y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match="mixing"):
        gp.distributed.train_mixed(X, Y, shards=2, mixing="average")

def test_a_rule_that_is_not_callable_is_refused():
    with pytest.raises(TypeError, match="the rule of a must be callable"):
        @validate_params(a=3)
        def f(a):
            return a


# --- outer calls: checked and converted -------------------------------------------------------

@validate_params(steps=rule.count(maximum=100), rate=rule.real(positive=True),
                 note=rule.unchecked)  # X, Y, w0, engine, seed: the words
def _demo(X, Y, w0=None, *, steps=3, engine="fast", seed=None, rate=1.0, note=None):
    X = as_features(X)
    Y, w0 = as_labels(Y, like=X), None if w0 is None else as_vector(w0)
    return X, Y, w0, int(steps), engine, seed, float(rate), note


def test_an_outer_call_is_checked_and_its_body_converts():
    Xn, Yn, w0, steps, engine, seed, rate, note = _demo(
        nd.array(X.astype(np.float32)), list(Y), [1, 2, 3], steps=np.int64(5), rate=2, note=[1])
    assert isinstance(Xn, np.ndarray) and Xn.dtype == np.float32
    assert Yn.dtype == np.float32 and Yn.shape == (30,)  # Y follows X's dtype
    assert w0.dtype == np.float64 and w0.tolist() == [1.0, 2.0, 3.0]
    assert type(steps) is int and steps == 5
    assert type(rate) is float and engine == "fast" and seed is None and note == [1]


def test_a_rule_only_checks_the_body_gets_the_arguments_as_given():
    # issue 28 item 3: the conversion is the body's own visible line, not the rule's
    @validate_params(steps=rule.count(), keep=rule.progress())  # X, Y, seeds: words
    def f(X, Y, steps, seeds, keep=True):
        return X, Y, steps, seeds, keep

    X_in, Y_in, steps, seeds = X.astype(int).tolist(), list(Y), np.int64(3), 2
    got = f(X_in, Y_in, steps, seeds)
    assert got[0] is X_in and got[1] is Y_in and got[2] is steps and got[3] is seeds
    assert got[4] is True
    with pytest.raises(ValueError, match="X must be 2-D"):  # and it does check
        f(X_in[0], Y_in, steps, seeds)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"X": X[:, 0]}, ValueError, r"X must be 2-D"),
    ({"Y": Y[:-1]}, ValueError, r"X and Y must have the same length"),
    ({"Y": (Y + 1) / 2}, ValueError, r"use Y = 2 \* Y - 1"),
    ({"w0": [1.0, 2.0]}, ValueError, r"w0 has 2 entries but X has 3 features"),
    ({"steps": 0}, ValueError, r"steps must be an integer >= 1"),
    ({"steps": 101}, ValueError, r"steps must be at most 100"),
    ({"engine": "gpu"}, ValueError, r"engine must be one of \['faithful', 'fast'\], got 'gpu'"),
    ({"seed": -1}, ValueError, r"seed must be None or an integer"),
    ({"rate": float("nan")}, ValueError, r"rate must be finite"),
    ({"rate": 0}, ValueError, r"rate must be > 0"),
])
def test_an_outer_call_names_the_bad_argument(kwargs, error, match):
    args = {"X": X, "Y": Y, **kwargs}
    with pytest.raises(error, match=match):
        _demo(**args)


@pytest.mark.parametrize("factory", [rule.counts(), rule.seeds(), rule.names("u", "w")])
@pytest.mark.parametrize("value", [(v for v in (1, 2)), itertools.count(1), np.array(1), "u",
                                   nd.array([1, 2]), np.ones((2, 1), int), []],
                         ids=["generator", "endless", "0-d", "str", "NDArray", "2-D", "empty"])
def test_a_sequence_argument_is_read_once_and_refused_by_name(factory, value):
    """A one-shot iterator would be used up by the rule (the body would see nothing) and an
    endless one would never end: both are refused, as is what is no 1-D sequence."""
    with pytest.raises(ValueError, match="values must be a (count or a )?non-empty sequence"):
        factory(value, "values", {})
    assert rule.counts()(range(1, 4), "values", {}) == [1, 2, 3]
    assert rule.names("u", "w")(np.array(["w", "u"]), "values", {}) == ("w", "u")


def test_seeds_are_a_count_or_a_sequence_of_integer_seeds():
    seeds = rule.seeds(maximum=3)
    assert seeds(2, "seeds", {}) == [0, 1] and seeds(np.array([7, 2**32 - 1]), "seeds", {}) == \
        [7, 2**32 - 1]
    for bad, match in ((4, "seeds must be at most 3"), ([0, 1, 2, 3], "holds more than 3 seeds"),
                       ([1, -2], r"seeds\[k\] must be an integer >= 0, got -2"),
                       ([2**32], r"seeds\[k\] must be at most 4,294,967,295"),
                       ([1.5], r"seeds\[k\] must be an integer >= 0, got 1.5")):
        with pytest.raises(ValueError, match=match):
            seeds(bad, "seeds", {})


def test_a_fraction_is_a_real_from_0_to_1():
    assert rule.fraction()(np.float32(0.5), "flip", {}) == 0.5 and repr(rule.fraction()) == \
        "fraction()"
    for bad, match in ((1.5, r"flip must be at most 1 in size \(a fraction\), got 1.5"),
                       (-0.1, "flip must be >= 0.0"), ("half", "flip must be a real number")):
        with pytest.raises(ValueError, match=match):
            rule.fraction()(bad, "flip", {})


def test_defaults_are_checked_too():
    @validate_params(n=rule.count())
    def f(n=0):
        return n

    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        f()


def test_positional_only_and_variadic_parameters_are_bound_and_checked():
    @validate_params(a=rule.count(), rest=rule.unchecked, k=rule.real(), more=rule.unchecked)
    def f(a, /, *rest, k=1.0, **more):
        return a, rest, k, more

    assert f(np.int64(2), "x", k=3, z=1) == (2, ("x",), 3.0, {"z": 1})
    with pytest.raises(ValueError, match="a must be an integer >= 1"):
        f(0)
    with pytest.raises(TypeError, match=r"f\(\) missing a required argument: 'a'"):
        f(k=2.0)


def test_calls_that_do_not_bind_get_pythons_message_with_the_name():
    for call, match in ((lambda: _demo(X, Y, None, 4), "too many positional arguments"),
                        (lambda: _demo(X, Y, X=X), "multiple values for argument 'X'"),
                        (lambda: _demo(X, Y, nope=1), "unexpected keyword argument 'nope'")):
        with pytest.raises(TypeError, match=r"_demo\(\) (got an )?" + match):
            call()


def test_a_missing_argument_names_the_function():
    with pytest.raises(TypeError, match=r"train\(\) missing a required argument: 'max_epochs'"):
        gp.train(X, Y)


def test_the_converted_functions_keep_their_messages():
    w, b = nd.zeros(3), nd.zeros(1)
    with pytest.raises(TypeError, match="w must be an mxnet NDArray .perceptron updates w and b"):
        gp.perceptron(np.zeros(3), b, nd.array(X[0]), 1)
    with pytest.raises(ValueError, match=r"w and x must be 1-D of the same length"):
        gp.perceptron(w, b, nd.array(X[0, :2]), 1)
    with pytest.raises(ValueError, match=r"b must have shape \(1,\)"):
        gp.perceptron(w, nd.zeros(2), nd.array(X[0]), 1)
    with pytest.raises(ValueError, match=r"y must be -1 or \+1, got 0.0"):
        gp.perceptron(w, b, nd.array(X[0]), 0)
    with pytest.raises(ValueError, match=r"y must be a single label, got an array"):
        gp.perceptron(w, b, nd.array(X[0]), nd.ones(2))
    with pytest.raises(ValueError, match=r"w has 2 entries but X has 3"):
        gp.predict(np.ones(2), 0.0, X)
    with pytest.raises(ValueError, match=r"b must be a single number"):
        gp.error_rate(np.ones(3), np.ones(2), X, Y)
    with pytest.raises(TypeError, match=r"record must be True or False, got 'yes'"):
        gp.train_pocket(X, Y, max_epochs=2, record="yes")


def test_the_step_takes_an_ndarray_label():
    w, b = nd.zeros(3), nd.zeros(1)
    assert gp.perceptron(w, b, nd.array(X[0]), nd.array([-1.0])) == 1
    np.testing.assert_allclose(w.asnumpy(), -X[0], rtol=1e-6)


# --- nested calls: not checked again ----------------------------------------------------------

def test_train_pocket_checks_once_though_it_calls_error_rate(spy):
    result = gp.train_pocket(X, Y, max_epochs=5)
    assert result.epochs >= 1
    assert spy == ["train_pocket"]


def test_a_top_level_call_of_error_rate_is_checked(spy):
    gp.error_rate(np.ones(3), 0.0, X, Y)
    gp.error_rate(np.ones(3), 0.0, X, Y)
    assert spy == ["error_rate", "error_rate"]


def test_a_nested_call_runs_on_its_arguments_as_given(spy):
    seen = []

    @validate_params(v=rule.count())
    def inner(v):
        seen.append(v)
        return v

    @validate_params(n=rule.count())
    def outer(n):
        return inner("not a count")  # trusted: the package's own call

    assert outer(2) == "not a count" and seen == ["not a count"]
    assert spy == ["outer"]
    with pytest.raises(ValueError, match="v must be an integer"):
        inner("not a count")


def test_the_flag_is_reset_after_an_exception():
    @validate_params(n=rule.count())
    def boom(n):
        assert _validation.trusted()
        raise RuntimeError("inside")

    with pytest.raises(RuntimeError, match="inside"):
        boom(1)
    assert not _validation.trusted()
    with pytest.raises(ValueError, match="max_epochs"):
        gp.train(X, Y, max_epochs=0)


def test_a_new_thread_starts_unchecked_false():
    """A thread started inside a trusted body does not inherit the flag: its calls are
    checked."""
    found: dict = {}

    def worker():
        found["trusted"] = _validation.trusted()
        try:
            gp.train(X, Y, max_epochs=0)
        except ValueError as exc:
            found["error"] = str(exc)

    @validate_params(n=rule.count())
    def outer(n):
        found["outer"] = _validation.trusted()
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()

    outer(1)
    assert found["outer"] is True and found["trusted"] is False
    assert "max_epochs" in found["error"]


def test_skip_nested_false_checks_what_the_users_callback_calls(spy):
    """A function that calls a user's code checks its own arguments and leaves the flag unset,
    so what the user's callback calls is checked (and a bad call is caught)."""
    @validate_params(skip_nested=False, callback=rule.unchecked, n=rule.count())
    def runs_user_code(callback, n):
        return callback(n)

    def users_step(n):
        return gp.error_rate(np.ones(2), 0.0, X, Y)  # wrong length: must be refused

    with pytest.raises(ValueError, match="w has 2 entries but X has 3"):
        runs_user_code(users_step, 1)
    assert spy == ["runs_user_code", "error_rate"]

    @validate_params(callback=rule.unchecked, n=rule.count())
    def trusts_user_code(callback, n):
        return callback(n)

    spy.clear()
    trusts_user_code(lambda n: gp.error_rate(np.ones(3), 0.0, X, Y), 1)
    assert spy == ["trusts_user_code"]  # the default: the callback's call is trusted


# --- the wrapper ------------------------------------------------------------------------------

def test_the_wrapper_keeps_signature_name_docstring_and_source():
    assert gp.train.__name__ == "train" and "Rosenblatt" in gp.train.__doc__
    assert gp.train.__wrapped__.__name__ == "train"
    params = inspect.signature(gp.train).parameters
    assert list(params) == ["X", "Y", "max_epochs", "learning_rate", "engine", "threshold",
                            "w0", "b0", "ctx"]
    assert params["max_epochs"].kind is inspect.Parameter.KEYWORD_ONLY
    source = inspect.getsource(gp.train)
    assert "def train(" in source and "@validate_params" in source
    assert set(gp.train.__rules__) == set(params)
    assert repr(gp.train.__rules__["Y"]) == "labels(of='X')"


def test_the_rules_see_the_earlier_arguments_checked():
    seen = {}

    def records(value, name, args):
        seen.update(args)
        return value

    @validate_params(extra=records)  # X, Y: the words
    def f(X, Y, extra=None):
        return X

    f(X.tolist(), Y)
    assert isinstance(seen["X"], np.ndarray) and isinstance(seen["Y"], np.ndarray)


def test_the_private_twins_are_gone():
    assert not hasattr(rosenblatt, "_train_fast") and not hasattr(rosenblatt, "_error_rate")


# --- function(): a callable argument, the package's own trusted, a user's checked --------------

def test_function_passes_the_packages_own_functions_through():
    loss = rule.function("loss(w, b, x, y)")
    assert loss(gp.perceptron_loss, "loss", {}) is gp.perceptron_loss
    with pytest.raises(TypeError, match=r"loss must be a function loss\(w, b, x, y\), got str"):
        loss("hinge", "loss", {})


def test_a_users_function_runs_checked_inside_a_trusted_body(spy):
    """The user's code is wrapped: the flag is unset while it runs, so what it calls is
    checked (and a bad call caught), even though the body around it is trusted."""
    seen = {}

    @validate_params(callback=rule.function("callback(n)"), n=rule.count())
    def runs_user_code(callback, n):
        seen["body"] = _validation.trusted()
        return rule.user_code(callback, "callback")(n)  # the one visible conversion

    def users_step(n):
        seen["user"] = _validation.trusted()
        return average_loss(np.ones(2), 0.0, X, Y)  # wrong length: must be refused

    with pytest.raises(ValueError, match=r"w of shape \(2,\) .* do not fit X with 3 features"):
        runs_user_code(users_step, 1)
    assert seen == {"body": True, "user": False}
    assert spy == ["runs_user_code", "average_loss"]
    assert not _validation.trusted()


def test_a_package_function_passed_as_an_argument_runs_trusted(spy):
    @validate_params(callback=rule.function("callback(w, b, X, Y)"), n=rule.count())
    def runs_package_code(callback, n):
        return callback(np.ones(3), 0.0, X, Y)

    runs_package_code(average_loss, 1)
    assert spy == ["runs_package_code"]


def test_function_checks_what_a_users_function_returns():
    wrapped = rule.user_code(lambda x: x, "f",
                             returns=(float, "a float", ": the caller needs a number"))
    assert wrapped(2.5) == 2.5
    with pytest.raises(TypeError, match=r"f must return a float, but '<lambda>' returned str: "
                                        r"the caller needs a number"):
        wrapped("2.5")


def test_a_users_loss_returning_numpy_is_a_named_type_error_and_a_package_loss_is_trusted(spy):
    Xs, Ys = X[:6].astype(np.float32), Y[:6]
    with pytest.raises(TypeError, match="loss must return an mxnet NDArray"):
        gp.train_autograd(Xs, Ys, max_epochs=1, loss=lambda w, b, x, y: np.zeros(1))
    spy.clear()
    gp.train_autograd(Xs, Ys, max_epochs=2, loss=gp.hinge_loss)
    assert spy == ["train_autograd"]  # the package's loss: not checked again per step
    spy.clear()
    gp.train_autograd(Xs, Ys, max_epochs=1, loss=lambda w, b, x, y: gp.hinge_loss(w, b, x, y))
    assert spy == ["train_autograd"] + ["hinge_loss"] * 6  # a user's loss: its calls checked


def test_returns_checks_the_result_of_outer_calls_only():
    def positive(value, name, args):
        if value <= 0:
            raise ValueError(f"{name} gave {value}")
        return value

    @validate_params(n=rule.real(), returns=positive)
    def inner(n):
        return n

    @validate_params(n=rule.real())
    def outer(n):
        return inner(-n)  # nested: the result is not checked

    assert inner(2.0) == 2.0 and outer(3.0) == -3.0
    with pytest.raises(ValueError, match="inner gave -1.0"):
        inner(-1.0)


# --- added by c33d: shaped ----------------------------------------------------------------------

def test_shaped_checks_rows_and_columns_exactly_or_at_least():
    two_rows = rule.shaped(2, words=("rows", "columns"), why="w1 and w2")
    assert two_rows(np.ones((2, 5)), "A", {}).shape == (2, 5)
    with pytest.raises(ValueError, match=r"A must hold 2 rows \(w1 and w2\), got 3"):
        two_rows(np.ones((3, 5)), "A", {})
    some = rule.shaped(2, at_least=True, why="one held out")
    assert some(np.ones((3, 1)), "X", {}).shape == (3, 1)
    with pytest.raises(ValueError, match=r"X must hold at least 2 examples \(one held out\), got"):
        some(np.ones((1, 4)), "X", {})
    with pytest.raises(ValueError, match="X must hold 2 features .*got 3"):
        rule.shaped(columns=2)(np.ones((4, 3)), "X", {})
    with pytest.raises(ValueError, match="X must be finite"):  # features() first
        some(np.array([[np.nan], [1.0]]), "X", {})
    assert repr(some) == "shaped(rows=2, at_least=True)"


def test_such_that_checks_a_condition_after_its_rule_and_names_the_argument():
    """``such_that(rule, holds, message)``: ``rule`` first (its own messages), then ``holds`` on
    the value it returned, with the arguments checked before it; the message is formatted with
    ``name``, ``value`` and ``args``."""
    below = rule.such_that(rule.real(positive=True), lambda v, args: v < args["top"],
                           "{name}={value:g} must be below top={args[top]}", ("top",))

    @validate_params(top=rule.real(), x=below)
    def f(x, top=1.0):
        return x

    assert f(0.5) == 0.5 and f(3, top=4.0) == 3
    with pytest.raises(ValueError, match=r"^x=2 must be below top=1.0$"):
        f(2)
    with pytest.raises(ValueError, match=r"x must be > 0"):  # the inner rule's own message
        f(-1)
    assert below.needs == ("top",) and repr(below).startswith("such_that(real(positive=True), ")
    assert f.__rules__["x"] is below


def test_such_that_raises_the_error_it_is_given_for_a_value_of_the_wrong_kind():
    path = rule.such_that(rule.unchecked, lambda v, args: isinstance(v, str),
                          "{name} must be a str, got {value.__class__.__name__}", error=TypeError)

    @validate_params(p=path)
    def f(p):
        return p

    assert f("a") == "a"
    with pytest.raises(TypeError, match=r"^p must be a str, got int$"):
        f(3)
