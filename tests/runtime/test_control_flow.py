"""rt.cond and rt.while_loop, eagerly and in graphs."""
import pytest

import runtime as rt

# ---- cond ------------------------------------------------------------------------------------

def test_cond_on_eager_values_runs_python():
    calls = []
    out = rt.cond(rt.constant(True), lambda: calls.append('t') or 1, lambda: calls.append('f'))
    assert out == 1 and calls == ['t']
    assert rt.cond(False, lambda: 'yes', lambda: 'no') == 'no'
    assert rt.cond(rt.Variable(True), lambda: 1, lambda: 2) == 1


def test_cond_in_a_graph_builds_StatelessIf_with_library_branches(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    out = rt.cond(x > 0, lambda: x * 2, lambda: -x)
    if_op = out.op.inputs[0].op
    assert if_op.type == 'StatelessIf' and if_op.name == 'cond'
    assert out.op.type == 'Identity' and out.name == 'cond/Identity:0'
    then_fn = graph.library[if_op.get_attr('then_branch').name]
    else_fn = graph.library[if_op.get_attr('else_branch').name]
    assert [op.type for op in then_fn.get_operations()].count('Mul') == 1
    assert [op.type for op in else_fn.get_operations()].count('Neg') == 1
    assert if_op.get_attr('Tout') == [rt.int32]
    assert graph.run(out, {x: 5}) == 10
    assert graph.run(out, {x: -5}) == 5


def test_cond_captures_outer_tensors_as_extra_inputs(graph):
    p = rt.placeholder(rt.bool, [], name='p')
    a = rt.placeholder(rt.float32, [2], name='a')
    b = rt.placeholder(rt.float32, [2], name='b')
    out = rt.cond(p, lambda: a + 1., lambda: b * 2.)
    if_op = out.op.inputs[0].op
    assert [t.name for t in if_op.inputs] == ['p:0', 'a:0', 'b:0']
    assert if_op.get_attr('Tin') == [rt.float32, rt.float32]
    feeds = {a: [1., 2.], b: [3., 4.]}
    assert graph.run(out, {p: True, **feeds}).tolist() == [2., 3.]
    assert graph.run(out, {p: False, **feeds}).tolist() == [6., 8.]


def test_cond_returns_the_branch_structure(graph):
    p = rt.placeholder(rt.bool, [])
    out = rt.cond(p, lambda: {'a': 1, 'b': (2., 3.)}, lambda: {'a': 4, 'b': (5., 6.)})
    assert set(out) == {'a', 'b'} and isinstance(out['b'], tuple)
    assert out['a'].dtype is rt.int32 and out['b'][0].dtype is rt.float32
    assert graph.run(out, {p: False}) == {'a': 4, 'b': (5., 6.)}
    assert rt.cond(p, lambda: None, lambda: None) is None


def test_cond_output_shapes_are_the_most_specific_compatible(graph):
    p = rt.placeholder(rt.bool, [])
    out = rt.cond(p, lambda: rt.zeros([2, 3]), lambda: rt.zeros([4, 3]))
    assert out.shape == (None, 3)


def test_cond_with_a_stateful_branch_builds_If(graph, capsys):
    p = rt.placeholder(rt.bool, [])

    def loud():
        rt.print('taking the true branch')
        return rt.constant(1)
    out = rt.cond(p, loud, lambda: rt.constant(2))
    assert out.op.inputs[0].op.type == 'If'
    assert graph.run(out, {p: False}) == 2
    assert capsys.readouterr().err == ''
    assert graph.run(out, {p: True}) == 1
    assert capsys.readouterr().err == 'taking the true branch\n'


def test_cond_branches_must_agree_on_dtypes(graph):
    p = rt.placeholder(rt.bool, [])
    with pytest.raises(TypeError) as info:
        rt.cond(p, lambda: rt.constant(1), lambda: rt.constant(1.0))
    assert 'int32' in str(info.value) and 'float32' in str(info.value)


def test_cond_branches_must_agree_on_structure(graph):
    p = rt.placeholder(rt.bool, [])
    with pytest.raises(ValueError, match='structure'):
        rt.cond(p, lambda: (1, 2), lambda: 1)
    with pytest.raises(ValueError, match='number of elements'):
        rt.cond(p, lambda: [1, 2], lambda: [1, 2, 3])
    with pytest.raises(ValueError, match='None'):
        rt.cond(p, lambda: None, lambda: 1)


def test_cond_needs_a_scalar_bool(graph):
    with pytest.raises(TypeError, match='bool'):
        rt.cond(rt.placeholder(rt.int32, []), lambda: 1, lambda: 2)
    with pytest.raises(TypeError):
        rt.cond(rt.placeholder(rt.bool, []), lambda: 1)


def test_nested_conds(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    out = rt.cond(x > 0, lambda: rt.cond(x > 10, lambda: x * 100, lambda: x * 10), lambda: x)
    assert [graph.run(out, {x: v}) for v in (-1, 5, 20)] == [-1, 50, 2000]


# ---- while_loop ----------------------------------------------------------------------------------

def test_while_loop_on_eager_values_runs_python():
    i, total = rt.while_loop(lambda i, s: i <= 10, lambda i, s: (i + 1, s + i),
                             (rt.constant(1), rt.constant(0)))
    assert int(i) == 11 and int(total) == 55
    assert rt.while_loop(lambda i: i < 10, lambda i: i + 1, rt.constant(0)).numpy() == 10
    assert rt.while_loop(lambda i: i < 10, lambda i: i + 1, (0,), maximum_iterations=3) == (3,)


def test_eager_while_loop_returns_the_structure_of_loop_vars():
    out = rt.while_loop(lambda i: i < 3, lambda i: [i + 1], [rt.constant(0)])
    assert isinstance(out, list)


def test_while_loop_sums_1_to_1000_in_a_graph(graph):
    n = rt.placeholder(rt.int32, [], name='n')
    i, total = rt.while_loop(lambda i, s: i <= n, lambda i, s: (i + 1, s + i), [1, 0])
    assert i.op.type == 'StatelessWhile'
    assert graph.run(total, {n: 1000}) == 500500
    assert graph.run([i, total], {n: 3}) == [4, 6]


def test_while_loop_functions_are_in_the_library_and_captures_are_inputs(graph):
    n = rt.placeholder(rt.int32, [], name='n')
    step = rt.placeholder(rt.int32, [], name='step')
    out = rt.while_loop(lambda i: i < n, lambda i: i + step, [rt.constant(0)])
    assert isinstance(out, list) and len(out) == 1
    op = out[0].op
    assert [t.name for t in op.inputs][-2:] == ['n:0', 'step:0']
    assert graph.library[op.get_attr('cond').name].outputs[0].dtype is rt.bool
    assert op.get_attr('body').name in graph.library
    assert graph.run(out[0], {n: 10, step: 3}) == 12
    text = str(graph.as_graph_def())
    assert 'op: "StatelessWhile"' in text and 'key: "body"' in text


def test_while_loop_with_a_stateful_body_builds_While(graph, capsys):
    out = rt.while_loop(lambda i: i < 3, lambda i: (rt.print('step', i), i + 1)[1],
                        rt.constant(0))
    assert out.op.type == 'While'
    assert graph.run(out) == 3
    assert capsys.readouterr().err == 'step 0\nstep 1\nstep 2\n'


def test_a_loop_variable_that_changes_dtype_is_a_TypeError(graph):
    with pytest.raises(TypeError) as info:
        rt.while_loop(lambda x: x < 10, lambda x: rt.cast(x, rt.float32), [rt.constant(1)])
    assert 'int32' in str(info.value) and 'float32' in str(info.value)


def test_a_loop_variable_that_changes_shape_is_a_ValueError_naming_both_shapes(graph):
    x = rt.constant([1.])
    with pytest.raises(ValueError) as info:
        rt.while_loop(lambda x: rt.size(x) < 10, lambda x: rt.concat([x, x], 0), [x])
    assert '(1,)' in str(info.value) and '(2,)' in str(info.value)


def test_with_a_shape_invariant_the_shape_may_change(graph):
    x = rt.constant([1.])
    out = rt.while_loop(lambda x: rt.size(x) < 10, lambda x: rt.concat([x, x], 0), x,
                        shape_invariants=rt.TensorShape([None]))
    assert out.shape == (None,)
    assert graph.run(out).shape == (16,)
    i, y = rt.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, rt.concat([y, y], 0)),
                         (rt.constant(0), x), shape_invariants=(rt.TensorShape([]), [None]))
    assert graph.run(y).tolist() == [1., 1., 1., 1.]


def test_maximum_iterations(graph):
    out = rt.while_loop(lambda x: x < 100, lambda x: x + 1, [rt.constant(0)],
                        maximum_iterations=5)
    assert graph.run(out) == [5]
    n = rt.placeholder(rt.int32, [])
    capped = rt.while_loop(lambda x: x < 100, lambda x: x + 1, rt.constant(0),
                           maximum_iterations=n)
    assert graph.run(capped, {n: 7}) == 7
    assert graph.run(capped, {n: 1000}) == 100


def test_body_must_return_the_loop_structure(graph):
    with pytest.raises(ValueError, match='structure'):
        rt.while_loop(lambda a, b: a < 3, lambda a, b: a + 1, (rt.constant(0), rt.constant(0)))


def test_body_returning_a_list_of_another_length_is_a_structure_error(graph):
    with pytest.raises(ValueError, match='structure'):
        rt.while_loop(lambda a, b: a < 3, lambda a, b: (a + 1,), (rt.constant(0), rt.constant(0)))


def test_a_loop_that_does_not_run(graph):
    n = rt.placeholder(rt.int32, [])
    out = rt.while_loop(lambda i: i < n, lambda i: i + 1, rt.constant(5))
    assert graph.run(out, {n: 0}) == 5


def test_nested_loops_and_conds(graph):
    n = rt.placeholder(rt.int32, [], name='n')

    def outer_body(i, total):
        inner = rt.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j), (0, 0))[1]
        even = rt.cond(i % 2 == 0, lambda: inner, lambda: 0)
        return i + 1, total + even
    _, total = rt.while_loop(lambda i, t: i < n, outer_body, (0, 0))
    expected = sum(sum(range(i)) for i in range(6) if i % 2 == 0)
    assert graph.run(total, {n: 6}) == expected
