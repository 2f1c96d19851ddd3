"""Fractional pooling (`rt.nn.fractional_max_pool`, `fractional_avg_pool`; ops
FractionalMaxPool and FractionalAvgPool, whose gradients are FractionalMaxPoolGrad and
FractionalAvgPoolGrad): pooling regions of 1 or k + 1 rows (and columns) whose layout is random,
so that an image shrinks by a non-integer ratio.

The layout is TensorFlow's for the same seed: the kernel's Philox generator (key `seed`,
counter `seed2`) reserves a block per four 32-bit words for the rows, then for the columns; a
random layout shuffles the region sizes with one word per swap, a pseudo-random one places the
boundaries at ceil(alpha * (i + u)) for one uniform double u (Graham's fractional
max-pooling).
"""
import math

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops import philox
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.random import PhiloxStream, get_seed
from runtime.ops.registry import register

POOLABLE = frozenset({dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64})


def _words(key, counter, n):
    return [int(w) for w in philox.blocks(key, counter, -(-n // 4)).reshape(-1)[:n]]


def _sequence(length, out, key, counter, pseudo_random):
    """(the cumulative region boundaries along one dim, the counter after its draws)."""
    if pseudo_random:
        high, low = _words(key, counter, 2)
        alpha = length / out
        k = length // out
        max_u = min((k + 2) / alpha - 1, (length + 1 - k) / alpha - (out - 1))
        u = float(philox.unit_float64(np.uint64(high), np.uint64(low))) * max_u
        bounds = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, out)] + [length + 1]
        sizes = [bounds[i + 1] - bounds[i] for i in range(out)]
        used = 2
    else:
        k, spots = divmod(length, out)
        sizes = [k + 1 if i < spots else k for i in range(out)]
        words = _words(key, counter, out)
        for i in range(out - 1):  # TensorFlow's shuffle: one word per position but the last
            j = i + words[i] % (out - i)
            sizes[i], sizes[j] = sizes[j], sizes[i]
        used = out
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), \
        philox.skip(counter, (used + 3) // 4)


def _layout(shape, pooling_ratio, pseudo_random, seed, seed2):
    for axis in (1, 2):
        if shape[axis] < pooling_ratio[axis]:
            raise errors.InvalidArgumentError(
                message=f'Pooling ratio is higher than input dimension size for dimension '
                        f'{axis}. Input dim size: {shape[axis]} pooling ratio: '
                        f'{pooling_ratio[axis]}')
    stream = PhiloxStream.from_seeds(seed, seed2)
    counter = stream.counter
    rows, counter = _sequence(shape[1], int(math.floor(shape[1] / pooling_ratio[1])),
                              stream.key, counter, pseudo_random)
    cols, _ = _sequence(shape[2], int(math.floor(shape[2] / pooling_ratio[2])), stream.key,
                        counter, pseudo_random)
    return rows, cols


def _regions(rows, cols, shape, overlapping):
    """(r, c, row slice, column slice) of each pooling region."""
    for r in range(len(rows) - 1):
        r_end = min(rows[r + 1] + (1 if overlapping else 0), shape[1])
        for c in range(len(cols) - 1):
            c_end = min(cols[c + 1] + (1 if overlapping else 0), shape[2])
            yield r, c, slice(rows[r], r_end), slice(cols[c], c_end)


def _pool_kernel(reduce):
    def kernel(value, pooling_ratio, pseudo_random=False, overlapping=False,
               deterministic=False, seed=0, seed2=0):
        rows, cols = _layout(value.shape, pooling_ratio, pseudo_random, seed, seed2)
        out = np.empty((value.shape[0], len(rows) - 1, len(cols) - 1, value.shape[3]),
                       value.dtype)
        for r, c, rs, cs in _regions(rows, cols, value.shape, overlapping):
            out[:, r, c] = reduce(value[:, rs, cs], (1, 2))
        return out, rows, cols
    return kernel


def _mean(x, axes):
    return x.mean(axes) if x.dtype.kind == 'f' else x.sum(axes) // np.prod(
        [x.shape[a] for a in axes])


def _max_grad_kernel(orig_input, orig_output, out_backprop, row_pooling_sequence,
                     col_pooling_sequence, overlapping=False):
    """Each region's gradient to the first of its maxima (rows, then columns)."""
    out = np.zeros(orig_input.shape, out_backprop.dtype)
    n, _, _, channels = orig_input.shape
    b, ch = np.meshgrid(np.arange(n), np.arange(channels), indexing='ij')
    for r, c, rs, cs in _regions(row_pooling_sequence, col_pooling_sequence, orig_input.shape,
                                 overlapping):
        window = orig_input[:, rs, cs]
        width = window.shape[2]
        best = window.reshape(n, -1, channels).argmax(1)
        np.add.at(out, (b, rs.start + best // width, cs.start + best % width, ch),
                  out_backprop[:, r, c])
    return out


def _avg_grad_kernel(orig_input_tensor_shape, out_backprop, row_pooling_sequence,
                     col_pooling_sequence, overlapping=False):
    shape = tuple(int(d) for d in orig_input_tensor_shape)
    out = np.zeros(shape, out_backprop.dtype)
    for r, c, rs, cs in _regions(row_pooling_sequence, col_pooling_sequence, shape,
                                 overlapping):
        count = (rs.stop - rs.start) * (cs.stop - cs.start)
        out[:, rs, cs] += (out_backprop[:, r, c] / count)[:, None, None]
    return out


def _infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 4):
        raise ValueError(f'fractional pooling needs a rank-4 input (NHWC), got {x.shape}')
    dims = [None] * 4 if x.shape.rank is None else x.shape.as_list()
    ratio = attrs['pooling_ratio']
    out = [None if d is None else int(math.floor(d / ratio[i])) for i, d in enumerate(dims)]
    rows = None if out[1] is None else out[1] + 1
    cols = None if out[2] is None else out[2] + 1
    return [(x.dtype, TensorShape(out)), (dtypes.int64, TensorShape([rows])),
            (dtypes.int64, TensorShape([cols]))]


_DEFAULTS = {'pseudo_random': False, 'overlapping': False, 'deterministic': False, 'seed': 0,
             'seed2': 0}
# a zero seed draws a new layout at each run: never folded into a constant
FRACTIONAL_MAX_POOL = register(
    'FractionalMaxPool', _pool_kernel(np.max), _infer, inputs=('value',),
    outputs=('output', 'row_pooling_sequence', 'col_pooling_sequence'), defaults=_DEFAULTS,
    dtypes=POOLABLE, foldable=False)
FRACTIONAL_AVG_POOL = register(
    'FractionalAvgPool', _pool_kernel(_mean), _infer, inputs=('value',),
    outputs=('output', 'row_pooling_sequence', 'col_pooling_sequence'), defaults=_DEFAULTS,
    dtypes=POOLABLE, foldable=False)
FRACTIONAL_MAX_POOL_GRAD = register(
    'FractionalMaxPoolGrad', _max_grad_kernel,
    lambda inputs, attrs: [(inputs[2].dtype, inputs[0].shape)],
    inputs=('orig_input', 'orig_output', 'out_backprop', 'row_pooling_sequence',
            'col_pooling_sequence'), outputs=('output',), defaults={'overlapping': False},
    dtypes=POOLABLE)
FRACTIONAL_AVG_POOL_GRAD = register(
    'FractionalAvgPoolGrad', _avg_grad_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, TensorShape([None] * 4))],
    inputs=('orig_input_tensor_shape', 'out_backprop', 'row_pooling_sequence',
            'col_pooling_sequence'), outputs=('output',), type_attrs=(('T', 1),),
    defaults={'overlapping': False}, dtypes=POOLABLE)


def _ratio(pooling_ratio):
    if isinstance(pooling_ratio, (list, tuple)):
        if pooling_ratio[0] != 1.0 or pooling_ratio[-1] != 1.0:
            raise ValueError(f'`pooling_ratio` should have first and last elements with value '
                             f'1.0. Received: {pooling_ratio}')
        if any(r < 1.0 for r in pooling_ratio):
            raise ValueError(f'`pooling_ratio` elements should be >= 1.0. Received: '
                             f'{pooling_ratio}')
        values = [float(r) for r in pooling_ratio]
        return tuple(values if len(values) == 4 else [1.0] + values + [1.0])
    if isinstance(pooling_ratio, (int, float)):
        if pooling_ratio < 1.0:
            raise ValueError(f'`pooling_ratio` should be >= 1.0. Received: {pooling_ratio}')
        return (1.0, float(pooling_ratio), float(pooling_ratio), 1.0)
    raise ValueError(f'`pooling_ratio` should be an int or a list of ints. Received: '
                     f'{pooling_ratio}')


def _fractional(opdef, value, pooling_ratio, pseudo_random, overlapping, seed, name):
    attrs = {'pooling_ratio': _ratio(pooling_ratio), 'pseudo_random': bool(pseudo_random),
             'overlapping': bool(overlapping)}
    if seed:
        seed1, seed2 = get_seed(seed)
        attrs.update(deterministic=True, seed=seed1, seed2=seed2)
    return tuple(apply(opdef, [convert_to_tensor(value)], attrs, name=name))


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """(the maximum of each region of NHWC `value`, the row and the column boundaries) with
    the image shrunk by `pooling_ratio` (op `FractionalMaxPool`); a non-zero `seed` fixes the
    layout (TensorFlow's for the same seed), 0 draws a new one each run."""
    return _fractional(FRACTIONAL_MAX_POOL, value, pooling_ratio, pseudo_random, overlapping,
                       seed, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """(the mean of each region, the row and the column boundaries), as `fractional_max_pool`
    (op `FractionalAvgPool`)."""
    return _fractional(FRACTIONAL_AVG_POOL, value, pooling_ratio, pseudo_random, overlapping,
                       seed, name)
