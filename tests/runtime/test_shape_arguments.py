"""Shape-like arguments (shapes, dims, sizes, multiples, paddings, begin, perm, axes) written as
lists that mix tensors and Python ints, as tensors, and as int64 tensors, inside a function whose
batch size is unknown and known: the static shape at trace time, the value and the dtype agree
with TensorFlow 2.21 (tests/runtime/fixtures/tf_shape_arguments.json, written by
tools/tf_shape_argument_fixtures.py), and every op of the registry that takes such an argument is
exercised."""
import json
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.ops.registry import REGISTRY

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_shape_arguments.json')
with open(FIXTURE) as f:
    CASES = json.load(f)['cases']
SIGNATURES = {'unknown_batch': [None, 4], 'known_batch': [3, 4]}

# the input names of ops that take a shape-like argument
SHAPE_LIKE = {'shape', 'dims', 'multiples', 'paddings', 'begin', 'size', 'perm', 'axis', 'dim',
              'split_dim', 'size_splits', 'reduction_indices', 'num_lower', 'num_upper', 'depth',
              'num_samples', 'k', 'num_rows', 'num_cols'}
# ops with such an input that no public function builds from a user's shape argument
NOT_FROM_USER_SHAPES = {
    'BroadcastGradientArgs', 'Conv2DBackpropFilter', 'Conv2DBackpropInput', 'MirrorPadGrad',
    'ResizeNearestNeighborGrad', 'StridedSliceGrad',  # built by gradients from the graph's shapes
    'ResourceStridedSliceAssign',  # `variable[begin:end].assign`: begin/end are Python slices
    'TensorListFromTensor', 'TensorListReserve', 'TensorListSplit',  # built by TensorArray
    'ReduceJoin', 'DenseBincount', 'InTopKV2', 'TopKV2', 'Multinomial', 'MatrixDiagV3',
    'MatrixDiagPartV3',  # take one scalar (k, size, num_samples): covered by the scalar cases
    'Split',  # num_or_size_splits as a Python int: the split_dim is a Python int too
    'ExtractGlimpseV2',  # its `size` is the glimpse's: tests/runtime/test_io_more.py's cases
}


def _run(expression, batch_shape, ops_seen):
    static = []

    def body(x, i):
        b = rt.shape(x)[0]
        b64 = rt.cast(b, rt.int64)
        out = eval(expression, {'tf': rt, 'x': x, 'i': i, 'b': b, 'b64': b64})
        static.append(out.shape)
        return out

    fn = ag.function(body, input_signature=[rt.TensorSpec(batch_shape, rt.float32),
                                            rt.TensorSpec(batch_shape[:1], rt.int32)])
    x = rt.reshape(rt.range(12.0), [3, 4]) - 5.0
    out = fn(x, rt.range(3))
    graph = fn.get_concrete_function().graph
    ops_seen.update(op.type for op in graph.get_operations())
    for g in graph.library.values():
        ops_seen.update(op.type for op in g.get_operations())
    shape = static[0]
    return None if shape.rank is None else shape.as_list(), out


@pytest.mark.parametrize('name', sorted(CASES))
def test_a_shape_argument_gives_tensorflows_static_shape_value_and_dtype(name):
    case = CASES[name]
    for label, batch_shape in SIGNATURES.items():
        static, out = _run(case['expression'], batch_shape, set())
        assert static == case[label], (label, static, case[label])
        assert out.dtype.name == case['dtype']
        if 'value' in case:
            np.testing.assert_allclose(out.numpy(), np.asarray(case['value']), rtol=1e-6)
        else:
            assert list(out.shape) == case['shape']


def test_every_op_taking_a_shape_argument_is_exercised():
    seen = set()
    for case in CASES.values():
        _run(case['expression'], [None, 4], seen)
    taking = {name for name, op in REGISTRY.items() if SHAPE_LIKE & set(op.inputs)}
    missing = sorted(taking - seen - NOT_FROM_USER_SHAPES)
    assert not missing, f'no shape argument case builds {missing}'


def test_a_list_mixing_tensors_of_two_integer_dtypes_is_refused():
    @ag.function(input_signature=[rt.TensorSpec([None, 4], rt.float32)])
    def f(x):
        b = rt.shape(x)[0]
        return rt.zeros([b, rt.cast(b, rt.int64)])

    with pytest.raises(TypeError, match='int32 and int64'):
        f(rt.ones([2, 4]))


def test_fill_takes_int64_dims_eagerly():
    n = rt.constant(3, rt.int64)
    out = rt.fill([n], n)
    assert out.dtype is rt.int64 and out.numpy().tolist() == [3, 3, 3]
    assert rt.data.Dataset.range(1, 3).map(lambda n: rt.fill([n], n)).reduce(
        rt.constant(0, rt.int64), lambda s, t: s + rt.reduce_sum(t)).numpy() == 1 + 4
