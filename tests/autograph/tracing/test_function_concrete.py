"""ConcreteFunction: the graph, the signatures, structured outputs, and calling it directly."""
import collections

import pytest

import autograph as ag
import runtime as rt

Pair = collections.namedtuple('Pair', ['first', 'second'])


def test_the_graph_has_named_inputs_and_identity_outputs():
    @ag.function
    def scale(x, factor):
        return x * factor

    concrete = scale.get_concrete_function(rt.constant([1.0, 2.0]), 3.0)
    graph = concrete.graph
    assert [t.op.name for t in graph.inputs] == ['x']
    assert graph.inputs[0].op.type == 'Placeholder'
    assert graph.inputs[0].op.get_attr('_user_specified_name') == 'x'
    assert [t.op.type for t in graph.outputs] == ['Identity']
    assert graph.outputs[0].op.name == 'Identity'
    assert concrete.structured_input_signature == (
        (rt.TensorSpec([2], rt.float32, name='x'), 3.0), {})


def test_structured_outputs_keep_nesting_convert_numbers_and_keep_none():
    @ag.function
    def many(x):
        return {'pair': Pair(x, 1), 'nothing': None, 'list': [x + 1, 2.5]}

    concrete = many.get_concrete_function(rt.constant(1))
    outputs = concrete.structured_outputs
    assert outputs['nothing'] is None
    assert isinstance(outputs['pair'], Pair)
    assert outputs['pair'].second.dtype == rt.int32
    assert outputs['list'][1].dtype == rt.float32
    result = many(rt.constant(1))
    assert result['nothing'] is None
    assert isinstance(result['pair'], Pair)
    assert (int(result['pair'].first), int(result['pair'].second)) == (1, 1)
    assert [float(v) for v in result['list']] == [2.0, 2.5]
    assert concrete.pretty_printed_signature().splitlines()[3] == (
        "  Dict['list': List[TensorSpec(shape=(), dtype=rt.int32, name=None), "
        "TensorSpec(shape=(), dtype=rt.float32, name=None)], 'nothing': Literal[None], "
        "'pair': Pair[first=TensorSpec(shape=(), dtype=rt.int32, name=None), "
        "second=TensorSpec(shape=(), dtype=rt.int32, name=None)]]")


def test_returning_nothing_gives_none():
    @ag.function
    def nothing(x):
        rt.print(x)

    assert nothing(rt.constant(1)) is None


def test_returning_an_object_is_a_clear_type_error():
    @ag.function
    def bad(x):
        return object()

    with pytest.raises(TypeError, match=r'bad\(\) returned <object object .*not a tensor'):
        bad(rt.constant(1))


def test_a_concrete_function_is_called_with_tensors_checked_against_its_signature():
    @ag.function
    def scale(x, factor):
        return x * factor

    concrete = scale.get_concrete_function(rt.TensorSpec([None], rt.float32), 2.0)
    assert concrete(rt.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert concrete(rt.constant([1.0]), 2.0).numpy().tolist() == [2.0]
    assert concrete([3.0]).numpy().tolist() == [6.0]
    # TensorFlow's types: a tensor of another dtype or shape is InvalidArgumentError, another
    # Python value is TypeError; each message names the argument, the spec and what was given.
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match=r"scale\(\): argument 'x' has dtype int32, but "
                             r"TensorSpec\(shape=\(None,\), dtype=rt\.float32, name=None\) is "
                             r"expected"):
        concrete(rt.constant([1, 2]))
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match=r"argument 'x' has shape \(\), which does not match "
                             r"TensorSpec\(shape=\(None,\)"):
        concrete(rt.constant(1.0))
    with pytest.raises(TypeError, match=r"argument 'factor' is 3.0, but this graph was traced "
                                        r"for 2.0"):
        concrete(rt.constant([1.0]), 3.0)
    with pytest.raises(TypeError, match=r"scale\(\): too many positional arguments"):
        concrete(rt.constant([1.0]), 2.0, 1)
    assert scale.experimental_get_tracing_count() == 1


def test_captures_are_listed_in_the_signature():
    offset = rt.constant([1.0, 2.0])
    counter = rt.Variable(0)

    @ag.function
    def shifted(x):
        counter.assign_add(1)
        return x + offset

    concrete = shifted.get_concrete_function(rt.constant([0.0, 0.0]))
    assert concrete.pretty_printed_signature() == (
        'Input Parameters:\n'
        '  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=rt.float32, name=None)\n'
        'Output Type:\n'
        '  TensorSpec(shape=(2,), dtype=rt.float32, name=None)\n'
        'Captures:\n'
        f'  {counter.storage.name}: VariableSpec(shape=(), dtype=rt.int32)\n'
        '  capture: TensorSpec(shape=(2,), dtype=rt.float32, name=None)')
    assert len(concrete.graph.inputs) == 3


def test_errors_while_running_a_graph_name_the_op():
    @ag.function
    def pick(x, i):
        return rt.gather(x, i)

    with pytest.raises(rt.errors.InvalidArgumentError, match='GatherV2'):
        pick(rt.constant([1.0]), rt.constant([3]))


def _nodes(function, *args):
    graph_def = function.get_concrete_function(*args).graph.as_graph_def()
    return [(node.op, [i for i in node.input if i.startswith('^')]) for node in graph_def.node]


def test_outputs_wait_on_a_noop_after_the_stateful_ops_as_tensorflows_graphs_show():
    v = rt.Variable(1.0)

    @ag.function
    def step(x):
        v.assign_add(x)
        return x * 2

    @ag.function
    def draw(x):
        return rt.random.uniform([2]) + x

    @ag.function
    def only_prints(x):
        rt.print(x)
    x = rt.constant(1.0)
    # TensorFlow 2.21's graphs of the same functions (their NoOp's name: NoOp)
    assert _nodes(step, x) == [('Placeholder', []), ('Placeholder', []),
                               ('AssignAddVariableOp', []), ('Const', []), ('Mul', []),
                               ('NoOp', ['^AssignAddVariableOp']), ('Identity', ['^NoOp'])]
    assert 'NoOp' not in [op for op, _ in _nodes(draw, x)]  # legacy random ops: no ordering
    assert 'NoOp' not in [op for op, _ in _nodes(only_prints, x)]  # no outputs to order
    assert float(step(x)) == 2.0 and float(v) == 2.0
    assert float(step(x)) == 2.0 and float(v) == 3.0
