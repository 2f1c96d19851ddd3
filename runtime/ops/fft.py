"""The fast Fourier transforms of `tf.signal` (ops `FFT`, `IFFT`, `FFT2D`, ..., `RFFT`, `IRFFT`,
`RFFT2D`, ..., `FFTND`, `IFFTND`, `RFFTND`, `IRFFTND`), with numpy's FFT as the kernels, and
`fftshift`/`ifftshift` (op `Roll`). Their gradients are in runtime/gradients/rules/signal.py."""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops import array_more
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import constant_value, same_as_input
from runtime.ops.registry import register
from runtime.ops.shaping import concat
from runtime.ops.shaping import shape as shape_of

_COMPLEX = frozenset({dtypes.complex64, dtypes.complex128})
_REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _complex_kernel(transform, rank):
    def kernel(input):
        axes = tuple(range(-rank, 0))
        return transform(input, axes=axes).astype(input.dtype)
    return kernel


COMPLEX_OPS = {}  # TensorFlow op -> OpDef, for FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D
for _rank, _suffix in ((1, ''), (2, '2D'), (3, '3D')):
    COMPLEX_OPS['FFT' + _suffix] = register(
        'FFT' + _suffix, _complex_kernel(np.fft.fftn, _rank), same_as_input,
        inputs=('input',), outputs=('output',), type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX)
    COMPLEX_OPS['IFFT' + _suffix] = register(
        'IFFT' + _suffix, _complex_kernel(np.fft.ifftn, _rank), same_as_input,
        inputs=('input',), outputs=('output',), type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX)
RANK_OF = {name: 1 if name.endswith('FFT') else int(name[-2]) for name in COMPLEX_OPS}


def _lengths_infer(shape, fft_length, rank, inverse_real):
    """The output shape of a real transform: the last `rank` dims become `fft_length` (the last
    `n // 2 + 1` for RFFT)."""
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None:
        return TensorShape(None)
    lengths = constant_value(fft_length)
    if lengths is None:
        return TensorShape(dims[:-rank] + [None] * rank)
    lengths = [int(n) for n in np.reshape(lengths, [-1])]
    last = lengths[-1] if inverse_real else lengths[-1] // 2 + 1
    return TensorShape(dims[:-rank] + lengths[:-1] + [last])


def _rfft_kernel(rank):
    def kernel(input, fft_length, Tcomplex=None):
        out = np.fft.rfftn(input, s=[int(n) for n in fft_length], axes=tuple(range(-rank, 0)))
        return out.astype(np.complex128 if input.dtype == np.float64 else np.complex64)
    return kernel


def _irfft_kernel(rank):
    def kernel(input, fft_length, Treal=None):
        lengths = [int(n) for n in fft_length]
        if any(n == 0 for n in lengths):
            shape = input.shape[:-rank] + tuple(lengths)
            return np.zeros(shape, np.float64 if input.dtype == np.complex128 else np.float32)
        out = np.fft.irfftn(input, s=lengths, axes=tuple(range(-rank, 0)))
        return out.astype(np.float64 if input.dtype == np.complex128 else np.float32)
    return kernel


def _real_infer(rank, inverse):
    def infer(inputs, attrs):
        x, fft_length = inputs[0], inputs[1]
        dtype = _REAL_OF[x.dtype] if inverse else _COMPLEX_OF[x.dtype]
        return [(dtype, _lengths_infer(x.shape, fft_length, rank, inverse))]
    return infer


REAL_OPS = {}  # RFFT, IRFFT, RFFT2D, IRFFT2D, RFFT3D, IRFFT3D
for _rank, _suffix in ((1, ''), (2, '2D'), (3, '3D')):
    REAL_OPS['RFFT' + _suffix] = register(
        'RFFT' + _suffix, _rfft_kernel(_rank), _real_infer(_rank, False),
        inputs=('input', 'fft_length'), outputs=('output',),
        type_attrs=(('Treal', 0),), dtypes=frozenset(_COMPLEX_OF))
    REAL_OPS['IRFFT' + _suffix] = register(
        'IRFFT' + _suffix, _irfft_kernel(_rank), _real_infer(_rank, True),
        inputs=('input', 'fft_length'), outputs=('output',),
        type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX)
    RANK_OF['RFFT' + _suffix] = RANK_OF['IRFFT' + _suffix] = _rank


def _nd_kernel(transform, real_out=None):
    def kernel(input, fft_length, axes, Tcomplex=None, Treal=None):
        axes = tuple(int(a) for a in axes)
        out = transform(input, s=[int(n) for n in fft_length], axes=axes)
        if real_out is None:
            return out.astype(input.dtype)
        return out.astype(real_out[np.dtype(input.dtype).name])
    return kernel


def _nd_infer(kind):
    def infer(inputs, attrs):
        x, fft_length, axes = inputs
        dtype = {'complex': x.dtype, 'rfft': _COMPLEX_OF.get(x.dtype),
                 'irfft': _REAL_OF.get(x.dtype)}[kind]
        lengths, axes_value = constant_value(fft_length), constant_value(axes)
        if x.shape.rank is None or lengths is None or axes_value is None:
            return [(dtype, TensorShape(None) if x.shape.rank is None else
                     TensorShape([None] * x.shape.rank))]
        dims = x.shape.as_list()
        lengths = [int(n) for n in np.reshape(lengths, [-1])]
        axes_value = [int(a) % len(dims) for a in np.reshape(axes_value, [-1])]
        for axis, n in zip(axes_value, lengths):
            dims[axis] = n
        if kind == 'rfft':
            dims[axes_value[-1]] = lengths[-1] // 2 + 1
        return [(dtype, TensorShape(dims))]
    return infer


_TO_COMPLEX = {'float32': np.complex64, 'float64': np.complex128}
_TO_REAL = {'complex64': np.float32, 'complex128': np.float64}
ND_OPS = {
    'FFTND': register('FFTND', _nd_kernel(np.fft.fftn), _nd_infer('complex'),
                      inputs=('input', 'fft_length', 'axes'), outputs=('output',),
                      type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX),
    'IFFTND': register('IFFTND', _nd_kernel(np.fft.ifftn), _nd_infer('complex'),
                       inputs=('input', 'fft_length', 'axes'), outputs=('output',),
                       type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX),
    'RFFTND': register('RFFTND', _nd_kernel(np.fft.rfftn, _TO_COMPLEX), _nd_infer('rfft'),
                       inputs=('input', 'fft_length', 'axes'), outputs=('output',),
                       type_attrs=(('Treal', 0),), dtypes=frozenset(_COMPLEX_OF)),
    'IRFFTND': register('IRFFTND', _nd_kernel(np.fft.irfftn, _TO_REAL), _nd_infer('irfft'),
                        inputs=('input', 'fft_length', 'axes'), outputs=('output',),
                        type_attrs=(('Tcomplex', 0),), dtypes=_COMPLEX),
}


def _complex_input(input, op_name):
    input = convert_to_tensor(input)
    if not input.dtype.is_complex:
        raise TypeError(f'{op_name} needs a complex64 or complex128 tensor, got '
                        f'{input.dtype.name}.')
    return input


def _complex_function(op_name):
    opdef = COMPLEX_OPS[op_name]

    def transform(input, name=None):
        return apply(opdef, [_complex_input(input, op_name)], name=name)
    return op_function(transform, op_name.lower(),
                       f'The {op_name} of the innermost dimensions of a complex tensor.')


fft, ifft = _complex_function('FFT'), _complex_function('IFFT')
fft2d, ifft2d = _complex_function('FFT2D'), _complex_function('IFFT2D')
fft3d, ifft3d = _complex_function('FFT3D'), _complex_function('IFFT3D')


def _fft_length(x, fft_length, rank, inverse):
    """The `fft_length` operand: given, or the innermost dims of `x` (twice the last minus 2
    for an inverse real transform)."""
    if fft_length is not None:
        if isinstance(fft_length, Tensor):
            return cast(fft_length, dtypes.int32)
        return np.asarray(fft_length, np.int32).reshape([-1])
    dims = x.shape.as_list()[-rank:] if x.shape.rank is not None else [None]
    if None in dims:
        lengths = shape_of(x)[-rank:]
        if inverse:
            lengths = concat([lengths[:-1], 2 * (lengths[-1:] - 1)], 0)
        return lengths
    if inverse:
        dims[-1] = 2 * (dims[-1] - 1)
    return np.asarray(dims, np.int32)


def _real_function(op_name):
    opdef, rank, inverse = REAL_OPS[op_name], RANK_OF[op_name], op_name.startswith('I')

    def transform(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor)
        if inverse:
            x = _complex_input(x, op_name)
            attrs = {'Treal': _REAL_OF[x.dtype]}
        else:
            if not x.dtype.is_floating:
                x = cast(x, dtypes.float32)
            attrs = {'Tcomplex': _COMPLEX_OF[x.dtype]}
        return apply(opdef, [x, _fft_length(x, fft_length, rank, inverse)], attrs, name=name)
    return op_function(transform, op_name.lower(),
                       f'The {op_name} of the innermost dimensions (op `{op_name}`).')


rfft, irfft = _real_function('RFFT'), _real_function('IRFFT')
rfft2d, irfft2d = _real_function('RFFT2D'), _real_function('IRFFT2D')
rfft3d, irfft3d = _real_function('RFFT3D'), _real_function('IRFFT3D')


def _nd_function(op_name):
    opdef = ND_OPS[op_name]
    inverse = op_name.startswith('I')
    real_in, real_out = op_name == 'RFFTND', op_name == 'IRFFTND'

    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = convert_to_tensor(input_tensor)
        if real_in and not x.dtype.is_floating:
            x = cast(x, dtypes.float32)
        if not real_in:
            x = _complex_input(x, op_name)
        rank = x.shape.rank
        if axes is None:
            count = len(fft_length) if fft_length is not None else rank
            axes = list(range(-count, 0))
        axes = [int(a) for a in axes]
        if fft_length is None:
            dims = [x.shape[a] for a in axes]
            if real_out:
                dims[-1] = 2 * (dims[-1] - 1)
            fft_length = dims
        lengths = np.asarray(fft_length, np.int32)
        attrs = {'Tcomplex': _COMPLEX_OF[x.dtype]} if real_in else \
            {'Treal': _REAL_OF[x.dtype]} if real_out else None
        out = apply(opdef, [x, lengths, np.asarray(axes, np.int32)], attrs, name=name)
        return _normalized(out, norm, float(np.prod(lengths)), inverse)
    return op_function(transform, op_name.lower(),
                       f'The {op_name} over `axes` (op `{op_name}`); `norm` "backward" (the '
                       'default), "ortho" or "forward" as numpy\'s.')


def _normalized(out, norm, size, inverse):
    if norm in (None, 'backward'):
        return out
    if norm == 'ortho':
        factor = np.sqrt(size) if inverse else 1 / np.sqrt(size)
    elif norm == 'forward':
        factor = size if inverse else 1 / size
    else:
        raise ValueError(f'Unknown norm: {norm!r}; expected "backward", "ortho" or "forward".')
    return out * np.asarray(factor, out.dtype.as_numpy_dtype)


fftnd, ifftnd = _nd_function('FFTND'), _nd_function('IFFTND')
rfftnd, irfftnd = _nd_function('RFFTND'), _nd_function('IRFFTND')


def _shift(x, axes, sign):
    x = convert_to_tensor(x)
    rank = x.shape.rank
    axes = list(range(rank)) if axes is None else [int(a) for a in np.atleast_1d(axes)]
    shifts = [sign * (x.shape[a] // 2) for a in axes]
    return array_more.roll(x, np.asarray(shifts, np.int32), np.asarray(axes, np.int32))


def fftshift(x, axes=None, name=None):
    """Moves the zero frequency to the center (op `Roll`)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """The inverse of `fftshift` (op `Roll`)."""
    return _shift(x, axes, -1)
