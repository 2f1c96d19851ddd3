"""ag.function as TensorFlow's function guide shows it: printing a
ConcreteFunction, calling one without the Python object it was traced with, py_function as a
decorator inside a function, variables made on a later trace, and tensors leaked from a trace."""
import pytest

import autograph as ag
import runtime as rt


def test_printing_a_concrete_function_shows_tensorflows_summary():
    @ag.function
    def pow(a, b):
        return a ** b

    square = pow.get_concrete_function(a=rt.TensorSpec(None, rt.float32), b=2)
    assert str(square) == (
        'ConcreteFunction Input Parameters:\n'
        '  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=rt.float32, name=None)\n'
        '  b (POSITIONAL_OR_KEYWORD): Literal[2]\n'
        'Output Type:\n'
        '  TensorSpec(shape=<unknown>, dtype=rt.float32, name=None)\n'
        'Captures:\n'
        '  None')
    assert str(square) == 'ConcreteFunction ' + square.pretty_printed_signature()
    assert repr(square).startswith('<ConcreteFunction pow(a, b)')


class SimpleModel(rt.Module):
    def __init__(self):
        self.bias = 0.
        self.weight = 2.


def evaluate(model, x):
    return model.weight * x + model.bias


def test_a_concrete_function_keeps_the_python_object_it_was_traced_with():
    model = SimpleModel()
    x = rt.constant(10.)
    no_bias = ag.function(evaluate).get_concrete_function(model, x)
    assert no_bias(x).numpy() == 20.0  # the model is left out: the traced one is used
    assert no_bias(x=x).numpy() == 20.0
    assert no_bias(model, x).numpy() == 20.0
    model.bias += 5.0
    assert no_bias(x).numpy() == 20.0  # its attributes were read when it was traced
    with_bias = ag.function(evaluate).get_concrete_function(model, x)
    assert with_bias(x).numpy() == 25.0
    with pytest.raises(TypeError):
        no_bias(x, x, x)


def test_py_function_decorator_runs_python_at_each_call_of_a_graph():
    calls = []

    @rt.py_function(Tout=rt.float32)
    def record(x):
        calls.append(float(x))
        return x + 1.0

    @ag.function
    def step(x):
        return record(x) * 2.0

    assert step(rt.constant(1.0)).numpy() == 4.0
    assert step(rt.constant(2.0)).numpy() == 6.0
    assert calls == [1.0, 2.0]


def test_creating_a_variable_on_a_later_trace_is_a_value_error():
    @ag.function
    def f(x):
        return rt.Variable(x) * 2.0

    assert f(1.0).numpy() == 2.0
    with pytest.raises(ValueError, match='only on its first trace'):
        f(rt.constant([1.0, 2.0]))


class Count(rt.Module):
    def __init__(self):
        self.count = None

    @ag.function
    def __call__(self):
        if self.count is None:
            self.count = rt.Variable(0)
        return self.count.assign_add(1)


def test_a_variable_made_once_on_the_first_call_is_kept():
    c = Count()
    assert int(c()) == 1 and int(c()) == 2


def test_numpy_of_a_tensor_leaked_out_of_a_trace_is_an_attribute_error():
    leaked = []

    @ag.function
    def f(x):
        leaked.append(x * 2)
        return x

    f(rt.constant(1.0))
    with pytest.raises(AttributeError, match='leaked out of the function'):
        leaked[0].numpy()
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError):
        leaked[0].numpy()


def test_a_module_without_super_init_saves_and_loads(tmp_path):
    class Scale(rt.Module):
        def __init__(self):
            self.factor = rt.Variable(3.0)

        @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
        def __call__(self, x):
            return x * self.factor

    ag.saved_model.save(Scale(), str(tmp_path / 'scale'))
    loaded = ag.saved_model.load(str(tmp_path / 'scale'))
    assert loaded(rt.constant(2.0)).numpy() == 6.0
    assert loaded.factor.numpy() == 3.0


def test_an_assignment_returned_by_a_function_is_read_after_what_follows_it(capsys):
    # TensorFlow's UnreadVariable: the variable read when used, here at the return.
    v = rt.Variable([1., 2.])

    @ag.function
    def step(x):
        first = v.assign_add(x)
        print(repr(first))  # while tracing: no value yet
        v.assign_add(x)
        return first

    assert step(rt.constant([1., 1.])).numpy().tolist() == [3., 4.]
    assert v.numpy().tolist() == [3., 4.]
    assert capsys.readouterr().out == (
        "<rt.Variable 'UnreadVariable' shape=(2,) dtype=float32>\n")

    @ag.function
    def count():
        return v.assign_add([1., 0.]).assign_sub([0., 1.])  # chained, in the graph

    assert count().numpy().tolist() == [4., 3.] and v.numpy().tolist() == [4., 3.]
