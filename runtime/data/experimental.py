"""`rt.data.experimental`: TensorFlow's `tf.data.experimental`, the transformations as
functions for `ds.apply(...)` (each the Dataset method of the same name, or the ops of
runtime/data/more_ops.py), `Counter`, `CsvDataset` and `make_csv_dataset`,
`parse_example_dataset` and `make_batched_features_dataset`, `TFRecordWriter`, and the option
classes. Out of scope: the distributed tf.data service and the device prefetchers
(autograph_rt/scope.py says why).
"""
import csv
import enum
import glob

import numpy as np

from runtime.core import dtypes, errors, nest
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import functions, more_ops, structure
from runtime.data.dataset import Dataset, int64, range_dataset, source
from runtime.data.dataset import choose_from_datasets as dataset_choose_from
from runtime.data.functions import enable_debug_mode
from runtime.data.iterators import Iterator, Optional
from runtime.data.options import (
    AutotuneOptions,
    OptimizationOptions,
    ThreadingOptions,
)
from runtime.data.prefetch import AUTOTUNE
from runtime.data.readers import (
    CsvDataset,
    RandomDataset,
    SqlDataset,
    TFRecordDataset,
    filename_list,
)
from runtime.data.sources import from_tensor_slices, from_tensors, sample_from_datasets
from runtime.data.values import INFINITE as INFINITE_CARDINALITY
from runtime.data.values import UNKNOWN as UNKNOWN_CARDINALITY
from runtime.io.example import parse_example
from runtime.io.records import TFRecordWriter as _RecordFileWriter
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor, stack


class AutotuneAlgorithm(enum.Enum):
    """How tf.data's autotuner searches (recorded in `Options.autotune`)."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class ExternalStatePolicy(enum.Enum):
    """What saving a pipeline does with state it cannot save (recorded in Options)."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


def cardinality(dataset):
    """The number of elements of `dataset`: an int64 scalar, INFINITE_CARDINALITY (-1) or
    UNKNOWN_CARDINALITY (-2)."""
    return dataset.cardinality()


def assert_cardinality(expected_cardinality):
    """`lambda ds: ds.assert_cardinality(expected_cardinality)`."""
    return lambda dataset: dataset.assert_cardinality(expected_cardinality)


def ignore_errors(log_warning=False):
    """`lambda ds: ds.ignore_errors(log_warning)`."""
    return lambda dataset: dataset.ignore_errors(log_warning)


def unique():
    """`lambda ds: ds.unique()`."""
    return lambda dataset: dataset.unique()


def get_single_element(dataset):
    """`dataset.get_single_element()`."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f'Invalid `dataset`. Expected a `tf.data.Dataset` object but got '
                        f'{type(dataset)}.')
    return dataset.get_single_element()


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """`lambda ds: ds.group_by_window(...)`."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


class Reducer:
    """What `group_by_reducer` does with each key's elements: `init_func(key)` makes a state,
    `reduce_func(state, element)` folds an element into it and `finalize_func(state)` makes
    the key's output element."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = (init_func, reduce_func,
                                                                finalize_func)


def group_by_reducer(key_func, reducer):
    """A transformation giving one element per key of `key_func(element)` (an int64 scalar):
    `reducer` folds the key's elements (op GroupByReducerDataset)."""
    def apply(dataset):
        spec = dataset.element_spec
        key_spec = TensorSpec([], dtypes.int64)
        key_fn = functions.TracedFunction(key_func, [spec], 'group_by_reducer')
        key_fn.single_output('group_by_reducer key_func', dtypes.int64)
        init_fn = functions.TracedFunction(reducer.init_func, [key_spec], 'group_by_reducer')
        state_spec = init_fn.output_spec
        reduce_fn = functions.TracedFunction(reducer.reduce_func, [state_spec, spec],
                                             'group_by_reducer', call=lambda f, s, e: f(s, e))
        problem = structure.structure_difference(state_spec, reduce_fn.output_spec) or [
            f'{a.dtype.name} != {b.dtype.name}' for a, b in zip(
                structure.flatten(state_spec), structure.flatten(reduce_fn.output_spec))
            if a.dtype is not b.dtype]
        if problem:
            raise TypeError(f'The element types for the new state must match the initial '
                            f'state. {problem}')
        finalize_fn = functions.TracedFunction(reducer.finalize_func, [state_spec],
                                               'group_by_reducer')
        fns = (key_fn, init_fn, reduce_fn, finalize_fn)
        captured = [v for f in fns for v in f.captured_inputs]
        attrs = {f'{name}_func': f.ref for name, f in zip(
            ('key', 'init', 'reduce', 'finalize'), fns)}
        attrs.update({f'T{name}_func_other_arguments': [getattr(v, 'dtype', dtypes.resource)
                                                        for v in f.captured_inputs]
                      for name, f in zip(('key', 'init', 'reduce', 'finalize'), fns)})
        return source(more_ops.GROUP_BY_REDUCER, [dataset.variant_tensor] + captured, attrs,
                      finalize_fn.output_spec, payload=fns)
    return apply


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """`lambda ds: ds.bucket_by_sequence_length(...)`."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def enumerate_dataset(start=0):
    """A transformation pairing each element with its index from `start`."""
    return lambda dataset: dataset.enumerate(start)


def scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


def take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


def unbatch():
    return lambda dataset: dataset.unbatch()


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """`dataset.shuffle(buffer_size, seed).repeat(count)`, shuffled anew each epoch."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """`dataset.interleave(map_func, cycle_length, block_length)`: elements always come in
    the deterministic order (`sloppy=True` allows any order, this is one)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """`dataset.map(map_func).batch(batch_size, drop_remainder)`."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError('`map_and_batch` allows only one of `num_parallel_batches` and '
                         '`num_parallel_calls` to be set.')
    return lambda dataset: dataset.map(map_func, num_parallel_calls).batch(
        batch_size, drop_remainder)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """`Dataset.choose_from_datasets`, with TensorFlow 2's older default (a pick of an
    exhausted dataset is skipped)."""
    return dataset_choose_from(datasets, choice_dataset, stop_on_empty_dataset)


def Counter(start=0, step=1, dtype=dtypes.int64):  # noqa: N802 - TensorFlow's name
    """`start`, `start + step`, ...: an endless dataset of scalars of `dtype`."""
    stop = np.iinfo(np.int64).max if step >= 0 else np.iinfo(np.int64).min
    counts = range_dataset(start, stop, step)
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.int64:
        return counts
    return counts.map(lambda x: cast(x, dtype))


def from_list(elements, name=None):
    """A dataset of the items of `elements` (each a tensor or a structure of them, all of one
    structure), in order."""
    elements = list(elements)
    if not elements:
        raise ValueError('Invalid `elements`. `elements` should not be empty.')
    flat = [nest.flatten(e) for e in elements]
    if len({len(f) for f in flat}) != 1:
        raise ValueError('Invalid `elements`. All elements must have the same structure.')
    columns = [stack([convert_to_tensor(f[i]) for f in flat]) for i in range(len(flat[0]))]
    return from_tensor_slices(nest.pack_sequence_as(elements[0], columns))


def get_structure(dataset_or_iterator):
    """The element_spec of a dataset, an iterator or an optional."""
    spec = getattr(dataset_or_iterator, 'element_spec', None)
    if spec is None:
        raise TypeError(f'Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a '
                        f'`tf.data.Dataset`, `tf.data.Iterator` or `tf.data.Optional`, got '
                        f'{dataset_or_iterator!r}.')
    return spec


def get_next_as_optional(iterator):
    return iterator.get_next_as_optional()


def at(dataset, index):
    """The element of `dataset` at `index`; OutOfRangeError past its end."""
    index = int(int64(index, 'index'))
    if index < 0:
        raise errors.OutOfRangeError(message=f'Index out of range: {index}')
    part = dataset.skip(index).take(1)
    for element in part:
        return element
    raise errors.OutOfRangeError(message=f'Index out of range [0, {index}): {index}')


def pad_to_cardinality(cardinality, mask_key='valid'):
    """A transformation of a dataset of dicts to `cardinality` elements: each element gains
    `mask_key: True`, and elements of zeros with `mask_key: False` follow the input's."""
    def apply(dataset):
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError(f'`pad_to_cardinality` requires its input dataset to be a '
                             f'dictionary, got {spec}.')
        if mask_key in spec:
            raise ValueError(f'The mask_key "{mask_key}" is already present in the dataset.')
        n = int(dataset.cardinality())
        if n < 0:
            raise ValueError(f'The dataset passed into `pad_to_cardinality` must have a known '
                             f'cardinality, but has cardinality {n}')
        if n > cardinality:
            raise ValueError(f'The dataset passed into `pad_to_cardinality` must have a '
                             f'cardinality less than the target cardinality ({cardinality}), '
                             f'but has cardinality {n}')
        masked = dataset.map(lambda x: {**x, mask_key: True})
        if n == cardinality:
            return masked
        zeros = {k: np.zeros([d or 0 for d in s.shape.as_list()], s.dtype.np_dtype)
                 if s.dtype is not dtypes.string else np.full(s.shape.as_list(), b'', object)
                 for k, s in spec.items()}
        pad = from_tensors({**zeros, mask_key: np.bool_(False)}).repeat(cardinality - n)
        return masked.concatenate(pad)
    return apply


class TFRecordWriter:
    """Writes a dataset of scalar strings to a TFRecord file: `TFRecordWriter(path).write(ds)`
    (eagerly the file is written at once)."""

    def __init__(self, filename, compression_type=None):
        self._filename = filename.decode() if isinstance(filename, bytes) else str(filename)
        self._compression_type = compression_type

    def write(self, dataset):
        if not isinstance(dataset, Dataset):
            raise TypeError(f'Invalid `dataset.` Expected a `tf.data.Dataset` object but got '
                            f'{type(dataset)}.')
        spec = dataset.element_spec
        if getattr(spec, 'dtype', None) is not dtypes.string or spec.shape.rank != 0:
            raise TypeError(f'Invalid `dataset`. Expected a`dataset` that produces scalar '
                            f'`tf.string` elements, but got a dataset which produces elements '
                            f'with shapes {getattr(spec, "shape", spec)} and types '
                            f'{getattr(spec, "dtype", spec)}.')
        with _RecordFileWriter(self._filename, self._compression_type) as writer:
            for record in dataset:
                writer.write(record.value if isinstance(record, EagerTensor) else record)


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A transformation of a dataset of serialized `tf.train.Example` vectors (a batch) into
    dicts of parsed features (`rt.io.parse_example`)."""
    if features is None:
        raise ValueError('Argument `features` is required, but not specified.')
    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features))


def _files(file_pattern):
    patterns = filename_list(file_pattern, 'file_pattern')
    names = sorted(n for p in patterns for n in glob.glob(p))
    if not names:
        raise errors.InvalidArgumentError(
            message=f'Expect at least one file matching the pattern {file_pattern!r}.')
    return names


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
    """Batches of parsed `tf.train.Example`s read from the files matching `file_pattern`:
    dicts of features (and the `label_key` feature apart, as a (features, label) pair)."""
    reader = TFRecordDataset if reader is None else reader
    names = _files(file_pattern)
    if shuffle:
        rng = np.random.default_rng(shuffle_seed)
        names = [names[i] for i in rng.permutation(len(names))]
    dataset = None
    for name in names:
        part = reader(name, *(reader_args or []))
        dataset = part if dataset is None else dataset.concatenate(part)
    dataset = dataset.repeat(num_epochs)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch)
    dataset = dataset.apply(parse_example_dataset(features))
    if label_key is not None:
        if label_key not in features:
            raise ValueError(f'The `label_key` provided ({label_key}) must be one of the '
                             f'`features` keys.')
        dataset = dataset.map(lambda x: ({k: v for k, v in x.items() if k != label_key},
                                         x[label_key]))
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


def _infer_column(values, na_value):
    """The dtype TensorFlow's make_csv_dataset infers for a column's first values: int32,
    then int64, float32, float64, else string."""
    kinds = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
    best, seen = 0, False
    for value in values:
        if value == na_value or value == '':
            continue
        seen = True
        while best < len(kinds):
            try:
                number = (int if best < 2 else float)(value)
            except ValueError:
                best += 1
                continue
            if best == 0 and not -2 ** 31 <= number < 2 ** 31:
                best = 1
                continue
            if best == 1 and not -2 ** 63 <= number < 2 ** 63:
                best = 2
                continue
            if best == 2 and np.isinf(np.float32(number)) and not np.isinf(number):
                best = 3
                continue
            break
    return kinds[best] if seen and best < len(kinds) else dtypes.string


def _csv_rows(names, field_delim, use_quote_delim, header, encoding, limit):
    rows = []
    for name in names:
        with open(name, encoding=encoding, newline='') as f:
            reader = csv.reader(f, delimiter=field_delim,
                                quoting=csv.QUOTE_MINIMAL if use_quote_delim else
                                csv.QUOTE_NONE)
            for i, row in enumerate(reader):
                if i == 0 and header:
                    continue
                rows.append(row)
                if len(rows) >= limit:
                    return rows
    return rows


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=',',
                     use_quote_delim=True, na_value='', header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding='utf-8'):
    """Batches of the rows of CSV files, each a dict column name -> batched column (and the
    `label_name` column apart): column names from the header, dtypes from `column_defaults`
    or inferred from the first `num_rows_for_inference` rows."""
    names = _files(file_pattern)
    if column_names is None:
        if not header:
            raise ValueError('Expected `column_names` or `header` arguments. Neither is '
                             'provided.')
        with open(names[0], encoding=encoding) as f:
            column_names = next(iter(_csv_rows_of(f, field_delim, use_quote_delim)), [])
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError('Expected `column_names` to be unique, got duplicates.')
    select = None
    if select_columns is not None:
        select = sorted(column_names.index(c) if isinstance(c, str) else int(c)
                        for c in select_columns)
        column_names = [column_names[i] for i in select]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f'`label_name` provided must be one of the columns: {column_names}. '
                         f'Received: {label_name}.')
    if column_defaults is None:
        rows = _csv_rows(names, field_delim, use_quote_delim, header, encoding,
                         num_rows_for_inference)
        picked = select if select is not None else range(len(column_names))
        column_defaults = [  # an inferred column's empty fields read as 0 or ''
            convert_to_tensor(np.array([b'' if d is dtypes.string else 0], d.np_dtype), d)
            for d in (_infer_column([r[i] for r in rows if i < len(r)], na_value)
                      for i in picked)]
    column_defaults = [convert_to_tensor(np.zeros([0], d.np_dtype if d is not dtypes.string
                                                  else object), d)
                       if isinstance(d, dtypes.DType) else d for d in column_defaults]
    if len(column_defaults) != len(column_names):
        raise ValueError('The number of `column_defaults` does not match the number of '
                         'columns.')
    dataset = CsvDataset(names, column_defaults, compression_type, header=header,
                         field_delim=field_delim, use_quote_delim=use_quote_delim,
                         na_value=na_value, select_cols=select)
    if ignore_errors:
        dataset = dataset.apply(globals()['ignore_errors']())
    dataset = dataset.repeat(num_epochs)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    dataset = dataset.batch(batch_size)

    def to_dict(*columns):
        features = dict(zip(column_names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label
    dataset = dataset.map(to_dict)
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


def _csv_rows_of(f, field_delim, use_quote_delim):
    return csv.reader(f, delimiter=field_delim,
                      quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)


__all__ = ['AUTOTUNE', 'AutotuneAlgorithm', 'AutotuneOptions', 'Counter', 'CsvDataset',
           'ExternalStatePolicy', 'INFINITE_CARDINALITY', 'Iterator', 'OptimizationOptions',
           'Optional', 'RandomDataset', 'Reducer', 'SqlDataset', 'TFRecordWriter',
           'ThreadingOptions', 'UNKNOWN_CARDINALITY', 'assert_cardinality', 'at',
           'bucket_by_sequence_length', 'cardinality', 'choose_from_datasets',
           'enable_debug_mode', 'enumerate_dataset', 'from_list', 'get_next_as_optional',
           'get_single_element', 'get_structure', 'group_by_reducer', 'group_by_window',
           'ignore_errors', 'make_batched_features_dataset', 'make_csv_dataset',
           'map_and_batch', 'pad_to_cardinality', 'parallel_interleave',
           'parse_example_dataset', 'sample_from_datasets', 'scan', 'shuffle_and_repeat',
           'take_while', 'unbatch', 'unique']
