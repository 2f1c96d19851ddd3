"""The generated code: straight-line Python, inlined control flow, errors that name the op."""
import linecache
import re

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime import executor
from runtime.executor import parallel

pytestmark = pytest.mark.default_executor  # --jit runs these graphs natively: no `run.source`


def test_a_graph_becomes_one_function_with_an_if_and_a_while():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        out = rt.cond(x > 0, lambda: x, lambda: rt.negative(x))
        _, total = rt.while_loop(lambda i, t: t < x, lambda i, t: (i * 2, t + i), [1, 0])
    run = executor.compile_graph(g, [x], [out, total])
    assert '\n        if ' in run.source and '\n        while ' in run.source
    assert run(np.int32(-4)) == (4, 0)
    assert run(np.int32(5)) == (5, 7)
    assert linecache.getline(run.__code__.co_filename, 1).startswith('def run(')


def test_a_case_becomes_an_if_elif_chain_whose_last_branch_takes_other_indices():
    g = rt.Graph()
    with g.as_default():
        i = rt.placeholder(rt.int32, [], name='i')
        x = rt.placeholder(rt.float32, [1000], name='x')
        big = x * 3.0
        out = rt.switch_case(i, [lambda: rt.reduce_sum(big * 2.0), lambda: rt.reduce_sum(x),
                                 lambda: rt.reduce_max(big)])
    run = executor.compile_graph(g, [i, x], [out])
    assert re.search(r'\n        if i == 0:\n.*\n        elif i == 1:\n.*\n        else:\n',
                     run.source, re.S)
    x_value = np.arange(1000, dtype=np.float32)
    assert [run(np.int32(k), x_value)[0] for k in (0, 1, 2, 7, -1)] == [
        2997000.0, 499500.0, 2997.0, 2997.0, 2997.0]


def test_the_plan_is_compiled_once_and_cached():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        y = x + 1.0
    assert executor.compile_graph(g, [x], [y]) is executor.compile_graph(g, [x], [y])


def test_a_failing_op_names_itself_and_the_users_line():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [None], name='x')
        picked = rt.gather(x, [5])  # the line the error must name
    line = test_a_failing_op_names_itself_and_the_users_line.__code__.co_firstlineno + 4
    with pytest.raises(rt.errors.InvalidArgumentError) as info:
        g.run(picked, {x: np.zeros(2, np.float32)})
    message = str(info.value)
    assert 'GatherV2' in message and 'indices[0] = 5 is not in [0, 2)' in message
    assert f'test_codegen.py:{line}' in message
    assert info.value.op.name == 'GatherV2'


def test_errors_inside_an_inlined_branch_name_the_branch_op():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        out = rt.cond(x > 0, lambda: rt.gather(rt.constant([1, 2]), [x]), lambda: rt.constant([0]))
    assert g.run(out, {x: -1}).tolist() == [0]
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'cond/GatherV2'):
        g.run(out, {x: 7})


def test_stateful_ops_run_in_program_order_even_when_unused(capsys):
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        rt.print('first', x)
        y = x * 2
        rt.print('second', y)
        rt.print('third')
    g.run(y, {x: 3})
    assert capsys.readouterr().err == 'first 3\nsecond 6\nthird\n'


def test_independent_heavy_matmuls_start_on_the_pool():
    g = rt.Graph()
    with g.as_default():
        a, b, c, d = [rt.placeholder(rt.int32, [200, 200]) for _ in range(4)]
        out = rt.matmul(a, b) + rt.matmul(c, d)
    run = executor.compile_graph(g, [a, b, c, d], [out])
    if parallel.concurrent_nodes(executor.optimized_program(g, [a, b, c, d], [out])):
        assert '_submit(' in run.source and '.result()' in run.source
    values = [np.random.default_rng(i).integers(0, 5, (200, 200)).astype(np.int32)
              for i in range(4)]
    np.testing.assert_array_equal(run(*values)[0], values[0] @ values[1] + values[2] @ values[3])


def test_small_or_float_matmuls_stay_inline():
    g = rt.Graph()
    with g.as_default():
        a, b = [rt.placeholder(rt.int32, [10, 10]) for _ in range(2)]
        c, d = [rt.placeholder(rt.float32, [500, 500]) for _ in range(2)]
        small = rt.matmul(a, b) + rt.matmul(b, a)
        blas = rt.matmul(c, d) + rt.matmul(d, c)
    assert '_submit(' not in executor.compile_graph(g, [a, b], [small]).source
    assert '_submit(' not in executor.compile_graph(g, [c, d], [blas]).source


@pytest.mark.parametrize('start, limit, step', [(0, 10, 1), (-3, 7, 3), (5, 5, 1), (9, 2, 2)])
def test_a_counted_loop_becomes_a_for_loop_with_the_same_results(start, limit, step):
    g = rt.Graph()
    with g.as_default():
        n = rt.placeholder(rt.int32, [], name='n')
        i, total = rt.while_loop(lambda i, t: i < n, lambda i, t: (i + step, t + i * i),
                                 [rt.constant(start), rt.constant(0)])
    run = executor.compile_graph(g, [n], [i, total])
    assert 'for ' in run.source and 'while ' not in run.source
    expected_i, expected_total = start, 0
    while expected_i < limit:
        expected_i, expected_total = expected_i + step, expected_total + expected_i ** 2
    got_i, got_total = run(np.int32(limit))
    assert (got_i, got_total) == (expected_i, expected_total)
    assert got_i.dtype == np.int32 and got_total.dtype == np.int32


def test_loop_variables_assigned_in_place_keep_python_semantics():
    @ag.function
    def mix(n):
        a, b, x, y = 0, 1, 1, 0
        for i in rt.range(n):
            a, b = b, a + b  # the old `a` is read after the new `b` is computed
            x = x + 1
            y = y + x * 2  # reads the new x
            if i % 2 == 0:
                a, b = b, a  # a swap inside a branch
            else:
                x = x - i
        return a, b, x, y

    def by_hand(n):
        a, b, x, y = 0, 1, 1, 0
        for i in range(n):
            a, b = b, a + b
            x = x + 1
            y = y + x * 2
            if i % 2 == 0:
                a, b = b, a
            else:
                x = x - i
        return a, b, x, y

    for n in (0, 1, 5, 12):
        assert [int(v) for v in mix(rt.constant(n))] == list(by_hand(n))
    graph = mix.get_concrete_function(rt.constant(3)).graph
    source = executor.compile_graph(graph, graph.inputs, graph.outputs).source
    assert re.search(r'(\w+) = \1 \+ mul', source)  # `y = y + x * 2` assigns y at once
