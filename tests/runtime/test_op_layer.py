"""The op layer: OpDef facts agree with the kernels, every op runs through dispatch.apply, and
the executor reads OpDef fields instead of naming op types."""
import ast
import operator
import pathlib
import threading

import numpy as np
import pytest

import runtime as rt
from runtime.core import context
from runtime.executor import optimized_program
from runtime.ops.registry import PYTHON_OPERATORS, REGISTRY

SAMPLES = [np.float32(1.5), np.float32(-2.25), np.array([0.5, -3.0, 4.0], np.float32),
           np.int32(7), np.array([3, -4, 5], np.int32), np.array([True, False])]
OPERATOR_OPS = sorted(name for name, opdef in REGISTRY.items() if opdef.operator)


def _operand_pairs(opdef):
    if opdef.operator is operator.matmul:
        m = np.arange(6, dtype=np.float32).reshape(2, 3)
        yield from ((m, m.T), (m.T, m), (m.astype(np.int32), m.T.astype(np.int32)))
        return
    for a in SAMPLES:
        for b in SAMPLES:
            if a.dtype != b.dtype or (a.dtype == bool and opdef.name not in (
                    'Equal', 'NotEqual')):
                continue
            if opdef.name == 'Pow' and a.dtype.kind == 'i':
                b = np.abs(b)  # an integer to a negative power is an error in numpy and TF
            yield a, b


@pytest.mark.filterwarnings('ignore:invalid value encountered')
@pytest.mark.parametrize('op_type', OPERATOR_OPS)
def test_the_python_operator_computes_what_the_kernel_computes(op_type):
    opdef = REGISTRY[op_type]
    python = PYTHON_OPERATORS[opdef.operator]
    n = python.arity
    cases = _operand_pairs(opdef) if n == 2 else ((a,) for a in SAMPLES if a.dtype != bool)
    checked = 0
    for args in cases:
        expected = opdef.kernel(*args)
        got = eval(python.expression(*[f'args[{i}]' for i in range(n)]))
        assert type(got) is type(expected), (args, got)
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(opdef.operator(*args), expected)
        checked += 1
    assert checked >= 3


def test_the_operator_tags_cover_the_python_operator_kernels():
    python_operators = {operator.add, operator.sub, operator.mul, operator.truediv,
                        operator.pow, operator.lt, operator.le, operator.gt, operator.ge,
                        operator.neg}
    assert {n for n, d in REGISTRY.items() if d.kernel in python_operators} <= set(OPERATOR_OPS)
    assert REGISTRY['AddV2'].operator is operator.add and REGISTRY['Neg'].operator is operator.neg
    assert PYTHON_OPERATORS[operator.add].expression('a', 'b') == 'a + b'
    assert PYTHON_OPERATORS[operator.add].in_place is operator.iadd
    assert PYTHON_OPERATORS[operator.neg].expression('a') == '-a'
    assert PYTHON_OPERATORS[operator.getitem].expression('a', 'i') == 'a[i]'


@pytest.mark.parametrize('op_type', sorted(n for n, d in REGISTRY.items() if d.neutral))
def test_a_neutral_operand_gives_back_the_other_operand(op_type):
    opdef = REGISTRY[op_type]
    value, positions = opdef.neutral
    x = np.array([1.5, -2.0, 7.25], np.float32)
    for pos in positions:
        args = [x, x]
        args[pos] = np.float32(value)
        assert np.array_equal(opdef.kernel(*args), x)


def test_involutions_undo_themselves():
    involutions = sorted(n for n, d in REGISTRY.items() if d.involution)
    assert involutions == ['Invert', 'LogicalNot', 'Neg']
    for name, x in (('Neg', np.array([1.5, -2.0], np.float32)),
                    ('LogicalNot', np.array([True, False])),
                    ('Invert', np.array([0, 5, -7], np.int32))):
        kernel = REGISTRY[name].kernel
        assert np.array_equal(kernel(kernel(x)), x)


def test_graph_optimizations_still_use_the_identities():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [3], name='x')
        b = rt.placeholder(rt.bool, [3], name='b')
        y = -(-(x * 1.0 + 0.0)) / 1.0
        c = rt.logical_not(rt.logical_not(b))
    program = str(optimized_program(g, [x, b], [y, c]))
    for op_type in ('Mul', 'AddV2', 'Neg', 'RealDiv', 'LogicalNot'):
        assert f'= {op_type}(' not in program, program
    assert np.array_equal(g.run(y, {x: [1., 2., 3.]}), [1., 2., 3.])


class RecordingTape:
    """A stand-in for a gradient tape: what the dispatch hook hands over."""

    def __init__(self):
        self.ops = []

    def record(self, opdef, inputs, attrs, outputs):
        self.ops.append(opdef.name)


def test_every_eager_op_including_variables_and_random_runs_through_the_dispatch_hook():
    v = rt.Variable(1.0)
    tape = RecordingTape()
    with context.recording(tape):
        y = rt.constant(2.0) * v
        v.assign_add(y)
        r = rt.random.uniform([2], seed=3)
        rt.matmul(rt.ones([2, 2]), rt.ones([2, 2]))
    rt.constant(1.0) + 1.0  # after the block: not recorded
    assert tape.ops == ['ReadVariableOp', 'Mul', 'AssignAddVariableOp', 'RandomUniform',
                        'MatMul']
    assert v.numpy() == 3.0 and r.shape == [2]
    assert context.active_tapes[0] == 0 and context.state.tapes == []


def test_graph_ops_are_handed_to_the_tape_too():
    tape = RecordingTape()
    g = rt.Graph()
    with g.as_default(), context.recording(tape):
        x = rt.placeholder(rt.float32, [2], name='x')
        rt.reduce_sum(x * x)
    assert tape.ops == ['Mul', 'Sum']  # placeholders are graph inputs, not ops that compute


def test_kernel_failures_name_the_op_eagerly():
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'\[Op:FloorDiv\]'):
        rt.floordiv(rt.constant([1, 2]), rt.constant([1, 0]))
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'\[Op:MatMul\]'):
        rt.matmul(rt.ones([2, 3]), rt.ones([2, 3]))


def test_the_fast_path_and_the_converting_path_agree():
    x = rt.constant([1, 2, 3])
    fast = x + rt.constant([10, 20, 30])
    converted = x + [10, 20, 30]
    assert fast.dtype is converted.dtype is rt.int32
    assert np.array_equal(fast.numpy(), converted.numpy())
    with pytest.raises(TypeError, match='same dtype'):
        x + rt.constant([1., 2., 3.])


def test_the_executor_names_no_op_types():
    executor = pathlib.Path(rt.__file__).parent / 'executor'
    named = []
    for path in sorted(executor.rglob('*.py')):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Constant) and node.value in REGISTRY:
                named.append(f'{path.name}:{node.lineno} {node.value!r}')
    assert named == []


def test_string_equality_in_a_graph_keeps_numpy_semantics():
    g = rt.Graph()
    with g.as_default():
        s = rt.placeholder(rt.string, [], name='s')
        same = rt.equal(s, 'yes')
    result = g.run(same, {s: 'yes'})
    assert result.dtype == np.bool_ and bool(result)


def test_a_graph_built_on_one_thread_leaves_eager_ops_on_others_eager():
    entered, release = threading.Event(), threading.Event()
    g = rt.Graph()
    built = []

    def build():
        with g.as_default():
            entered.set()
            release.wait(5)
            built.append(rt.constant(1.0) + 1.0)

    worker = threading.Thread(target=build)
    worker.start()
    entered.wait(5)
    eager = rt.constant(2.0) * 3.0  # runs now, on this thread, although g is being built
    release.set()
    worker.join(5)
    assert eager.numpy() == 6.0 and eager.graph is None
    assert built[0].graph is g and context.building_graphs[0] == 0


def test_every_if_case_and_while_op_is_made_by_the_control_builders(monkeypatch):
    """rt.cond, rt.switch_case, rt.while_loop and their gradients all make their op through
    runtime.ops.control's builders, which take the OpDef's defaults and record on the tapes."""
    from runtime.ops import control
    made = []

    def add_operation(graph, opdef, inputs, attrs, op_name, output_specs):
        op = real(graph, opdef, inputs, attrs, op_name, output_specs)
        made.append((opdef.name, op_name, dict(op.attrs)))
        return op

    real = control.add_operation
    monkeypatch.setattr(control, 'add_operation', add_operation)
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [], name='x')
        i = rt.placeholder(rt.int32, [], name='i')
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = rt.cond(x > 0, lambda: x * x, lambda: -x)
            z = rt.switch_case(i, [lambda: x * 3.0, lambda: x * x * x])
            _, w = rt.while_loop(lambda k, v: k < 3, lambda k, v: (k + 1, v * x), [0, x])
            total = y + z + w
        grad = tape.gradient(total, x)
    assert [(name, op_name) for name, op_name, _ in made] == [
        ('StatelessIf', 'cond'), ('StatelessCase', 'switch_case/indexed_case'),
        ('StatelessWhile', 'while'), ('StatelessWhile', 'gradients/while'),
        ('StatelessCase', 'gradients/switch_case'), ('StatelessIf', 'gradients/cond')]
    for name, _, attrs in made:  # the OpDef's defaults, restated by no caller
        assert attrs['_lower_using_switch_merge'] is True
        assert ('parallel_iterations' in attrs) == (name == 'StatelessWhile')
    # d/dx of x^2 (x > 0) or -x, plus 3x or x^3 (branch 0 or 1), plus x^4 (three iterations)
    assert g.run(grad, {x: 2.0, i: 1}) == 2 * 2.0 + 3 * 4.0 + 4 * 8.0
    assert g.run(grad, {x: -1.0, i: 0}) == -1.0 + 3.0 + 4 * -1.0


def test_ops_are_created_and_recorded_only_by_dispatch():
    """No module adds an Operation or hands one to the tapes by hand: `graph.create_op` is
    called by dispatch (and by the GraphDef importer, which recreates ops from their records),
    `record` by dispatch alone."""
    root = pathlib.Path(rt.__file__).parent
    allowed = {'create_op': {'ops/dispatch.py', 'graph/importer.py'},
               'record': {'ops/dispatch.py'}}
    found = {'create_op': set(), 'record': set()}
    for path in root.rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == 'create_op':
                found['create_op'].add(str(path.relative_to(root)))
            elif isinstance(func, ast.Name) and func.id == 'record' or \
                    isinstance(func, ast.Attribute) and func.attr == 'record' and \
                    getattr(func.value, 'id', None) == 'dispatch':  # not a tape's own method
                found['record'].add(str(path.relative_to(root)))
    assert found == allowed
