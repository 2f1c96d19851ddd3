"""The file datasets of `tf.data`: `TFRecordDataset` (the records of TFRecord files, read with
TensorFlow's framing and checksums), `FixedLengthRecordDataset`, and `tf.data.experimental`'s
`CsvDataset`, `SqlDataset` (SQLite) and `RandomDataset` (`TextLineDataset` is in
runtime/data/sources.py)."""
import numpy as np

from runtime.core import dtypes
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import more_ops, structure
from runtime.data.dataset import Dataset, int64, source
from runtime.data.sources import TextLineDataset
from runtime.io.csv import decode_csv
from runtime.io.records import TFRecordOptions
from runtime.ops.convert import convert_to_tensor
from runtime.ops.random import get_seed


def filename_list(filenames, what):
    """`filenames` (a string, a list of them or a string tensor) as a list of str."""
    if isinstance(filenames, EagerTensor):
        filenames = filenames.value
    names = np.atleast_1d(np.asarray(filenames, dtype=object)).ravel().tolist()
    for name in names:
        if not isinstance(name, (str, bytes)):
            raise TypeError(f'{what}: filenames must be strings, got {name!r}.')
    return [n.decode() if isinstance(n, bytes) else n for n in names]


def _compression(compression_type):
    return np.array(TFRecordOptions.get_compression_type_string(compression_type).encode(),
                    dtype=object)[()]


def _names_tensor(filenames, what):
    return np.array([n.encode() for n in filename_list(filenames, what)], dtype=object)


class TFRecordDataset(Dataset):
    """The records of TFRecord files, as scalar string elements, file after file; a record
    whose checksum does not match, or a file cut short, is `rt.errors.DataLossError`."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        spec = TensorSpec([], dtypes.string)
        made = source(more_ops.TFRECORD, [
            _names_tensor(filenames, 'TFRecordDataset'), _compression(compression_type),
            np.int64(256 * 1024 if buffer_size is None else buffer_size),
            np.zeros([0], np.int64)], {}, spec, output_types_attr=None)
        super().__init__(made.variant_tensor, spec, None, more_ops.TFRECORD.name)


class FixedLengthRecordDataset(Dataset):
    """The records of `record_bytes` bytes each of files (after `header_bytes`, before
    `footer_bytes`), as scalar string elements."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        spec = TensorSpec([], dtypes.string)
        made = source(more_ops.FIXED_LENGTH_RECORD, [
            _names_tensor(filenames, 'FixedLengthRecordDataset'),
            int64(header_bytes or 0, 'header_bytes'), int64(record_bytes, 'record_bytes'),
            int64(footer_bytes or 0, 'footer_bytes'),
            np.int64(256 * 1024 if buffer_size is None else buffer_size),
            _compression(compression_type)], {}, spec, output_types_attr=None)
        super().__init__(made.variant_tensor, spec, None, more_ops.FIXED_LENGTH_RECORD.name)


def _csv_default(value):
    """A record default: a dtype marks a required column (an empty default of that dtype)."""
    if isinstance(value, dtypes.DType):
        return convert_to_tensor(np.zeros([0], value.np_dtype), value)
    return convert_to_tensor(value)


class CsvDataset(Dataset):
    """The rows of CSV files, one tuple of scalars per row: a column per entry of
    `record_defaults` (a value, its default when the field is empty, or a dtype: a required
    column), the first line of each file skipped with `header=True`."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=',', use_quote_delim=True, na_value='',
                 select_cols=None, exclude_cols=None):
        if compression_type:
            raise NotImplementedError('CsvDataset reads uncompressed files only.')
        if select_cols is not None and exclude_cols is not None:
            raise ValueError('Either select_cols or exclude_cols should be empty')
        defaults = [_csv_default(d) for d in record_defaults]
        if exclude_cols is not None:
            excluded = set(exclude_cols)
            select_cols = [c for c in range(len(defaults) + len(excluded))
                           if c not in excluded]
        if select_cols is not None and list(select_cols) != sorted(set(select_cols)):
            raise ValueError('select_cols is not strictly increasing.')
        lines = None
        for name in filename_list(filenames, 'CsvDataset'):
            part = TextLineDataset(name, buffer_size=buffer_size)
            part = part.skip(1) if header else part
            lines = part if lines is None else lines.concatenate(part)
        if lines is None:
            raise ValueError('CsvDataset needs at least one file.')
        lines = lines.filter(lambda line: line != b'')  # as TensorFlow's: blank lines skipped

        def parse(line):
            return tuple(decode_csv(line, defaults, field_delim, use_quote_delim, na_value,
                                    select_cols))
        made = lines.map(parse)
        super().__init__(made.variant_tensor, made.element_spec, None, 'MapDataset')


class SqlDataset(Dataset):
    """The rows of an SQL query on an SQLite database (`driver_name='sqlite'`), each a tuple
    of scalars of `output_types`."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        types = [dtypes.as_dtype(t) for t in structure.flatten(output_types)]
        spec = structure.pack(output_types, [TensorSpec([], t) for t in types])
        made = source(more_ops.SQL, [_string(driver_name), _string(data_source_name),
                                     _string(query)], {}, spec)
        super().__init__(made.variant_tensor, spec, None, more_ops.SQL.name)


def _string(value):
    return np.array(value.encode() if isinstance(value, str) else value, dtype=object)[()]


class RandomDataset(Dataset):
    """An endless dataset of random int64 scalars in [0, 2**32), TensorFlow's numbers for the
    same seeds (`seed` as `tf.random`'s op seeds); `rerandomize_each_iteration=True` draws
    other numbers on each pass (not TensorFlow's)."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        seed, seed2 = get_seed(seed)
        spec = TensorSpec([], dtypes.int64)
        made = source(more_ops.RANDOM, [np.int64(seed or 0), np.int64(seed2 or 0)], {}, spec,
                      payload=bool(rerandomize_each_iteration))
        super().__init__(made.variant_tensor, spec, None, more_ops.RANDOM.name)


def random_dataset(seed=None, rerandomize_each_iteration=None, name=None):
    """`Dataset.random`: see RandomDataset."""
    return RandomDataset(seed, rerandomize_each_iteration, name)
