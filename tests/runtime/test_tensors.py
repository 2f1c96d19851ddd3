"""Eager and symbolic tensors."""
import numpy as np
import pytest

import runtime as rt


def test_numpy_gives_a_numpy_scalar_for_rank_0_and_an_array_otherwise():
    s = rt.constant(5.5).numpy()
    assert isinstance(s, np.float32) and s == 5.5
    a = rt.constant([1, 2]).numpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.int32


def test_eager_tensors_print_like_tensorflow():
    assert str(rt.constant([1., 0.])) == 'rt.Tensor([1. 0.], shape=(2,), dtype=float32)'
    assert str(rt.constant(5.5)) == 'rt.Tensor(5.5, shape=(), dtype=float32)'
    assert str(rt.constant([1, 2, 3])) == 'rt.Tensor([1 2 3], shape=(3,), dtype=int32)'
    assert str(rt.constant([[1, 2], [3, 4]])) == \
        'rt.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)'
    assert repr(rt.constant([1., 0.])) == \
        '<rt.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>'
    assert repr(rt.constant(1)) == '<rt.Tensor: shape=(), dtype=int32, numpy=1>'
    assert str(rt.constant('hi')) == "rt.Tensor(b'hi', shape=(), dtype=string)"
    assert str(rt.constant(['a', 'bc'])) == "rt.Tensor([b'a' b'bc'], shape=(2,), dtype=string)"
    assert repr(rt.Variable(1.5)) == "<rt.Variable 'Variable:0' shape=() dtype=float32, numpy=1.5>"


def test_print_shows_the_tensor(capsys):
    print(rt.constant(1))
    assert capsys.readouterr().out == 'rt.Tensor(1, shape=(), dtype=int32)\n'


def test_shape_dtype_and_python_conversions():
    t = rt.constant([[1, 2, 3], [4, 5, 6]])
    assert t.shape == (2, 3) and isinstance(t.shape, rt.TensorShape)
    assert t.dtype is rt.int32
    np.testing.assert_array_equal(np.asarray(t), [[1, 2, 3], [4, 5, 6]])
    assert np.asarray(t).dtype == np.int32
    assert float(rt.constant(2.5)) == 2.5
    assert int(rt.constant(3)) == 3
    assert bool(rt.constant(True)) is True
    assert bool(rt.constant(0)) is False
    assert len(t) == 2


def test_iteration_goes_over_the_first_dimension():
    rows = list(rt.constant([[1, 2], [3, 4]]))
    assert len(rows) == 2
    assert all(isinstance(r, rt.Tensor) and r.dtype is rt.int32 for r in rows)
    np.testing.assert_array_equal(rows[1].numpy(), [3, 4])
    with pytest.raises(TypeError):
        iter(rt.constant(1))
    with pytest.raises(TypeError):
        len(rt.constant(1))


def test_an_eager_tensor_is_an_rt_Tensor():
    assert isinstance(rt.constant(1), rt.Tensor)


def test_an_integer_tensor_indexes_a_python_list():
    assert [10, 20, 30][rt.constant(1)] == 20


# ---- symbolic tensors --------------------------------------------------------------------------

def test_symbolic_tensor_name_op_graph_and_partial_shape(graph):
    x = rt.placeholder(rt.float32, shape=[None, 3], name='x')
    y = rt.greater(x, 0.)
    assert isinstance(y, rt.Tensor)
    assert y.name == 'Greater:0'
    assert isinstance(y.op, rt.Operation) and y.op.type == 'Greater'
    assert y.graph is graph
    assert y.dtype is rt.bool
    assert y.shape == (None, 3)
    assert y.shape.as_list() == [None, 3]


def test_symbolic_tensors_print_like_tensorflow(graph):
    x = rt.placeholder(rt.float32, shape=[None, 3], name='x')
    assert str(x) == 'Tensor("x:0", shape=(None, 3), dtype=float32)'
    assert repr(x) == "<rt.Tensor 'x:0' shape=(None, 3) dtype=float32>"


@pytest.mark.parametrize('use', [bool, lambda t: 1 if t else 0])
def test_symbolic_tensors_have_no_value_while_building(graph, use):
    y = rt.greater(rt.placeholder(rt.int32, []), 0)
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError) as info:
        use(y)
    message = str(info.value)
    assert 'ag.function' in message and 'rt.cond' in message
    assert message.startswith(f'{__file__}:')


@pytest.mark.parametrize('use', [lambda t: t.numpy(), int, float])
def test_values_of_symbolic_tensors_suggest_rt_ops_or_returning_them(graph, use):
    y = rt.add(rt.placeholder(rt.int32, []), 1)
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError) as info:
        use(y)
    message = str(info.value)
    assert 'rt.print' in message and 'return the tensor' in message


def test_OperatorNotAllowedInGraphError_is_a_TypeError():
    assert issubclass(rt.errors.OperatorNotAllowedInGraphError, TypeError)


def test_symbolic_len_is_a_TypeError(graph):
    with pytest.raises(TypeError):
        len(rt.placeholder(rt.int32, [3]))


def test_placeholder_needs_a_graph():
    with pytest.raises(RuntimeError, match='Graph'):
        rt.placeholder(rt.float32)


def test_comparing_a_tensor_with_none_is_a_python_bool():
    t = rt.constant([1, 2])
    assert (t == None) is False  # noqa: E711 - the comparison under test
    assert (t != None) is True  # noqa: E711


def test_string_tensors_from_numpy_arrays_keep_their_bytes():
    scalar = rt.constant(np.array(b'hi', dtype=object))
    assert scalar.dtype == rt.string and scalar.shape == () and scalar.numpy() == b'hi'
    assert rt.constant(np.array('h\u00e9')).numpy() == 'h\u00e9'.encode('utf-8')
    assert rt.constant(np.array([b'a', 'bc'], dtype=object)).numpy().tolist() == [b'a', b'bc']
