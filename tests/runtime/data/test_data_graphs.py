"""Dataset ops in graphs: TensorFlow's op types, the functions in the library, iterators."""
import pytest

import autograph as ag
import runtime as rt
from runtime.data import ops as data_ops

D = rt.data.Dataset


def graph_text(fn, *args):
    return str(ag.function(fn).get_concrete_function(*args).graph.as_graph_def())


def test_a_pipeline_in_a_function_prints_tensorflows_op_types_and_its_map_function():
    def pipeline(n):
        ds = D.range(n).shuffle(4, seed=1).map(lambda x: x * 2).filter(
            lambda x: x > 2).batch(2, drop_remainder=True).repeat(2).take(3)
        return ds.reduce(rt.constant(0, rt.int64), lambda s, x: s + rt.reduce_sum(x))
    text = graph_text(pipeline, rt.constant(10, rt.int64))
    for op in ['RangeDataset', 'ShuffleDatasetV3', 'MapDataset', 'FilterDataset',
               'BatchDatasetV2', 'RepeatDataset', 'TakeDataset', 'ReduceDataset']:
        assert f'op: "{op}"' in text, op
    assert 'library {' in text
    assert 'name: "__inference_Dataset_map_lambda_' in text
    assert 'name: "__inference_Dataset_filter_lambda_' in text
    assert 'key: "predicate"' in text and 'key: "f"' in text


def test_iterator_ops_and_get_next_past_the_end_is_out_of_range():
    @ag.function
    def two():
        it = iter(D.range(1))
        first = it.get_next()
        return first, it.get_next()
    text = str(two.get_concrete_function().graph.as_graph_def())
    for op in ['AnonymousIteratorV3', 'MakeIterator', 'IteratorGetNext']:
        assert f'op: "{op}"' in text
    with pytest.raises(rt.errors.OutOfRangeError, match='End of sequence'):
        two()


def test_graph_datasets_run_anew_on_every_call():
    @ag.function
    def total(n):
        return D.range(n).reduce(rt.constant(0, rt.int64), lambda s, x: s + x)
    assert int(total(rt.constant(4, rt.int64))) == 6
    assert int(total(rt.constant(5, rt.int64))) == 10


def test_a_captured_eager_dataset_is_an_input_of_the_graph():
    ds = D.from_tensor_slices([1.0, 2.0, 3.0]).map(lambda x: x * 2.0)

    @ag.function
    def f():
        return ds.reduce(rt.constant(0.0), lambda s, x: s + x)
    assert float(f()) == 12.0
    assert float(f()) == 12.0


def test_an_eager_iterator_passed_to_a_function_advances():
    it = iter(D.range(10))

    @ag.function
    def step(iterator):
        return iterator.get_next()
    assert [int(step(it)) for _ in range(3)] == [0, 1, 2]
    assert int(next(it)) == 3


def test_cardinality_in_a_graph():
    @ag.function
    def card(n):
        return D.range(n).batch(3).cardinality()
    assert int(card(rt.constant(10, rt.int64))) == 4


def test_the_reference_table_of_tf_data_names_agrees_with_the_registry():
    import os
    import re

    from runtime.ops.registry import NO_GRADIENT, REGISTRY
    path = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'docs', 'reference.md')
    text = open(path, encoding='utf-8').read()
    block = text[text.index('<!-- tf.data names: begin -->'):
                 text.index('<!-- tf.data names: end -->')]
    rows = [[c.strip() for c in line.strip('|').split('|')]
            for line in block.splitlines()[3:] if line.startswith('| `')]
    named = set()
    for _, rt_name, op_types, gradient in rows:
        obj = rt
        for part in re.findall(r'`(rt\.[\w.]+)`', rt_name)[0].split('.')[1:]:
            obj = getattr(obj, part)
        assert callable(obj), rt_name
        types = re.findall(r'`([A-Z]\w*)`', op_types)
        assert types and all(REGISTRY[t].gradient is NO_GRADIENT for t in types), op_types
        assert gradient == 'no'
        named |= set(types)
    from runtime.data.ops import DATASET_OPS
    assert named == {opdef.name for opdef in DATASET_OPS}


def test_from_generator_is_tensorflows_flat_map_over_one_id_eagerly_and_in_graphs():
    calls = []

    def gen():
        calls.append(1)
        yield from (1, 2, 3)
    ds = D.from_generator(gen, rt.int32)
    assert repr(ds) == ('<_FlatMapDataset element_spec=TensorSpec(shape=<unknown>, '
                        'dtype=rt.int32, name=None)>')
    assert [int(x) for x in ds] == [1, 2, 3] and [int(x) for x in ds] == [1, 2, 3]
    assert len(calls) == 2  # the generator runs anew on every pass
    assert int(ds.cardinality()) == rt.data.UNKNOWN_CARDINALITY

    @ag.function
    def total():
        inner = D.from_generator(gen, rt.int32)
        return inner.reduce(rt.constant(0), lambda s, x: s + x)
    assert int(total()) == 6
    graph = total.get_concrete_function().graph
    assert [op.type for op in graph.get_operations()] == [
        'Const', 'TensorDataset', 'FlatMapDataset', 'Const', 'ReduceDataset', 'NoOp', 'Identity']
    assert any(op.type == 'GeneratorDataset' for g in graph.library.values()
               for op in g.get_operations())


def test_reduce_dataset_is_stateful_so_it_runs_when_its_result_is_unused():
    assert data_ops.REDUCE.stateful  # as TensorFlow's ReduceDataset
    v = rt.Variable(0, dtype=rt.int64)

    @ag.function
    def side_effects():
        D.range(4).reduce(rt.constant(0, rt.int64), lambda s, x: s + v.assign_add(x))
        return v.read_value()
    assert int(side_effects()) == 6


def test_reads_of_one_iterator_wait_on_the_read_before_as_tensorflow_chains_them():
    @ag.function
    def two(n):
        it = iter(D.range(n))
        first = it.get_next()
        return first, it.get_next(), it.get_next_as_optional().get_value()
    graph_def = two.get_concrete_function(rt.constant(5, rt.int64)).graph.as_graph_def()
    control = {node.name: [i for i in node.input if i.startswith('^')]
               for node in graph_def.node}
    assert control['IteratorGetNext'] == ['^MakeIterator']
    assert control['IteratorGetNext_1'] == ['^IteratorGetNext']
    assert control['IteratorGetNextAsOptional'] == ['^IteratorGetNext_1']
    assert [int(v) for v in two(rt.constant(5, rt.int64))] == [0, 1, 2]
    it = iter(D.range(3))  # eagerly the reads just run in order
    assert int(it.get_next()) == 0 and int(it.get_next_as_optional().get_value()) == 1
