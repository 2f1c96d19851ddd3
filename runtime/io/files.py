"""File and tensor I/O ops of `tf.io`: `ReadFile`, `WriteFile`, `MatchingFiles`,
`SerializeTensor` and `ParseTensor` (a TensorProto's bytes, as TensorFlow writes them)."""
import glob as globlib

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import as_dtype as dtype_of_enum
from runtime.graph.serialization.graph_io import tensor_from_proto, tensor_to_proto
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.infer import no_outputs
from runtime.ops.registry import NO_GRADIENT, register


def _text(value):
    value = np.asarray(value, dtype=object)[()] if np.ndim(value) == 0 else value
    return value.decode('utf-8') if isinstance(value, bytes) else str(value)


def _scalar_string(inputs, attrs):
    return [(dtypes.string, TensorShape([]))]


def _read_file(filename):
    path = _text(filename)
    try:
        with open(path, 'rb') as f:
            return np.asarray(f.read(), dtype=object)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f'{path}; No such file or directory') from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f'{path}; Is a directory') from None


def _write_file(filename, contents):
    path = _text(filename)
    try:
        with open(path, 'wb') as f:
            f.write(np.asarray(contents, dtype=object)[()])
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f'{path}; No such file or directory') from None


def _matching_files(pattern):
    patterns = [_text(p) for p in np.ravel(np.asarray(pattern, dtype=object))]
    found = sorted({path for p in patterns for path in globlib.glob(p)})
    out = np.empty(len(found), dtype=object)
    out[:] = [path.encode('utf-8') for path in found]
    return out


READ_FILE = register('ReadFile', _read_file, _scalar_string, inputs=('filename',),
                     outputs=('contents',), type_attrs=(), foldable=False, gradient=NO_GRADIENT)
WRITE_FILE = register('WriteFile', _write_file, no_outputs, inputs=('filename', 'contents'),
                      outputs=(), type_attrs=(), stateful=True, gradient=NO_GRADIENT)
MATCHING_FILES = register('MatchingFiles', _matching_files,
                          lambda inputs, attrs: [(dtypes.string, TensorShape([None]))],
                          inputs=('pattern',), outputs=('filenames',), type_attrs=(),
                          foldable=False, gradient=NO_GRADIENT)


def _string(value, what):
    t = convert_to_tensor(value)
    if t.dtype is not dtypes.string:
        raise TypeError(f'{what} must be a string tensor, got {t.dtype.name}.')
    return t


def read_file(filename, name=None):
    """The whole content of the file `filename`, as a scalar string (op `ReadFile`)."""
    return apply(READ_FILE, [_string(filename, 'filename')], name=name)


def write_file(filename, contents, name=None):
    """Writes `contents` to the file `filename`, replacing it (op `WriteFile`)."""
    return apply(WRITE_FILE, [_string(filename, 'filename'), _string(contents, 'contents')],
                 name=name)


def matching_files(pattern, name=None):
    """The sorted names of the files matching the glob `pattern` (op `MatchingFiles`)."""
    return apply(MATCHING_FILES, [_string(pattern, 'pattern')], name=name)


def match_filenames_once(pattern, name=None):
    """The files matching `pattern`, found once, now (TensorFlow keeps them in a local
    variable; here the result is the tensor)."""
    return matching_files(pattern, name=name)


# ---- serialized tensors ---------------------------------------------------------------------
def _serialize(tensor, T=None):
    value = np.asarray(tensor)
    dtype = dtypes.string if value.dtype == object else dtypes.from_numpy(value.dtype)
    return np.asarray(wire.encode('TensorProto', tensor_to_proto(value, dtype)), dtype=object)


def _parse(serialized, out_type):
    try:
        message = wire.decode('TensorProto', np.asarray(serialized, dtype=object)[()])
        value = tensor_from_proto(message)
    except (wire.DecodeError, ValueError, KeyError):
        raise errors.InvalidArgumentError(None, None,
                                          'Could not parse `serialized` as TensorProto.') from None
    parsed = dtype_of_enum(message.get('dtype', 0))
    if parsed is not out_type:
        raise errors.InvalidArgumentError(
            None, None, f'Type mismatch between parsed tensor ({parsed.name}) and dtype '
            f'({out_type.name})')
    return np.asarray(value, dtype=object) if out_type is dtypes.string else np.asarray(value)


SERIALIZE_TENSOR = register('SerializeTensor', _serialize, _scalar_string, inputs=('tensor',),
                            outputs=('serialized',), gradient=NO_GRADIENT)
PARSE_TENSOR = register('ParseTensor', _parse,
                        lambda inputs, attrs: [(attrs['out_type'], TensorShape(None))],
                        inputs=('serialized',), outputs=('output',), type_attrs=(),
                        gradient=NO_GRADIENT)


def serialize_tensor(tensor, name=None):
    """`tensor` as the bytes of a TensorProto (op `SerializeTensor`)."""
    return apply(SERIALIZE_TENSOR, [convert_to_tensor(tensor)], name=name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor whose TensorProto bytes `serialized` holds, of dtype `out_type` (op
    `ParseTensor`)."""
    return apply(PARSE_TENSOR, [_string(serialized, 'serialized')],
                 {'out_type': dtypes.as_dtype(out_type)}, name=name)
