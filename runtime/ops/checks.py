"""More of `rt.debugging`: `check_numerics` (op `CheckNumerics`) and the assertions built on
`Assert` (`runtime.ops.io`).

As in TensorFlow, a check that can be decided while the graph is built (a static rank or shape)
is decided then: a failure is a `ValueError` at once and no op is added. Checks that depend on
values become `Assert` ops that raise `rt.errors.InvalidArgumentError` when they run.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.tensor import Tensor
from runtime.ops.compare import equal, greater, greater_equal, less, less_equal
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.dispatch import apply
from runtime.ops.infer import same_as_input
from runtime.ops.io import Assert
from runtime.ops.math import abs as abs_
from runtime.ops.reduce import reduce_all, reduce_any
from runtime.ops.registry import register
from runtime.ops.shaping import rank as rank_
from runtime.ops.shaping import shape as shape_


def _check_numerics_kernel(tensor, message=''):
    if not np.all(np.isfinite(tensor)):
        kinds = ' and '.join(k for k, bad in (('Inf', np.isinf(tensor).any()),
                                               ('NaN', np.isnan(tensor).any())) if bad)
        raise errors.InvalidArgumentError(message=f'{message} : Tensor had {kinds} values')
    return tensor


CHECK_NUMERICS = register('CheckNumerics', _check_numerics_kernel, same_as_input,
                          inputs=('tensor',), outputs=('output',), stateful=True)


def check_numerics(tensor, message, name=None):
    """`tensor` unchanged, or `rt.errors.InvalidArgumentError` with `message` when it holds a
    NaN or an infinity (op `CheckNumerics`; floats only)."""
    x = convert_to_tensor(tensor)
    if not x.dtype.is_floating:
        raise TypeError(f'check_numerics needs a floating-point tensor, got {x.dtype.name}.')
    return apply(CHECK_NUMERICS, [x], {'message': message}, name=name)


def assert_all_finite(x, message, name=None):
    """`x` unchanged, or `rt.errors.InvalidArgumentError` with `message` when it holds a NaN or
    an infinity (op `CheckNumerics`, as `check_numerics`)."""
    return check_numerics(x, message, name=name)


def _prefix(message):
    return [message] if message else []


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raise `rt.errors.InvalidArgumentError` unless `|x - y| <= atol + rtol * |y|` everywhere
    (default tolerances: 10 * the dtype's machine epsilon, as in TensorFlow)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, x.dtype) if not hasattr(y, 'dtype') else convert_to_tensor(y)
    if x.dtype is not y.dtype:
        raise TypeError(f'assert_near: x and y must have one dtype, got {x.dtype.name} and '
                        f'{y.dtype.name}.')
    eps = float(np.finfo(x.dtype.np_dtype).eps) if x.dtype.is_floating else 0.0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    holds = reduce_all(less_equal(abs_(x - y), atol + rtol * abs_(y)))
    data = _prefix(message) + ['x and y not equal to tolerance rtol = ', rtol, ', atol = ', atol,
                               'x =', x, 'y =', y]
    return Assert(holds, data, summarize, name=name or 'assert_near')


def _assert_all(condition, data, message, summarize, name):
    return Assert(reduce_all(condition), _prefix(message) + data, summarize, name=name)


def assert_non_negative(x, message=None, summarize=None, name=None):
    """Raise `rt.errors.InvalidArgumentError` unless every entry of `x` is >= 0."""
    x = convert_to_tensor(x)
    return _assert_all(greater_equal(x, 0), ['Condition x >= 0 did not hold element-wise:',
                                             'x =', x], message, summarize,
                       name or 'assert_non_negative')


def assert_positive(x, message=None, summarize=None, name=None):
    """Raise `rt.errors.InvalidArgumentError` unless every entry of `x` is > 0."""
    x = convert_to_tensor(x)
    return _assert_all(greater(x, 0), ['Condition x > 0 did not hold element-wise:', 'x =', x],
                       message, summarize, name or 'assert_positive')


def assert_negative(x, message=None, summarize=None, name=None):
    """Raise `rt.errors.InvalidArgumentError` unless every entry of `x` is < 0."""
    x = convert_to_tensor(x)
    return _assert_all(less(x, 0), ['Condition x < 0 did not hold element-wise:', 'x =', x],
                       message, summarize, name or 'assert_negative')


def assert_non_positive(x, message=None, summarize=None, name=None):
    """Raise `rt.errors.InvalidArgumentError` unless every entry of `x` is <= 0."""
    x = convert_to_tensor(x)
    return _assert_all(less_equal(x, 0), ['Condition x <= 0 did not hold element-wise:',
                                          'x =', x], message, summarize,
                       name or 'assert_non_positive')


def assert_integer(x, message=None, name=None):
    """`TypeError` now unless `x` has an integer dtype (a static check; no op)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{message + " " if message else ""}Expected "x" to be integer type. '
                        f'Found: {_name(x)} of dtype {x.dtype.name}')


def assert_scalar(tensor, message=None, name=None):
    """`tensor` as a tensor; `ValueError` now unless its rank is 0."""
    x = convert_to_tensor(tensor)
    if x.shape.rank != 0:
        _static_failure(message, f'Expected scalar shape for {_name(x)}, saw shape: {x.shape}.')
    return x


def assert_rank_at_least(x, rank, message=None, name=None):
    """`ValueError` now if `x`'s rank is known and below `rank`; otherwise an `Assert` that
    raises `rt.errors.InvalidArgumentError` when it runs."""
    x = convert_to_tensor(x)
    if x.shape.rank is not None and isinstance(rank, (int, np.integer)):
        if x.shape.rank < rank:
            _static_failure(message, f'Tensor {_name(x)} must have rank at least {rank}. '
                                     f'Received rank {x.shape.rank}, shape {x.shape}')
        return None
    return _assert_all(greater_equal(rank_(x), rank), [f'Tensor {_name(x)} must have rank at '
                                                       f'least', rank, 'Received shape:',
                                                       shape_(x)], message, None,
                       name or 'assert_rank_at_least')


def assert_rank_in(x, ranks, message=None, name=None):
    """`ValueError` now if `x`'s rank is known and not one of `ranks`."""
    x = convert_to_tensor(x)
    ranks = [int(r) for r in ranks]
    if x.shape.rank is not None:
        if x.shape.rank not in ranks:
            _static_failure(message, f'Tensor {_name(x)} must have rank in {tuple(ranks)}. '
                                     f'Received rank {x.shape.rank}, shape {x.shape}')
        return None
    held = reduce_any(stack([equal(rank_(x), r) for r in ranks]))
    return Assert(held, _prefix(message) + [f'Tensor {_name(x)} must have rank in',
                                            str(tuple(ranks)), 'Received shape:', shape_(x)],
                  None, name=name or 'assert_rank_in')


def assert_proper_iterable(values):
    """`TypeError` unless `values` is an iterable that is not a tensor, array or string."""
    if isinstance(values, (str, bytes)) or hasattr(values, 'dtype') or not hasattr(
            values, '__iter__'):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable. Found: '
                        f'{type(values)}')


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and `dtype`, when given): `ValueError` when they
    differ or are not floating (float32 when there is none)."""
    found = dtypes.as_dtype(dtype) if dtype is not None else None
    for t in tensors or ():
        t_dtype = t.dtype if hasattr(t, 'dtype') else convert_to_tensor(t).dtype
        if found is not None and t_dtype is not found:
            raise ValueError(f'{getattr(t, "name", t)}, type={t_dtype.name}: expected type '
                             f'{found.name}.')
        found = t_dtype
    if found is None:
        return dtypes.float32
    if not found.is_floating:
        raise ValueError(f'Expected floating point type, got {found.name}.')
    return found


def is_numeric_tensor(tensor):
    """Whether `tensor` is a tensor of a numeric dtype (not bool or string)."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_integer or tensor.dtype.is_floating
                                           or tensor.dtype.is_complex)


def assert_type(tensor, tf_type, message=None, name=None):
    """`TypeError` now unless `tensor` has dtype `tf_type` (a static check; no op)."""
    dtype = dtypes.as_dtype(tf_type)
    t = convert_to_tensor(tensor)
    if t.dtype is not dtype:
        raise TypeError(f'{message + ": " if message else ""}{getattr(t, "name", "tensor")} must '
                        f'be of type {dtype.name}, got {t.dtype.name}.')


def _static_failure(message, text):
    raise ValueError(f'{message + ". " if message else ""}{text}')


def assert_rank(x, rank, message=None, name=None):
    """`ValueError` now if `x`'s rank is known and is not `rank`; when the rank is only known
    at run time, an `Assert` that raises `rt.errors.InvalidArgumentError` then."""
    x = convert_to_tensor(x)
    known = x.shape.rank
    if isinstance(rank, (int, np.integer)):
        if known is not None:
            if known != rank:
                _static_failure(message, f'Tensor {_name(x)} must have rank {rank}. Received '
                                         f'rank {known}, shape {x.shape}')
            return None
    return _assert_all(equal(rank_(x), rank), [f'Tensor {_name(x)} must have rank', rank,
                                               'Received shape:', shape_(x)], message, None,
                       name or 'assert_rank')


def _name(x):
    return getattr(x, 'name', None) or 'x'


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Check each (tensor, shape) pair of `shapes` (a list of pairs or a dict): an int dim must
    match exactly, a str dim names a size that must agree across all the tensors, None or '.'
    matches anything; a shape starting with '...' checks the trailing dims. Failures known
    while building raise `ValueError`; the rest are `Assert`s that raise
    `rt.errors.InvalidArgumentError` when they run."""
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    sizes = {}  # symbol -> (static size or None, a tensor giving it at run time, who set it)
    checks = []
    for tensor, spec in pairs:
        x = convert_to_tensor(tensor)
        if isinstance(spec, str):  # 'NC' names two dims, '...C' the last one, as in TensorFlow
            spec = ['...'] + list(spec[3:]) if spec.startswith('...') else list(spec)
        spec = list(spec)
        trailing = bool(spec) and spec[0] == '...'
        if trailing:
            spec = spec[1:]
        rank = x.shape.rank
        if rank is not None and (rank < len(spec) if trailing else rank != len(spec)):
            _static_failure(message, f'Specified by tensor {_name(x)} dimension 0. Tensor '
                                     f'{_name(x)} must have rank {len(spec)}. Received rank '
                                     f'{rank}, shape {x.shape}')
        if rank is None:
            if not trailing:
                checks.append((equal(rank_(x), len(spec)), [f'{_name(x)} must have rank '
                                                             f'{len(spec)}']))
            else:
                checks.append((greater_equal(rank_(x), len(spec)),
                               [f'{_name(x)} must have rank >= {len(spec)}']))
        dims = shape_(x) if not x.shape.is_fully_defined() else None
        offset = (rank - len(spec)) if rank is not None else None
        for i, want in enumerate(spec):
            if want is None or want == '.':
                continue
            static = x.shape[offset + i] if offset is not None else None
            axis = offset + i if offset is not None else i - len(spec)
            if isinstance(want, str):
                if want not in sizes:
                    sizes[want] = (static, dims[axis] if dims is not None else static,
                                   _name(x))
                    continue
                size, runtime_size, who = sizes[want]
                if size is not None and static is not None:
                    if size != static:
                        _static_failure(message, f'Specified by tensor {who} dimension '
                                                 f'{want!r}: tensor {_name(x)} has size '
                                                 f'{static} there, {who} has {size}.')
                    continue
                checks.append((equal(dims[axis] if dims is not None else static,
                                     runtime_size),
                               [f'{_name(x)} dimension {axis} must equal dimension {want!r} '
                                f'of {who}']))
            elif static is not None:
                if static != want:
                    _static_failure(message, f'Tensor {_name(x)} dimension {axis} must have '
                                             f'size {want}. Received size {static}, shape '
                                             f'{x.shape}')
            else:
                checks.append((equal(dims[axis], want),
                               [f'{_name(x)} dimension {axis} must have size {want}']))
    asserts = [_assert_all(condition, text + list(data or []), message, summarize,
                           name or 'assert_shapes') for condition, text in checks]
    return asserts or None
