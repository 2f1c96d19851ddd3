"""`tf.train.Example` parsing (`tf.io.parse_example`, `parse_single_example`,
`parse_sequence_example`, `parse_single_sequence_example`) for dense features
(`FixedLenFeature`, `FixedLenSequenceFeature`; `VarLenFeature`, `SparseFeature` and
`RaggedFeature` give sparse or ragged tensors, which are out of scope), as ops
`ParseExampleV2` and `ParseSequenceExampleV2`."""
import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.graph.serialization import wire
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, register
from runtime.ops.shaping import reshape

_LISTS = {dtypes.float32: 'float_list', dtypes.int64: 'int64_list', dtypes.string: 'bytes_list'}


@dataclass(frozen=True)
class FixedLenFeature:
    """A feature of fixed `shape` and `dtype` (float32, int64 or string); `default_value` fills
    it where an example lacks it (None: the feature is required)."""
    shape: Any
    dtype: Any
    default_value: Any = None


@dataclass(frozen=True)
class FixedLenSequenceFeature:
    """A feature list whose every entry has `shape`; in `parse_example`, a feature of any
    length padded to the longest with `default_value` (`allow_missing` must be True)."""
    shape: Any
    dtype: Any
    allow_missing: bool = False
    default_value: Any = None


def _check_features(features):
    for key, feature in features.items():
        if not isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            raise TypeError(f'Feature {key!r}: {type(feature).__name__} gives sparse or ragged '
                            f'tensors, which are out of scope; use FixedLenFeature or '
                            f'FixedLenSequenceFeature (padded).')
        if dtypes.as_dtype(feature.dtype) not in _LISTS:
            raise ValueError(f'Feature {key!r}: dtype must be float32, int64 or string, got '
                             f'{dtypes.as_dtype(feature.dtype).name}.')


def _values(feature, dtype, key, where):
    if not feature:
        return None
    kind = next(iter(feature))
    if kind != _LISTS[dtype]:
        raise errors.InvalidArgumentError(
            None, None, f'Key: {key}.  Data types don\'t match. Data type: {kind.split("_")[0]} '
            f'but expected type: {dtype.name} ({where})')
    values = feature[kind].get('value', [])
    if dtype is dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return np.asarray(values, dtype=dtype.as_numpy_dtype)


def _fixed(values, default, shape, dtype, key, where):
    size = int(np.prod(shape, dtype=np.int64))
    if values is None:
        if default is None or np.size(default) == 0:
            raise errors.InvalidArgumentError(
                None, None, f'Feature: {key} (data type: {dtype.name}) is required but could '
                f'not be found. ({where})')
        return np.broadcast_to(np.asarray(default), shape)[()]
    if values.size != size:
        raise errors.InvalidArgumentError(
            None, None, f'Key: {key}.  Can\'t parse serialized Example: expected {size} values '
            f'of shape {list(shape)}, got {values.size}. ({where})')
    return values.reshape(shape)[()]  # a scalar, not a 0-d array, in an object array


def _decode(serialized, type_name):
    try:
        return wire.decode(type_name, serialized)
    except wire.DecodeError:
        raise errors.InvalidArgumentError(None, None, f'Could not parse {type_name}.') from None


def _parse_example_kernel(serialized, names, sparse_keys, dense_keys, ragged_keys,
                          *dense_defaults, Tdense=(), dense_shapes=(), num_sparse=0,
                          sparse_types=(), ragged_value_types=(), ragged_split_types=(),
                          sequence=()):
    batch = np.asarray(serialized, dtype=object).ravel()
    keys = [k.decode('utf-8') for k in np.asarray(dense_keys, dtype=object).ravel()]
    examples = [_decode(s, 'Example').get('features', {}).get('feature', {}) for s in batch]
    outputs = []
    for key, dtype, shape, default, padded in zip(keys, Tdense, dense_shapes, dense_defaults,
                                                  sequence):
        shape = list(shape)
        found = [_values(e.get(key), dtype, key, f'example {i}') for i, e in enumerate(examples)]
        np_dtype = object if dtype is dtypes.string else dtype.as_numpy_dtype
        if padded:
            step = int(np.prod(shape, dtype=np.int64))
            lengths = [0 if v is None else v.size // max(step, 1) for v in found]
            longest = max(lengths, default=0)
            fill = np.asarray(default).ravel()[0] if np.size(default) else \
                (b'' if dtype is dtypes.string else 0)
            out = np.full([len(batch), longest] + shape, fill, dtype=np_dtype)
            for i, v in enumerate(found):
                if v is not None and v.size:
                    out[i, :lengths[i]] = v.reshape([lengths[i]] + shape)
        else:
            out = np.empty([len(batch)] + shape, dtype=np_dtype)
            for i, v in enumerate(found):
                out[i] = _fixed(v, default, shape, dtype, key, f'example {i}')
        outputs.append(out)
    return tuple(outputs)


def _parse_example_infer(inputs, attrs):
    batch = inputs[0].shape[0] if inputs[0].shape.rank else None
    return [(dtype, TensorShape([batch] + ([None] if padded else []) + list(shape)))
            for dtype, shape, padded in zip(attrs['Tdense'], attrs['dense_shapes'],
                                            attrs['sequence'])]


PARSE_EXAMPLE = register(
    'ParseExampleV2', _parse_example_kernel, _parse_example_infer,
    inputs=('serialized', 'names', 'sparse_keys', 'dense_keys', 'ragged_keys',
            'dense_defaults'), outputs='dense_values', type_attrs=(),
    defaults={'num_sparse': 0, 'sparse_types': (), 'ragged_value_types': (),
              'ragged_split_types': ()}, gradient=NO_GRADIENT)


def _strings(values):
    out = np.empty(len(values), dtype=object)
    out[:] = [v.encode('utf-8') for v in values]
    return out


def _default_operand(feature):
    dtype = dtypes.as_dtype(feature.dtype)
    if feature.default_value is None:
        return np.zeros([0], dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
    value = np.asarray(feature.default_value,
                       dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
    if dtype is dtypes.string:
        value = np.vectorize(lambda v: v.encode('utf-8') if isinstance(v, str) else v,
                             otypes=[object])(value) if value.size else value
    return value


def parse_example(serialized, features, example_names=None, name=None):
    """A dict of batched dense tensors, one per key of `features`, parsed from a vector of
    serialized `tf.train.Example`s (op `ParseExampleV2`)."""
    _check_features(features)
    serialized = convert_to_tensor(serialized)
    keys = sorted(features)
    dense = [features[k] for k in keys]
    for key, feature in zip(keys, dense):
        if isinstance(feature, FixedLenSequenceFeature) and not feature.allow_missing:
            raise ValueError(f'Unsupported: FixedLenSequenceFeature requires allow_missing to '
                             f'be True (feature {key!r}).')
    attrs = {'Tdense': [dtypes.as_dtype(f.dtype) for f in dense],
             'dense_shapes': [TensorShape(list(f.shape)) for f in dense],
             'sequence': [isinstance(f, FixedLenSequenceFeature) for f in dense]}
    names = _strings([]) if example_names is None else convert_to_tensor(example_names)
    outputs = apply(PARSE_EXAMPLE, [serialized, names, _strings([]), _strings(keys),
                                    _strings([]), *[_default_operand(f) for f in dense]],
                    attrs, name=name)
    return dict(zip(keys, outputs if isinstance(outputs, (list, tuple)) else [outputs]))


def parse_single_example(serialized, features, example_names=None, name=None):
    """The dense tensors of one serialized `tf.train.Example` (a scalar string)."""
    serialized = convert_to_tensor(serialized)
    batched = parse_example(reshape(serialized, [1]), features, name=name)
    return {key: value[0] for key, value in batched.items()}


# ---- SequenceExample ------------------------------------------------------------------------
def _parse_sequence_kernel(serialized, context_keys, list_keys, *context_defaults,
                           Tcontext=(), context_shapes=(), list_types=(), list_shapes=()):
    batch = np.asarray(serialized, dtype=object).ravel()
    records = [_decode(s, 'SequenceExample') for s in batch]
    outputs = []
    for key, dtype, shape, default in zip(
            [k.decode('utf-8') for k in np.asarray(context_keys, dtype=object).ravel()],
            Tcontext, context_shapes, context_defaults):
        out = np.empty([len(batch)] + list(shape),
                       dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
        for i, r in enumerate(records):
            feature = r.get('context', {}).get('feature', {}).get(key)
            out[i] = _fixed(_values(feature, dtype, key, f'example {i}'), default, list(shape),
                            dtype, key, f'example {i}')
        outputs.append(out)
    lengths = []
    for key, dtype, shape in zip([k.decode('utf-8') for k in
                                  np.asarray(list_keys, dtype=object).ravel()],
                                 list_types, list_shapes):
        frames = [[_fixed(_values(f, dtype, key, f'example {i}'), None, list(shape), dtype,
                          key, f'example {i}')
                   for f in r.get('feature_lists', {}).get('feature_list', {}).get(
                       key, {}).get('feature', [])] for i, r in enumerate(records)]
        longest = max((len(f) for f in frames), default=0)
        fill = b'' if dtype is dtypes.string else 0
        out = np.full([len(batch), longest] + list(shape), fill,
                      dtype=object if dtype is dtypes.string else dtype.as_numpy_dtype)
        for i, f in enumerate(frames):
            if f:
                out[i, :len(f)] = np.stack(f)
        outputs.append(out)
        lengths.append(np.asarray([len(f) for f in frames], np.int64))
    return tuple(outputs + lengths)


def _parse_sequence_infer(inputs, attrs):
    batch = inputs[0].shape[0] if inputs[0].shape.rank else None
    context = [(d, TensorShape([batch] + list(s))) for d, s in
               zip(attrs['Tcontext'], attrs['context_shapes'])]
    lists = [(d, TensorShape([batch, None] + list(s))) for d, s in
             zip(attrs['list_types'], attrs['list_shapes'])]
    return context + lists + [(dtypes.int64, TensorShape([batch]))] * len(lists)


PARSE_SEQUENCE_EXAMPLE = register(
    'ParseSequenceExampleV2', _parse_sequence_kernel, _parse_sequence_infer,
    inputs=('serialized', 'context_dense_keys', 'feature_list_dense_keys',
            'context_dense_defaults'), outputs='outputs', type_attrs=(), gradient=NO_GRADIENT)


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """(context, feature lists, feature list lengths) dicts of dense tensors parsed from a
    vector of serialized `tf.train.SequenceExample`s; the lists padded to the longest."""
    context_features, sequence_features = context_features or {}, sequence_features or {}
    _check_features(context_features)
    _check_features(sequence_features)
    context_keys, list_keys = sorted(context_features), sorted(sequence_features)
    contexts = [context_features[k] for k in context_keys]
    lists = [sequence_features[k] for k in list_keys]
    attrs = {'Tcontext': [dtypes.as_dtype(f.dtype) for f in contexts],
             'context_shapes': [TensorShape(list(f.shape)) for f in contexts],
             'list_types': [dtypes.as_dtype(f.dtype) for f in lists],
             'list_shapes': [TensorShape(list(f.shape)) for f in lists]}
    outputs = apply(PARSE_SEQUENCE_EXAMPLE,
                    [convert_to_tensor(serialized), _strings(context_keys), _strings(list_keys),
                     *[_default_operand(f) for f in contexts]], attrs, name=name)
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    n, m = len(context_keys), len(list_keys)
    return (dict(zip(context_keys, outputs[:n])), dict(zip(list_keys, outputs[n:n + m])),
            dict(zip(list_keys, outputs[n + m:])))


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """(context, feature lists) dicts of dense tensors from one serialized
    `tf.train.SequenceExample`."""
    context, lists, _ = parse_sequence_example(
        reshape(convert_to_tensor(serialized), [1]), context_features, sequence_features,
        name=name)
    return ({k: v[0] for k, v in context.items()}, {k: v[0] for k, v in lists.items()})


# ---- Examples written as JSON ---------------------------------------------------------------
_JSON_LISTS = {'bytesList': 'bytes_list', 'bytes_list': 'bytes_list',
               'floatList': 'float_list', 'float_list': 'float_list',
               'int64List': 'int64_list', 'int64_list': 'int64_list'}
_JSON_VALUES = {'bytes_list': base64.b64decode, 'float_list': float, 'int64_list': int}


def _example_from_json(text):
    try:
        data = json.loads(text)
        features = {}
        for key, feature in data.get('features', {}).get('feature', {}).items():
            ((kind, values),) = feature.items() if feature else (('float_list', {}),)
            kind = _JSON_LISTS[kind]
            features[key] = {kind: {'value': [_JSON_VALUES[kind](v)
                                              for v in values.get('value', [])]}}
    except (ValueError, KeyError, TypeError, AttributeError, binascii.Error) as error:
        raise errors.InvalidArgumentError(None, None, f'Error while parsing JSON: {error}') \
            from None
    return wire.encode('Example', {'features': {'feature': features}})


DECODE_JSON_EXAMPLE = register(
    'DecodeJSONExample', lambda json_examples: np.asarray(np.frompyfunc(
        _example_from_json, 1, 1)(np.asarray(json_examples, dtype=object)), dtype=object),
    lambda inputs, attrs: [(dtypes.string, inputs[0].shape)], inputs=('json_examples',),
    outputs=('binary_examples',), type_attrs=(), gradient=NO_GRADIENT)


def decode_json_example(json_examples, name=None):
    """Each `tf.train.Example` written in protobuf's JSON form, as its binary serialization
    (op `DecodeJSONExample`)."""
    json_examples = convert_to_tensor(json_examples)
    if json_examples.dtype is not dtypes.string:
        raise TypeError(f'json_examples must be a string tensor, got '
                        f'{json_examples.dtype.name}.')
    return apply(DECODE_JSON_EXAMPLE, [json_examples], name=name)
