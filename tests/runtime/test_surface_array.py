"""The array and structural surface: each op eagerly, in a graph (fed through
placeholders of unknown dims) and against numpy, with TensorFlow's op types and errors."""
import numpy as np
import pytest
from runtime_helpers import run_in_graph

import runtime as rt
from runtime.ops.registry import NO_GRADIENT, REGISTRY

X = np.arange(6, dtype=np.float32).reshape(2, 3)
V = np.array([1.5, -2.0, 0.5, 4.0], dtype=np.float32)
IDX = np.array([0, 2, 1], dtype=np.int32)

ROWS = [
    ('tile', lambda x: rt.tile(x, [2, 1]), [X], np.tile(X, (2, 1)), 'Tile'),
    ('pad', lambda x: rt.pad(x, [[1, 0], [0, 2]]), [X], np.pad(X, [[1, 0], [0, 2]]), 'Pad'),
    ('pad constant_values', lambda x: rt.pad(x, [[1, 1], [1, 1]], constant_values=7.), [X],
     np.pad(X, 1, constant_values=7), 'PadV2'),
    ('pad reflect', lambda x: rt.pad(x, [[1, 1], [2, 2]], mode='REFLECT'), [X],
     np.pad(X, [[1, 1], [2, 2]], mode='reflect'), 'MirrorPad'),
    ('pad symmetric', lambda x: rt.pad(x, [[1, 1], [1, 0]], mode='symmetric'), [X],
     np.pad(X, [[1, 1], [1, 0]], mode='symmetric'), 'MirrorPad'),
    ('slice', lambda x: rt.slice(x, [0, 1], [-1, 2]), [X], X[:, 1:3], 'Slice'),
    ('split equal', lambda x: rt.split(x, 3, axis=1)[2], [X], X[:, 2:], 'Split'),
    ('split sizes', lambda x: rt.split(x, [1, -1], axis=1)[1], [X], X[:, 1:], 'SplitV'),
    ('unstack', lambda x: rt.unstack(x, num=2)[1], [X], X[1], 'Unpack'),
    ('unstack axis 1', lambda x: rt.unstack(x, num=3, axis=1)[0], [X], X[:, 0], 'Unpack'),
    ('reverse', lambda x: rt.reverse(x, [1]), [X], X[:, ::-1], 'ReverseV2'),
    ('broadcast_to', lambda v: rt.broadcast_to(v, [3, 4]), [V], np.broadcast_to(V, (3, 4)),
     'BroadcastTo'),
    ('one_hot', lambda i: rt.one_hot(i, 4), [IDX], np.eye(4, dtype=np.float32)[IDX], 'OneHot'),
    ('one_hot on off axis', lambda i: rt.one_hot(i, 3, on_value=5, off_value=-1, axis=0),
     [IDX], np.where(np.eye(3, dtype=bool)[IDX].T, 5, -1).astype(np.int32), 'OneHot'),
    ('linspace', lambda: rt.linspace(0., 1., 5), [], np.linspace(0, 1, 5, dtype=np.float32),
     'LinSpace'),
    ('gather_nd', lambda x: rt.gather_nd(x, [[1, 2], [0, 0]]), [X], np.array([5., 0.]),
     'GatherNd'),
    ('gather_nd rows', lambda x: rt.gather_nd(x, [[1]]), [X], X[[1]], 'GatherNd'),
    ('scatter_nd', lambda v: rt.scatter_nd([[1], [3], [1]], v[:3], [5]), [V],
     np.array([0., 2., 0., -2., 0.], np.float32), 'ScatterNd'),
    ('tensor_scatter_nd_update', lambda x: rt.tensor_scatter_nd_update(x, [[0, 1], [1, 0]],
                                                                      [9., 8.]), [X],
     np.array([[0., 9., 2.], [8., 4., 5.]], np.float32), 'TensorScatterUpdate'),
    ('boolean_mask', lambda v: rt.boolean_mask(v, [True, False, True, True]), [V],
     V[[0, 2, 3]], 'GatherV2'),
    ('boolean_mask rows', lambda x: rt.boolean_mask(x, [False, True]), [X], X[[1]], 'GatherV2'),
    ('repeat', lambda x: rt.repeat(x, 2, axis=1), [X], np.repeat(X, 2, axis=1), 'Reshape'),
    ('repeat counts', lambda x: rt.repeat(x, [2, 0, 1], axis=1), [X],
     np.repeat(X, [2, 0, 1], axis=1), 'GatherV2'),
    ('repeat flat', lambda v: rt.repeat(v, 2), [V], np.repeat(V, 2), 'Reshape'),
    ('meshgrid xy', lambda a: rt.meshgrid(a, a[:3])[1], [V], np.meshgrid(V, V[:3])[1],
     'BroadcastTo'),
    ('meshgrid ij', lambda a: rt.meshgrid(a, a[:3], indexing='ij')[0], [V],
     np.meshgrid(V, V[:3], indexing='ij')[0], 'BroadcastTo'),
    ('newaxis', lambda v: v[rt.newaxis, :, rt.newaxis], [V], V[None, :, None], 'StridedSlice'),
]


@pytest.mark.parametrize('program, inputs, expected, op_type', [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_op_eagerly_in_a_graph_and_against_numpy(program, inputs, expected, op_type):
    eager = program(*[rt.constant(a) for a in inputs])
    np.testing.assert_allclose(eager.numpy(), expected, rtol=1e-6)
    assert eager.numpy().dtype == np.asarray(expected).dtype or \
        np.asarray(expected).dtype == np.float64

    g, out, value = run_in_graph(program, *inputs, shapes=[list(np.shape(a)) for a in inputs])
    assert out.op.type == op_type
    assert out.dtype is eager.dtype
    assert out.shape.is_compatible_with(eager.shape)
    np.testing.assert_allclose(value, expected, rtol=1e-6)
    # with unknown dims too (rank known), where the op allows it
    if op_type not in ('Unpack', 'Split', 'SplitV') and inputs:
        _, out, value = run_in_graph(program, *inputs)
        np.testing.assert_allclose(value, expected, rtol=1e-6)


def test_static_shapes_follow_tensorflow():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [2, None])
        assert rt.tile(x, [3, 2]).shape == (6, None)
        assert rt.pad(x, [[1, 1], [2, 0]]).shape == (4, None)
        assert [t.shape for t in rt.split(rt.placeholder(rt.float32, [4, 6]), [1, 2, -1], 1)] \
            == [(4, 1), (4, 2), (4, 3)]
        assert rt.one_hot(rt.placeholder(rt.int32, [5]), 3).shape == (5, 3)
        assert rt.boolean_mask(rt.placeholder(rt.float32, [4, 3]),
                               rt.placeholder(rt.bool, [4])).shape == (None, 3)
        assert rt.repeat(rt.placeholder(rt.float32, [2, 3]), 2, axis=0).shape == (4, 3)
        assert rt.linspace(0., 1., 7).shape == (7,)
        assert rt.gather_nd(rt.placeholder(rt.float32, [4, 5, 6]),
                            rt.placeholder(rt.int32, [2, 2])).shape == (2, 6)


def test_tensorflow_names_and_attrs_in_the_graph():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [2, 3], name='x')
        parts = rt.split(x, 3, axis=1)
        rows = rt.unstack(x)
        hot = rt.one_hot(rt.constant([0, 1]), 3)
    split_op = parts[0].op
    assert split_op.name == 'split' and split_op.get_attr('num_split') == 3
    assert [t.name for t in parts] == ['split:0', 'split:1', 'split:2']
    assert rows[0].op.name == 'unstack' and rows[0].op.get_attr('num') == 2
    assert hot.op.name == 'one_hot' and hot.op.get_attr('axis') == -1
    assert [i.op.name for i in hot.op.inputs[1:]] == ['one_hot/depth', 'one_hot/on_value',
                                                       'one_hot/off_value']
    text = str(g.as_graph_def())
    assert 'op: "Split"' in text and 'op: "Unpack"' in text and 'op: "OneHot"' in text


def test_errors_have_tensorflows_types():
    x = rt.constant(X)
    with pytest.raises(rt.errors.InvalidArgumentError, match='evenly divide'):
        rt.split(rt.constant(V[:3]), 2)
    with pytest.raises(rt.errors.InvalidArgumentError, match='does not index'):
        rt.gather_nd(x, [[2, 0]])
    with pytest.raises(ValueError, match='Cannot infer argument `num`'):
        g = rt.Graph()
        with g.as_default():
            rt.unstack(rt.placeholder(rt.float32, [None, 2]))
    with pytest.raises(TypeError, match='integer indices'):
        rt.one_hot(rt.constant([0.5]), 3)
    with pytest.raises(ValueError, match='Unknown padding mode'):
        rt.pad(x, [[0, 0], [0, 0]], mode='WRAP')
    with pytest.raises(rt.errors.InvalidArgumentError, match='Unable to broadcast'):
        rt.broadcast_to(x, [4, 2])
    with pytest.raises(TypeError, match='bool mask'):
        rt.boolean_mask(x, [1, 0])
    with pytest.raises(ValueError, match='incompatible'):
        rt.boolean_mask(x, [True, False, True])


# ---- gradients (each op's gradient is checked against finite differences, eagerly and in graphs,
# by tests/runtime/test_gradients_registry.py) ---------------------------------------------------

def _numeric_vjp(fn, inputs, k, cotangent, eps=1e-6):
    x = [np.asarray(a, np.float64) for a in inputs]
    grad = np.zeros_like(x[k])
    for i in np.ndindex(x[k].shape):
        up = [a.copy() for a in x]
        down = [a.copy() for a in x]
        up[k][i] += eps
        down[k][i] -= eps
        grad[i] = np.sum((fn(*up) - fn(*down)) * cotangent) / (2 * eps)
    return grad


def test_non_differentiable_ops_say_so():
    for name in ('OneHot', 'LinSpace', 'NoOp', 'TruncatedNormal', 'RandomShuffle', 'Multinomial',
                 'StatelessRandomUniformV2', 'ResourceScatterNdUpdate',
                 'ResourceStridedSliceAssign', 'PyFunc', 'PyFuncStateless'):
        assert REGISTRY[name].gradient is NO_GRADIENT, name


def test_tensor_array_gradients_flow_through_scatter_gather_and_concat():
    """Back through `TensorArray(3).scatter([2, 0, 1], x)` then `.gather([1, 2])` (or
    `.concat()`), calling each op's gradient in turn, equals finite differences."""
    x = np.array([[0.5, -1.0], [2.0, 0.25], [1.5, 3.0]])
    cot = {'gather': np.array([[1., 2.], [3., -1.]]), 'concat': np.arange(6.) - 2.}

    def forward(value, read):
        ta = rt.TensorArray(rt.float64, size=3).scatter([2, 0, 1], rt.constant(value))
        return (ta.gather([1, 2]) if read == 'gather' else ta.concat()).numpy()

    for read in ('gather', 'concat'):
        g = rt.Graph()
        with g.as_default():
            p = rt.placeholder(rt.float64, [3, 2])
            ta = rt.TensorArray(rt.float64, size=3).scatter([2, 0, 1], p)
            out = ta.gather([1, 2]) if read == 'gather' else ta.concat()
            read_op, scatter_op = out.op, ta.handle.op
            grads = [rt.constant(cot[read])] + [None] * (len(read_op.outputs) - 1)
            list_grad = read_op.opdef.gradient(read_op, *grads)[0]
            x_grad = scatter_op.opdef.gradient(scatter_op, list_grad)[1]
            analytic = g.run(x_grad, {p: x})
        numeric = _numeric_vjp(lambda v: forward(v, read), [x], 0, cot[read])
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, err_msg=read)


def test_a_graph_with_the_new_ops_survives_graph_def_serialization():
    from runtime.graph import serialization
    from runtime.graph.importer import import_graph_def
    g = rt.Graph()
    with g.as_default():
        i = rt.placeholder(rt.int32, [], name='i')
        x = rt.placeholder(rt.float32, [3], name='x')
        rt.identity(rt.switch_case(i, [lambda: x * 2., lambda: x + 1., lambda: -x]), name='case')
        rt.identity(rt.map_fn(lambda r: r * 3., x), name='mapped')
        rt.identity(rt.split(x, 3)[2], name='part')
        rt.identity(rt.boolean_mask(x, rt.constant([True, False, True])), name='masked')
    copy = import_graph_def(serialization.parse_graph_def(
        serialization.serialize_graph(g)))
    case, mapped, part, masked = copy.run(['case:0', 'mapped:0', 'part:0', 'masked:0'],
                                          {'i:0': 2, 'x:0': np.arange(3, dtype=np.float32)})
    assert case.tolist() == [0., -1., -2.] and mapped.tolist() == [0., 3., 6.]
    assert part.tolist() == [2.] and masked.tolist() == [0., 2.]
    assert copy.get_operation_by_name('switch_case/indexed_case').type == 'StatelessCase'


def test_the_graph_picture_draws_each_case_branch():
    from runtime.graph.dot import to_dot
    g = rt.Graph()
    with g.as_default():
        i = rt.placeholder(rt.int32, [], name='i')
        rt.switch_case(i, [lambda: rt.constant(1.), lambda: rt.constant(2.)])
    dot = to_dot(g)
    assert 'switch_case/indexed_case (StatelessCase)' in dot
    assert 'branch 0: ' in dot and 'branch 1: ' in dot
