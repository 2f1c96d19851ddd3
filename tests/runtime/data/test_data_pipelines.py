"""rt.data eagerly: what each pipeline gives, the element specs, the errors (TensorFlow's
values for the same programs are compared in tests/parity/programs/data_*.py)."""
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt

D = rt.data.Dataset
ag.function  # noqa: B018 - loads autograph's operators, which convert the dataset functions


def elements(ds):
    return list(ds.as_numpy_iterator())


def test_a_pipeline_of_slices_shuffle_map_batch_gives_every_row_once():
    x = np.arange(40, dtype=np.float32).reshape(20, 2)
    y = np.arange(20, dtype=np.int64)
    ds = D.from_tensor_slices((x, y)).shuffle(8, seed=3).map(lambda a, b: (a * 2.0, b)).batch(6)
    batches = elements(ds)
    assert [b[1].shape for b in batches] == [(6,), (6,), (6,), (2,)]
    labels = np.concatenate([b[1] for b in batches])
    assert sorted(labels) == list(range(20))
    rows = np.concatenate([b[0] for b in batches])
    np.testing.assert_array_equal(rows, x[labels] * 2.0)
    assert ds.element_spec[0].shape.as_list() == [None, 2]
    assert ds.element_spec[1].dtype is rt.int64


def test_nested_dict_elements_keep_their_structure():
    ds = D.from_tensor_slices({'a': [1, 2], 'b': ([1.5, 2.5], ['x', 'y'])})
    first = next(iter(ds))
    assert set(first) == {'a', 'b'}
    assert first['b'][1].numpy() == b'x'
    assert first['a'].dtype is rt.int32


def test_a_list_is_one_tensor_and_a_tuple_is_a_structure():
    assert D.from_tensor_slices([[1, 2], [3, 4]]).element_spec.shape.as_list() == [2]
    assert isinstance(D.from_tensor_slices(([1, 2], [3, 4])).element_spec, tuple)


def test_map_is_traced_once_and_runs_its_tensor_code_per_element(capsys):
    def f(x):
        print('tracing')
        return x * 10
    ds = D.range(4).map(f)
    assert elements(ds) == [0, 10, 20, 30]
    assert elements(ds) == [0, 10, 20, 30]
    assert capsys.readouterr().out == 'tracing\n'


def test_map_functions_are_converted_by_autograph():
    def f(x):
        if x > 2:
            y = x * 10
        else:
            y = -x
        return y
    assert elements(D.range(5).map(f)) == [0, -1, -2, 30, 40]


def test_map_reads_captured_tensors_and_variables_when_it_runs():
    v = rt.Variable(1, dtype=rt.int64)
    offset = rt.constant(100, rt.int64)
    ds = D.range(3).map(lambda x: x + v + offset)
    assert elements(ds) == [101, 102, 103]
    v.assign(5)
    assert elements(ds) == [105, 106, 107]


def test_py_function_in_map_is_the_escape_hatch():
    seen = []

    def record(x):
        seen.append(int(x))
        return x
    ds = D.range(3).map(lambda x: rt.py_function(record, [x], rt.int64))
    assert elements(ds) == [0, 1, 2] and seen == [0, 1, 2]


def test_element_wise_map_before_batch_runs_once_per_batch_with_the_same_values():
    x = np.random.default_rng(0).random((50, 3)).astype(np.float32)
    mapped = D.from_tensor_slices(x).map(lambda a: (a - 0.5) * 2.0)
    assert mapped.variant_tensor.value.function.batchable
    batches = elements(mapped.batch(16))
    np.testing.assert_allclose(np.concatenate(batches), (x - 0.5) * 2.0, rtol=1e-6)
    assert [b.shape[0] for b in batches] == [16, 16, 16, 2]


@pytest.mark.parametrize('fn', [lambda a: rt.reduce_sum(a), lambda a: a[0],
                                lambda a: a * rt.ones([2, 3])])
def test_maps_that_are_not_element_wise_run_per_element(fn):
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    mapped = D.from_tensor_slices(x).map(fn)
    assert not mapped.variant_tensor.value.function.batchable
    expected = [fn(rt.constant(row)).numpy() for row in x]
    np.testing.assert_allclose(np.concatenate([np.ravel(b) for b in elements(
        mapped.batch(3))]), np.ravel(expected))


def test_a_dataset_over_a_large_array_does_not_copy_it():
    x = np.zeros((1000, 100), np.float32)
    ds = D.from_tensor_slices(x)
    source = ds.variant_tensor.value.components[0]
    assert np.shares_memory(source, x)
    row = next(iter(ds.variant_tensor.value))[0]
    assert np.shares_memory(row, x)


def test_shuffle_is_seeded_reshuffles_each_epoch_and_keeps_its_buffer_bound():
    ds = D.range(200).shuffle(16, seed=7)
    first, second = elements(ds), elements(ds)
    assert sorted(first) == list(range(200)) and first != second
    assert first == elements(D.range(200).shuffle(16, seed=7))
    assert all(v < k + 16 for k, v in enumerate(first))
    fixed = D.range(50).shuffle(50, seed=1, reshuffle_each_iteration=False)
    assert elements(fixed) == elements(fixed)


def test_repeat_take_skip_and_cardinality_of_infinite_datasets():
    inf = D.range(3).repeat()
    assert int(inf.cardinality()) == rt.data.INFINITE_CARDINALITY
    assert elements(inf.skip(4).take(5)) == [1, 2, 0, 1, 2]
    assert int(inf.take(7).cardinality()) == 7
    with pytest.raises(TypeError, match='infinite'):
        len(inf)
    with pytest.raises(TypeError, match='unknown'):
        len(D.range(3).filter(lambda x: x > 0))
    assert len(D.range(10).batch(3)) == 4


def test_errors_have_tensorflows_types():
    with pytest.raises(rt.errors.InvalidArgumentError, match='Batch size'):
        D.range(3).batch(0)
    with pytest.raises(TypeError, match='Dataset.map'):
        D.range(3).map(lambda x: object())
    with pytest.raises(ValueError, match='scalar bool'):
        D.range(3).filter(lambda x: x)
    it = iter(D.range(1))
    next(it)
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(rt.errors.InvalidArgumentError, match='different shapes'):
        elements(D.range(1, 3).map(lambda x: rt.fill([rt.cast(x, rt.int32)], x)).batch(2))


def test_batch_zero_names_the_op_and_the_users_line():
    with pytest.raises(rt.errors.InvalidArgumentError) as info:
        D.range(3).batch(0)
    assert '[Op:BatchDatasetV2]' in str(info.value)
    assert f'{os.path.basename(__file__)}:' in str(info.value)


def test_an_error_in_a_map_function_names_the_users_line():
    with pytest.raises(TypeError) as info:
        D.range(3).map(lambda x: object())
    assert f'{os.path.basename(__file__)}:' in str(info.value)


def test_padded_batch_pads_to_the_longest_or_the_given_shape():
    ragged = D.range(1, 4).map(lambda x: rt.fill([rt.cast(x, rt.int32)], x))
    first = elements(ragged.padded_batch(2))[0]
    np.testing.assert_array_equal(first, [[1, 0], [2, 2]])
    given = elements(ragged.padded_batch(3, padded_shapes=[4], padding_values=rt.constant(
        -1, rt.int64)))[0]
    np.testing.assert_array_equal(given, [[1, -1, -1, -1], [2, 2, -1, -1], [3, 3, 3, -1]])


def test_generator_zip_concatenate_enumerate_and_sampling():
    def gen():
        yield from range(3)
    g = D.from_generator(gen, output_signature=rt.TensorSpec([], rt.int32))
    assert elements(g) == [0, 1, 2]
    assert elements(D.zip((g, D.range(5, 9)))) == [(0, 5), (1, 6), (2, 7)]
    assert elements(g.concatenate(g)) == [0, 1, 2, 0, 1, 2]
    assert elements(g.enumerate(1)) == [(1, 0), (2, 1), (3, 2)]
    drawn = elements(D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1))
    assert sorted(drawn) == [0, 1, 2, 10, 11, 12]
    assert [v for v in drawn if v < 10] == [0, 1, 2]


def test_generator_elements_of_the_wrong_shape_are_invalid_arguments():
    def gen():
        yield [1, 2, 3]
    g = D.from_generator(gen, output_signature=rt.TensorSpec([2], rt.int32))
    with pytest.raises(rt.errors.InvalidArgumentError, match='shape'):
        elements(g)


def test_text_line_dataset_reads_the_lines(tmp_path):
    path = tmp_path / 'a.txt'
    path.write_text('one\ntwo\r\nthree')
    assert elements(rt.data.TextLineDataset(str(path))) == [b'one', b'two', b'three']
    with pytest.raises(rt.errors.NotFoundError):
        elements(rt.data.TextLineDataset(str(tmp_path / 'missing.txt')))


def test_scan_reduce_take_while_flat_map_interleave_cache_shard():
    r = D.range(6)
    assert elements(r.scan(rt.constant(0, rt.int64), lambda s, x: (s + x, s))) == \
        [0, 0, 1, 3, 6, 10]
    assert int(r.reduce(rt.constant(0, rt.int64), lambda s, x: s + x)) == 15
    assert elements(r.take_while(lambda x: x < 3)) == [0, 1, 2]
    assert elements(D.range(3).flat_map(lambda x: D.range(x))) == [0, 0, 1]
    assert elements(D.range(1, 4).interleave(lambda x: D.from_tensors(x).repeat(x),
                                             cycle_length=2)) == [1, 2, 2, 3, 3, 3]
    cached = D.range(3).map(lambda x: rt.py_function(lambda v: v, [x], rt.int64)).cache()
    assert elements(cached) == elements(cached) == [0, 1, 2]
    assert elements(r.shard(4, 1)) == [1, 5]


def test_scan_relaxes_a_state_whose_shape_changes():
    ds = D.range(3).scan(rt.zeros([0], rt.int64), lambda s, x: (rt.concat([s, [x]], 0), s))
    assert [list(v) for v in elements(ds)] == [[], [0], [0, 1]]


def test_with_options_keeps_the_options():
    options = rt.data.Options()
    options.deterministic = True
    ds = D.range(3).with_options(options).map(lambda x: x)
    assert ds.options().deterministic is True
    assert elements(ds) == [0, 1, 2]


def test_optional_and_dataset_spec():
    opt = iter(D.range(1)).get_next_as_optional()
    assert bool(opt.has_value()) and int(opt.get_value()) == 0
    empty = iter(D.range(0)).get_next_as_optional()
    assert not bool(empty.has_value())
    spec = rt.data.DatasetSpec.from_value(D.range(3))
    assert spec == rt.data.DatasetSpec(rt.TensorSpec([], rt.int64))
    assert spec.is_compatible_with(D.range(7))
    assert not spec.is_compatible_with(D.range(3).batch(2))


def test_datasets_print_as_tensorflows():
    assert repr(D.range(3).batch(2)) == \
        '<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=rt.int64, name=None)>'
    assert repr(D.from_tensor_slices([1, 2]).shuffle(2)).startswith('<_ShuffleDataset ')
