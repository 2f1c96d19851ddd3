"""Captures, variables, methods, eager mode and nesting of ag.function."""
import functools
import gc
import weakref

import pytest

import autograph as ag
import runtime as rt


@pytest.fixture
def eager_mode_restored():
    yield
    rt.config.run_functions_eagerly(False)


# ---- decorator forms and attributes ----------------------------------------------------------

def test_decorator_forms_and_attributes():
    def double(x):
        return x * 2

    plain = ag.function(double)
    configured = ag.function(autograph=False)(double)

    @ag.function
    def decorated(x):
        return x * 2

    @ag.function(reduce_retracing=True, jit_compile=True)
    def decorated_with_options(x):
        return x * 2

    for f in (plain, configured, decorated, decorated_with_options):
        assert isinstance(f, ag.Function)
        assert int(f(rt.constant(2))) == 4
        assert f.input_signature is None
    assert plain.python_function is double
    assert plain.__name__ == 'double'
    assert 'double' in repr(plain)


def test_callable_objects_and_partials_are_converted_and_traced():
    pytest.importorskip('autograph.operators.call',
                        reason='converting the `if` needs the AutoGraph compiler (ag.to_graph)')

    class ClipAbove:
        def __init__(self, limit):
            self.limit = limit

        def __call__(self, x):
            if x > self.limit:
                return self.limit * rt.ones_like(x)
            return x

    clip = ag.function(ClipAbove(2.0))
    assert float(clip(rt.constant(5.0))) == 2.0
    assert float(clip(rt.constant(1.0))) == 1.0
    assert clip.experimental_get_tracing_count() == 1
    triple = ag.function(functools.partial(rt.multiply, 3.0))
    assert triple(rt.constant([1.0, 2.0])).numpy().tolist() == [3.0, 6.0]


# ---- captures ----------------------------------------------------------------------------------

def test_a_variable_from_a_closure_is_read_at_each_call():
    v = rt.Variable(1.0)

    @ag.function
    def add_v(x):
        return x + v

    assert float(add_v(rt.constant(1.0))) == 2.0
    v.assign(10.0)
    assert float(add_v(rt.constant(1.0))) == 11.0
    assert add_v.experimental_get_tracing_count() == 1


GLOBAL_SCALE = 2


def test_python_values_from_globals_are_baked_in_at_trace_time():
    global GLOBAL_SCALE

    @ag.function
    def scaled(x):
        return x * GLOBAL_SCALE

    try:
        assert int(scaled(rt.constant(3))) == 6
        GLOBAL_SCALE = 5
        assert int(scaled(rt.constant(3))) == 6
    finally:
        GLOBAL_SCALE = 2


def test_an_eager_tensor_from_a_closure_is_a_capture():
    offset = rt.constant(10)

    @ag.function
    def shifted(x):
        return x + offset

    assert int(shifted(rt.constant(1))) == 11
    concrete = shifted.get_concrete_function(rt.constant(1))
    assert 'capture: TensorSpec(shape=(), dtype=rt.int32, name=None)' in (
        concrete.pretty_printed_signature())


# ---- variables ---------------------------------------------------------------------------------

def test_a_variable_created_on_the_first_trace_is_lifted_and_keeps_its_state():
    class Counter:
        def __init__(self):
            self.count = None

        @ag.function
        def __call__(self, step):
            if self.count is None:
                self.count = rt.Variable(0)
            self.count.assign_add(step)
            return self.count.read_value()

    counter = Counter()
    assert int(counter(rt.constant(1))) == 1
    assert int(counter(rt.constant(2))) == 3
    assert counter.count.numpy() == 3
    assert int(counter(rt.constant([1, 1])[0])) == 4


def test_a_lazily_built_layer_serves_new_shapes_without_new_variables():
    class Dense:
        def __init__(self):
            self.w = None

        @ag.function
        def __call__(self, x):
            if self.w is None:
                self.w = rt.Variable(lambda: rt.ones([3, 2]))
            return rt.matmul(x, self.w)

    layer = Dense()
    assert layer(rt.ones([1, 3])).shape == (1, 2)
    assert layer(rt.ones([4, 3])).shape == (4, 2)
    assert layer.__call__.experimental_get_tracing_count() == 2


def test_creating_variables_on_a_later_trace_is_a_value_error():
    @ag.function
    def make(x):
        v = rt.Variable(x)
        return v.read_value()

    assert float(make(1.0)) == 1.0
    with pytest.raises(ValueError, match=r'make\(\) created a new rt.Variable while tracing graph '
                                         r'number 2.*only on its first trace'):
        make(2.0)


def test_assignments_persist_and_stateful_ops_run_in_program_order():
    v = rt.Variable(1)

    @ag.function
    def update():
        v.assign(5)
        v.assign_add(2)
        doubled = v.read_value() * 2
        v.assign_sub(1)
        return doubled

    assert int(update()) == 14
    assert v.numpy() == 6
    v.assign(0)
    assert int(update()) == 14


# ---- methods -------------------------------------------------------------------------------------

class Model:
    def __init__(self, scale):
        self.scale = scale

    @ag.function
    def apply(self, x):
        return x * self.scale


def test_each_instance_traces_its_own_method_graph():
    two, three = Model(2), Model(3)
    x = rt.constant(1)
    assert int(two.apply(x)) == 2
    assert int(three.apply(x)) == 3
    assert int(two.apply(rt.constant(5))) == 10
    assert two.apply is two.apply
    assert two.apply.experimental_get_tracing_count() == 1
    assert three.apply.experimental_get_tracing_count() == 1
    assert Model.apply.experimental_get_tracing_count() == 0
    assert two.apply.python_function.__self__ is two


def test_instances_with_function_methods_are_garbage_collected():
    model = Model(2)
    model.apply(rt.constant(1))
    model.apply.get_concrete_function(rt.constant([1, 2]))
    ref = weakref.ref(model)
    del model
    gc.collect()
    assert ref() is None
    assert not Model.__dict__['apply']._bound


def test_a_method_with_an_input_signature_skips_self():
    class Scaler:
        @ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
        def scale(self, x):
            return x * 2.0

    scaler = Scaler()
    assert scaler.scale([1.0, 2.0]).numpy().tolist() == [2.0, 4.0]
    assert scaler.scale(rt.constant([3.0])).numpy().tolist() == [6.0]
    assert scaler.scale.experimental_get_tracing_count() == 1


# ---- eager mode and nesting ----------------------------------------------------------------------

def test_run_functions_eagerly_runs_the_python_function(capsys, eager_mode_restored):
    @ag.function
    def noisy(x):
        print('python')
        rt.print('runtime', x)
        return x + 1

    rt.config.run_functions_eagerly(True)
    assert int(noisy(rt.constant(1))) == 2
    assert int(noisy(rt.constant(1))) == 2
    captured = capsys.readouterr()
    assert captured.out == 'python\n' * 2 and captured.err == 'runtime 1\n' * 2
    assert noisy.experimental_get_tracing_count() == 0
    rt.config.run_functions_eagerly(False)
    noisy(rt.constant(1))
    noisy(rt.constant(1))
    captured = capsys.readouterr()
    assert captured.out == 'python\n' and captured.err == 'runtime 1\n' * 2


def test_a_function_called_by_a_function_is_part_of_its_graph():
    @ag.function
    def inner(x):
        return x * 2

    @ag.function
    def outer(x):
        return inner(x) + 1

    assert int(outer(rt.constant(3))) == 7
    assert inner.experimental_get_tracing_count() == 0
    types = [op.type for op in outer.get_concrete_function(rt.constant(3)).graph.get_operations()]
    assert 'Mul' in types and 'AddV2' in types
