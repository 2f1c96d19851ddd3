"""Side effects: `rt.print` (PrintV2) and the assertions of `rt.debugging` (Assert)."""
import sys

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.tensor import Tensor
from runtime.ops import compare
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import no_outputs
from runtime.ops.reduce import reduce_all
from runtime.ops.registry import register


def _stream(output_stream):
    # resolved when the op runs, so redirections apply; the default is stderr, as tf.print's
    if output_stream is None or output_stream == 'stderr':
        return sys.stderr
    if output_stream == 'stdout':
        return sys.stdout
    return output_stream


def print_text(value, summarize=3, quote=True):
    """A tensor's value as TensorFlow's PrintV2 and Assert show it: numbers in their shortest
    exact form (`2`, `0.1`, `0.333333343`), bools as 1/0, strings in double quotes (`quote`),
    rows on their own lines, and only the first and last `summarize` entries of a longer
    dimension around `...` (all of them when `summarize` is negative)."""
    array = np.asarray(value)
    if array.ndim == 0:
        return _element_text(array[()], array.dtype, quote)
    return _dimension_text(array, summarize, quote, 1)


def _dimension_text(array, summarize, quote, depth):
    n = array.shape[0]
    if 0 <= summarize and 2 * summarize < n:
        rows = [*range(summarize), None, *range(n - summarize, n)]
    else:
        rows = range(n)
    if array.ndim == 1:
        return '[' + ' '.join('...' if i is None else _element_text(array[i], array.dtype, quote)
                              for i in rows) + ']'
    separator = '\n' * (array.ndim - 1) + ' ' * depth
    return '[' + separator.join('...' if i is None else
                                _dimension_text(array[i], summarize, quote, depth + 1)
                                for i in rows) + ']'


def _element_text(x, dtype, quote):
    if dtype.kind == 'b':
        return '1' if x else '0'
    if dtype.kind == 'f':
        return _float_text(float(x), 17 if dtype.itemsize == 8 else 9)
    if dtype.kind in 'OSU':
        text = x.decode('utf-8', 'replace') if isinstance(x, bytes) else str(x)
        return f'"{text}"' if quote else text
    return str(x)


def _float_text(x, digits):
    """TensorFlow's float formatting: %g with the digits the type always keeps (6 for float32,
    15 for float64) when that reads back exactly, else with 9 or 17."""
    short = f'{x:.{6 if digits == 9 else 15}g}'
    reads_back = np.float32(short) == np.float32(x) if digits == 9 else float(short) == x
    return short if reads_back or x != x else f'{x:.{digits}g}'


def _print_kernel(*values, template=(), sep=' ', end='\n', output_stream=None, summarize=3):
    """`template` lists the printed pieces: a str is printed as is, None takes the next input."""
    values = iter(values)
    text = sep.join(piece if piece is not None else print_text(next(values), summarize)
                    for piece in template)
    stream = _stream(output_stream)
    stream.write(text + end)
    flush = getattr(stream, 'flush', None)
    if flush is not None:
        flush()


PRINT = register('PrintV2', _print_kernel, no_outputs, inputs=('input',), outputs=(),
                 type_attrs=(), defaults={'summarize': 3}, stateful=True)


def _add_to_template(value, template, tensors, nested=False):
    """Append `value`'s pieces: None for a tensor (its slot), text around the tensors of a
    list, tuple or dict (shown as Python shows them, dict keys sorted, as tf.print does)."""
    if isinstance(value, Tensor) or hasattr(value, '__tf_tensor__'):
        template.append(None)
        tensors.append(convert_to_tensor(value))
    elif isinstance(value, dict):
        template.append('{')
        for i, key in enumerate(sorted(value)):
            template.append(f'{", " if i else ""}{key!r}: ')
            _add_to_template(value[key], template, tensors, nested=True)
        template.append('}')
    elif isinstance(value, (list, tuple)) and not hasattr(value, '_fields'):
        template.append('[' if isinstance(value, list) else '(')
        for i, item in enumerate(value):
            if i:
                template.append(', ')
            _add_to_template(item, template, tensors, nested=True)
        template.append(']' if isinstance(value, list) else ',)' if len(value) == 1 else ')')
    elif nested:
        template.append(repr(value))  # a leaf inside a structure
    else:
        template.append(value if isinstance(value, str) else str(value))


def print(*inputs, sep=' ', end='\n', output_stream=None, summarize=3,  # noqa: A001 - rt.print
          name=None):
    """Print tensors (formatted like numpy) and Python values when the op runs: at once
    eagerly, at each execution in a graph. Prints to `output_stream` or, as `tf.print`, to
    whatever `sys.stderr` is at that moment."""
    template, tensors = [], []
    for i, value in enumerate(inputs):
        if i:
            template.append(sep)  # baked into the template, as TensorFlow's StringFormat does
        _add_to_template(value, template, tensors)
    attrs = {'template': tuple(template), 'sep': '', 'end': end, 'summarize': summarize}
    if output_stream is not None:
        attrs['output_stream'] = output_stream
    return apply(PRINT, tensors, attrs, name=name)


def _assert_kernel(condition, *data, summarize=3):
    if not np.all(condition):
        shown = ' '.join(f'[{print_text(d, summarize, quote=False)}]' for d in data)
        raise errors.InvalidArgumentError(message=f'assertion failed: {shown}')


ASSERT = register('Assert', _assert_kernel, no_outputs, inputs=('condition', 'data'),
                  outputs=(), type_attrs=(), defaults={'summarize': 3}, stateful=True)


def Assert(condition, data, summarize=None, name=None):
    """Raise rt.errors.InvalidArgumentError listing `data` when `condition` is false at run
    time (eagerly: now; in a graph: each time the op runs)."""
    condition = convert_to_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise TypeError(f'Assert needs a bool condition, got {condition.dtype.name}.')
    tensors = [convert_to_tensor(d) for d in data]
    attrs = {} if summarize is None else {'summarize': summarize}
    return apply(ASSERT, [condition] + tensors, attrs, name=name or 'Assert')


def _assert_binary(compare, symbol, public_name):
    def check(x, y, message=None, summarize=None, name=None):
        (x, y), _ = unify_operands(public_name, x, y)
        x, y = convert_to_tensor(x), convert_to_tensor(y)
        holds = reduce_all(compare(x, y))
        data = ([message] if message else []) + [
            f'Condition x {symbol} y did not hold element-wise:', 'x =', x, 'y =', y]
        return Assert(holds, data, summarize, name=name or public_name)
    return op_function(check, public_name, f'Raise rt.errors.InvalidArgumentError with '
                                           f'`message` unless x {symbol} y holds elementwise.')


assert_equal = _assert_binary(compare.equal, '==', 'assert_equal')
assert_greater = _assert_binary(compare.greater, '>', 'assert_greater')
assert_less = _assert_binary(compare.less, '<', 'assert_less')
assert_greater_equal = _assert_binary(compare.greater_equal, '>=', 'assert_greater_equal')
assert_less_equal = _assert_binary(compare.less_equal, '<=', 'assert_less_equal')
_assert_not_equal = _assert_binary(compare.not_equal, '!=', 'assert_none_equal')


def assert_none_equal(x, y, summarize=None, message=None, name=None):
    """Raise rt.errors.InvalidArgumentError with `message` unless x != y holds elementwise
    (TensorFlow's parameter order: `summarize` before `message`)."""
    return _assert_not_equal(x, y, message, summarize, name)
