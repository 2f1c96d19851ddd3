"""`jit_compile=True`: graphs compiled to native code with numba give the default executor's
results, report what they cannot compile, and compile once.

numba compiles slowly (a few hundred ms a graph on a cold cache), so each program here covers
many ops and is compiled once, into a temp dir (the `jit_cache` fixture); `pytest --jit
tests/runtime tests/autograph` runs the other graph tests natively (see tests/conftest.py and
docs/jit.md).
"""
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime import executor
from runtime.executor import native
from runtime.executor.native import cache, emitter
from runtime.ops import list_ops
from tools import workloads

pytest.importorskip('numba')


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """Compiled code goes to the test run's temp dir, never the user's ~/.cache (so every run
    compiles from a cold cache, as CI on a fresh machine does)."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def test_the_tests_cache_compiled_code_in_a_temp_dir(tmp_path_factory):
    assert cache.directory() == str(tmp_path_factory.getbasetemp() / 'jit')


def assert_same(got, expected):
    """The default executor's result: same dtype and shape, floats within 1e-6 relative."""
    assert got.dtype == expected.dtype
    got, expected = got.numpy(), expected.numpy()
    assert np.shape(got) == np.shape(expected)
    if np.asarray(got).dtype.kind == 'f':
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got, expected)


def both(fn):
    return ag.function(fn), ag.function(fn, jit_compile=True)


@pytest.mark.parametrize('workload', workloads.WORKLOADS, ids=lambda w: w.name)
def test_the_bench_workloads_give_the_default_executors_results(workload):
    default, jit = ag.function(workload.program()), ag.function(workload.program(),
                                                                 jit_compile=True)
    args = workload.arguments()
    for _ in range(2):  # a training step's second step too
        got, expected = jit(*args), default(*args)
        if workload.function is workloads.rnn_gradient:
            # numba's tanhf and numpy's float32 tanh differ by an ulp in a third of the
            # elements; twenty steps of the recurrence (and its gradient) make that ~1e-6 of
            # the gradient's scale, which is no tolerance of one op's result
            np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6,
                                       atol=2e-6 * np.abs(expected.numpy()).max())
        else:
            assert_same(got, expected)
    expected = workload.numpy_program()(*workload.numpy_arguments())
    np.testing.assert_allclose(ag.function(workload.program(), jit_compile=True)(*args).numpy(),
                               expected, rtol=1e-5, atol=2e-6 * np.abs(expected).max())


def power(x, y):
    result = rt.eye(3, dtype=rt.int32)
    for _ in range(y):
        result = rt.matmul(x, result)
    return result


def test_integer_matmuls_wrap_around_like_numpy():
    x = rt.constant([[40000, 1, 0], [0, 3, 70000], [5, 0, 60000]], dtype=rt.int32)
    jit = ag.function(power, jit_compile=True)
    expected = np.eye(3, dtype=np.int32)
    for _ in range(8):
        expected = np.matmul(x.numpy(), expected)
    got = jit(x, 8)
    assert got.dtype == rt.int32
    np.testing.assert_array_equal(got.numpy(), expected)
    assert 'for _ in range(7):' in jit.get_concrete_function(x, 8)._run.source


def integer_math(x, y):
    quotient = x // y
    remainder = x % y
    big = x * 65536 * 65536 + 7  # wraps around in int32
    extremes = rt.maximum(x, y) - rt.minimum(x, y)
    return (quotient, remainder, big, extremes, rt.abs(x) + rt.sign(y), y ** 2,
            rt.cast(x, rt.float32) / 4.0, -x)


INTEGER_MATH = both(integer_math)


@pytest.mark.parametrize('x, y', [(7, 2), (-7, 2), (7, -2), (-7, -3), (2147483647, 1)])
def test_integer_ops_keep_int32_and_floor_semantics(x, y):
    default, jit = INTEGER_MATH
    args = rt.constant(x), rt.constant(y)
    for got, expected in zip(jit(*args), default(*args)):
        assert_same(got, expected)


def test_integer_division_by_zero_raises_and_names_the_op():
    _, jit = INTEGER_MATH
    with pytest.raises(rt.errors.InvalidArgumentError, match='Integer division by zero') as e:
        jit(rt.constant(5), rt.constant(0))
    assert 'FloorDiv' in str(e.value) and 'test_native.py' in str(e.value)


def test_a_native_plans_fallback_is_the_default_executors_plan(monkeypatch):
    """Native code failing reruns the graph on the default executor's plan, whatever
    `compile_graph` is bound to (pytest --jit rebinds it)."""
    def refuse(*args, **kwargs):
        raise AssertionError('the fallback went through compile_graph')

    monkeypatch.setattr(executor, 'compile_graph', refuse)
    _, jit = INTEGER_MATH
    with pytest.raises(rt.errors.InvalidArgumentError, match='Integer division by zero'):
        jit(rt.constant(7), rt.constant(0))


def float_math(x, s):
    y = rt.tanh(x) * rt.exp(-x) + rt.sigmoid(x) - rt.sqrt(rt.abs(x))
    z = rt.square(x) / (x + 5.0) + rt.floor(x) + rt.ceil(x) * rt.round(x * s)
    w = rt.relu(x - 0.5) + rt.clip_by_value(x, -1.0, 1.0) + rt.log(rt.abs(x) + 1.0)
    u = rt.sin(s) * rt.cos(s) + s ** 2.0 - x // 2.0 + x % 3.0
    return y, z, w, u


def test_float_math_matches_within_1e_6():
    default, jit = both(float_math)
    for x, s in [(-3.0, 0.5), (0.25, -2.25), (2.5, 1.5)]:
        args = rt.constant(x), rt.constant(s)
        for got, expected in zip(jit(*args), default(*args)):
            assert_same(got, expected)


def arrays(x, s):
    """Elementwise ops with broadcasting, and reductions."""
    y = rt.exp(-x) * s + rt.maximum(x, 0.0)
    return y, rt.reduce_sum(y), rt.reduce_mean(y, axis=0), rt.reduce_max(x - s), x[1] / y


def test_array_math_and_reductions_match_within_1e_6():
    default, jit = both(arrays)
    x = rt.constant(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4))
    for s in (rt.constant(0.5), rt.constant(-2.25)):
        for got, expected in zip(jit(x, s), default(x, s)):
            assert_same(got, expected)


def logic(x, threshold):
    above = x > threshold
    either = rt.logical_or(above, x < -threshold)
    both_ = rt.logical_and(either, rt.not_equal(x, 0))
    picked = rt.where(both_, x, rt.zeros_like(x))
    return (rt.logical_not(either), picked, rt.reduce_any(above), rt.reduce_all(either),
            rt.cast(above, rt.int32), x == threshold, rt.cast(x, rt.int64) >= 2)


def test_comparisons_logic_where_and_casts():
    default, jit = both(logic)
    x = rt.constant([-3.0, -1.0, 0.0, 2.0, 2.5])
    for threshold in (rt.constant(1.5), rt.constant(2.0)):
        for got, expected in zip(jit(x, threshold), default(x, threshold)):
            assert_same(got, expected)


def indexing(x, i):
    row = x[i]
    rows = x[1:3]
    reversed_column = x[::-1, 1]
    picked = rt.gather(x, rt.abs(i))
    flat = rt.reshape(x, [-1])
    return row, rows, reversed_column, picked, flat[i * 2], rt.transpose(x)


def test_indexing_slicing_and_reshaping():
    default, jit = both(indexing)
    x = rt.constant(np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5)
    for i in (rt.constant(0), rt.constant(3), rt.constant(-2)):
        for got, expected in zip(jit(x, i), default(x, i)):
            assert_same(got, expected)


def test_an_index_out_of_range_raises_the_default_executors_error():
    default, jit = both(indexing)
    x = rt.constant(np.ones((4, 3), np.float32))
    with pytest.raises(rt.errors.InvalidArgumentError) as expected:
        default(x, rt.constant(5))
    with pytest.raises(rt.errors.InvalidArgumentError) as got:
        jit(x, rt.constant(5))
    assert str(got.value) == str(expected.value)


def loops(x, n):
    """A while loop with an array loop variable and an if returning two values in it."""
    total = rt.zeros([3])
    count = 0
    i = 0
    while i < n:
        if rt.reduce_sum(x) > rt.cast(i, rt.float32):
            total, count = total + x, count + 1
        else:
            total, count = total - 1.0, count - 1
        x = x * 0.5
        i += 1
    rows = rt.TensorArray(rt.int32, size=n)
    for k in rt.range(n):
        rows = rows.write(k, k * count)
    forked = rows.write(0, 100)  # a TensorArray is a value: `rows` keeps its element 0
    return total, count, rows.stack(), rows.read(n - 1), rows.size(), forked.stack()


def test_loops_with_arrays_conds_and_tensor_arrays():
    default, jit = both(loops)
    x = rt.constant([1.0, 2.0, 3.0])
    for n in (rt.constant(1), rt.constant(6)):
        results = jit(x, n)
        for got, expected in zip(results, default(x, n)):
            assert_same(got, expected)
        assert results[2].numpy()[0] == 0 and results[5].numpy()[0] == 100


def test_print_runs_at_every_call_of_compiled_code_as_in_the_default_executor(capsys):
    def noisy(x, n):
        for i in rt.range(n):
            rt.print('step', i, 'of', x)
        return x + 1

    default, jit = both(noisy)
    for n in (2, 3):
        expected = default(rt.constant(1), rt.constant(n))
        printed = capsys.readouterr().err
        assert_same(jit(rt.constant(1), rt.constant(n)), expected)
        assert capsys.readouterr().err == printed and printed.count('step') == n
    assert 'call_kernel(' in jit.get_concrete_function(rt.constant(1), rt.constant(2))._run.source


def test_an_op_with_neither_a_native_form_nor_a_kernel_fails_on_the_first_call_naming_it():
    from runtime.ops import dispatch, infer, registry
    opless = registry.OpDef('NoKernelHere', None, infer.same_as_input)  # not registered

    @ag.function(jit_compile=True)
    def holds_it(x):
        return dispatch.apply(opless, [x * 2])

    concrete = holds_it.get_concrete_function(rt.constant(1))  # tracing alone does not compile
    with pytest.raises(rt.errors.InvalidArgumentError) as e:
        holds_it(rt.constant(1))
    line = holds_it.python_function.__code__.co_firstlineno + 2
    assert 'NoKernelHere' in str(e.value) and f'test_native.py:{line}' in str(e.value)
    assert 'jit_compile=True' in str(e.value)
    assert concrete is holds_it.get_concrete_function(rt.constant(1))


def test_a_kernels_error_is_the_default_executors_naming_the_op_and_the_line():
    def checked(x):
        return rt.debugging.check_numerics(x / x, 'no NaN please')

    default, jit = both(checked)
    with pytest.raises(rt.errors.InvalidArgumentError) as expected:
        default(rt.constant([0.0, 1.0]))
    with pytest.raises(rt.errors.InvalidArgumentError) as e:
        jit(rt.constant([0.0, 1.0]))
    assert str(e.value) == str(expected.value) and 'CheckNumerics' in str(e.value)


def test_variables_are_read_and_written_like_the_default_executor():
    def make():
        scale, count, total = rt.Variable(1.0), rt.Variable(0), rt.Variable(np.zeros(3, np.float32))

        def step(x, n):
            for _ in rt.range(n):
                count.assign_add(1)
                if x > 0:
                    scale.assign(scale * 2.0)
                else:
                    scale.assign_sub(1.0)
                total.assign(total + x)
            return scale + x, count.read_value()
        return step, (scale, count, total)

    (default_step, default_vars), (jit_step, jit_vars) = make(), make()
    default, jit = ag.function(default_step), ag.function(jit_step, jit_compile=True)
    for x, n in [(1.0, 3), (-1.0, 2), (0.5, 0)]:
        args = rt.constant(x), rt.constant(n)
        for got, expected in zip(jit(*args), default(*args)):
            assert_same(got, expected)
        for got, expected in zip(jit_vars, default_vars):
            assert_same(got.read_value(), expected.read_value())


def test_new_values_neither_retrace_nor_recompile(monkeypatch):
    loads = []
    load = cache.load
    monkeypatch.setattr(cache, 'load', lambda *a: loads.append(a) or load(*a))
    jit = ag.function(integer_math, jit_compile=True)
    for x in range(5):
        jit(rt.constant(x), rt.constant(3))
    assert jit.experimental_get_tracing_count() == 1 and len(loads) == 1
    plan = jit.get_concrete_function(rt.constant(1), rt.constant(1))._run
    assert isinstance(plan, native.NativePlan) and 'def native(' in plan.source


def test_compiled_code_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path))
    jit = ag.function(workloads.range_sum, jit_compile=True)
    assert jit(rt.constant(10)).numpy() == 45
    (module,) = tmp_path.glob('rt_native_*.py')
    assert 'def native(' in module.read_text()
    assert list(tmp_path.glob('__pycache__/rt_native_*.nbi'))


def test_a_graph_two_functions_trace_is_compiled_once_in_a_process(tmp_path, monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path))
    first, again = (ag.function(workloads.range_sum, jit_compile=True) for _ in range(2))
    assert first(rt.constant(10)).numpy() == 45 and again(rt.constant(10)).numpy() == 45
    native.wait(timeout=60)
    numba = pytest.importorskip('numba')
    plans = [f.get_concrete_function(rt.constant(10))._run for f in (first, again)]
    source = plans[0].source
    assert plans[1].source == source
    # one dispatcher for the generated module: its code is neither compiled nor loaded twice
    assert cache.load(numba, source, 'again')[0] is cache.load(numba, source, 'again')[0]
    assert plans[1].compiled.restored and not plans[0].compiled.restored


def test_without_numba_the_first_call_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'numba', None)  # `import numba` raises ImportError
    jit = ag.function(workloads.range_sum, jit_compile=True)
    with pytest.raises(ImportError, match=r"pip install 'autograph-rt\[jit\]'"):
        jit(rt.constant(10))


@pytest.mark.default_executor  # --jit makes these graphs native
@pytest.mark.parametrize('jit_compile', [None, False])
def test_jit_compile_none_or_false_uses_the_default_executor(jit_compile):
    f = ag.function(workloads.range_sum, jit_compile=jit_compile)
    assert f(rt.constant(10)).numpy() == 45
    run = f.get_concrete_function(rt.constant(10))._run
    assert not isinstance(run, native.NativePlan) and 'def run(' in run.source


def test_elementwise_ops_fuse_into_their_user_with_no_array_in_between():
    jit = ag.function(workloads.tensor_array_rows, jit_compile=True)
    (x,) = workloads.WORKLOADS[4].arguments()
    jit(x)
    source = jit.get_concrete_function(x)._run.source
    assert 'np.empty(' not in source and 'list_set(' not in source  # rows written in place


def activations(x):
    """Transcendental functions of large arrays: of an input, of a value used twice, of a
    temporary only they read, and of a float64 cast; then sums."""
    y = x * 3.0 - 1.0
    squashed = rt.exp(rt.tanh(y)) + y
    waves = rt.sin(rt.exp(x)) * rt.cos(rt.log(x + 1.0))
    wide = rt.tanh(rt.cast(x, rt.float64) - 0.5)
    return rt.reduce_sum(squashed), rt.reduce_sum(waves), squashed[7], rt.reduce_sum(wide)


def test_transcendental_functions_of_large_arrays_are_loops_and_their_sums_fuse():
    default, jit = both(activations)
    values = np.random.default_rng(1).random(100_003, dtype=np.float32)
    x = rt.constant(values)
    for got, expected in zip(jit(x), default(x)):
        assert_same(got, expected)
    np.testing.assert_array_equal(x.numpy(), values)  # the input is not overwritten
    source = jit.get_concrete_function(x)._run.source
    # no numpy ufunc called in object mode; float32 tanh and exp are vmath's; the sums of
    # `waves` and `wide` are computed in the loops computing their elements (`squashed` is
    # read twice, so it is an array)
    assert 'objmode' not in source and 'tanh_f32(' in source and 'exp_f32(' in source
    assert source.count('accumulate(') == 2 and source.count('sum_all(') == 1


def fused_sums(x, b, w, empty):
    """Sums of every axis of elementwise values: broadcast operands, a mean kept, axes given
    negative, float64, a row longer than one block of the fused loop (4096), an empty array
    (not fused)."""
    return (rt.reduce_mean(rt.tanh(x * b + 1.0), keepdims=True),
            rt.reduce_sum(rt.exp(-x), axis=[-1, 0]), rt.reduce_sum(rt.sigmoid(w) * 2.0 - b),
            rt.reduce_sum(rt.sin(rt.cast(w, rt.float64))), rt.reduce_sum(x * 3.0, axis=1),
            rt.reduce_sum(rt.exp(empty)))


def test_sums_over_every_axis_fuse_into_the_loop_computing_the_elements():
    default, jit = both(fused_sums)
    rng = np.random.default_rng(3)
    args = (rt.constant(rng.standard_normal((3, 5000), dtype=np.float32)),
            rt.constant(rng.standard_normal(5000, dtype=np.float32)),
            rt.constant(rng.standard_normal((2, 5000), dtype=np.float32)),
            rt.constant(np.zeros((2, 0), np.float32)))
    for got, expected in zip(jit(*args), default(*args)):
        assert_same(got, expected)
    source = jit.get_concrete_function(*args)._run.source
    # four fused sums, no array of their elements; the sum over one axis is not fused (its
    # operand, x * 3, is the one array of x's shape)
    assert source.count('accumulate(') == 4 and source.count('np.empty((3, 5000)') == 1
    assert 'np.empty((2, 5000)' not in source and 'sum_axis(' in source


def staged_chain(x, y):
    """Math calls feeding each other and arithmetic on their values, summed: float32 and
    float64, a matrix whose rows are longer than a block."""
    return (rt.reduce_sum(rt.exp(rt.tanh(((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)))),
            rt.reduce_mean(rt.exp(x * 0.5) * rt.sin(x) + rt.math.log(x * x + 1.0)),
            rt.reduce_sum(rt.tanh(y) * rt.cos(y) - 2.0))


def test_each_math_call_of_a_fused_sum_is_a_loop_of_its_own_over_the_block(monkeypatch):
    """In a fused sum, each vectorizable math call (exp_f32, tanh_f32, sin_f64...) and each of
    its operands that is not an element read writes a buffer of the block in a loop of its own
    (`b0[k] = ...`), which the next read: the default executor's results; a sum of an
    arithmetic value over those buffers writes it to one more buffer, which the last loop
    adds. (Each loop nest stays a function here, its names its own, where the generated
    function would have it written where it is called.)"""
    monkeypatch.setattr(emitter, 'written_at', lambda line, text, fresh: None)
    default, jit = both(staged_chain)
    rng = np.random.default_rng(5)
    args = (rt.constant(rng.standard_normal((3, 5000), dtype=np.float32)),
            rt.constant(rng.standard_normal(9000)))
    for got, expected in zip(jit(*args), default(*args)):
        assert_same(got, expected)
    source = jit.get_concrete_function(*args)._run.source
    assert source.count('accumulate(') == 3
    # the first sum: the arithmetic, tanh, exp, each a loop, then the sum of the last buffer;
    # a stage writes in place the buffer of one that no later stage reads: one buffer here
    assert 'b0[k] = tanh_f32(b0[k])' in source and 'b0[k] = exp_f32(b0[k])' in source
    assert 'accumulate(total, np.float64(b0[k]))' in source
    first = source.split('def ')[1]
    assert first.count('np.empty(') == 1
    # the second: exp's buffer still read by the product, sin and log in buffers of their own
    assert 'b0[k] = exp_f32(b0[k])' in source and 'b1[k] = sin_f32(a0[i0, i1])' in source
    assert 'b2[k] = log_f32(b2[k])' in source
    assert 'b0[k] = np.float32(np.float32(b0[k] * b1[k]) + b2[k])' in source
    assert 'b1[k] = cos_f64(a0[i0])' in source and \
        'b0[k] = np.float64(np.float64(b0[k] * b1[k]) - ' in source


def test_sums_of_every_size_and_layout_match():
    default, jit = both(lambda x, m: (rt.reduce_sum(x), rt.reduce_sum(rt.transpose(m)[1:]),
                                      rt.reduce_mean(rt.cast(x, rt.float32))))
    for size in (1, 9, 16, 1001):
        x = rt.constant(np.arange(size, dtype=np.int32) * 7 - 50)
        m = rt.constant(np.linspace(-3, 4, 3 * size + 6, dtype=np.float32).reshape(3, -1))
        for got, expected in zip(jit(x, m), default(x, m)):
            assert_same(got, expected)


def dispatch(i, x):
    """switch_case (a StatelessCase) picking one of three computations, inside a loop."""
    total = rt.zeros([2])
    for k in rt.range(i, i + 4):
        total += rt.switch_case(k, [lambda: x * 2.0, lambda: x - 1.0, lambda: -x])
    return total


@pytest.mark.parametrize('i', [-3, 0, 1, 5])
def test_switch_case_runs_the_indexed_branch_and_the_last_out_of_range(i):
    default, jit = DISPATCH
    x = rt.constant([1.5, -2.0])
    assert_same(jit(rt.constant(i), x), default(rt.constant(i), x))


DISPATCH = both(dispatch)


def tensor_arrays(x, indices):
    """TensorArray unstack, gather, scatter and concat, the TensorListSplit that concat's
    gradient builds, and x[i] (ScalarIndex)."""
    rows = rt.TensorArray(rt.float32, size=4).unstack(x)
    picked = rows.gather(indices)
    rows = rows.scatter(indices, picked * 10.0)
    pieces = list_ops.apply(list_ops.SPLIT, [rt.reshape(x, [-1]), np.int32(-1),
                                             np.int64([6, 6])], {'element_dtype': rt.float32})
    halves = list_ops.stack_list(pieces, rt.float32, rt.TensorShape([6]))
    return picked, rows.stack(), rows.concat(), halves, x[indices[0]]


def test_tensor_array_unstack_gather_scatter_concat_split_and_scalar_index():
    default, jit = both(tensor_arrays)
    x = rt.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    for indices in ([3, 0], [1, 2]):
        indices = rt.constant(indices)
        for got, expected in zip(jit(x, indices), default(x, indices)):
            assert_same(got, expected)
    with pytest.raises(rt.errors.InvalidArgumentError):
        jit(x, rt.constant([4, 0]))


def newer_math(a, b, x):
    """BatchMatMulV2 (a batch against one matrix) and the math ops with native forms."""
    y = rt.math.log1p(rt.abs(x)) + rt.math.expm1(x * 0.1) + rt.math.atan2(x, 2.0) + \
        rt.math.squared_difference(x, 1.0) + rt.math.xlogy(x, rt.abs(x) + 1.0) + \
        rt.nn.softplus(x) + rt.nn.elu(x) + rt.nn.leaky_relu(x) + rt.nn.relu6(x)
    return rt.matmul(a, b), rt.matmul(a, b, transpose_a=True), y, rt.math.is_nan(x / x)


def test_batch_matmul_and_the_newer_elementwise_math():
    default, jit = both(newer_math)
    a = rt.constant(np.arange(18, dtype=np.float32).reshape(2, 3, 3) / 7.0)
    b = rt.constant(np.eye(3, dtype=np.float32) + 0.5)
    x = rt.constant([-2.0, 0.0, 0.5, 7.0])
    for got, expected in zip(jit(a, b, x), default(a, b, x)):
        assert_same(got, expected)


def test_a_batch_matmul_broadcasting_part_of_a_batch_calls_its_kernel():
    default, jit = both(lambda a, b: rt.matmul(a, b))
    a, b = rt.ones([2, 1, 3, 3]), rt.constant(np.arange(36, dtype=np.float32).reshape(1, 4, 3, 3))
    assert_same(jit(a, b), default(a, b))
