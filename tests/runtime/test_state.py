"""Variables and TensorArrays."""
import numpy as np
import pytest

import runtime as rt


def test_a_variable_eagerly():
    v = rt.Variable(1.0, name='v')
    assert v.dtype is rt.float32 and v.shape == () and v.numpy() == 1.0
    unread = v.assign(2.0)  # TensorFlow's UnreadVariable: the variable, read when used
    assert isinstance(unread, rt.Variable) and unread.numpy() == 2.0 and v.numpy() == 2.0
    v.assign_add(3.0)
    v.assign_sub(1.0)
    assert v.numpy() == 4.0
    assert isinstance(v.read_value(), rt.Tensor) and v.read_value().numpy() == 4.0
    assert float(v) == 4.0


def test_a_variable_is_a_ResourceVariable_and_assignments_return_an_UnreadVariable():
    # As in TensorFlow 2.21: type names, reprs, and the unread view reading the current value.
    v = rt.Variable([1., 2., 3.])
    assert type(v).__name__ == 'ResourceVariable' and isinstance(v, rt.Variable)
    unread = v.assign([4., 5., 6.])
    assert type(unread).__name__ == 'UnreadVariable' and isinstance(unread, rt.Variable)
    assert repr(unread) == ("<rt.Variable 'UnreadVariable' shape=(3,) dtype=float32, "
                            "numpy=array([4., 5., 6.], dtype=float32)>")
    assert str(unread) == repr(unread) and unread.name == 'UnreadVariable'
    v.assign([7., 8., 9.])
    assert unread.numpy().tolist() == [7., 8., 9.]  # read when used, not when assigned
    assert (unread + 1).numpy().tolist() == [8., 9., 10.]
    chained = v.assign_add([1., 1., 1.]).assign_sub([0., 1., 2.])  # through the view
    assert v.numpy().tolist() == [8., 8., 8.] and chained.numpy().tolist() == [8., 8., 8.]
    assert v[0].assign(5.).numpy().tolist() == [5., 8., 8.]
    assert unread.shape == (3,) and unread.dtype is rt.float32 and unread.trainable
    assert v.name == 'Variable:0'
    counted = len(rt.Variable.creation_hooks)
    v.assign([0., 0., 0.])
    assert len(rt.Variable.creation_hooks) == counted


def test_a_gradient_tape_sees_a_read_through_an_unread_variable():
    x = rt.Variable(1.0)
    with rt.GradientTape() as tape:
        y = x.assign(2.0) * 3
    assert tape.gradient(y, x).numpy() == 3.0
    assert tape.watched_variables() == (x,)


def test_an_unread_variable_in_a_graph_reads_in_program_order(graph):
    v = rt.Variable([1., 2.])
    unread = v.assign([0., 0.])
    assert repr(unread) == "<rt.Variable 'UnreadVariable' shape=(2,) dtype=float32>"
    v.assign([3., 3.])
    later = unread + 0  # reads after the second assignment, as in TensorFlow
    assert graph.run(later).tolist() == [3., 3.]


def test_eager_variables_keep_their_names_and_graphs_keep_them_apart():
    # As in TensorFlow's eager mode: names are labels, not identities (two modules' `dense/b`).
    a, b = rt.Variable(1.0, name='w'), rt.Variable(2.0, name='w')
    assert a.name == b.name == 'w:0' and rt.Variable(0.).name == 'Variable:0'
    g = rt.Graph()
    with g.as_default():
        total = a + b
    handles = [op for op in g.get_operations() if op.type == 'VarHandleOp']
    assert [op.name for op in handles] == ['w', 'w_1']
    assert [op.get_attr('shared_name') for op in handles] == ['w', 'w_1']
    assert g.run(total) == 3.0


def test_a_variable_is_usable_wherever_a_tensor_is():
    v = rt.Variable([[1., 2.]])
    assert (v + 1).numpy().tolist() == [[2., 3.]]
    assert (2 * v).numpy().tolist() == [[2., 4.]]
    assert rt.matmul(v, rt.constant([[1.], [1.]])).numpy().tolist() == [[3.]]
    assert rt.maximum(v, 1.5).numpy().tolist() == [[1.5, 2.]]
    assert rt.reduce_sum(v).numpy() == 3.
    assert v[0, 1].numpy() == 2.
    np.testing.assert_array_equal(np.asarray(v), [[1., 2.]])


def test_variable_dtype_argument_and_conversion():
    assert rt.Variable([1, 2], dtype=rt.float32).dtype is rt.float32
    assert rt.Variable(3).dtype is rt.int32
    v = rt.Variable(0.5)
    v.assign(1)  # a Python int fits a float variable
    assert v.numpy() == 1.0


def test_assigning_another_dtype_is_a_TypeError():
    v = rt.Variable(1.0)
    with pytest.raises(TypeError, match='int32'):
        v.assign(rt.constant(1))
    with pytest.raises(TypeError):
        rt.Variable(1).assign(1.5)
    assert v.numpy() == 1.0


def test_assigning_another_shape_is_a_ValueError():
    v = rt.Variable([1., 2.])
    with pytest.raises(ValueError) as info:
        v.assign([1., 2., 3.])
    assert '(3,)' in str(info.value) and '(2,)' in str(info.value)
    with pytest.raises(ValueError):
        v.assign_add(rt.constant([[1., 2.]]))


def test_variables_in_a_graph_read_and_assign_through_a_handle(graph):
    v = rt.Variable(10)
    before = v.read_value()
    v.assign_add(5)
    middle = v.read_value()
    v.assign(v * 2)
    after = v + 0
    types = [op.type for op in graph.get_operations()]
    assert types[0] == 'VarHandleOp'
    assert types.count('VarHandleOp') == 1
    assert {'ReadVariableOp', 'AssignAddVariableOp', 'AssignVariableOp'} <= set(types)
    assert v.numpy() == 10  # building runs nothing
    assert graph.run([before, middle, after]) == [10, 15, 30]
    assert v.numpy() == 30  # assignments persist
    assert graph.run(before) == 30
    assert v.numpy() == 70


def test_a_graph_assignment_is_checked_when_built(graph):
    v = rt.Variable([1., 2.])
    with pytest.raises(TypeError):
        v.assign(rt.placeholder(rt.int32, [2]))
    with pytest.raises(ValueError):
        v.assign(rt.placeholder(rt.float32, [3]))
    v.assign(rt.placeholder(rt.float32, [None]))  # compatible


def test_variables_in_control_flow(graph):
    v = rt.Variable(0)
    n = rt.placeholder(rt.int32, [], name='n')

    def body(i):
        v.assign_add(i)
        return i + 1
    out = rt.while_loop(lambda i: i < n, body, rt.constant(0))
    assert out.op.type == 'While'
    graph.run(out, {n: 5})
    assert v.numpy() == 10
    graph.run([], {n: 3})  # stateful ops run even when nothing is fetched
    assert v.numpy() == 13


def test_variables_in_cond(graph):
    v = rt.Variable(10)
    p = rt.placeholder(rt.bool, [])
    r = rt.cond(p, lambda: v.assign(100).read_value(), lambda: v.read_value())
    assert r.op.inputs[0].op.type == 'If'
    assert graph.run(r, {p: False}) == 10
    assert graph.run(r, {p: True}) == 100 and v.numpy() == 100


# ---- TensorArray ----------------------------------------------------------------------------------  # noqa: E501

def test_tensor_array_eagerly():
    ta = rt.TensorArray(rt.float32, size=3)
    ta = ta.write(0, 1.).write(1, 2.).write(2, 3.)
    assert ta.stack().numpy().tolist() == [1., 2., 3.]
    assert ta.read(1).numpy() == 2.
    assert ta.size().numpy() == 3
    assert ta.stack().dtype is rt.float32


def test_write_returns_a_new_array():
    ta = rt.TensorArray(rt.int32, size=2)
    written = ta.write(0, 5)
    assert written is not ta
    with pytest.raises(rt.errors.InvalidArgumentError):
        ta.read(0)


def test_dynamic_size_grows():
    ta = rt.TensorArray(rt.int32, size=0, dynamic_size=True)
    for i in range(4):
        ta = ta.write(i, [i, i])
    assert ta.stack().numpy().tolist() == [[0, 0], [1, 1], [2, 2], [3, 3]]
    assert ta.size().numpy() == 4


def test_tensor_array_errors():
    with pytest.raises(rt.errors.InvalidArgumentError, match='dynamic_size'):
        rt.TensorArray(rt.int32, size=1).write(3, 1)
    with pytest.raises(TypeError):
        rt.TensorArray(rt.int32, size=1).write(0, 1.5)
    with pytest.raises(TypeError):
        rt.TensorArray(rt.int32, size=1).write(0, rt.constant(1.5))
    with pytest.raises(ValueError):
        rt.TensorArray(rt.float32, size=2, element_shape=[2]).write(0, [1., 2., 3.])
    with pytest.raises(rt.errors.InvalidArgumentError, match='never written'):
        rt.TensorArray(rt.int32, size=2).write(0, 1).stack()


def test_an_empty_tensor_array_stacks_to_an_empty_tensor():
    out = rt.TensorArray(rt.float32, size=0, element_shape=[3]).stack()
    assert out.shape == (0, 3) and out.dtype is rt.float32


def test_a_string_tensor_array_stacks_to_a_string_tensor():
    out = rt.TensorArray(rt.string, size=2).write(0, 'a').write(1, b'bc').stack()
    assert out.dtype is rt.string and out.numpy().tolist() == [b'a', b'bc']
    assert out.numpy().dtype == object  # as every string tensor holds its bytes


def test_a_string_tensor_array_stacks_to_a_string_tensor_in_a_graph(graph):
    out = rt.TensorArray(rt.string, size=2).write(0, 'a').write(1, 'bc').stack()
    assert out.dtype is rt.string
    value = graph.run(out)
    assert value.tolist() == [b'a', b'bc'] and value.dtype == object


def test_tensor_array_as_a_while_loop_variable(graph):
    n = rt.placeholder(rt.int32, [], name='n')
    ta = rt.TensorArray(rt.int32, size=0, dynamic_size=True)
    _, ta = rt.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i * i)),
                          [0, ta])
    assert isinstance(ta, rt.TensorArray)
    squares = ta.stack()
    assert squares.dtype is rt.int32
    assert graph.run(squares, {n: 5}).tolist() == [0, 1, 4, 9, 16]
    assert graph.run(ta.size(), {n: 3}) == 3


def test_tensor_array_eager_while_loop():
    ta = rt.TensorArray(rt.float32, size=3)
    _, ta = rt.while_loop(lambda i, ta: i < 3,
                          lambda i, ta: (i + 1, ta.write(i, rt.cast(i, rt.float32) / 2)),
                          (rt.constant(0), ta))
    assert ta.stack().numpy().tolist() == [0., 0.5, 1.]


def test_a_variable_initialized_from_graph_constants_is_lifted_out_of_the_graph():
    g = rt.Graph()
    with g.as_default():
        v = rt.Variable(rt.ones([3, 2]) * 2.0)
        x = rt.placeholder(rt.float32, [2])
        with pytest.raises(ValueError, match='must not depend on function inputs'):
            rt.Variable(x * 2.0)
    assert v.numpy().tolist() == [[2.0, 2.0]] * 3


def test_each_thread_builds_its_own_graph():
    import threading
    g = rt.Graph()
    seen = []
    with g.as_default():
        worker = threading.Thread(target=lambda: seen.append(rt.constant(1) + 1))
        worker.start()
        worker.join()
    assert int(seen[0]) == 2 and g.get_operations() == []
