"""The gradients of the Fourier transforms (runtime/ops/fft.py), as TensorFlow's fft_ops.py:
a complex transform's gradient is the inverse transform scaled by the size; a real transform's
is the inverse over the zero-padded spectrum (RFFT), or the forward transform with the weights
of the half spectrum (IRFFT)."""
import numpy as np

from runtime.core import dtypes
from runtime.gradients.rules.common import defgradient
from runtime.ops import bitwise, fft
from runtime.ops.array import cast
from runtime.ops.creation import ones
from runtime.ops.dispatch import apply
from runtime.ops.manipulation import pad
from runtime.ops.reduce import reduce_prod
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.shaping import concat, shape

_INVERSE = {'FFT': 'IFFT', 'IFFT': 'FFT', 'FFT2D': 'IFFT2D', 'IFFT2D': 'FFT2D',
            'FFT3D': 'IFFT3D', 'IFFT3D': 'FFT3D'}


def _size(t, rank, dtype):
    """The product of the innermost `rank` dims of `t`, as `dtype`."""
    dims = t.shape.as_list()[-rank:] if t.shape.rank is not None else [None]
    if None not in dims:
        return np.asarray(np.prod(dims), dtype.as_numpy_dtype)
    return cast(reduce_prod(shape(t)[-rank:]), dtype)


def _complex_grad(op, grad):
    name = op.opdef.name
    other = fft.COMPLEX_OPS[_INVERSE[name]]
    size = _size(grad, fft.RANK_OF[name], grad.dtype)
    result = apply(other, [grad])
    return [result * size if name.startswith('F') else result / size]


defgradient(*fft.COMPLEX_OPS.values())(_complex_grad)


def _lengths(op):
    lengths = op.inputs[1]
    return cast(lengths, dtypes.int32)


@defgradient(fft.REAL_OPS['RFFT'], fft.REAL_OPS['RFFT2D'])
def _rfft_grad(op, grad):
    """Real(n * inverse complex transform of the spectrum padded to full length), fitted to
    the input's innermost dims (cropped or zero-padded, as the forward op did)."""
    rank = fft.RANK_OF[op.opdef.name]
    lengths = _lengths(op)
    rank_total = grad.shape.rank
    last = lengths[-1] - shape(grad)[-1]
    paddings = concat([np.zeros([rank_total - 1, 2], np.int32),
                       concat([[0], last[None]], 0)[None]], 0)
    full = pad(grad, paddings)
    inverse = fft.COMPLEX_OPS[_INVERSE['FFT' + ('' if rank == 1 else f'{rank}D')]]
    size = cast(reduce_prod(lengths), bitwise.REAL.infer([grad], {})[0][0])
    values = bitwise.real(apply(inverse, [full])) * size
    return [_fit(values, op.inputs[0], rank), None]


def _fit(values, target, rank):
    """`values` cropped or zero-padded in its innermost `rank` dims to `target`'s."""
    want = shape(target)[-rank:]
    lead = values.shape.rank - rank
    cropped = values[(slice(None),) * lead + tuple(slice(None, want[i]) for i in range(rank))]
    extra = want - shape(cropped)[-rank:]
    paddings = concat([np.zeros([lead, 2], np.int32),
                       concat([np.zeros([rank, 1], np.int32), extra[:, None]], 1)], 0)
    return pad(cropped, paddings)


@defgradient(fft.REAL_OPS['IRFFT'], fft.REAL_OPS['IRFFT2D'])
def _irfft_grad(op, grad):
    """The forward real transform of the gradient, weighted 1, 2, ..., 2, (1 for an even
    length) along the half spectrum and divided by the size."""
    rank = fft.RANK_OF[op.opdef.name]
    lengths = _lengths(op)
    forward = fft.REAL_OPS[op.opdef.name[1:]]
    complex_dtype = op.inputs[0].dtype
    spectrum = apply(forward, [grad, lengths], {'Tcomplex': complex_dtype})
    real_dtype = grad.dtype
    half = lengths[-1] // 2 + 1  # the spectrum points the op used
    is_odd = lengths[-1] % 2
    mask = concat([np.ones([1], real_dtype.as_numpy_dtype),
                   2 * ones(half[None] - 2 + is_odd, real_dtype),
                   ones((1 - is_odd)[None], real_dtype)], 0)
    size = cast(reduce_prod(lengths), real_dtype)
    weights = bitwise.complex(mask / size, mask * 0)
    return [_fit(spectrum * weights, op.inputs[0], rank), None]


# TensorFlow registers no gradient for the 3-D real transforms nor the N-D ones
defgradient(fft.REAL_OPS['RFFT3D'], fft.REAL_OPS['IRFFT3D'],
            *fft.ND_OPS.values())(UNREGISTERED_GRADIENT)
