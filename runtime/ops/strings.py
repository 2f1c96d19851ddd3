"""String ops (`rt.strings`). String tensors hold `bytes` in numpy object arrays; each op
works elementwise and none is differentiable.
"""
import re

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.infer import broadcast_shape, constant_value, same_as_input
from runtime.ops.registry import register


def _elementwise(fn, otype=object):
    """A kernel applying `fn` to each bytes value (scalars stay scalars)."""
    ufunc = np.frompyfunc(fn, 1, 1)

    def kernel(input):
        out = ufunc(input)
        return np.asarray(out, dtype=otype)[()] if otype is not object or np.ndim(out) == 0 \
            else np.asarray(out, dtype=object)
    return kernel


def _string_input(value, public_name):
    t = convert_to_tensor(value)
    if t.dtype is not dtypes.string:
        raise TypeError(f'rt.strings.{public_name} needs a string tensor, got {t.dtype.name}.')
    return t


def _shaped(dtype):
    return lambda inputs, attrs: [(dtype, inputs[0].shape)]


# ---- StringJoin ----------------------------------------------------------------------------------

def _join_kernel(*inputs, separator='', N=None):
    sep = separator.encode() if isinstance(separator, str) else separator
    arrays = np.broadcast_arrays(*[np.asarray(v, dtype=object) for v in inputs])
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = sep.join(a[index] for a in arrays)
    return out[()] if out.ndim == 0 else out


def _join_infer(inputs, attrs):
    shape = TensorShape([])
    for t in inputs:
        shape = broadcast_shape(shape, t.shape)
    return [(dtypes.string, shape)]


STRING_JOIN = register('StringJoin', _join_kernel, _join_infer, inputs=('inputs',),
                       outputs=('output',), type_attrs=(), defaults={'separator': ''})


def join(inputs, separator='', name=None):
    """Elementwise concatenation of string tensors (scalars broadcast) with `separator` between
    them (op `StringJoin`)."""
    tensors = [_string_input(t, 'join') for t in inputs]
    if not tensors:
        raise ValueError('rt.strings.join needs at least one input.')
    return apply(STRING_JOIN, tensors, {'separator': separator, 'N': len(tensors)}, name=name)


# ---- length, lower, upper, substr ---------------------------------------------------------------

def _length_kernel(input, unit='BYTE'):
    if unit == 'UTF8_CHAR':
        count = np.frompyfunc(lambda s: len(s.decode('utf-8', 'replace')), 1, 1)
    else:
        count = np.frompyfunc(len, 1, 1)
    return np.asarray(count(input), dtype=np.int32)[()]


_lower, _upper = _elementwise(bytes.lower), _elementwise(bytes.upper)
STRING_LENGTH = register('StringLength', _length_kernel, _shaped(dtypes.int32),
                         outputs=('output',), type_attrs=(), defaults={'unit': 'BYTE'},
                         inputs=('input',))
STRING_LOWER = register('StringLower', lambda input, encoding='': _lower(input), same_as_input,
                        inputs=('input',), outputs=('output',), type_attrs=(),
                        defaults={'encoding': ''})
STRING_UPPER = register('StringUpper', lambda input, encoding='': _upper(input), same_as_input,
                        inputs=('input',), outputs=('output',), type_attrs=(),
                        defaults={'encoding': ''})


def length(input, unit='BYTE', name=None):
    """The int32 length of each string: bytes, or with `unit='UTF8_CHAR'` Unicode characters
    (op `StringLength`)."""
    if unit not in ('BYTE', 'UTF8_CHAR'):
        raise ValueError(f'unit must be "BYTE" or "UTF8_CHAR", got {unit!r}.')
    attrs = {'unit': unit} if unit != 'BYTE' else None
    return apply(STRING_LENGTH, [_string_input(input, 'length')], attrs, name=name)


def lower(input, encoding='', name=None):
    """Each string in lower case (ASCII letters; op `StringLower`)."""
    return apply(STRING_LOWER, [_string_input(input, 'lower')], name=name)


def upper(input, encoding='', name=None):
    """Each string in upper case (ASCII letters; op `StringUpper`)."""
    return apply(STRING_UPPER, [_string_input(input, 'upper')], name=name)


def _substr_kernel(input, pos, len, unit='BYTE'):
    arrays = np.broadcast_arrays(np.asarray(input, dtype=object), np.asarray(pos),
                                 np.asarray(len))
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        s, p, n = arrays[0][index], int(arrays[1][index]), int(arrays[2][index])
        if unit == 'UTF8_CHAR':  # positions and lengths count characters
            s = s.decode('utf-8')
        size = s.__len__()
        if not -size <= p <= size:
            raise errors.InvalidArgumentError(message=f'pos {p} out of range for string b'
                                                      f"'{s.decode('utf-8', 'replace')}' at "
                                                      f'index {index}')
        p = p + size if p < 0 else p
        part = s[p:p + n] if n >= 0 else s[p:]
        out[index] = part.encode('utf-8') if unit == 'UTF8_CHAR' else part
    return out[()] if out.ndim == 0 else out


SUBSTR = register('Substr', _substr_kernel,
                  lambda inputs, attrs: [(dtypes.string, broadcast_shape(
                      inputs[0].shape, broadcast_shape(inputs[1].shape, inputs[2].shape)))],
                  inputs=('input', 'pos', 'len'), outputs=('output',), type_attrs=(('T', 1),),
                  defaults={'unit': 'BYTE'})


def substr(input, pos, len, unit='BYTE', name=None):  # noqa: A002 - TensorFlow's argument name
    """`len` bytes (or with `unit='UTF8_CHAR'` characters) of each string from `pos` (op
    `Substr`); a `pos` past the end is an `rt.errors.InvalidArgumentError`."""
    x = _string_input(input, 'substr')
    pos, len = (np.int32(v) if isinstance(v, (int, np.integer)) else v for v in (pos, len))
    if unit not in ('BYTE', 'UTF8_CHAR'):
        raise ValueError(f"rt.strings.substr: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}.")
    return apply(SUBSTR, [x, pos, len], {'unit': unit} if unit != 'BYTE' else None, name=name)


# ---- AsString, StringToNumber ------------------------------------------------------------------

def _as_string_kernel(input, precision=-1, scientific=False, shortest=False, width=-1,
                      fill=''):
    kind = input.dtype.kind
    flags = fill if fill else ''
    w = str(width) if width >= 0 else ''
    if kind == 'b':
        fmt = lambda v: b'true' if v else b'false'  # noqa: E731
    elif kind == 'f':
        spec = 'e' if scientific else 'g' if shortest else 'f'
        p = f'.{precision}' if precision >= 0 else ''
        fmt = lambda v: f'{v:{flags}{w}{p}{spec}}'.encode()  # noqa: E731
    elif kind in 'iu':
        fmt = lambda v: f'{v:{flags}{w}d}'.encode()  # noqa: E731
    else:
        raise errors.InvalidArgumentError(message=f'AsString does not take {input.dtype}')
    return _elementwise(fmt)(input)


AS_STRING = register('AsString', _as_string_kernel, _shaped(dtypes.string), inputs=('input',),
                     outputs=('output',),
                     defaults={'precision': -1, 'scientific': False, 'shortest': False,
                               'width': -1, 'fill': ''})


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill='',
              name=None):
    """Each number or bool as a string (floats `'%f'`, 6 decimals unless `precision`; bools
    `true`/`false`; op `AsString`)."""
    x = convert_to_tensor(input)
    if x.dtype is dtypes.string:
        raise TypeError('rt.strings.as_string takes numbers or bools, got a string tensor.')
    if fill and len(fill) != 1:
        raise ValueError(f'fill must be one character, got {fill!r}.')
    attrs = {k: v for k, v in dict(precision=precision, scientific=scientific,
                                   shortest=shortest, width=width, fill=fill).items()
             if AS_STRING.defaults[k] != v}
    return apply(AS_STRING, [x], attrs, name=name)


def _to_number_kernel(string_tensor, out_type=dtypes.float32):
    def parse(s):
        text = s.decode('utf-8', 'replace').strip()
        try:
            return float(text) if out_type.is_floating else int(text)
        except ValueError:
            raise errors.InvalidArgumentError(
                message=f'StringToNumberOp could not correctly convert string: '
                        f'{s.decode("utf-8", "replace")}') from None
    return np.asarray(np.frompyfunc(parse, 1, 1)(string_tensor), dtype=out_type.np_dtype)[()]


STRING_TO_NUMBER = register('StringToNumber', _to_number_kernel,
                            lambda inputs, attrs: [(attrs.get('out_type', dtypes.float32),
                                                    inputs[0].shape)],
                            inputs=('string_tensor',), outputs=('output',), type_attrs=(),
                            defaults={'out_type': dtypes.float32})


def to_number(input, out_type=dtypes.float32, name=None):
    """Each string parsed as a number of `out_type` (float32 by default; op `StringToNumber`);
    text that is not a number is an `rt.errors.InvalidArgumentError`."""
    out_type = dtypes.as_dtype(out_type)
    if out_type not in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise TypeError(f'out_type must be float32, float64, int32 or int64, got '
                        f'{out_type.name}.')
    attrs = {'out_type': out_type} if out_type is not dtypes.float32 else None
    return apply(STRING_TO_NUMBER, [_string_input(input, 'to_number')], attrs, name=name)


# ---- StringFormat --------------------------------------------------------------------------------

def _format_scalar(v):
    if isinstance(v, bytes):
        return '"' + v.decode('utf-8', 'replace') + '"'
    if isinstance(v, (bool, np.bool_)):
        return 'True' if v else 'False'
    if isinstance(v, (float, np.float64)):  # TensorFlow's: 15 digits, 17 if they lose it
        text = f'{v:.15g}'
        return text if np.isnan(v) or float(text) == v else f'{v:.17g}'
    if isinstance(v, np.floating):  # float32 and float16 as float32: 6 digits, else 9
        f = np.float32(v)
        text = f'{f:.6g}'
        return text if np.isnan(f) or np.float32(text) == f else f'{f:.9g}'
    return str(v)


def format_tensor(value, summarize=3):
    """A tensor's value as TensorFlow's `StringFormat` and `print` show it: nested brackets,
    strings quoted, `...` in place of the middle when a dimension is longer than
    2 * `summarize` (-1: never)."""
    value = np.asarray(value, dtype=object if np.asarray(value).dtype == object else None)
    if value.ndim == 0:
        return _format_scalar(value[()])

    def rows(a, depth):
        n = a.shape[0]
        shown = list(range(n)) if summarize < 0 or n <= 2 * summarize else \
            list(range(summarize)) + [None] + list(range(n - summarize, n))
        if a.ndim == 1:
            return '[' + ' '.join('...' if i is None else _format_scalar(a[i])
                                  for i in shown) + ']'
        sep = '\n' * (a.ndim - 1) + ' ' * (depth + 1)
        return '[' + sep.join('...' if i is None else rows(a[i], depth + 1)
                              for i in shown) + ']'
    return rows(value, 0)


def _format_kernel(*inputs, template='{}', placeholder='{}', summarize=3, T=()):
    pieces = template.split(placeholder)
    text = pieces[0]
    for value, piece in zip(inputs, pieces[1:]):
        text += format_tensor(value, summarize) + piece
    return np.array(text.encode('utf-8'), dtype=object)[()]


STRING_FORMAT = register('StringFormat', _format_kernel,
                         lambda inputs, attrs: [(dtypes.string, TensorShape([]))],
                         inputs=('inputs',), outputs=('output',), type_attrs=(),
                         defaults={'template': '%s', 'placeholder': '%s', 'summarize': 3})


def format(template, inputs, placeholder='{}', summarize=3, name=None):  # noqa: A001
    """A scalar string: `template` with each `placeholder` replaced by the next tensor of
    `inputs`, formatted as TensorFlow prints it (op `StringFormat`)."""
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    tensors = [convert_to_tensor(t) for t in inputs]
    holes = template.count(placeholder)
    if holes != len(tensors):
        raise ValueError(f'{holes} placeholder(s) in template {template!r} do not match the '
                         f'{len(tensors)} input tensor(s).')
    attrs = {'template': template, 'placeholder': placeholder, 'summarize': summarize,
             'T': tuple(t.dtype for t in tensors)}  # TensorFlow's list(type) attr
    return apply(STRING_FORMAT, tensors, attrs, name=name)


STRING_STRIP = register('StringStrip', _elementwise(bytes.strip), same_as_input,
                        inputs=('input',), outputs=('output',), type_attrs=())


def strip(input, name=None):
    """Each string without leading and trailing whitespace (op `StringStrip`)."""
    return apply(STRING_STRIP, [_string_input(input, 'strip')], name=name)


# ---- StaticRegexReplace, ReduceJoin --------------------------------------------------------------

def _regex_kernel(input, pattern, rewrite, replace_global=True):
    compiled = re.compile(pattern.encode() if isinstance(pattern, str) else pattern)
    repl = rewrite.encode() if isinstance(rewrite, str) else rewrite
    count = 0 if replace_global else 1
    return _elementwise(lambda s: compiled.sub(repl, s, count=count))(input)


STATIC_REGEX_REPLACE = register('StaticRegexReplace', _regex_kernel, same_as_input,
                                inputs=('input',), outputs=('output',), type_attrs=(),
                                defaults={'replace_global': True})


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """Each string with the matches of `pattern` replaced by `rewrite` (`\\1` names a group;
    op `StaticRegexReplace`)."""
    if not isinstance(rewrite, (str, bytes)):
        raise TypeError('rt.strings.regex_replace takes the rewrite as a Python string.')
    attrs = {'pattern': _checked_pattern(pattern), 'rewrite': rewrite}
    if not replace_global:
        attrs['replace_global'] = False
    return apply(STATIC_REGEX_REPLACE, [_string_input(input, 'regex_replace')], attrs, name=name)


def _full_match_kernel(input, pattern):
    compiled = re.compile(pattern.encode() if isinstance(pattern, str) else pattern)
    return _elementwise(lambda s: compiled.fullmatch(s) is not None, bool)(input)


STATIC_REGEX_FULL_MATCH = register('StaticRegexFullMatch', _full_match_kernel,
                                   _shaped(dtypes.bool), inputs=('input',), outputs=('output',),
                                   type_attrs=())


def _checked_pattern(pattern):
    if not isinstance(pattern, (str, bytes)):
        raise TypeError('rt.strings regex functions take the pattern as a Python string.')
    try:
        re.compile(pattern)
    except re.error as e:
        raise ValueError(f'Invalid pattern {pattern!r}: {e}') from None
    return pattern


def regex_full_match(input, pattern, name=None):
    """Whether each whole string matches `pattern` (op `StaticRegexFullMatch`)."""
    return apply(STATIC_REGEX_FULL_MATCH, [_string_input(input, 'regex_full_match')],
                 {'pattern': _checked_pattern(pattern)}, name=name)


def _reduce_join_kernel(inputs, reduction_indices, keep_dims=False, separator=''):
    sep = separator.encode()
    axes = sorted({int(a) % max(np.ndim(inputs), 1) for a in np.ravel(reduction_indices)})
    a = np.asarray(inputs, dtype=object)
    moved = np.moveaxis(a, axes, list(range(a.ndim - len(axes), a.ndim)))
    flat = moved.reshape(moved.shape[:a.ndim - len(axes)] + (-1,))
    out = np.empty(flat.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = sep.join(flat[index])
    if keep_dims:
        out = np.expand_dims(out, axes)
    return out[()] if out.ndim == 0 else out


def _reduce_join_infer(inputs, attrs):
    x, axis = inputs
    axes = constant_value(axis)
    rank = x.shape.rank
    if rank is None or axes is None:
        return [(dtypes.string, TensorShape(None))]
    axes = {int(a) % max(rank, 1) for a in np.ravel(axes)}
    dims = x.shape.as_list()
    keep = attrs.get('keep_dims', False)
    out = [1 if i in axes else d for i, d in enumerate(dims)] if keep else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [(dtypes.string, TensorShape(out))]


REDUCE_JOIN = register('ReduceJoin', _reduce_join_kernel, _reduce_join_infer,
                       inputs=('inputs', 'reduction_indices'), outputs=('output',),
                       type_attrs=(), defaults={'keep_dims': False, 'separator': ''})


def reduce_join(inputs, axis=None, keepdims=False, separator='', name=None):
    """The strings joined with `separator` over `axis` (all axes when None; op `ReduceJoin`)."""
    x = _string_input(inputs, 'reduce_join')
    if axis is None:
        if x.shape.rank is None:
            raise ValueError('rt.strings.reduce_join with axis=None needs a known rank.')
        axis = list(range(x.shape.rank))
    axis = np.asarray(axis, np.int32) if not hasattr(axis, 'dtype') else axis
    attrs = {'keep_dims': bool(keepdims), 'separator': separator}
    return apply(REDUCE_JOIN, [x, axis], attrs, name=name)
