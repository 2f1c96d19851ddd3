"""What keeps `jit_compile=True` fast to compile and to run (docs/jit.md, "Compile cost"):
the generated code's form, checked on the bench's workloads (which test_native.py checks
for results; both compile into the session's temp dir, so each graph compiles once)."""
import os
import re

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.executor.native import emitter
from runtime.executor.native.rules import Site
from tools import workloads

pytest.importorskip('numba')


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """The temp dir test_native.py compiles into: a graph both compile compiles once."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def source_of(workload):
    jit = ag.function(workload.program(), jit_compile=True)
    args = workload.arguments()
    jit(*args)
    return jit.get_concrete_function(*args)._run.source


def workload(function):
    return next(w for w in workloads.WORKLOADS if w.function is function)


def loop_bodies(source):
    """The lines inside the generated function's `for` and `while` loops."""
    lines, inside, bodies = source.splitlines(), None, []
    for line in lines[lines.index(next(x for x in lines if x.startswith('def native('))):]:
        depth = len(line) - len(line.lstrip())
        if inside is not None and depth <= inside:
            inside = None
        if inside is not None:
            bodies.append(line)
        elif re.match(r'\s*(for|while) ', line):
            inside = depth
    return bodies


def test_lists_two_loop_vars_start_from_are_copied_once_not_at_every_write():
    # the RNN gradient's forward loop keeps two accumulators that start as one reserved
    # list: each is copied when the loop starts, and written in place in the loop
    source = source_of(workload(workloads.rnn_gradient))
    assert '[0]), copied(' in source
    assert not any('[0]), copied(' in line for line in loop_bodies(source))


def test_a_loop_writing_a_list_its_input_shares_with_another_gives_the_default_results():
    def accumulate(x, n):
        first = rt.TensorArray(rt.float32, size=0, dynamic_size=True)
        second = first  # one list, two loop vars
        for i in rt.range(n):
            first = first.write(i, x * rt.cast(i, rt.float32))
            second = second.write(i, x + 1.0)
        return first.stack(), second.stack(), first.size()

    default, jit = ag.function(accumulate), ag.function(accumulate, jit_compile=True)
    x, n = rt.constant([1.0, 2.0]), rt.constant(11)
    for got, expected in zip(jit(x, n), default(x, n)):
        assert (got.numpy() == expected.numpy()).all()


def test_the_mlp_forwards_fifty_layers_compile_as_a_loop():
    source = source_of(workload(workloads.mlp_forward))
    assert source.count('dot(') == 1 and 'for repeat in range(0, 50):' in source
    assert 'def loop_' not in source  # called once now: written in the function


def test_code_numba_cannot_compile_re_rolled_compiles_as_written(monkeypatch):
    def twice(x):
        for _ in range(4):
            x = rt.matmul(x, x) + 1.0
        return x

    # a re-rolled loop whose types numba could not unify stands for one here
    monkeypatch.setattr(emitter, 'rerolled', lambda body, params, name: (
        ['    repeat = "a" + 1'] + body, [None, *range(len(body))]))
    x = rt.constant(np.eye(2, dtype=np.float32) * 0.5)
    jit = ag.function(twice, jit_compile=True)
    np.testing.assert_allclose(jit(x).numpy(), ag.function(twice)(x).numpy(), rtol=1e-6)
    assert '"a"' not in jit.get_concrete_function(x)._run.source


def test_loop_nests_called_once_are_inlined_by_numba_and_others_stay_functions():
    sites = [Site('loop_0', 'def loop_0(a0):\n    return a0\n'),
             Site('loop_1', 'def loop_1(a0):\n    return a0\n'),
             Site('kernel_2', 'def kernel_2(k, a0):\n    return a0\n', inlinable=False)]
    called = {'loop_0': 1, 'loop_1': 2, 'kernel_2': 1}
    assert [site.split('\n')[0] for site in emitter.inlined(sites, called)] == \
        ['@inline_site', '@site', '@site']


def test_a_loop_nest_called_once_is_written_where_it_is_called_its_locals_renamed():
    text = ('def loop_0(a0, a1):\n    out = np.empty((2,), np.float32)\n'
            '    for i0 in range(2):\n        out[i0] = a0[i0] + a1[i0]\n    return out\n')
    names = iter(['out_1', 'i0_1'])
    assert emitter.written_at('        out = loop_0(out, x)', text, lambda stem: next(names)) == [
        '        out_1 = np.empty((2,), np.float32)', '        for i0_1 in range(2):',
        '            out_1[i0_1] = out[i0_1] + x[i0_1]', '        out = out_1']
    # an argument that is no name, a param assigned, a return inside: left a function
    assert emitter.written_at('y = loop_0(x[0], x)', text, str) is None
    assigned = text.replace('    return out', '    a0 = out\n    return out')
    assert emitter.written_at('y = loop_0(x, x)', assigned, str) is None
    early = text.replace('        out[i0]', '        return out\n        out[i0]')
    assert emitter.written_at('y = loop_0(x, x)', early, str) is None


def softmaxes(x, y):
    return (rt.nn.softmax(x), rt.nn.log_softmax(y), rt.reduce_sum(x, axis=1, keepdims=True),
            rt.reduce_mean(x, axis=0, keepdims=True))


def test_softmax_log_softmax_and_one_axis_sums_kept_run_natively_as_the_kernels_compute():
    x = rt.constant(np.array([[1., 2., 3.], [np.nan, 0., 1.], [-1e30, 5., 5.]], np.float32))
    y = rt.constant(np.random.default_rng(0).standard_normal((2, 3, 5)).astype(np.float32))
    jit = ag.function(softmaxes, jit_compile=True)
    for got, expected in zip(jit(x, y), ag.function(softmaxes)(x, y)):
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    source = jit.get_concrete_function(x, y)._run.source
    assert source.count('softmax_rows(') == 2 and 'call_kernel' not in source


def test_the_training_steps_sgd_updates_and_softmax_are_loops_not_kernel_calls(tmp_path,
                                                                               monkeypatch):
    # a cache directory of its own: the run's may hold other compilations of the step
    rt_dir = str(tmp_path)
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', rt_dir)
    step = workload(workloads.TrainStep)
    jit = ag.function(step.program(), jit_compile=True)
    jit(*step.arguments())
    (source,) = [open(os.path.join(rt_dir, name)).read() for name in os.listdir(rt_dir)
                 if name.endswith('.py') and 'TrainStep' in open(os.path.join(rt_dir, name)).read()]
    assert source.count('descend(') == 4 and 'objmode' not in source


def test_the_elementwise_chain_is_one_loop_adding_its_elements():
    # arithmetic, tanh, exp and the sum in one loop over blocks, each a loop of its own over
    # the block (one buffer of the block, each stage writing it in place, no 4 MB array in
    # between), no numpy call in object mode; its 245 blocks are claimed one by one, by the
    # calling thread and the helper (native/team.py), each block's sum in its own slot
    source = source_of(workload(workloads.elementwise))
    assert source.count('def loop_') == 1 and source.count('def worker_') == 1
    assert 'accumulate(total, np.float64(b0[k]))' in source and 'block = claim(counter)' in source
    assert 'b0[k] = tanh_f32(b0[k])' in source and 'b0[k] = exp_f32(b0[k])' in source
    assert source.count('np.empty(4096, np.float32)') == 1
    assert source.count('np.empty(') == 2  # the buffer, and the blocks' partial sums
    assert 'objmode' not in source
    assert 'np.empty((1000000,)' not in source and 'sum_all' not in source


def test_an_rnn_steps_tanh_is_a_native_loop_and_its_gradient_the_default_executors():
    # 16x32 elements: vmath's float32 tanh in a loop, no numpy call in object mode. It differs
    # from numpy's float32 tanh by an ulp or two here and there, which twenty steps of the
    # recurrence amplify in the gradient's small elements: equal within 2e-6 of its scale (as
    # tools/bench_jit.py checks; 1.7e-6 measured)
    rnn = workload(workloads.rnn_gradient)
    source = source_of(rnn)
    assert 'tanh_f32(' in source and 'objmode' not in source
    args = rnn.arguments()
    got = ag.function(rnn.program(), jit_compile=True)(*args).numpy()
    expected = ag.function(rnn.program())(*args).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=2e-6 * np.abs(expected).max())
