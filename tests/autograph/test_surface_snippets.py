"""Realistic tf.function snippets using the structural and functional surface of docs/reference.md,
ported mechanically (`tf.` -> `rt.`, `tf.function` -> `ag.function`)."""
import io

import numpy as np
import pytest

import autograph as ag
import runtime as rt


def _op_types(concrete):
    types = {op.type for op in concrete.graph.get_operations()}
    for fn in concrete.graph.library.values():
        types |= {op.type for op in fn.get_operations()}
    return types


# ---- an RNN over TensorArray.unstack -----------------------------------------------------------

W_X = rt.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
W_H = rt.constant(np.linspace(0.5, -0.5, 16, dtype=np.float32).reshape(4, 4))


@ag.function
def rnn(inputs):
    """inputs: [time, batch, 3] -> the hidden states [time, batch, 4]."""
    steps = rt.TensorArray(rt.float32, size=0, dynamic_size=True).unstack(inputs)
    outputs = rt.TensorArray(rt.float32, size=steps.size())
    h = rt.zeros([rt.shape(inputs)[1], 4])
    for t in rt.range(steps.size()):
        h = rt.tanh(rt.matmul(steps.read(t), W_X) + rt.matmul(h, W_H))
        outputs = outputs.write(t, h)
    return outputs.stack()


def test_an_rnn_over_tensor_array_unstack():
    x = np.random.default_rng(0).normal(size=(5, 2, 3)).astype(np.float32)
    h = np.zeros((2, 4), np.float32)
    expected = []
    for t in range(5):
        h = np.tanh(x[t] @ W_X.numpy() + h @ W_H.numpy())
        expected.append(h)
    np.testing.assert_allclose(rnn(rt.constant(x)).numpy(), np.stack(expected), rtol=1e-5)
    concrete = rnn.get_concrete_function(rt.TensorSpec([None, 2, 3], rt.float32))
    assert {'TensorListFromTensor', 'TensorListGetItem', 'TensorListSetItem',
            'TensorListStack'} <= _op_types(concrete)


# ---- map_fn over a batch -----------------------------------------------------------------------

@ag.function
def normalize_rows(batch):
    return rt.map_fn(lambda row: (row - rt.reduce_mean(row)) / (rt.reduce_max(row) + 1.), batch)


@ag.function
def lengths_and_sums(batch):
    return rt.map_fn(lambda row: (rt.reduce_sum(rt.cast(row > 0., rt.int32)), rt.reduce_sum(row)),
                     batch, fn_output_signature=(rt.int32, rt.float32))


def test_map_fn_over_a_batch_builds_a_while_over_tensor_arrays():
    batch = np.array([[1., 2., 3.], [-1., 0., 4.]], np.float32)
    expected = (batch - batch.mean(1, keepdims=True)) / (batch.max(1, keepdims=True) + 1)
    np.testing.assert_allclose(normalize_rows(rt.constant(batch)).numpy(), expected, rtol=1e-6)
    eager = rt.map_fn(lambda row: (row - rt.reduce_mean(row)) / (rt.reduce_max(row) + 1.),
                      rt.constant(batch))
    np.testing.assert_allclose(eager.numpy(), expected, rtol=1e-6)
    concrete = normalize_rows.get_concrete_function(rt.TensorSpec([2, 3], rt.float32))
    assert concrete.graph.outputs[0].shape == (2, 3)
    assert {'StatelessWhile', 'TensorListFromTensor', 'TensorListStack'} <= _op_types(concrete)
    counts, sums = lengths_and_sums(rt.constant(batch))
    assert counts.dtype is rt.int32 and counts.numpy().tolist() == [3, 1]
    np.testing.assert_allclose(sums.numpy(), [6., 3.])


@ag.function
def running_total(xs):
    return rt.scan(lambda total, x: total + x, xs), rt.foldl(lambda a, x: a * x, xs)


def test_scan_and_foldl_in_a_function():
    xs = rt.constant([1., 2., 3., 4.])
    total, product = running_total(xs)
    assert total.numpy().tolist() == [1., 3., 6., 10.] and float(product) == 24.
    assert rt.foldr(lambda a, x: a - x, xs, initializer=0.).numpy() == -10.


# ---- a name_scope'd model ------------------------------------------------------------------------

class Dense:
    def __init__(self, name, n_in, n_out):
        with rt.name_scope(name):
            self.w = rt.Variable(np.full((n_in, n_out), 0.1, np.float32), name='w')
            self.b = rt.Variable(np.zeros(n_out, np.float32), name='b')
        self.name = name

    def __call__(self, x):
        with rt.name_scope(self.name):
            return rt.relu(rt.matmul(x, self.w) + self.b)


def test_a_name_scoped_model_names_its_ops_and_variables():
    with rt.name_scope('model'):
        first, second = Dense('dense', 3, 4), Dense('dense_out', 4, 2)
    assert first.w.name == 'model/dense/w:0' and second.b.name == 'model/dense_out/b:0'

    @ag.function
    def forward(x):
        with rt.name_scope('model'):
            return second(first(x))

    x = rt.constant(np.ones((1, 3), np.float32))
    np.testing.assert_allclose(forward(x).numpy(), [[0.12, 0.12]], rtol=1e-5)
    names = [op.name for op in forward.get_concrete_function(x).graph.get_operations()]
    assert 'model/dense/MatMul' in names and 'model/dense/Relu' in names
    assert 'model/dense_out/MatMul' in names


def test_name_scope_object_is_reusable_and_returns_the_scope():
    scope = rt.name_scope('block')
    with scope as name:
        assert name == 'block/'
        a = rt.Variable(1., name='a')
    with scope:
        b = rt.Variable(2., name='b')
    assert (a.name, b.name) == ('block/a:0', 'block/b:0')
    g = rt.Graph()
    with g.as_default():
        with rt.name_scope('outer'):
            with rt.name_scope('inner') as inner:
                c = rt.constant(1.) + 1.
        with rt.name_scope('outer'):
            d = c * 2.
    assert inner == 'outer/inner/' and c.op.name == 'outer/inner/add'
    assert d.op.name == 'outer_1/mul'


# ---- switch_case on a tensor index ---------------------------------------------------------------

@ag.function
def activation(kind, x):
    return rt.switch_case(kind, [lambda: rt.relu(x), lambda: rt.tanh(x), lambda: -x])


def test_switch_case_on_a_tensor_index():
    x = rt.constant([-1., 0.5])
    assert activation(rt.constant(0), x).numpy().tolist() == [0., 0.5]
    np.testing.assert_allclose(activation(rt.constant(1), x).numpy(), np.tanh([-1., 0.5]))
    assert activation(rt.constant(2), x).numpy().tolist() == [1., -0.5]
    assert activation(rt.constant(9), x).numpy().tolist() == [1., -0.5]  # the last is default
    concrete = activation.get_concrete_function(rt.constant(0), x)
    case = [op for op in concrete.graph.get_operations() if op.type == 'StatelessCase'][0]
    assert len(case.get_attr('branches')) == 3
    assert case.name == 'switch_case/indexed_case'
    assert 'op: "StatelessCase"' in str(concrete.graph.as_graph_def())


def test_switch_case_with_a_stateful_branch_is_case_and_default_runs_out_of_range():
    v = rt.Variable(0)

    @ag.function
    def bump(i):
        return rt.switch_case(i, {0: lambda: v.assign_add(1).read_value(),
                                  1: lambda: v.read_value()}, default=lambda: rt.constant(-1))

    assert int(bump(rt.constant(0))) == 1 and int(bump(rt.constant(0))) == 2
    assert int(bump(rt.constant(1))) == 2 and int(bump(rt.constant(5))) == -1
    types = _op_types(bump.get_concrete_function(rt.constant(0)))
    assert 'Case' in types and 'StatelessCase' not in types


# ---- py_function / numpy_function inside a graph -------------------------------------------------

def test_py_function_calls_back_with_eager_tensors_inside_a_graph():
    seen = []

    def log_and_double(x):
        seen.append(type(x).__name__)
        return x * 2

    @ag.function
    def f(x):
        y = rt.py_function(log_and_double, [x + 1.], rt.float32)
        return y + 1.

    assert f(rt.constant([1., 2.])).numpy().tolist() == [5., 7.]
    assert f(rt.constant([0.])).numpy().tolist() == [3.]
    assert seen == ['EagerTensor', 'EagerTensor']
    assert 'EagerPyFunc' in _op_types(f.get_concrete_function(rt.constant([1., 2.])))


def test_numpy_function_gets_arrays_and_several_outputs():
    @ag.function
    def stats(x):
        lo, hi = rt.numpy_function(lambda a: (a.min(), a.max()), [x], [rt.float32, rt.float32])
        return hi - lo

    assert float(stats(rt.constant([3., -1., 2.]))) == 4.
    with pytest.raises(rt.errors.InvalidArgumentError, match='Tout'):
        rt.numpy_function(lambda a: a, [rt.constant([1, 2])], rt.float32)


# ---- control_dependencies, group, init_scope -------------------------------------------------

def test_control_dependencies_and_group_in_a_function():
    out = io.StringIO()
    counter = rt.Variable(0)

    @ag.function
    def step(x):
        update = counter.assign_add(1)
        with rt.control_dependencies([update]):
            y = x * 2
        rt.group(rt.print('step', output_stream=out), y)
        return y

    assert step(rt.constant(3)).numpy() == 6
    assert counter.numpy() == 1 and out.getvalue() == 'step\n'
    assert rt.group() is None and rt.no_op() is None  # eagerly nothing to build
    concrete = step.get_concrete_function(rt.constant(3))
    mul = [op for op in concrete.graph.get_operations() if op.type == 'Mul'][0]
    assert mul.control_inputs
    assert any(op.type == 'NoOp' and op.name.startswith('group_deps')
               for op in concrete.graph.get_operations())


def test_init_scope_leaves_the_function_graph():
    made = []

    @ag.function
    def f(x):
        with rt.init_scope():
            made.append(rt.constant(2.))
        return x * made[-1]

    assert float(f(rt.constant(3.))) == 6.
    assert made and not hasattr(made[0], 'op')  # an eager tensor


# ---- TensorArray gather/scatter/concat as loop variables, Variable slices, random -------------

@ag.function
def scatter_then_concat(parts):
    ta = rt.TensorArray(rt.float32, size=3, element_shape=[2])
    ta = ta.scatter([2, 0, 1], parts)
    for i in rt.range(3):
        ta = ta.write(i, ta.read(i) * 10.)
    return ta.gather([1, 2]), ta.concat()


def test_tensor_array_scatter_gather_concat_in_a_loop():
    parts = rt.constant([[1., 2.], [3., 4.], [5., 6.]])
    gathered, joined = scatter_then_concat(parts)
    assert gathered.numpy().tolist() == [[50., 60.], [10., 20.]]
    assert joined.numpy().tolist() == [30., 40., 50., 60., 10., 20.]


def test_variable_slices_and_scatter_persist_after_the_call():
    board = rt.Variable(np.zeros((3, 3), np.int32))

    @ag.function
    def play(row, value):
        board[row].assign(rt.fill([3], value))
        board[:, 2:].assign([[7], [7], [7]])
        board.scatter_nd_update([[0, 0]], [value * 10])
        return board[row] + 0

    assert play(rt.constant(1), rt.constant(4)).numpy().tolist() == [4, 4, 7]
    assert board.numpy().tolist() == [[40, 0, 7], [4, 4, 7], [0, 0, 7]]
    types = _op_types(play.get_concrete_function(rt.constant(1), rt.constant(4)))
    assert {'ResourceStridedSliceAssign', 'ResourceScatterNdUpdate'} <= types


def test_generator_and_stateless_random_are_reproducible_in_functions():
    gen = rt.random.Generator.from_seed(42)

    @ag.function
    def draw():
        return gen.normal([3]), rt.random.stateless_uniform([2], seed=[4, 2])

    first, s1 = draw()
    second, s2 = draw()
    replay = rt.random.Generator.from_seed(42)
    np.testing.assert_array_equal(first.numpy(), replay.normal([3]).numpy())
    np.testing.assert_array_equal(second.numpy(), replay.normal([3]).numpy())
    assert not np.array_equal(first.numpy(), second.numpy())
    np.testing.assert_array_equal(s1.numpy(), s2.numpy())
    assert ((s1.numpy() >= 0) & (s1.numpy() < 1)).all()


def test_random_surface_shapes_and_distributions():
    rt.random.set_seed(5)
    t = rt.random.truncated_normal([2000], mean=1., stddev=0.5).numpy()
    assert t.min() >= 0. and t.max() <= 2. and abs(t.mean() - 1.) < 0.05
    shuffled = rt.random.shuffle(rt.range(10)).numpy()
    assert sorted(shuffled.tolist()) == list(range(10))
    samples = rt.random.categorical(rt.constant([[-10., 10.]]), 50)
    assert samples.dtype is rt.int64 and samples.shape == (1, 50)
    assert samples.numpy().tolist() == [[1] * 50]
    ints = rt.random.Generator.from_seed(1).uniform([100], 0, 4, dtype=rt.int32).numpy()
    assert set(ints.tolist()) <= {0, 1, 2, 3}


def test_nest_map_structure():
    out = rt.nest.map_structure(lambda a, b: a * b, {'w': rt.constant(2.), 'b': [1., 3.]},
                                {'w': 3., 'b': [2., 2.]})
    assert float(out['w']) == 6. and out['b'] == [2., 6.]
    assert rt.nest.flatten({'b': 1, 'a': (2, 3)}) == [2, 3, 1]
    with pytest.raises(ValueError):
        rt.nest.map_structure(lambda a, b: a, [1, 2], [1])


# ---- user functions handed to map_fn / switch_case are converted too -------------------------

def zero_if_large(row):
    if rt.reduce_sum(row) > 3.:
        return row * 0.
    return row


def halve_until_small(x):
    while rt.reduce_max(x) > 1.:
        x = x / 2.
    return x


@ag.function
def clean(batch, mode):
    rows = rt.map_fn(zero_if_large, batch)
    return rt.switch_case(mode, [lambda: rows, lambda: halve_until_small(rows)])


def test_functions_given_to_map_fn_and_switch_case_are_converted():
    batch = rt.constant([[1., 1.], [2., 2.], [0.5, 3.]])
    assert clean(batch, rt.constant(0)).numpy().tolist() == [[1., 1.], [0., 0.], [0., 0.]]
    batch = rt.constant([[1., 1.5], [1., 1.]])
    assert clean(batch, rt.constant(1)).numpy().tolist() == [[0.5, 0.75], [0.5, 0.5]]
    assert rt.map_fn(zero_if_large, batch).numpy().tolist() == [[1., 1.5], [1., 1.]]
