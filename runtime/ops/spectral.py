"""The rest of `tf.signal`, composed from the runtime's ops: framing (`frame`,
`overlap_and_add`), windows, the short-time Fourier transform and its inverse, the MDCT, the
DCT (types I to IV, via `RFFT`/`IRFFT` as TensorFlow computes them) and the mel filterbank."""
import math as pymath

import numpy as np

from runtime.core import dtypes
from runtime.ops import bitwise, fft
from runtime.ops.array import cast
from runtime.ops.convert import constant, convert_to_tensor
from runtime.ops.manipulation import pad, reverse, split
from runtime.ops.shaping import concat, reshape, transpose
from runtime.ops.shaping import shape as shape_of
from runtime.ops.slicing import gather, unsorted_segment_sum


def _length(value, what):
    value = value.numpy() if hasattr(value, 'numpy') else value
    if np.ndim(value) != 0:
        raise ValueError(f'{what} must be a scalar, got shape {np.shape(value)}.')
    return int(value)


def _dims_of(x):
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is None:
        raise ValueError('tf.signal needs the rank of its input known.')
    return dims


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `frame_length` every `frame_step` along `axis`: that axis becomes
    [num_frames, frame_length] (op `GatherV2` over the frame indices)."""
    signal = convert_to_tensor(signal)
    frame_length, frame_step = _length(frame_length, 'frame_length'), \
        _length(frame_step, 'frame_step')
    dims = _dims_of(signal)
    axis = axis % len(dims)
    length = dims[axis]
    if length is None:
        raise ValueError('tf.signal.frame needs the length of the framed axis known.')
    if pad_end:
        num_frames = -(-length // frame_step)
        padded = max((num_frames - 1) * frame_step + frame_length - length, 0)
        paddings = np.zeros([len(dims), 2], np.int32)
        paddings[axis, 1] = padded
        signal = pad(signal, paddings, constant_values=pad_value)
    else:
        num_frames = max(0, 1 + (length - frame_length) // frame_step)
    indices = (np.arange(num_frames)[:, None] * frame_step +
               np.arange(frame_length)[None, :]).astype(np.int32)
    return gather(signal, indices, axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """The frames in the last two dims of `signal` added at every `frame_step`: [..., frames,
    frame_length] becomes [..., (frames - 1) * frame_step + frame_length]."""
    signal = convert_to_tensor(signal)
    frame_step = _length(frame_step, 'frame_step')
    dims = _dims_of(signal)
    if len(dims) < 2:
        raise ValueError('overlap_and_add needs a signal of rank 2 or more.')
    frames, frame_length = dims[-2], dims[-1]
    if frames is None or frame_length is None:
        raise ValueError('overlap_and_add needs the number and length of frames known.')
    if frame_step > frame_length:
        raise ValueError(f'frame_step ({frame_step}) must be at most frame_length '
                         f'({frame_length}).')
    output_length = (frames - 1) * frame_step + frame_length if frames else 0
    positions = (np.arange(frames)[:, None] * frame_step +
                 np.arange(frame_length)[None, :]).reshape([-1]).astype(np.int32)
    lead = len(dims) - 2
    flat = reshape(signal, [-1] + [frames * frame_length])
    columns = transpose(flat, [1, 0])
    summed = unsorted_segment_sum(columns, positions, output_length)
    return reshape(transpose(summed, [1, 0]), dims[:lead] + [output_length] if None not in
                   dims[:lead] else concat([_shape_lead(signal, lead), [output_length]], 0))


def _shape_lead(x, lead):
    return shape_of(x)[:lead]


# ---- windows: constants of the requested length, TensorFlow's formulas ---------------------
def _window(values, dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f'dtype must be a floating point type. Found {dtype.name}')
    return constant(np.asarray(values, dtype.as_numpy_dtype))


def _raised_cosine(window_length, periodic, dtype, a, b):
    n = _length(window_length, 'window_length')
    if n == 1:
        return _window(np.ones(1), dtype)
    np_dtype = dtypes.as_dtype(dtype).as_numpy_dtype
    even = 1 - n % 2
    denominator = np_dtype(n + int(bool(periodic)) * even - 1)
    count = np.arange(n, dtype=np_dtype)
    return _window(a - b * np.cos(np_dtype(2 * np.pi) * count / denominator), dtype)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hann window of `window_length` points (periodic: for spectral analysis)."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """The Hamming window of `window_length` points."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def _kaiser_values(n, beta):
    if n == 1:
        return np.ones(1)
    half = (n - 1) / 2.0
    arg = np.arange(-half, half + 0.1, dtype=np.float32).astype(np.float64)
    num = beta * np.sqrt(np.maximum(1 - np.square(arg / half), 0))
    return np.i0(num) / np.i0(beta)


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser window of `window_length` points and shape `beta`."""
    return _window(_kaiser_values(_length(window_length, 'window_length'), float(beta)), dtype)


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """The Kaiser-Bessel derived window (for the MDCT)."""
    n = _length(window_length, 'window_length')
    cumulative = np.cumsum(_kaiser_values(n // 2 + 1, float(beta)))
    half = np.sqrt(cumulative[:-1] / cumulative[-1])
    return _window(np.concatenate([half, half[::-1]]), dtype)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """The Vorbis power-complementary window."""
    n = _length(window_length, 'window_length')
    arg = (np.arange(n) + 0.5) * np.pi / n
    return _window(np.sin(np.pi / 2 * np.square(np.sin(arg))), dtype)


# ---- the short-time Fourier transform -------------------------------------------------------
def _default_fft_length(frame_length):
    return 1 << int(np.ceil(np.log2(frame_length)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform: windowed frames, each through `RFFT`."""
    signals = convert_to_tensor(signals)
    frame_length = _length(frame_length, 'frame_length')
    fft_length = _default_fft_length(frame_length) if fft_length is None else \
        _length(fft_length, 'fft_length')
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(frame_length, dtype=framed.dtype)
    return fft.rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window function that makes `inverse_stft` invert `stft` with `forward_window_fn`."""
    frame_step = _length(frame_step, 'frame_step')

    def inverse_window(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        values = forward.numpy().astype(np.float64)
        overlaps = -(-frame_length // frame_step)
        squares = np.pad(np.square(values), [0, overlaps * frame_step - frame_length])
        denominator = np.tile(squares.reshape(overlaps, frame_step).sum(0), overlaps)
        return _window(values / denominator[:frame_length], dtype)
    return inverse_window


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The inverse of `stft` (up to the windows' overlap): `IRFFT` of each frame, windowed,
    then overlapped and added."""
    stfts = convert_to_tensor(stfts)
    frame_length = _length(frame_length, 'frame_length')
    fft_length = _default_fft_length(frame_length) if fft_length is None else \
        _length(fft_length, 'fft_length')
    frames = fft.irfft(stfts, [fft_length])
    if frame_length <= fft_length:
        frames = frames[..., :frame_length]
    else:
        paddings = np.zeros([frames.shape.rank, 2], np.int32)
        paddings[-1, 1] = frame_length - fft_length
        frames = pad(frames, paddings)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype
                                    if hasattr(stfts.dtype, 'real_dtype') else frames.dtype)
    return overlap_and_add(frames, frame_step)


# ---- the discrete cosine transform ----------------------------------------------------------
def _check_dct(input, type, n, axis, norm):
    if type not in (1, 2, 3, 4):
        raise ValueError(f'Types I, II, III and IV (I)DCT are supported. Got type {type}.')
    if axis != -1:
        raise NotImplementedError('axis must be -1. Got: %s' % axis)
    if n is not None and n < 1:
        raise ValueError(f'Invalid value for `n`: {n}.')
    if type == 1 and norm == 'ortho':
        raise ValueError('Normalization is not supported for the Type-I DCT.')
    if norm not in (None, 'ortho'):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _fitted(x, n):
    length = x.shape[-1]
    if n is None or n == length:
        return x
    if n < length:
        return x[..., :n]
    paddings = np.zeros([x.shape.rank, 2], np.int32)
    paddings[-1, 1] = n - length
    return pad(x, paddings)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The DCT of types I to IV along the last axis (via `RFFT`, as TensorFlow computes it)."""
    _check_dct(input, type, n, axis, norm)
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        x = cast(x, dtypes.float32)
    x = _fitted(x, n)
    size = x.shape[-1]
    np_dtype = x.dtype.as_numpy_dtype
    if type == 1:
        return bitwise.real(fft.rfft(concat([x, reverse(x[..., 1:-1], [-1])], -1)))
    if type == 2:
        angles = -np.arange(size) * np.pi * 0.5 / size
        scale = (2 * np.exp(1j * angles)).astype(np.result_type(np_dtype, np.complex64))
        spectrum = fft.rfft(x, [2 * size])[..., :size]
        result = bitwise.real(spectrum * scale)
        if norm == 'ortho':
            weights = np.full([size], np.sqrt(2) * 0.5 / np.sqrt(size), np_dtype)
            weights[0] = 0.5 / np.sqrt(size)
            result = result * weights
        return result
    if type == 3:
        if norm == 'ortho':
            weights = np.full([size], np.sqrt(size) * np.sqrt(0.5), np_dtype)
            weights[0] = np.sqrt(size)
            x = x * weights
        else:
            x = x * np_dtype(size)
        angles = np.arange(size) * np.pi * 0.5 / size
        scale = (2 * np.exp(1j * angles)).astype(np.result_type(np_dtype, np.complex64))
        spectrum = bitwise.complex(x, x * 0) * scale
        return fft.irfft(spectrum, [2 * size])[..., :size]
    result = dct(x, type=2, n=2 * size, norm=None)[..., 1::2]
    return result * np_dtype(np.sqrt(0.5) / np.sqrt(size)) if norm == 'ortho' else result


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse DCT: the DCT of the inverse type (III for II, II for III)."""
    _check_dct(input, type, n, axis, norm)
    return dct(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, axis, norm)


# ---- the modified discrete cosine transform -------------------------------------------------
def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The MDCT of frames of `frame_length` (a multiple of 4) every half frame."""
    signals = convert_to_tensor(signals)
    frame_length = _length(frame_length, 'frame_length')
    if frame_length % 4:
        raise ValueError(f'frame_length must be a multiple of 4, got {frame_length}.')
    framed = frame(signals, frame_length, frame_length // 2, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(frame_length, dtype=framed.dtype)
    else:
        framed = framed * framed.dtype.as_numpy_dtype(np.sqrt(0.5))
    a, b, c, d = split(framed, 4, axis=-1)
    first = -reverse(c, [-1]) - d
    second = a - reverse(b, [-1])
    return dct(concat([first, second], -1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The inverse of `mdct`: the type IV DCT, unfolded, windowed, overlapped and added."""
    mdcts = convert_to_tensor(mdcts)
    half = mdcts.shape[-1]
    if norm is None:
        result = dct(mdcts, type=4) * mdcts.dtype.as_numpy_dtype(0.5 / half)
    elif norm == 'ortho':
        result = dct(mdcts, type=4, norm='ortho')
    else:
        raise ValueError(f"norm must be None or 'ortho', got {norm!r}.")
    first, second = split(result, 2, axis=-1)
    frames = concat([second, -reverse(second, [-1]), -reverse(first, [-1]), -first], -1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
    else:
        frames = frames * mdcts.dtype.as_numpy_dtype(1 / np.sqrt(2))
    return overlap_and_add(frames, half)


# ---- mel scale ------------------------------------------------------------------------------
def _hertz_to_mel(frequencies):
    return 1127.0 * np.log1p(frequencies / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """The [num_spectrogram_bins, num_mel_bins] matrix of triangular mel filters that maps a
    linear spectrogram to the mel scale (the DC bin gets no weight)."""
    if num_mel_bins <= 0 or num_spectrogram_bins <= 0:
        raise ValueError('num_mel_bins and num_spectrogram_bins must be positive.')
    if lower_edge_hertz < 0 or lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f'lower_edge_hertz {lower_edge_hertz} must be >= 0 and below '
                         f'upper_edge_hertz {upper_edge_hertz}.')
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f'upper_edge_hertz must not be larger than the Nyquist frequency '
                         f'(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: '
                         f'{sample_rate}')
    np_dtype = dtypes.as_dtype(dtype).as_numpy_dtype
    linear = np.linspace(0.0, sample_rate / 2.0, num_spectrogram_bins).astype(np_dtype)[1:]
    bins_mel = _hertz_to_mel(linear)[:, None]
    edges = np.linspace(_hertz_to_mel(np_dtype(lower_edge_hertz)),
                        _hertz_to_mel(np_dtype(upper_edge_hertz)), num_mel_bins + 2)
    edges = edges.astype(np_dtype)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = np.maximum(0, np.minimum(lower_slopes, upper_slopes)).astype(np_dtype)
    return constant(np.pad(weights, [[1, 0], [0, 0]]))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The mel-frequency cepstral coefficients: the orthonormal-scaled type II DCT of log mel
    spectrograms."""
    x = convert_to_tensor(log_mel_spectrograms)
    bins = x.shape[-1]
    return dct(x, type=2) * x.dtype.as_numpy_dtype(1 / pymath.sqrt(bins * 2.0))
