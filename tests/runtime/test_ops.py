"""Every core op, eagerly and in a graph: the same values, and TensorFlow's op type names.

Each row is (id, program, inputs, expected value, op type of the result in a graph). In a graph,
the inputs are fed through placeholders of unknown dims, so the row also checks that partial
shape inference agrees with the value.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from runtime_helpers import check_op_row, check_value, run_in_graph

import runtime as rt

F = np.array([[1.5, -2.0, 0.0], [4.0, 0.25, -0.5]], dtype=np.float32)
G = np.array([[0.5, 2.0, -1.0], [1.0, 1.0, 3.0]], dtype=np.float32)
I = np.array([[7, -3, 2], [0, 5, -8]], dtype=np.int32)  # noqa: E741
J = np.array([[2, 2, 3], [1, 4, 3]], dtype=np.int32)
POS = np.array([0.25, 1.0, 4.0], dtype=np.float32)
B = np.array([True, False, True])
C = np.array([True, True, False])

ROWS = [
    ('add', lambda x, y: rt.add(x, y), [F, G], F + G, 'AddV2'),
    ('subtract', lambda x, y: rt.subtract(x, y), [F, G], F - G, 'Sub'),
    ('multiply', lambda x, y: rt.multiply(x, y), [F, G], F * G, 'Mul'),
    ('divide', lambda x, y: rt.divide(x, y), [F, G], F / G, 'RealDiv'),
    ('divide ints', lambda x, y: rt.divide(x, y), [I, J], I / J, 'RealDiv'),
    ('floordiv', lambda x, y: rt.floordiv(x, y), [I, J], I // J, 'FloorDiv'),
    ('mod', lambda x, y: rt.mod(x, y), [I, J], I % J, 'FloorMod'),
    ('pow', lambda x, y: rt.pow(x, y), [I, J], I ** J, 'Pow'),
    ('negative', lambda x: rt.negative(x), [F], -F, 'Neg'),
    ('abs', lambda x: rt.abs(x), [I], np.abs(I), 'Abs'),
    ('square', lambda x: rt.square(x), [I], I * I, 'Square'),
    ('sqrt', lambda x: rt.sqrt(x), [POS], np.sqrt(POS), 'Sqrt'),
    ('exp', lambda x: rt.exp(x), [F], np.exp(F), 'Exp'),
    ('log', lambda x: rt.log(x), [POS], np.log(POS), 'Log'),
    ('sin', lambda x: rt.sin(x), [F], np.sin(F), 'Sin'),
    ('cos', lambda x: rt.cos(x), [F], np.cos(F), 'Cos'),
    ('tanh', lambda x: rt.tanh(x), [F], np.tanh(F), 'Tanh'),
    ('sigmoid', lambda x: rt.sigmoid(x), [F], 1 / (1 + np.exp(-F)), 'Sigmoid'),
    ('relu', lambda x: rt.relu(x), [F], np.maximum(F, 0), 'Relu'),
    ('maximum', lambda x, y: rt.maximum(x, y), [F, G], np.maximum(F, G), 'Maximum'),
    ('maximum python', lambda x: rt.maximum(0., x), [F], np.maximum(F, 0), 'Maximum'),
    ('minimum', lambda x, y: rt.minimum(x, y), [I, J], np.minimum(I, J), 'Minimum'),
    ('sign', lambda x: rt.sign(x), [I], np.sign(I), 'Sign'),
    ('floor', lambda x: rt.floor(x), [F], np.floor(F), 'Floor'),
    ('ceil', lambda x: rt.ceil(x), [F], np.ceil(F), 'Ceil'),
    ('round half to even', lambda x: rt.round(x),
     [np.array([0.5, 1.5, 2.5, -0.5, 0.4], np.float32)], [0., 2., 2., -0., 0.], 'Round'),
    ('clip_by_value', lambda x: rt.clip_by_value(x, -1., 1.), [F], np.clip(F, -1, 1),
     'ClipByValue'),
    ('matmul', lambda x, y: rt.matmul(x, y), [F, G.T.copy()], F @ G.T, 'MatMul'),
    ('matmul transpose_b', lambda x, y: rt.matmul(x, y, transpose_b=True), [F, G], F @ G.T,
     'MatMul'),
    ('matmul batch', lambda x, y: rt.matmul(x, y), [np.stack([F, G]), np.stack([G.T, F.T])],
     np.stack([F @ G.T, G @ F.T]), 'BatchMatMulV2'),
    ('cast', lambda x: rt.cast(x, rt.int32), [F], F.astype(np.int32), 'Cast'),
    ('equal', lambda x, y: rt.equal(x, y), [I, J], I == J, 'Equal'),
    ('not_equal', lambda x, y: rt.not_equal(x, y), [I, J], I != J, 'NotEqual'),
    ('greater', lambda x, y: rt.greater(x, y), [I, J], I > J, 'Greater'),
    ('greater_equal', lambda x, y: rt.greater_equal(x, y), [I, J], I >= J, 'GreaterEqual'),
    ('less', lambda x, y: rt.less(x, y), [I, J], I < J, 'Less'),
    ('less_equal', lambda x, y: rt.less_equal(x, y), [I, J], I <= J, 'LessEqual'),
    ('logical_and', lambda x, y: rt.logical_and(x, y), [B, C], B & C, 'LogicalAnd'),
    ('logical_or', lambda x, y: rt.logical_or(x, y), [B, C], B | C, 'LogicalOr'),
    ('logical_not', lambda x: rt.logical_not(x), [B], ~B, 'LogicalNot'),
    ('where', lambda c, x, y: rt.where(c, x, y), [B, POS, -POS], np.where(B, POS, -POS),
     'SelectV2'),
    ('reduce_sum', lambda x: rt.reduce_sum(x), [I], I.sum(), 'Sum'),
    ('reduce_sum axis', lambda x: rt.reduce_sum(x, axis=0), [I], I.sum(0), 'Sum'),
    ('reduce_sum keepdims', lambda x: rt.reduce_sum(x, axis=-1, keepdims=True), [I],
     I.sum(-1, keepdims=True), 'Sum'),
    ('reduce_mean', lambda x: rt.reduce_mean(x, axis=1), [F], F.mean(1), 'Mean'),
    ('reduce_mean int truncates', lambda x: rt.reduce_mean(x), [np.array([1, 2], np.int32)],
     1, 'Mean'),
    ('reduce_max', lambda x: rt.reduce_max(x, axis=0), [I], I.max(0), 'Max'),
    ('reduce_min', lambda x: rt.reduce_min(x), [F], F.min(), 'Min'),
    ('reduce_prod', lambda x: rt.reduce_prod(x, axis=1), [J], J.prod(1), 'Prod'),
    ('reduce_any', lambda x: rt.reduce_any(x), [B], True, 'Any'),
    ('reduce_all', lambda x: rt.reduce_all(x, axis=0), [np.stack([B, C])], B & C, 'All'),
    ('argmax', lambda x: rt.argmax(x, axis=1), [F], F.argmax(1), 'ArgMax'),
    ('argmin', lambda x: rt.argmin(x), [F], F.argmin(0), 'ArgMin'),
    ('zeros_like', lambda x: rt.zeros_like(x), [F], np.zeros_like(F), 'ZerosLike'),
    ('ones_like', lambda x: rt.ones_like(x), [I], np.ones_like(I), 'OnesLike'),
    ('fill', lambda n: rt.fill([n, 2], 7), [np.int32(3)], np.full((3, 2), 7, np.int32), 'Fill'),
    ('range', lambda n: rt.range(n), [np.int32(4)], np.arange(4, dtype=np.int32), 'Range'),
    ('range start limit delta', lambda a: rt.range(a, 10, 3), [np.int32(1)],
     np.array([1, 4, 7], np.int32), 'Range'),
    ('reshape', lambda x: rt.reshape(x, [3, -1]), [I], I.reshape(3, 2), 'Reshape'),
    ('transpose', lambda x: rt.transpose(x), [I], I.T, 'Transpose'),
    ('transpose perm', lambda x: rt.transpose(x, [1, 0]), [F], F.T, 'Transpose'),
    ('concat', lambda x, y: rt.concat([x, y], 0), [I, J], np.concatenate([I, J]), 'ConcatV2'),
    ('concat axis -1', lambda x, y: rt.concat([x, y], -1), [I, J], np.concatenate([I, J], -1),
     'ConcatV2'),
    ('stack', lambda x, y: rt.stack([x, y]), [I, J], np.stack([I, J]), 'Pack'),
    ('stack axis 1', lambda x, y: rt.stack([x, y], axis=1), [I, J], np.stack([I, J], 1), 'Pack'),
    ('expand_dims', lambda x: rt.expand_dims(x, -1), [I], I[..., None], 'ExpandDims'),
    ('squeeze', lambda x: rt.squeeze(x, axis=[0]), [I[None]], I, 'Squeeze'),
    ('gather', lambda x, i: rt.gather(x, i), [F, np.array([1, 0, 1], np.int32)], F[[1, 0, 1]],
     'GatherV2'),
    ('gather axis 1', lambda x: rt.gather(x, [2, 0], axis=1), [I], I[:, [2, 0]], 'GatherV2'),
    ('shape', lambda x: rt.shape(x), [I], np.array([2, 3], np.int32), 'Shape'),
    ('size', lambda x: rt.size(x), [I], 6, 'Size'),
    ('rank', lambda x: rt.rank(x), [I], 2, 'Rank'),
    ('identity', lambda x: rt.identity(x), [I], I, 'Identity'),
]


_check = check_value


@pytest.mark.parametrize('program, inputs, expected, op_type', [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_op_eagerly_and_in_a_graph(program, inputs, expected, op_type):
    check_op_row(program, inputs, expected, op_type)


def test_int32_unary_ops_keep_the_dtype_and_float_only_ops_refuse_ints():
    assert rt.abs(rt.constant([-1])).dtype is rt.int32
    with pytest.raises(rt.errors.InvalidArgumentError, match='int32'):  # TensorFlow's, eagerly
        rt.sqrt(rt.constant(4))
    with pytest.raises(TypeError):
        rt.logical_and(rt.constant([1]), rt.constant([0]))


def test_ops_that_make_tensors():
    z = rt.zeros([2, 3], dtype=rt.int32)
    assert z.dtype is rt.int32 and z.shape == (2, 3) and not z.numpy().any()
    o = rt.ones(3)
    assert o.dtype is rt.float32 and o.numpy().tolist() == [1., 1., 1.]
    assert rt.fill([2], 7.5).numpy().tolist() == [7.5, 7.5]
    assert rt.fill([2, 2], 7).dtype is rt.int32
    np.testing.assert_array_equal(rt.eye(3, 2, dtype=rt.int32).numpy(), np.eye(3, 2))
    assert rt.eye(2).dtype is rt.float32
    assert rt.range(5).numpy().tolist() == [0, 1, 2, 3, 4]
    assert rt.range(5).dtype is rt.int32
    assert rt.range(0., 1., 0.25).dtype is rt.float32
    assert rt.range(3, dtype=rt.float32).numpy().tolist() == [0., 1., 2.]
    assert rt.range(3, dtype=rt.int64).dtype is rt.int64
    assert rt.zeros_like(rt.constant([1., 2.])).numpy().tolist() == [0., 0.]
    assert rt.ones_like(rt.constant([1., 2.]), dtype=rt.int32).dtype is rt.int32


def test_shape_size_rank_give_int32():
    t = rt.constant([[1., 2.]])
    assert rt.shape(t).dtype is rt.int32 and rt.shape(t).numpy().tolist() == [1, 2]
    assert rt.size(t).dtype is rt.int32 and rt.size(t).numpy() == 2
    assert rt.rank(t).dtype is rt.int32 and rt.rank(t).numpy() == 2


def test_argmax_gives_int64_by_default():
    assert rt.argmax(rt.constant([1, 5, 3])).dtype is rt.int64
    assert rt.argmax(rt.constant([1, 5, 3]), output_type=rt.int32).dtype is rt.int32


def test_reductions_take_bools_only_for_any_and_all():
    with pytest.raises(TypeError):
        rt.reduce_sum(rt.constant([True]))
    with pytest.raises(TypeError):
        rt.reduce_any(rt.constant([1]))


def test_cast_truncates_toward_zero_and_cast_to_the_same_dtype_is_a_no_op():
    assert rt.cast(rt.constant([1.7, -1.7]), rt.int32).numpy().tolist() == [1, -1]
    assert rt.cast(rt.constant([0, 2]), rt.bool).numpy().tolist() == [False, True]
    t = rt.constant(1)
    assert rt.cast(t, rt.int32) is t


def test_where_with_only_a_condition_gives_coordinates():
    idx = rt.where(rt.constant([[True, False], [False, True]]))
    assert idx.dtype is rt.int64
    assert idx.numpy().tolist() == [[0, 0], [1, 1]]


def test_where_with_python_branches_and_checks():
    out = rt.where(rt.constant([True, False]), 1., 0.)
    assert out.dtype is rt.float32 and out.numpy().tolist() == [1., 0.]
    with pytest.raises(TypeError):
        rt.where(rt.constant([1, 0]), 1, 0)


def test_gather_out_of_range_is_an_InvalidArgumentError_eagerly():
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'indices\[0\] = 1 is not in \[0, 1\)'):  # noqa: E501
        rt.gather(rt.constant([0.0]), [1])
    with pytest.raises(rt.errors.OpError):
        rt.gather(rt.constant([1, 2]), [-1])


def test_matmul_shapes_are_checked_when_the_graph_is_built(graph):
    a = rt.placeholder(rt.float32, [None, 3])
    b = rt.placeholder(rt.float32, [3, 4])
    assert rt.matmul(a, b).shape == (None, 4)
    with pytest.raises(ValueError):
        rt.matmul(a, rt.placeholder(rt.float32, [2, 4]))
    batched = rt.matmul(rt.placeholder(rt.float32, [5, None, 3]), b)
    assert batched.op.type == 'BatchMatMulV2' and batched.shape == (5, None, 4)


def test_shape_of_a_partially_known_tensor_is_a_Shape_op(graph):
    x = rt.placeholder(rt.float32, [None, 3])
    s = rt.shape(x)
    assert s.op.type == 'Shape' and s.dtype is rt.int32 and s.shape == (2,)


def test_reshape_infers_the_minus_one_dim(graph):
    x = rt.placeholder(rt.float32, [4, 6])
    assert rt.reshape(x, [3, -1]).shape == (3, 8)
    assert rt.reshape(rt.placeholder(rt.float32, [None, 6]), [-1, 2]).shape == (None, 2)


# ---- operators ---------------------------------------------------------------------------------

OPERATORS = [
    ('+', lambda x, y: x + y, 'AddV2'), ('-', lambda x, y: x - y, 'Sub'),
    ('*', lambda x, y: x * y, 'Mul'), ('/', lambda x, y: x / y, 'RealDiv'),
    ('//', lambda x, y: x // y, 'FloorDiv'), ('%', lambda x, y: x % y, 'FloorMod'),
    ('**', lambda x, y: x ** y, 'Pow'), ('<', lambda x, y: x < y, 'Less'),
    ('<=', lambda x, y: x <= y, 'LessEqual'), ('>', lambda x, y: x > y, 'Greater'),
    ('>=', lambda x, y: x >= y, 'GreaterEqual'), ('==', lambda x, y: x == y, 'Equal'),
    ('!=', lambda x, y: x != y, 'NotEqual'),
]


@pytest.mark.parametrize('fn, op_type', [o[1:] for o in OPERATORS], ids=[o[0] for o in OPERATORS])
def test_operators_match_numpy_eagerly_and_in_a_graph(fn, op_type):
    x = np.array([[1.5, -2.0], [3.0, 0.5]], np.float32)
    y = np.array([[2.0, 4.0], [-1.0, 0.5]], np.float32)
    expected = fn(x, y)
    _check(fn(rt.constant(x), rt.constant(y)).numpy(), expected)
    _check(fn(rt.constant(x), y).numpy(), expected)           # numpy on the right
    _check(fn(x[0, 0].item(), rt.constant(y)).numpy(), fn(x[0, 0], y))  # Python on the left
    g, out, value = run_in_graph(fn, x, y)
    assert out.op.type == op_type
    _check(value, expected)


def test_matmul_operator_unary_minus_and_abs(graph):
    a = rt.constant([[1., 2.]])
    b = rt.constant([[2.], [3.]])
    assert (a @ b).op.type == 'MatMul'
    assert (-a).op.type == 'Neg'
    assert abs(a).op.type == 'Abs'
    assert graph.run(a @ b).tolist() == [[8.]]
    assert graph.run(-a).tolist() == [[-1., -2.]]


def test_operators_eagerly():
    a = rt.constant([[1., -2.]])
    assert (a @ rt.constant([[2.], [3.]])).numpy().tolist() == [[-4.]]
    assert (-a).numpy().tolist() == [[-1., 2.]]
    assert abs(a).numpy().tolist() == [[1., 2.]]
    assert (rt.constant([1, 2]) == [1, 3]).numpy().tolist() == [True, False]
    assert (rt.constant(2) ** 3).numpy() == 8


def test_bool_operators_are_logical(graph):
    x = rt.placeholder(rt.bool, [2])
    assert (x & True).op.type == 'LogicalAnd'
    assert (x | False).op.type == 'LogicalOr'
    assert (~x).op.type == 'LogicalNot'


# ---- indexing ------------------------------------------------------------------------------------

M = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
INDEXES = [
    ('int', lambda t: t[1]),
    ('negative int', lambda t: t[-1]),
    ('two ints', lambda t: t[1, 2]),
    ('all ints', lambda t: t[1, 2, 3]),
    ('slice', lambda t: t[:1]),
    ('slice step', lambda t: t[:, ::2]),
    ('reversed', lambda t: t[:, ::-1]),
    ('start stop', lambda t: t[0, 1:3, 1:-1]),
    ('ellipsis', lambda t: t[..., 0]),
    ('ellipsis middle', lambda t: t[0, ..., 1:]),
    ('new axis', lambda t: t[None]),
    ('new axis inside', lambda t: t[:, None, 1]),
    ('all kinds', lambda t: t[1, ..., None, ::-2]),
]


@pytest.mark.parametrize('index', [i[1] for i in INDEXES], ids=[i[0] for i in INDEXES])
def test_numpy_style_indexing(index):
    expected = index(M)
    _check(index(rt.constant(M)).numpy(), expected)
    g, out, value = run_in_graph(index, M, shapes=[[2, 3, 4]])
    assert out.op.type == 'StridedSlice'
    assert out.shape == expected.shape
    _check(value, expected)
    g, out, value = run_in_graph(index, M)  # unknown dims
    assert out.shape.is_compatible_with(expected.shape)
    _check(value, expected)


def test_indexing_with_a_scalar_int_tensor(graph):
    i = rt.placeholder(rt.int32, [])
    t = rt.constant([10, 20, 30])
    assert graph.run(t[i], {i: 2}) == 30
    assert graph.run(t[i:], {i: 1}).tolist() == [20, 30]


def test_index_out_of_range_eagerly():
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.constant([1, 2])[5]


# ---- property tests against numpy -------------------------------------------------------------

broadcastable = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3,
                                                   max_side=3)
BINARY = [rt.add, rt.subtract, rt.multiply, rt.maximum, rt.minimum]
NUMPY = [np.add, np.subtract, np.multiply, np.maximum, np.minimum]


@settings(max_examples=40, deadline=None)
@given(broadcastable, st.integers(0, len(BINARY) - 1), st.data())
def test_elementwise_ops_broadcast_like_numpy(shapes, which, data):
    a_shape, b_shape = shapes.input_shapes
    ints = st.integers(-100, 100)
    a = data.draw(hnp.arrays(np.int32, a_shape, elements=ints))
    b = data.draw(hnp.arrays(np.int32, b_shape, elements=ints))
    expected = NUMPY[which](a, b)
    out = BINARY[which](rt.constant(a), rt.constant(b))
    assert out.shape == expected.shape
    np.testing.assert_array_equal(out.numpy(), expected)
    g, sym, value = run_in_graph(BINARY[which], a, b, shapes=[a_shape, b_shape])
    assert sym.shape == expected.shape
    np.testing.assert_array_equal(value, expected)


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.int32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                  elements=st.integers(-50, 50)),
       hnp.arrays(np.int32, (), elements=st.integers(1, 9)))
def test_floordiv_and_mod_match_python_semantics(x, y):
    y = int(y)
    np.testing.assert_array_equal((rt.constant(x) // y).numpy(), x // y)
    np.testing.assert_array_equal((rt.constant(x) % -y).numpy(), x % -y)
    np.testing.assert_array_equal((rt.constant(x) // y * y + rt.constant(x) % y).numpy(), x)


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                  elements=st.floats(-100, 100, width=32)), st.data())
def test_reductions_match_numpy(x, data):
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    keep = data.draw(st.booleans())
    for fn, ref in [(rt.reduce_sum, np.sum), (rt.reduce_max, np.max), (rt.reduce_min, np.min),
                    (rt.reduce_mean, np.mean)]:
        out = fn(rt.constant(x), axis=axis, keepdims=keep)
        expected = ref(x, axis=axis, keepdims=keep)
        assert out.shape == np.shape(expected)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-3)
