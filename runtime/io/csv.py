"""`tf.io.decode_csv` (op `DecodeCSV`): each record split into fields, each field parsed as the
dtype of its default."""
import csv as csvlib

import numpy as np

from runtime.core import dtypes, errors
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, register

_PARSERS = {dtypes.int32: int, dtypes.int64: int, dtypes.float32: float, dtypes.float64: float,
            dtypes.string: lambda b: b}


def _split(record, delim, quoted):
    text = record.decode('utf-8')
    if not quoted:
        return [field.encode('utf-8') for field in text.split(delim)]
    rows = list(csvlib.reader([text], delimiter=delim, quotechar='"', doublequote=True,
                              strict=True))
    return [field.encode('utf-8') for field in rows[0]] if rows else [b'']


def _parse(field, dtype, column, index):
    if dtype is dtypes.string:
        return field
    try:
        return _PARSERS[dtype](field.decode('utf-8').strip())
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f'Field {column} in record {index} is not a valid '
            f"{'int' if dtype.is_integer else 'float'}: {field.decode('utf-8', 'replace')}") \
            from None


def _kernel(records, *defaults, field_delim=',', use_quote_delim=True, na_value='',
            select_cols=(), OUT_TYPE=()):
    records = np.asarray(records, dtype=object)
    flat = records.ravel()
    columns = [np.empty(flat.shape, dtype=d.as_numpy_dtype if d is not dtypes.string
                        else object) for d in OUT_TYPE]
    na = na_value.encode('utf-8') if isinstance(na_value, str) else na_value
    for index, record in enumerate(flat):
        fields = _split(record, field_delim, use_quote_delim)
        if select_cols:
            if max(select_cols) >= len(fields):
                raise errors.InvalidArgumentError(
                    None, None, f'Expect {max(select_cols) + 1} fields but have {len(fields)} '
                    f'in record {index}')
            fields = [fields[c] for c in select_cols]
        if len(fields) != len(OUT_TYPE):
            raise errors.InvalidArgumentError(
                None, None, f'Expect {len(OUT_TYPE)} fields but have {len(fields)} in record '
                f'{index}')
        for column, (field, dtype, default) in enumerate(zip(fields, OUT_TYPE, defaults)):
            if field == b'' or field == na:
                default = np.asarray(default)
                if default.size == 0:
                    raise errors.InvalidArgumentError(
                        None, None, f'Field {column} is required but missing in record '
                        f'{index}!')
                columns[column][index] = default.ravel()[0]
            else:
                columns[column][index] = _parse(field, dtype, column, index)
    return tuple(c.reshape(records.shape) for c in columns)


def _infer(inputs, attrs):
    return [(dtype, inputs[0].shape) for dtype in attrs['OUT_TYPE']]


DECODE_CSV = register('DecodeCSV', _kernel, _infer, inputs=('records', 'record_defaults'),
                      outputs='output', type_attrs=(),
                      defaults={'field_delim': ',', 'use_quote_delim': True, 'na_value': '',
                                'select_cols': ()}, gradient=NO_GRADIENT)


def decode_csv(records, record_defaults, field_delim=',', use_quote_delim=True, na_value='',
               select_cols=None, name=None):
    """The columns of CSV `records`: one tensor per entry of `record_defaults`, shaped as
    `records`, of the default's dtype; an empty default marks a required column (op
    `DecodeCSV`)."""
    records = convert_to_tensor(records)
    if records.dtype is not dtypes.string:
        raise TypeError(f'records must be a string tensor, got {records.dtype.name}.')
    defaults = [convert_to_tensor(d) for d in record_defaults]
    out_types = [d.dtype for d in defaults]
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError('Length of select_cols and record_defaults do not match.')
    attrs = {'field_delim': field_delim, 'use_quote_delim': bool(use_quote_delim),
             'na_value': na_value, 'select_cols': tuple(select_cols or ()),
             'OUT_TYPE': out_types}
    return list(apply(DECODE_CSV, [records, *defaults], attrs, name=name))

