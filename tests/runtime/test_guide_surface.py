"""What TensorFlow's guides do with tensors and Modules: objects with
`__array__` convert, scalar tensors take format specs, Modules list their variables in
TensorFlow's order and work without `super().__init__()`, py_function is a decorator."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt


class Frame:
    """A stand-in for a pandas DataFrame: only `__array__`."""

    def __init__(self, rows):
        self.rows = rows

    def __array__(self, dtype=None, copy=None):
        return np.array(self.rows, dtype=dtype)


def test_an_object_with_array_converts_as_np_asarray_of_it():
    t = rt.constant(Frame([[1.5, 2.0], [3.0, 4.0]]))
    assert t.dtype is rt.float64 and t.shape == (2, 2)
    assert rt.convert_to_tensor(Frame([1, 2, 3])).dtype is rt.int64
    np.testing.assert_array_equal(rt.reduce_sum(rt.constant(Frame([1, 2, 3]), rt.float32)), 6.0)


def test_an_object_with_array_converts_in_a_graph_too():
    @ag.function
    def total():
        return rt.reduce_sum(rt.convert_to_tensor(Frame([[1., 2.], [3., 4.]])))

    assert total().numpy() == 10.0


def test_a_pandas_dataframe_converts_as_its_values():
    pd = pytest.importorskip('pandas')
    frame = pd.DataFrame({'a': [1.0, 2.0], 'b': [3.0, 4.0]})
    np.testing.assert_array_equal(rt.convert_to_tensor(frame).numpy(), frame.to_numpy())
    assert rt.constant(frame['a']).shape == (2,)


def test_scalar_tensors_take_format_specs():
    assert f'{rt.constant(3.14159):.2f}' == '3.14'
    assert format(rt.constant(7), 'd') == '7'
    assert f'{rt.constant(7):>4}' == '   7'
    assert f'{rt.constant([1., 2.])}' == '[1. 2.]'
    with pytest.raises(TypeError):
        f'{rt.constant([1., 2.]):.2f}'


def test_reprs_show_float_scalars_with_every_digit_as_tensorflow():
    assert repr(rt.constant(27.3)) == '<rt.Tensor: shape=(), dtype=float32, ' \
        'numpy=27.299999237060547>'
    assert str(rt.constant(27.3)) == 'rt.Tensor(27.3, shape=(), dtype=float32)'
    assert repr(rt.constant(27.3, rt.float64)).endswith('numpy=27.3>')
    assert repr(rt.constant(5)).endswith('numpy=5>')
    assert repr(rt.Variable(27.3)) == "<rt.Variable 'Variable:0' shape=() dtype=float32, " \
        "numpy=27.299999237060547>"


def test_tensorflows_error_names_of_the_guides_exist():
    assert issubclass(rt.errors.FailedPreconditionError, rt.errors.OpError)
    assert issubclass(rt.errors.NotFoundError, rt.errors.OpError)


class Dense(rt.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = rt.Variable(rt.ones([2, 2]), name='w')
        self.b = rt.Variable(rt.zeros([2]), name='b')


class Net(rt.Module):
    def __init__(self):
        super().__init__()
        self.second = Dense(name='second')
        self.scale = rt.Variable(1.0, name='scale')
        self.first = Dense(name='first')
        self.first.inner = Dense(name='inner')


def test_module_variables_come_in_tensorflows_order_and_submodules_breadth_first():
    net = Net()
    # own (by attribute name), then first's, first.inner's, then second's (checked with TF)
    assert [id(v) for v in net.variables] == [id(v) for v in (
        net.scale, net.first.b, net.first.w, net.first.inner.b, net.first.inner.w,
        net.second.b, net.second.w)]
    assert [m.name for m in net.submodules] == ['first', 'second', 'inner']


def test_a_module_without_super_init_has_a_name_scope_and_variables():
    class Bare(rt.Module):
        def __init__(self):
            self.w = rt.Variable(1.0, name='w')

    bare = Bare()
    assert bare.name == 'bare' and bare.variables == (bare.w,)
    assert bare.trainable_variables == (bare.w,) and bare.submodules == ()
    with bare.name_scope:
        v = rt.Variable(2.0, name='v')
    assert v.name == 'bare/v:0'


def test_a_module_prints_as_a_python_object_as_in_tensorflow():
    assert repr(Dense()).startswith('<test_guide_surface.Dense object at 0x')


def test_py_function_and_numpy_function_are_decorators():
    @rt.py_function(Tout=rt.float32)
    def triple(x):
        return x * 3

    @rt.numpy_function(Tout=rt.float32)
    def halve(x):
        return (x / 2).astype(np.float32)

    assert triple(rt.constant(2.0)).numpy() == 6.0
    assert halve(rt.constant(3.0)).numpy() == 1.5

    @ag.function
    def both(x):
        return halve(triple(x))

    assert both(rt.constant(2.0)).numpy() == 3.0
    assert 'EagerPyFunc' in [op.type for op in
                             both.get_concrete_function(rt.constant(1.0)).graph.get_operations()]
    with pytest.raises(TypeError, match='needs `func`'):
        rt.py_function(inp=[1.0], Tout=rt.float32)


def test_assigning_another_shape_is_tensorflows_error_naming_the_variable():
    a = rt.Variable([2.0, 3.0], name='a')
    with pytest.raises(ValueError, match=r"variable ' a:0': Shape mismatch.*\(2,\).*\(3,\)"):
        a.assign([1.0, 2.0, 3.0])
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'shape \[2\] using a Tensor with '
                                                             r'shape \[3\]'):
        a.assign_add([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(a.numpy(), [2.0, 3.0])
