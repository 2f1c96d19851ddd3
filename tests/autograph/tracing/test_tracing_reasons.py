"""Function.experimental_get_tracing_reasons(): why each graph was traced, and the
RetracingWarning that quotes the latest reason."""
import collections
import warnings

import pytest

import autograph as ag
import runtime as rt
from autograph.tracing.polymorphic_function import RetracingWarning

Pair = collections.namedtuple('Pair', ['first', 'second'])


def test_one_reason_per_trace_naming_the_argument_and_the_change():
    @ag.function
    def scale(x, n):
        return x * n

    scale(rt.constant(1.0), 10)
    scale(rt.constant(1.0), 10)             # a cache hit: no trace, no reason
    scale(rt.constant(1.0), 20)
    scale(rt.constant([1.0, 2.0]), 20)
    scale(rt.constant([1.0, 2.0, 3.0]), 20)
    scale(rt.constant([1, 2, 3]), 20)
    assert scale.experimental_get_tracing_reasons() == [
        'first trace',
        "argument 'n': Python value 20, traced before with 10",
        "argument 'x': shape (2,) does not match ()",
        "argument 'x': shape (3,) does not match (2,)",
        "argument 'x': dtype int32, traced before with float32",
    ]
    assert scale.experimental_get_tracing_count() == 5


@pytest.mark.filterwarnings('ignore::autograph.tracing.polymorphic_function.RetracingWarning')
def test_objects_structures_and_nested_values():
    class Config:
        pass

    @ag.function
    def run(x, extra):
        return x

    first, second = Config(), Config()
    x = rt.constant(1.0)
    run(x, first)
    run(x, second)
    run(x, [1, 2])
    run(x, [1, 3])
    run(x, Pair(1, 2))
    run(x, {'a': 1})
    run(x, {'a': 1, 'b': 2})
    run(x, 1.0)
    run(x, 1)
    assert run.experimental_get_tracing_reasons()[1:] == [
        "argument 'extra': a new object of class Config (graphs are kept per object), traced "
        "before with another object",
        "argument 'extra': a list of 2 items, traced before with an object",
        "argument 'extra'[1]: Python value 3, traced before with 2",
        "argument 'extra': a different input structure, a Pair of 2 items, traced before with "
        "a list of 2 items",
        "argument 'extra': a different input structure, a dict with keys ['a'], traced before "
        "with a Pair of 2 items",
        "argument 'extra': a different input structure, a dict with keys ['a', 'b'], traced "
        "before with a dict with keys ['a']",
        "argument 'extra': Python value 1.0, traced before with a dict with keys ['a', 'b']",
        "argument 'extra': Python value 1, traced before with 1.0",
    ]


def test_the_retracing_warning_quotes_the_latest_reason():
    @ag.function
    def add(x, n):
        return x + n

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for n in range(7):
            add(rt.constant(1), n)
    messages = [str(w.message) for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(messages) == 1
    assert ("has traced 6 graphs, the latest because argument 'n': Python value 5, traced "
            "before with 4." in messages[0])
    assert 'pass tensors instead' in messages[0]


def test_variables_created_from_the_inputs_count_their_initializing_trace():
    holder = []

    @ag.function
    def accumulate(x):
        if not holder:
            holder.append(rt.Variable(x * 2.0))
        return holder[0].assign_add(x)

    accumulate(rt.constant(1.0))
    reasons = accumulate.experimental_get_tracing_reasons()
    assert len(reasons) == accumulate.experimental_get_tracing_count() == 2
    assert reasons[0] == 'first trace'
    assert 'initialized the variables' in reasons[1]


def test_methods_keep_reasons_per_instance_and_signatures_trace_once():
    class Model:
        @ag.function
        def apply(self, x):
            return x + 1

    a, b = Model(), Model()
    a.apply(rt.constant(1))
    a.apply(rt.constant(1.0))
    b.apply(rt.constant(1))
    assert a.apply.experimental_get_tracing_reasons() == [
        'first trace', "argument 'x': dtype float32, traced before with int32"]
    assert b.apply.experimental_get_tracing_reasons() == ['first trace']

    @ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
    def total(xs):
        return rt.reduce_sum(xs)

    total(rt.constant([1.0]))
    total(rt.constant([1.0, 2.0]))
    assert total.experimental_get_tracing_reasons() == ['first trace']


def test_a_failed_trace_gives_no_reason():
    @ag.function
    def fails(x, n):
        if n > 1:
            raise ValueError('too big')
        return x

    fails(rt.constant(1), 1)
    with pytest.raises(ValueError):
        fails(rt.constant(1), 2)
    assert fails.experimental_get_tracing_reasons() == ['first trace']
