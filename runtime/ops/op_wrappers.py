"""TensorFlow's top-level wrappers of single ops whose friendlier forms live elsewhere here:
`fftnd`, `ifftnd`, `rfftnd`, `irfftnd` (the ops FFTND ... IRFFTND with their `fft_length` and
`axes` required, as `tf.fftnd` takes them; `tf.signal.fftnd` is the form with defaults and
`norm`)."""
from runtime.core import dtypes
from runtime.ops.array import cast
from runtime.ops.fft import fftnd as signal_fftnd
from runtime.ops.fft import ifftnd as signal_ifftnd
from runtime.ops.fft import irfftnd as signal_irfftnd
from runtime.ops.fft import rfftnd as signal_rfftnd


def fftnd(input, fft_length, axes, name=None):
    """The N-D discrete Fourier transform over `axes` of lengths `fft_length` (op `FFTND`)."""
    return signal_fftnd(input, fft_length, axes, name=name)


def ifftnd(input, fft_length, axes, name=None):
    """The inverse N-D discrete Fourier transform over `axes` (op `IFFTND`)."""
    return signal_ifftnd(input, fft_length, axes, name=name)


def rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: N803
    """The N-D Fourier transform of a real `input` over `axes`, the last one's non-negative
    frequencies only, as `Tcomplex` (op `RFFTND`)."""
    out = signal_rfftnd(input, fft_length, axes, name=name)
    return out if out.dtype is dtypes.as_dtype(Tcomplex) else cast(out, Tcomplex)


def irfftnd(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: N803
    """The inverse of `rfftnd`: a real signal of `fft_length` over `axes`, as `Treal` (op
    `IRFFTND`)."""
    out = signal_irfftnd(input, fft_length, axes, name=name)
    return out if out.dtype is dtypes.as_dtype(Treal) else cast(out, Treal)
