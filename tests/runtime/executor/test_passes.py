"""Each optimization pass fires (node counts before and after) and keeps results exact."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
import runtime as rt
from runtime import executor
from runtime.executor import codegen, passes
from runtime.executor.ir import lower


def program_of(graph, inputs, outputs):
    return lower(graph, inputs, outputs)


def types(program):
    return [node.type for node in program.nodes]


def test_prune_drops_what_outputs_do_not_need_but_keeps_stateful_ops():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [2], name='x')
        unused = rt.exp(x)
        rt.print(x)
        out = x * 2.0
    p = program_of(g, [x], [out])
    before = len(p.nodes)
    passes.prune(p)
    assert 'Exp' not in types(p) and 'PrintV2' in types(p)
    assert len(p.nodes) == before - 1
    assert unused.op in g.get_operations()  # the user's graph is untouched


def test_constant_folding_computes_constant_subgraphs_once():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        c = rt.constant(2.0) * rt.constant(3.0) + rt.constant(1.0)
        out = x + c
    p = program_of(g, [x], [out])
    assert types(p).count('Const') == 3
    passes.fold_constants(p)
    passes.prune(p)
    assert types(p) == ['Placeholder', 'Const', 'AddV2']
    const = p.nodes[1]
    assert const.attrs['value'] == np.float32(7.0)
    assert const.attrs['value'].dtype == np.float32


def test_constant_folding_leaves_failing_ops_to_run_time():
    g = rt.Graph()
    with g.as_default():
        bad = rt.gather(rt.constant([1.0]), [3])
    p = program_of(g, [], [bad])
    passes.fold_constants(p)
    assert 'GatherV2' in types(p)
    with pytest.raises(rt.errors.InvalidArgumentError, match='GatherV2'):
        g.run(bad)


def test_cse_merges_identical_stateless_nodes():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [3], name='x')
        out = rt.exp(x) + rt.exp(x)
    p = program_of(g, [x], [out])
    assert types(p).count('Exp') == 2
    passes.cse(p)
    passes.prune(p)
    assert types(p).count('Exp') == 1
    add = p.nodes[-1]
    assert add.inputs[0] == add.inputs[1]


def test_cse_never_merges_stateful_nodes():
    g = rt.Graph()
    with g.as_default():
        a = rt.random.uniform([2])
        b = rt.random.uniform([2])
        out = a - b
    p = program_of(g, [], [out])
    passes.cse(p)
    assert types(p).count('RandomUniform') == 2


@pytest.mark.parametrize('build, removed', [
    (lambda x: x * 1.0, 'Mul'),
    (lambda x: 1.0 * x, 'Mul'),
    (lambda x: x + 0.0, 'AddV2'),
    (lambda x: x - 0.0, 'Sub'),
    (lambda x: x / 1.0, 'RealDiv'),
    (lambda x: -(-x), 'Neg'),
    (lambda x: rt.identity(rt.identity(x)), 'Identity'),
])
def test_simplify_removes_neutral_arithmetic(build, removed):
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [None, 3], name='x')
        out = build(x)
    p = program_of(g, [x], [out])
    assert removed in types(p)
    passes.simplify(p)
    passes.prune(p)
    assert types(p) == ['Placeholder']
    assert p.outputs == [p.nodes[0].outputs[0]]


def test_simplify_keeps_a_multiplication_that_broadcasts():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        out = x * rt.ones([3])
    p = program_of(g, [x], [out])
    passes.simplify(p)
    assert 'Mul' in types(p)
    assert g.run(out, {x: 2.0}).shape == (3,)


def test_if_on_a_constant_predicate_is_folded_into_its_branch():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        out = rt.cond(rt.constant(True), lambda: x * 3.0, lambda: x - 1.0)
    p = program_of(g, [x], [out])
    assert 'StatelessIf' in types(p)
    passes.optimize(p)
    assert 'StatelessIf' not in types(p) and 'Mul' in types(p)
    assert g.run(out, {x: 2.0}) == 6.0


def test_optimized_program_prints_what_runs():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [2], name='x')
        out = x * 1.0 + rt.constant(1.0) * rt.constant(2.0)
    text = str(executor.optimized_program(g, [x], [out]))
    assert text.splitlines()[0] == 'program graph(x:float32[2])'
    assert 'AddV2(x, ' in text and 'Mul' not in text


def run_both(graph, inputs, outputs, feeds):
    optimized = executor.compile_graph(graph, inputs, outputs)(*feeds)
    plain = executor.compile_graph(graph, inputs, outputs, pipeline=passes.UNOPTIMIZED)(*feeds)
    return optimized, plain


def assert_same(a, b):
    for x, y in zip(a, b):
        assert np.asarray(x).dtype == np.asarray(y).dtype
        assert np.shape(x) == np.shape(y)
        np.testing.assert_array_equal(x, y)


def test_seed_power_loop_is_equal_with_and_without_optimization():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [10, 10], name='x')
        result = rt.eye(10, dtype=rt.int32)
        for _ in range(20):
            result = rt.matmul(x, result)
    value = np.random.default_rng(0).integers(-1, 2, (10, 10)).astype(np.int32)
    assert_same(*run_both(g, [x], [result], [value]))


def test_while_sum_is_equal_with_and_without_optimization():
    g = rt.Graph()
    with g.as_default():
        n = rt.placeholder(rt.int32, [], name='n')
        i, total = rt.while_loop(lambda i, t: i <= n, lambda i, t: (i + 1, t + i * 1), [1, 0])
    optimized, plain = run_both(g, [n], [total], [np.int32(1000)])
    assert optimized[0] == plain[0] == 500500


_UNARY = [rt.negative, rt.abs, rt.square, rt.identity, lambda v: v * 1.0, lambda v: v + 0.0]
_BINARY = [rt.add, rt.subtract, rt.multiply, rt.maximum, rt.minimum]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 100), st.integers(0, 100),
                          st.floats(-3, 3, width=32)), min_size=1, max_size=12))
def test_random_small_graphs_give_the_same_results_optimized(steps):
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [3], name='x')
        values = [x, rt.constant([1.0, 2.0, 3.0])]
        for kind, a, b, c in steps:
            left, right = values[a % len(values)], values[b % len(values)]
            if kind < len(_UNARY):
                values.append(_UNARY[kind](left))
            elif kind - len(_UNARY) < len(_BINARY):
                values.append(_BINARY[kind - len(_UNARY)](left, right))
            else:
                values.append(left * rt.constant(np.float32(c)))
        outputs = values[-2:]
    feed = np.array([0.5, -1.5, 2.0], dtype=np.float32)
    assert_same(*run_both(g, [x], outputs, [feed]))


def test_loop_pass_propagates_invariant_constants_and_drops_dead_variables():
    g = rt.Graph()
    with g.as_default():
        n = rt.placeholder(rt.int32, [], name='n')
        # (iterations, index, total, delta): the counter is never used, delta is a constant.
        _, _, total, _ = rt.while_loop(
            lambda c, i, t, d: i < n,
            lambda c, i, t, d: (c + 1, i + 1, t + i * d, d),
            [0, 0, 0, 1])
    p = program_of(g, [n], [total])
    loop = next(node for node in p.nodes if node.type == 'StatelessWhile')
    assert len(loop.inputs) == 5  # four loop variables and the captured limit
    body_ops = types(loop.branches[1])
    passes.optimize(p)
    loop = next(node for node in p.nodes if node.type == 'StatelessWhile')
    assert len(loop.inputs) == 3  # index, total and the limit
    assert types(loop.branches[1]).count('Mul') == 0 < body_ops.count('Mul')
    assert loop.counted.counter == 0  # the index drives a Python `for`
    assert run_both(g, [n], [total], [np.int32(10)])[0][0] == 45


def test_simplify_drops_the_output_ordering_noop_of_a_traced_function():
    v = rt.Variable(np.ones(2, np.float32))

    def step(x):
        v.assign_add(x)
        return rt.reduce_sum(v * x)
    staged = ag.function(step)
    graph = staged.get_concrete_function(rt.constant(np.ones(2, np.float32))).graph
    assert 'NoOp' in [op.type for op in graph.get_operations()]
    p = program_of(graph, graph.inputs, graph.outputs)
    passes.simplify(p)
    passes.prune(p)
    assert 'NoOp' not in types(p) and 'Identity' not in types(p)
    assert 'AssignAddVariableOp' in types(p)  # the stateful op stays, in its place
    assert float(staged(rt.constant(np.ones(2, np.float32)))) == 4.0  # v is [2, 2] by then


def test_simplify_keeps_a_users_noop_ordering_stateless_work():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        done = rt.group(x * 2.0)  # a NoOp waiting on a stateless op: not output ordering
        with rt.control_dependencies([done]):
            out = rt.identity(x)
    p = program_of(g, [x], [out])
    passes.simplify(p)
    assert 'NoOp' in types(p) and p.nodes[-1].control


# ---- in_place: TensorList writes that take over a dead list -----------------------------------

def _in_place_writes(function, *args):
    """'depth:type' of each node `function`'s optimized program writes in place (depth 0: the
    function's own block, 1: a loop body in it)."""
    program = function.get_concrete_function(*args).optimized_program()
    found, stack = [], [(program, 0)]
    while stack:
        block, depth = stack.pop()
        for node in block.nodes:
            if node.in_place:
                found.append(f'{depth}:{node.type}')
            stack.extend((branch, depth + 1) for branch in node.branches)
    return found


def test_a_loop_writing_its_own_list_writes_it_in_place():
    @ag.function
    def rows(x):
        ta = rt.TensorArray(rt.float32, size=x.shape[0])
        for i in rt.range(x.shape[0]):
            ta = ta.write(i, x[i] * 2.0)
        return ta.stack()

    x = rt.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    np.testing.assert_array_equal(rows(x).numpy(), x.numpy() * 2)
    assert _in_place_writes(rows, x) == ['1:TensorListSetItem']
    source = codegen.python_code(rows.get_concrete_function(x).optimized_program()).source
    assert 'TensorListSetItemInPlace(' in source
    np.testing.assert_array_equal(rows(x).numpy(), x.numpy() * 2)  # a new list each call


def test_a_list_version_read_again_is_not_written_in_place():
    """An older version read after a write, in straight-line code and around a loop, keeps its
    own items: those writes make new versions."""
    @ag.function
    def branches(x):
        base = rt.TensorArray(rt.float32, size=2).write(0, x)
        return base.write(1, x * 2.0).stack(), base.write(1, x * 3.0).stack()

    @ag.function
    def around_a_loop(x):
        start = rt.TensorArray(rt.float32, size=3).write(0, x)
        ta = start
        for i in rt.range(1, 3):
            ta = ta.write(i, x * rt.cast(i, rt.float32))
        return start.read(0), ta.stack(), start.size()

    @ag.function
    def previous(x):
        ta = rt.TensorArray(rt.float32, size=3)
        before = ta
        for i in rt.range(3):
            before = ta
            ta = ta.write(i, x + rt.cast(i, rt.float32))
        return before.write(2, x).stack(), ta.stack()

    x = rt.constant([1.0, 2.0])
    a, b = branches(x)
    np.testing.assert_array_equal(a.numpy(), [[1, 2], [2, 4]])
    np.testing.assert_array_equal(b.numpy(), [[1, 2], [3, 6]])
    first, stacked, size = around_a_loop(x)
    np.testing.assert_array_equal(first.numpy(), [1, 2])
    np.testing.assert_array_equal(stacked.numpy(), [[1, 2], [1, 2], [2, 4]])
    assert size.numpy() == 3
    old, new = previous(x)
    np.testing.assert_array_equal(old.numpy(), [[1, 2], [2, 3], [1, 2]])
    np.testing.assert_array_equal(new.numpy(), [[1, 2], [2, 3], [3, 4]])
    # the first write of a new list only (no other version of it is ever read)
    assert _in_place_writes(branches, x) == ['0:TensorListSetItem']
    assert _in_place_writes(around_a_loop, x) == ['0:TensorListSetItem']
    assert _in_place_writes(previous, x) == []  # the loop's write keeps the version `before`
