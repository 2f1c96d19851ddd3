"""More dataset ops, with TensorFlow's op types: the file readers (`TFRecordDatasetV2`,
`FixedLengthRecordDatasetV2`), `SqlDataset` (SQLite), `RandomDataset`,
`AssertCardinalityDataset`, `IgnoreErrorsDataset`, `UniqueDataset`, `GroupByWindowDataset`,
`GroupByReducerDataset` and `DatasetToSingleElement`, and the DatasetValues they make
(runtime/data/values.py has the others)."""
import itertools
import sqlite3

import numpy as np

from runtime.core import dtypes, errors
from runtime.data import values
from runtime.data.ops import components, dataset_op
from runtime.io.records import fixed_length_records, tfrecords
from runtime.ops import philox
from runtime.ops.random import PhiloxStream


def _names(filenames):
    return [f.decode() if isinstance(f, bytes) else str(f)
            for f in np.atleast_1d(np.asarray(filenames, dtype=object)).tolist()]


def _text(value):
    value = value[()] if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


class RecordFiles(values.DatasetValue):
    """The records of files, one file after the other: `read(path, *arguments)` yields a
    file's records (a module function, so that the value pickles)."""

    def __init__(self, filenames, read, arguments):
        self.filenames, self.read, self.arguments = filenames, read, arguments

    def __iter__(self):
        for name in self.filenames:
            for record in self.read(name, *self.arguments):
                yield (record,)


def _tfrecords(attrs, payload):
    def make(filenames, compression_type, buffer_size, byte_offsets):
        return RecordFiles(_names(filenames), tfrecords, (_text(compression_type),))
    return make


def _fixed_length(attrs, payload):
    def make(filenames, header_bytes, record_bytes, footer_bytes, buffer_size,
             compression_type):
        if int(record_bytes) <= 0:
            raise errors.InvalidArgumentError(
                message=f'record_bytes must be > 0, got {int(record_bytes)}.')
        return RecordFiles(_names(filenames), fixed_length_records, (
            int(record_bytes), int(header_bytes), int(footer_bytes), _text(compression_type)))
    return make


TFRECORD = dataset_op('TFRecordDatasetV2', _tfrecords,
                      inputs=('filenames', 'compression_type', 'buffer_size', 'byte_offsets'),
                      defaults={'metadata': ''})
FIXED_LENGTH_RECORD = dataset_op(
    'FixedLengthRecordDatasetV2', _fixed_length,
    inputs=('filenames', 'header_bytes', 'record_bytes', 'footer_bytes', 'buffer_size',
            'compression_type'), defaults={'metadata': ''})


class AssertCardinality(values.DatasetValue):
    """The input's elements, failing when there are not `expected` of them."""

    def __init__(self, input_, expected):
        self.input, self.cardinality = input_, int(expected)

    def __iter__(self):
        count = 0
        for element in self.input:
            count += 1
            if self.cardinality != values.INFINITE and count > self.cardinality:
                raise errors.FailedPreconditionError(
                    message=f'Input dataset was expected to contain '
                            f'{_elements(self.cardinality)} but contained at least '
                            f'{_elements(count)}.')
            yield element
        if count != self.cardinality:
            raise errors.FailedPreconditionError(
                message=f'Input dataset was expected to contain '
                        f'{_elements(self.cardinality)} but contained only {_elements(count)}.')


def _elements(n):
    if n == values.INFINITE:
        return 'an infinite number of elements'
    return f'{n} element' + ('' if n == 1 else 's')


class IgnoreErrors(values.DatasetValue):
    """The input's elements, without those whose making failed (an error of an op: a record
    that does not parse, a failed check)."""

    def __init__(self, input_, log_warning):
        self.input, self.log_warning = input_, log_warning

    def __iter__(self):
        elements = iter(self.input)
        while True:
            try:
                element = next(elements)
            except StopIteration:
                return
            except errors.OpError as e:
                if self.log_warning:
                    print(f'Warning: ignoring an error of the input: {e}')
                continue
            yield element


class Unique(values.DatasetValue):
    """The input's elements, each first occurrence only (scalars and vectors of integers or
    strings, as TensorFlow's UniqueDataset)."""

    def __init__(self, input_):
        self.input = input_

    def __iter__(self):
        seen = set()
        for element in self.input:
            value = element[0]
            key = value.tobytes() if isinstance(value, np.ndarray) and \
                value.dtype != object else repr(np.asarray(value).tolist())
            if key not in seen:
                seen.add(key)
                yield element


ASSERT_CARDINALITY = dataset_op(
    'AssertCardinalityDataset',
    lambda attrs, payload: lambda d, n: AssertCardinality(d, n),
    inputs=('input_dataset', 'cardinality'), defaults={'metadata': ''})
IGNORE_ERRORS = dataset_op(
    'IgnoreErrorsDataset',
    lambda attrs, payload: lambda d: IgnoreErrors(d, attrs.get('log_warning', False)),
    defaults={'log_warning': False, 'metadata': ''})
UNIQUE = dataset_op('UniqueDataset', lambda attrs, payload: Unique,
                    defaults={'metadata': ''})


def _single_element(dataset, **attrs):
    elements = iter(dataset)
    first = next(elements, None)
    if first is None:
        raise errors.InvalidArgumentError(message='Dataset was empty.')
    if next(elements, None) is not None:
        raise errors.InvalidArgumentError(message='Dataset had more than one element.')
    return list(first)


SINGLE_ELEMENT = dataset_op('DatasetToSingleElement',
                            lambda attrs, payload: _single_element, inputs=('dataset',),
                            outputs='components', infer=components,
                            defaults={'metadata': ''})


class SqlRows(values.DatasetValue):
    """The rows a query gives on an SQLite database, each converted to `types`."""

    def __init__(self, database, query, types):
        self.database, self.query, self.types = database, query, types

    def __iter__(self):
        try:
            connection = sqlite3.connect(self.database)
        except sqlite3.Error as e:
            raise errors.UnknownError(message=f'Sqlite error: {e}') from None
        try:
            try:
                cursor = connection.execute(self.query)
            except sqlite3.Error as e:
                raise errors.UnknownError(message=f'Sqlite error: {e}') from None
            for row in cursor:
                if len(row) != len(self.types):
                    raise errors.InvalidArgumentError(
                        message=f'The number of columns in the query ({len(row)}) must match '
                                f'the number of output types ({len(self.types)}).')
                yield tuple(_sql_value(v, t) for v, t in zip(row, self.types))
        finally:
            connection.close()


def _sql_value(value, dtype):
    if dtype is dtypes.string:
        return np.array(value if isinstance(value, bytes) else str(value).encode(),
                        dtype=object)[()]
    if dtype is dtypes.bool:
        return np.bool_(int(value) != 0)
    return np.asarray(value, dtype.np_dtype)[()]


def _sql(attrs, payload):
    def make(driver_name, data_source_name, query):
        if _text(driver_name) != 'sqlite':
            raise errors.InvalidArgumentError(
                message=f'The database type, {_text(driver_name)}, is not supported by '
                        f'SqlDataset. The set of supported databases is: {{\'sqlite\'}}.')
        return SqlRows(_text(data_source_name), _text(query), attrs['output_types'])
    return make


SQL = dataset_op('SqlDataset', _sql, inputs=('driver_name', 'data_source_name', 'query'))


class RandomWords(values.DatasetValue):
    """An endless stream of the 32-bit words of Philox blocks from a key and counter, as
    int64 (TensorFlow's RandomDataset); with `rerandomize`, each pass goes on from where the
    stream of the previous pass started plus a fresh reservation."""

    cardinality = values.INFINITE

    def __init__(self, key, counter, rerandomize):
        self.key, self.counter, self.rerandomize = key, counter, rerandomize
        self.passes = itertools.count()

    def __iter__(self):
        counter = self.counter
        if self.rerandomize:
            counter = philox.skip(counter, next(self.passes) << 40)
        while True:
            for word in philox.blocks(self.key, counter, 64).reshape(-1):
                yield (np.int64(word),)
            counter = philox.skip(counter, 64)


def _random(attrs, payload):
    def make(seed, seed2):
        stream = PhiloxStream.from_seeds(int(seed), int(seed2))
        return RandomWords(stream.key, stream.counter, bool(payload))
    return make


RANDOM = dataset_op('RandomDataset', _random, inputs=('seed', 'seed2'), stateful=True,
                    defaults={'metadata': ''})


def _with_functions(value_class):
    def bind(attrs, payload):
        counts = [len(f.captures) for f in payload]

        def make(dataset, *captured):
            split, k = [], 0
            for n in counts:
                split.append(captured[k:k + n])
                k += n
            return value_class(dataset, payload, split)
        return make
    return bind


class Elements(values.DatasetValue):
    """A dataset of elements given as a list (a window of group_by_window)."""

    def __init__(self, elements):
        self.elements = elements
        self.cardinality = len(elements)

    def __iter__(self):
        return iter(self.elements)


class GroupByWindow(values.DatasetValue):
    """Elements put in groups by `key` (an int64 per element); a group of `size(key)`
    elements is given as a dataset to `reduce(key, window)`, whose elements follow; at the end
    of the input the groups left are reduced in the order they began."""

    def __init__(self, input_, functions, captured):
        self.input, self.functions, self.captured = input_, functions, captured

    def __iter__(self):
        (key_fn, reduce_fn, size_fn), (key_args, reduce_args, size_args) = \
            self.functions, self.captured
        groups, sizes = {}, {}
        for element in self.input:
            key = int(key_fn.run(*element, *key_args)[0])
            if key not in groups:
                size = int(size_fn.run(np.int64(key), *size_args)[0])
                if size <= 0:
                    raise errors.InvalidArgumentError(
                        message=f'Window size must be greater than zero, but got {size}.')
                groups[key], sizes[key] = [], size
            groups[key].append(element)
            if len(groups[key]) == sizes[key]:
                yield from reduce_fn.run(np.int64(key), Elements(groups.pop(key)),
                                         *reduce_args)[0]
        for key, window in groups.items():
            yield from reduce_fn.run(np.int64(key), Elements(window), *reduce_args)[0]


GROUP_BY_WINDOW = dataset_op(
    'GroupByWindowDataset', _with_functions(GroupByWindow),
    inputs=('input_dataset', 'key_func_other_arguments', 'reduce_func_other_arguments',
            'window_size_func_other_arguments'),
    function_attrs=('key_func', 'reduce_func', 'window_size_func'), defaults={'metadata': ''})


class GroupByReducer(values.DatasetValue):
    """One element per key (an int64 of `key_fn`): the key's state made by `init_fn(key)`,
    folded over its elements by `reduce_fn(state, element)`, then `finalize_fn(state)`; keys
    in the order they first came."""

    def __init__(self, input_, functions, captured):
        self.input, self.functions, self.captured = input_, functions, captured

    def __iter__(self):
        (key_fn, init_fn, reduce_fn, finalize_fn), (key_args, init_args, reduce_args,
                                                    finalize_args) = \
            self.functions, self.captured
        states = {}
        for element in self.input:
            key = int(key_fn.run(*element, *key_args)[0])
            if key not in states:
                states[key] = init_fn.run(np.int64(key), *init_args)
            states[key] = reduce_fn.run(*states[key], *element, *reduce_args)
        for state in states.values():
            yield finalize_fn.run(*state, *finalize_args)


GROUP_BY_REDUCER = dataset_op(
    'GroupByReducerDataset', _with_functions(GroupByReducer),
    inputs=('input_dataset', 'key_func_other_arguments', 'init_func_other_arguments',
            'reduce_func_other_arguments', 'finalize_func_other_arguments'),
    function_attrs=('key_func', 'init_func', 'reduce_func', 'finalize_func'),
    defaults={'metadata': ''})
