"""Write tests/runtime/fixtures/tf_surface_calls.json: what TensorFlow gives for sample calls of
`tf.experimental.numpy`, `tf.signal`, `tf.image`, `tf.io` and `tf.strings` (run with a Python
that has tensorflow; it is never a project dependency):

    /path/to/tf-venv/bin/python tools/tf_surface_call_fixtures.py

Each case is (module, function, positional args, keyword args); an argument written
`T(value, dtype)` is a tensor. The fixture holds each case with TensorFlow's outputs (values,
dtypes, shapes); tests/runtime/test_tf_surface_calls.py makes the same calls on runtime, eagerly
and inside `ag.function`, and compares.
"""
import base64
import json
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'tf_surface_calls.json')


def T(value, dtype):
    return {'tensor': value, 'dtype': dtype}


F = T([[1.5, -2.0, 0.0], [3.25, 4.0, -0.5]], 'float32')
P = T([0.25, 0.5, 0.75], 'float64')
N = T([[3, -1, 4], [1, -5, 9]], 'int32')
B = T([True, False, True], 'bool')
V = T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], 'float32')

TNP_UNARY_FLOAT = ['abs', 'absolute', 'fabs', 'negative', 'positive', 'square', 'sign',
                   'exp', 'exp2', 'expm1', 'cbrt', 'deg2rad', 'rad2deg', 'sinc', 'floor',
                   'ceil', 'fix', 'isnan', 'isinf', 'isfinite', 'isneginf', 'isposinf',
                   'signbit', 'sin', 'cos', 'tan', 'arctan', 'sinh', 'cosh', 'tanh',
                   'arcsinh', 'logical_not', 'real', 'imag', 'conj', 'conjugate',
                   'iscomplex', 'isreal', 'around', 'round', 'ravel', 'flatten', 'transpose',
                   'fliplr', 'flipud', 'flip', 'rot90', 'atleast_1d', 'atleast_2d',
                   'atleast_3d', 'copy', 'array', 'asarray', 'diag', 'diagflat', 'diagonal',
                   'trace', 'tril', 'triu', 'sort', 'argsort', 'nonzero', 'zeros_like',
                   'ones_like', 'empty_like', 'angle', 'shape', 'ndim', 'size', 'isscalar']
TNP_UNARY_POSITIVE = ['sqrt', 'log', 'log2', 'log10', 'log1p', 'reciprocal', 'arcsin',
                      'arccos', 'arctanh', 'arccosh_of_2']
TNP_BINARY = ['add', 'subtract', 'multiply', 'divide', 'true_divide', 'floor_divide', 'mod',
              'remainder', 'maximum', 'minimum', 'arctan2', 'hypot', 'logaddexp',
              'logaddexp2', 'heaviside', 'nextafter', 'equal', 'not_equal', 'greater',
              'greater_equal', 'less', 'less_equal', 'logical_and', 'logical_or',
              'logical_xor', 'float_power', 'divmod', 'isclose', 'allclose', 'array_equal',
              'outer', 'inner', 'kron', 'vdot', 'append']
TNP_REDUCE = ['sum', 'prod', 'mean', 'amax', 'amin', 'max', 'min', 'ptp', 'all', 'any', 'std',
              'var', 'average', 'nansum', 'nanprod', 'nanmean', 'count_nonzero', 'cumsum',
              'cumprod', 'argmax', 'argmin']


def tnp_cases():
    cases = []
    for name in TNP_UNARY_FLOAT:
        cases.append(('tnp', name, [F], {}))
    for name in TNP_UNARY_POSITIVE:
        if name == 'arccosh_of_2':
            cases.append(('tnp', 'arccosh', [T([1.0, 2.0, 3.5], 'float64')], {}))
        else:
            cases.append(('tnp', name, [P], {}))
    G = T([[2.0, 0.5, -1.0], [1.0, 4.0, 0.0]], 'float32')
    for name in TNP_BINARY:
        cases.append(('tnp', name, [F, G], {}))
        cases.append(('tnp', name, [F, 2], {}))
    for name in ['add', 'multiply', 'subtract', 'maximum', 'floor_divide', 'mod', 'power',
                 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'gcd', 'lcm', 'equal', 'less']:
        cases.append(('tnp', name, [N, T([[2, 3, 6], [4, 10, 3]], 'int32')], {}))
    cases += [('tnp', 'add', [N, 2.5], {}), ('tnp', 'true_divide', [N, 2], {}),
              ('tnp', 'bitwise_not', [N], {}), ('tnp', 'bitwise_not', [B], {}),
              ('tnp', 'logical_and', [B, T([False, False, True], 'bool')], {}),
              ('tnp', 'sum', [N], {}), ('tnp', 'sum', [B], {}), ('tnp', 'mean', [N], {}),
              ('tnp', 'prod', [N], {'axis': 1}), ('tnp', 'cumsum', [N], {'axis': 0}),
              ('tnp', 'power', [F, 2], {}), ('tnp', 'square', [N], {}),
              ('tnp', 'clip', [F, -1, 2], {}), ('tnp', 'clip', [F, None, 2], {}),
              ('tnp', 'around', [F], {'decimals': 1}), ('tnp', 'angle', [F], {'deg': True})]
    for name in TNP_REDUCE:
        cases.append(('tnp', name, [F], {}))
        cases.append(('tnp', name, [F], {'axis': 1}))
        if name not in ('average', 'count_nonzero', 'cumsum', 'cumprod', 'argmax', 'argmin'):
            cases.append(('tnp', name, [F], {'axis': 0, 'keepdims': True}))
    cases += [
        ('tnp', 'var', [F], {'ddof': 1}),
        ('tnp', 'average', [F], {'axis': 1, 'weights': [1.0, 2.0, 3.0]}),
        ('tnp', 'average', [F], {'axis': 1, 'weights': [1.0, 2.0, 3.0], 'returned': True}),
        ('tnp', 'arange', [5], {}), ('tnp', 'arange', [1.0, 3.0, 0.5], {}),
        ('tnp', 'arange', [2, 9, 3], {'dtype': 'float32'}),
        ('tnp', 'linspace', [0.0, 1.0], {'num': 5}),
        ('tnp', 'linspace', [0, 1], {'num': 4, 'endpoint': False}),
        ('tnp', 'linspace', [0.0, 2.0], {'num': 3, 'retstep': True}),
        ('tnp', 'logspace', [0.0, 2.0], {'num': 3}),
        ('tnp', 'geomspace', [1.0, 1000.0], {'num': 4}),
        ('tnp', 'zeros', [[2, 3]], {}), ('tnp', 'ones', [3], {'dtype': 'int32'}),
        ('tnp', 'empty', [[2]], {}), ('tnp', 'full', [[2, 2], 7], {}),
        ('tnp', 'full', [[2, 3], [1.0, 2.0, 3.0]], {}),
        ('tnp', 'full_like', [F, 3], {}), ('tnp', 'zeros_like', [N], {'dtype': 'float32'}),
        ('tnp', 'eye', [3], {}), ('tnp', 'eye', [2, 4], {'k': 1}), ('tnp', 'identity', [2], {}),
        ('tnp', 'tri', [3], {}), ('tnp', 'tri', [3, 4], {'k': -1}),
        ('tnp', 'tril', [F], {'k': -1}), ('tnp', 'triu', [F], {'k': 1}),
        ('tnp', 'array', [[1, 2, 3]], {}), ('tnp', 'array', [[1.5, 2]], {'ndmin': 3}),
        ('tnp', 'asarray', [[[1, 2], [3, 4]]], {'dtype': 'float32'}),
        ('tnp', 'vander', [[1.0, 2.0, 3.0]], {}),
        ('tnp', 'vander', [[1, 2, 3]], {'N': 2, 'increasing': True}),
        ('tnp', 'meshgrid', [[1, 2, 3], [4, 5]], {}),
        ('tnp', 'meshgrid', [[1, 2, 3], [4, 5]], {'indexing': 'ij'}),
        ('tnp', 'reshape', [F, [3, 2]], {}), ('tnp', 'reshape', [F, -1], {}),
        ('tnp', 'transpose', [F, [1, 0]], {}), ('tnp', 'swapaxes', [F, 0, 1], {}),
        ('tnp', 'moveaxis', [T(np.arange(24.0).reshape(2, 3, 4).tolist(), 'float32'), 0, -1],
         {}),
        ('tnp', 'expand_dims', [F, 1], {}), ('tnp', 'squeeze', [[[1], [2]]], {}),
        ('tnp', 'broadcast_to', [[1, 2, 3], [2, 3]], {}),
        ('tnp', 'broadcast_arrays', [[1, 2, 3], [[1], [2]]], {}),
        ('tnp', 'concatenate', [[F, F]], {}), ('tnp', 'concatenate', [[F, F]], {'axis': 1}),
        ('tnp', 'concatenate', [[F, N]], {'axis': None}),
        ('tnp', 'stack', [[F, F]], {'axis': 1}), ('tnp', 'hstack', [[F, F]], {}),
        ('tnp', 'vstack', [[[1, 2], [3, 4]]], {}), ('tnp', 'dstack', [[F, F]], {}),
        ('tnp', 'split', [V, 4], {}), ('tnp', 'split', [V, [3, 5]], {}),
        ('tnp', 'hsplit', [F, 3], {}), ('tnp', 'vsplit', [F, 2], {}),
        ('tnp', 'dsplit', [T(np.arange(8.0).reshape(1, 2, 4).tolist(), 'float32'), 2], {}),
        ('tnp', 'append', [F, [[1.0, 2.0, 3.0]]], {'axis': 0}),
        ('tnp', 'tile', [F, 2], {}), ('tnp', 'tile', [[1, 2], [2, 2]], {}),
        ('tnp', 'repeat', [F, 2], {}), ('tnp', 'repeat', [F, 2], {'axis': 1}),
        ('tnp', 'pad', [F, 1, 'constant'], {}),
        ('tnp', 'pad', [F, [[0, 1], [2, 0]], 'constant'], {'constant_values': 9}),
        ('tnp', 'pad', [F, 1, 'reflect'], {}), ('tnp', 'pad', [F, 1, 'symmetric'], {}),
        ('tnp', 'flip', [F], {'axis': 1}), ('tnp', 'rot90', [F], {'k': 2}),
        ('tnp', 'rot90', [F], {'k': 3}), ('tnp', 'roll', [F, 1], {}),
        ('tnp', 'roll', [F, -1], {'axis': 1}), ('tnp', 'roll', [F, [1, 1]], {'axis': [0, 1]}),
        ('tnp', 'sort', [F], {'axis': 0}), ('tnp', 'sort', [F], {'axis': None}),
        ('tnp', 'argsort', [V], {}), ('tnp', 'where', [[True, False, True], [1, 2, 3], 0.5], {}),
        ('tnp', 'where', [F], {}), ('tnp', 'nonzero', [N], {}),
        ('tnp', 'select', [[[True, False, False], [False, True, False]], [[1, 2, 3],
                                                                         [4, 5, 6]]], {}),
        ('tnp', 'compress', [[True, False, True], F], {'axis': 1}),
        ('tnp', 'take', [F, [0, 4, 9]], {}), ('tnp', 'take', [F, [[0, 2]]], {'axis': 1}),
        ('tnp', 'take', [F, [-1, 5]], {'axis': 1, 'mode': 'wrap'}),
        ('tnp', 'take_along_axis', [F, [[0, 2, 1], [1, 1, 0]]], {'axis': 1}),
        ('tnp', 'take_along_axis', [F, [[1, 0, 1]]], {'axis': 0}),
        ('tnp', 'diff', [V], {}), ('tnp', 'diff', [F], {'n': 2, 'axis': 1}),
        ('tnp', 'diff', [F], {'axis': 0}),
        ('tnp', 'polyval', [[1.0, 2.0, 3.0], [0.5, 2.0]], {}),
        ('tnp', 'dot', [F, [[1.0], [2.0], [3.0]]], {}), ('tnp', 'dot', [[1, 2], [3, 4]], {}),
        ('tnp', 'matmul', [F, [[1.0], [2.0], [3.0]]], {}),
        ('tnp', 'tensordot', [F, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], {}),
        ('tnp', 'tensordot', [F, [[1.0, 2.0], [3.0, 4.0]]], {'axes': [[0], [0]]}),
        ('tnp', 'einsum', ['ij,kj->ik', F, F], {}),
        ('tnp', 'cross', [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], {}),
        ('tnp', 'cross', [[1.0, 2.0], [4.0, 5.0]], {}),
        ('tnp', 'kron', [[[1, 2], [3, 4]], [[0, 1], [1, 0]]], {}),
        ('tnp', 'diag', [[1, 2, 3]], {'k': 1}), ('tnp', 'diag', [F], {'k': 1}),
        ('tnp', 'diagonal', [F], {'offset': -1}),
        ('tnp', 'trace', [F], {'offset': 1}), ('tnp', 'diag_indices', [3], {}),
        ('tnp', 'ix_', [[0, 1], [2, 4]], {}), ('tnp', 'ptp', [N], {}),
        ('tnp', 'iscomplexobj', [F], {}), ('tnp', 'isrealobj', [F], {}),
        ('tnp', 'size', [F], {'axis': 1}), ('tnp', 'promote_types', ['int32', 'float32'], {}),
        ('tnp', 'result_type', [T([1], 'int32'), 2.5], {}),
        ('tnp', 'result_type', ['int8', 'uint8'], {}),
    ]
    return cases


def signal_cases():
    S = T(np.sin(np.arange(16) * 0.7).tolist(), 'float32')
    S2 = T(np.cos(np.arange(24) * 0.3).reshape(2, 12).tolist(), 'float64')
    C = T([[1.0, 2.0, -1.0, 0.5], [0.0, 1.5, 2.0, -2.0]], 'complex64')
    M = T(np.arange(24.0).reshape(2, 3, 4).tolist(), 'complex128')
    cases = [('signal', name, [C], {}) for name in ('fft', 'ifft', 'fft2d', 'ifft2d')]
    cases += [('signal', name, [M], {}) for name in ('fft3d', 'ifft3d', 'fftnd', 'ifftnd')]
    cases += [
        ('signal', 'rfft', [S], {}), ('signal', 'rfft', [S2], {'fft_length': [8]}),
        ('signal', 'rfft', [S], {'fft_length': [20]}), ('signal', 'irfft', [C], {}),
        ('signal', 'irfft', [C], {'fft_length': [5]}), ('signal', 'rfft2d', [S2], {}),
        ('signal', 'irfft2d', [C], {}), ('signal', 'rfft3d', [T(np.ones([2, 2, 4]).tolist(),
                                                                'float32')], {}),
        ('signal', 'irfft3d', [M], {}), ('signal', 'rfftnd', [S2], {}),
        ('signal', 'rfftnd', [S2], {'fft_length': [3, 6], 'axes': [0, 1]}),
        ('signal', 'irfftnd', [M], {'fft_length': [4, 6], 'axes': [-2, -1]}),
        ('signal', 'fftnd', [M], {'norm': 'ortho'}),
        ('signal', 'fftshift', [S2], {}), ('signal', 'ifftshift', [S2], {'axes': 1}),
        ('signal', 'frame', [S, 5, 3], {}), ('signal', 'frame', [S2, 5, 4], {'pad_end': True}),
        ('signal', 'frame', [S2, 2, 1], {'axis': 0}),
        ('signal', 'overlap_and_add', [T(np.arange(12.0).reshape(3, 4).tolist(), 'float32'), 2],
         {}),
        ('signal', 'hann_window', [8], {}), ('signal', 'hann_window', [7], {'periodic': False}),
        ('signal', 'hamming_window', [6], {'periodic': False}),
        ('signal', 'kaiser_window', [7], {}), ('signal', 'kaiser_window', [6], {'beta': 3.0}),
        ('signal', 'kaiser_bessel_derived_window', [8], {}), ('signal', 'vorbis_window', [8], {}),
        ('signal', 'stft', [S, 8, 4], {}), ('signal', 'stft', [S2, 6, 3], {'fft_length': 8,
                                                                           'pad_end': True}),
        ('signal', 'inverse_stft', [T(np.ones([3, 5]).tolist(), 'complex64'), 8, 4], {}),
        ('signal', 'mdct', [S, 8], {}), ('signal', 'mdct', [S, 8], {'norm': 'ortho'}),
        ('signal', 'inverse_mdct', [T(np.arange(12.0).reshape(3, 4).tolist(), 'float32')], {}),
        ('signal', 'linear_to_mel_weight_matrix', [], {'num_mel_bins': 4,
                                                       'num_spectrogram_bins': 9,
                                                       'sample_rate': 100,
                                                       'lower_edge_hertz': 5.0,
                                                       'upper_edge_hertz': 45.0}),
        ('signal', 'mfccs_from_log_mel_spectrograms', [S2], {}),
    ]
    for kind in (1, 2, 3, 4):
        cases.append(('signal', 'dct', [S2], {'type': kind}))
        cases.append(('signal', 'idct', [S2], {'type': kind}))
        if kind != 1:
            cases.append(('signal', 'dct', [S2], {'type': kind, 'norm': 'ortho'}))
    cases.append(('signal', 'dct', [S2], {'n': 5}))
    cases.append(('signal', 'dct', [S2], {'n': 16}))
    return cases


def BYTES(data):
    """A scalar string argument holding arbitrary bytes."""
    return {'bytes': base64.b64encode(data).decode('ascii')}


def FEATURES(**features):
    """A `features` dict: name -> ('fixed' | 'sequence', shape, dtype, default)."""
    return {'features': features}


def _png_files(tf):
    """PNG files as TensorFlow's and PIL's encoders write them (filtered rows, 16-bit, grey,
    palette with transparency, 1-bit)."""
    import io as iolib

    from PIL import Image
    rng = np.random.default_rng(3)
    rgb = (np.arange(5 * 7 * 3).reshape(5, 7, 3) * 11 % 256).astype(np.uint8)
    files = {'rgb': tf.io.encode_png(rgb).numpy(),
             'rgba': tf.io.encode_png(rng.integers(0, 256, (4, 6, 4)).astype(np.uint8)).numpy(),
             'grey16': tf.io.encode_png(rng.integers(0, 65536, (3, 5, 1)).astype(np.uint16))
             .numpy()}
    for mode, image in (('P', Image.fromarray(rgb[..., 0] // 32).convert('P')),
                        ('1', Image.fromarray(rgb[..., 0] > 100)),
                        ('LA', Image.fromarray(rgb[..., :2], 'LA'))):
        buffer = iolib.BytesIO()
        if mode == 'P':
            image.putpalette([(i * 37) % 256 for i in range(768)])
            image.save(buffer, 'PNG', transparency=3)
        else:
            image.save(buffer, 'PNG')
        files[mode] = buffer.getvalue()
    return files


def _bmp(width, height, rows):
    """An uncompressed 24-bit BMP file (bottom-up rows, each padded to 4 bytes)."""
    import struct
    row_size = (width * 3 + 3) // 4 * 4
    pixels = b''.join(bytes(r.tobytes()) + b'\0' * (row_size - width * 3) for r in rows[::-1])
    header = struct.pack('<2sIHHI', b'BM', 54 + len(pixels), 0, 0, 54)
    info = struct.pack('<IiiHHIIiiII', 40, width, height, 1, 24, 0, len(pixels), 0, 0, 0, 0)
    return header + info + pixels


def io_cases(tf):
    import gzip
    import zlib
    pngs = _png_files(tf)
    cases = [('io', 'decode_png', [BYTES(data)], {}) for data in pngs.values()]
    cases += [('io', 'decode_png', [BYTES(pngs['rgb'])], {'channels': c}) for c in (1, 2, 4)]
    cases += [('io', 'decode_png', [BYTES(pngs['rgba'])], {'channels': 3}),
              ('io', 'decode_png', [BYTES(pngs['grey16'])], {'channels': 3}),
              ('io', 'decode_png', [BYTES(pngs['rgb'])], {'dtype': 'uint16'}),
              ('io', 'decode_png', [BYTES(pngs['grey16'])], {'dtype': 'uint16'}),
              ('io', 'decode_image', [BYTES(pngs['P'])], {}),
              ('io', 'decode_image', [BYTES(pngs['rgb'])], {'dtype': 'float32'})]
    bmp = _bmp(3, 2, (np.arange(18).reshape(2, 3, 3) * 13).astype(np.uint8)[..., ::-1])
    cases += [('io', 'decode_bmp', [BYTES(bmp)], {}), ('io', 'decode_image', [BYTES(bmp)], {})]
    jpeg = tf.io.encode_jpeg(np.zeros([6, 9, 3], np.uint8)).numpy()
    cases += [('io', 'extract_jpeg_shape', [BYTES(jpeg)], {}),
              ('io', 'is_jpeg', [BYTES(jpeg)], {}), ('io', 'is_jpeg', [BYTES(pngs['rgb'])], {}),
              ('io', 'encode_png', [T(np.arange(12).reshape(2, 2, 3).tolist(), 'uint8')], {})]
    words = T(['hello?>', 'abc', ''], 'string')
    cases += [('io', 'encode_base64', [words], {}),
              ('io', 'encode_base64', [words], {'pad': True}),
              ('io', 'decode_base64', [T(['aGVsbG8_Pg', 'YWJj'], 'string')], {}),
              ('io', 'decode_compressed', [BYTES(zlib.compress(b'some text' * 5))],
               {'compression_type': 'ZLIB'}),
              ('io', 'decode_compressed', [BYTES(gzip.compress(b'more', mtime=0))],
               {'compression_type': 'GZIP'}),
              ('io', 'decode_compressed', [BYTES(b'plain')], {})]
    for value, dtype in (([[1.5, 2.0], [3.0, -4.0]], 'float32'), ([1, 2, 3], 'int64'),
                         (['a', 'bc'], 'string'), (7, 'int32'), ([True, False], 'bool')):
        tensor = tf.constant(value, dtype)
        cases.append(('io', 'serialize_tensor', [T(value, dtype)], {}))
        cases.append(('io', 'parse_tensor', [BYTES(tf.io.serialize_tensor(tensor).numpy())],
                      {'out_type': dtype}))
    cases += [('io', 'decode_raw', [T(['abcd', 'efgh'], 'string'), 'uint8'], {}),
              ('io', 'decode_csv', [T(['1,2.5,a', '3,,"b,c"'], 'string'), [[0], [1.0], ['x']]],
               {}),
              ('io', 'decode_csv', [T(['1;2', '3;NA'], 'string'), [[0], [9]]],
               {'field_delim': ';', 'na_value': 'NA'}),
              ('io', 'decode_csv', [T(['1,x,2'], 'string'), [[0], [0]]], {'select_cols': [0, 2]})]
    train = tf.train
    example = train.Example(features=train.Features(feature={
        'a': train.Feature(int64_list=train.Int64List(value=[1, 2])),
        'b': train.Feature(bytes_list=train.BytesList(value=[b'x\x00y'])),
        'c': train.Feature(float_list=train.FloatList(value=[1.5, 2.5, 3.5, 4.5]))})).\
        SerializeToString()
    other = train.Example(features=train.Features(feature={
        'a': train.Feature(int64_list=train.Int64List(value=[5, 6])),
        'c': train.Feature(float_list=train.FloatList(value=[0.5, 1.0, 1.5, 2.0]))})).\
        SerializeToString()
    features = FEATURES(a=('fixed', [2], 'int64', None), b=('fixed', [], 'string', 'none'),
                        c=('fixed', [2, 2], 'float32', None))
    cases += [('io', 'parse_single_example', [BYTES(example), features], {}),
              ('io', 'parse_example', [[BYTES(example), BYTES(other)], features], {}),
              ('io', 'parse_example', [[BYTES(example), BYTES(other)],
                                       FEATURES(c=('sequence', [2], 'float32', None),
                                                b=('sequence', [], 'string', None))], {})]
    sequence = train.SequenceExample(
        context=train.Features(feature={'id': train.Feature(int64_list=train.Int64List(
            value=[7]))}),
        feature_lists=train.FeatureLists(feature_list={'tokens': train.FeatureList(feature=[
            train.Feature(int64_list=train.Int64List(value=[i, i + 1])) for i in range(3)])})
    ).SerializeToString()
    cases += [('io', 'parse_single_sequence_example', [BYTES(sequence)],
               {'context_features': FEATURES(id=('fixed', [], 'int64', None)),
                'sequence_features': FEATURES(tokens=('sequence', [2], 'int64', None))})]
    return cases


def image_cases():
    rng = np.random.default_rng(5)
    RGB = T(rng.uniform(0, 1, (4, 5, 3)).round(3).tolist(), 'float32')
    BATCH = T(rng.uniform(0, 1, (2, 4, 6, 3)).round(3).tolist(), 'float32')
    U8 = T(rng.integers(0, 256, (3, 4, 3)).tolist(), 'uint8')
    GREY = T(rng.uniform(0, 1, (1, 5, 6, 1)).round(3).tolist(), 'float32')
    cases = [('image', name, [image], {}) for name in (
        'flip_left_right', 'flip_up_down', 'transpose', 'rot90', 'rgb_to_grayscale',
        'rgb_to_hsv', 'rgb_to_yiq', 'rgb_to_yuv', 'yiq_to_rgb', 'yuv_to_rgb',
        'per_image_standardization', 'total_variation') for image in (RGB, BATCH)]
    cases += [('image', name, [U8], {}) for name in (
        'flip_left_right', 'rgb_to_grayscale', 'per_image_standardization', 'total_variation')]
    cases += [
        ('image', 'hsv_to_rgb', [T([[[0.1, 0.5, 0.9], [0.7, 1.0, 0.2], [0.95, 0.0, 0.5]]],
                                   'float32')], {}),
        ('image', 'rot90', [BATCH], {'k': 2}), ('image', 'rot90', [RGB], {'k': 3}),
        ('image', 'grayscale_to_rgb', [GREY], {}),
        ('image', 'convert_image_dtype', [U8, 'float32'], {}),
        ('image', 'convert_image_dtype', [RGB, 'uint8'], {}),
        ('image', 'convert_image_dtype', [T([[[-0.5, 1.5, 0.5]]], 'float32'), 'uint8'],
         {'saturate': True}),
        ('image', 'convert_image_dtype', [U8, 'int32'], {}),
        ('image', 'convert_image_dtype', [T([[[70000, 5, 2 ** 31 - 1]]], 'int32'), 'uint8'],
         {}),
        ('image', 'adjust_brightness', [RGB, 0.2], {}),
        ('image', 'adjust_brightness', [U8, 0.1], {}),
        ('image', 'adjust_gamma', [RGB], {'gamma': 2.0, 'gain': 0.5}),
        ('image', 'adjust_gamma', [U8, 0.5], {}),
        ('image', 'adjust_saturation', [RGB, 1.7], {}),
        ('image', 'adjust_saturation', [U8, 0.3], {}),
        ('image', 'adjust_hue', [RGB, 0.2], {}), ('image', 'adjust_hue', [BATCH, -0.45], {}),
        ('image', 'adjust_contrast', [RGB, 1.5], {}),
        ('image', 'central_crop', [BATCH, 0.5], {}), ('image', 'central_crop', [RGB, 0.7], {}),
        ('image', 'crop_to_bounding_box', [BATCH, 1, 2, 2, 3], {}),
        ('image', 'pad_to_bounding_box', [RGB, 1, 0, 6, 7], {}),
        ('image', 'resize_with_crop_or_pad', [BATCH, 6, 3], {}),
        ('image', 'resize_with_crop_or_pad', [RGB, 3, 8], {}),
        ('image', 'resize', [BATCH, [7, 9]], {}), ('image', 'resize', [RGB, [2, 3]], {}),
        ('image', 'resize', [BATCH, [3, 10]], {'method': 'nearest'}),
        ('image', 'resize', [U8, [5, 2]], {'method': 'nearest'}),
        ('image', 'resize', [U8, [5, 7]], {}),
        ('image', 'resize', [BATCH, [7, 4]], {'method': 'bicubic'}),
        ('image', 'resize', [RGB, [2, 2]], {'method': 'bicubic'}),
        ('image', 'resize', [BATCH, [8, 8]], {'preserve_aspect_ratio': True}),
        ('image', 'resize_with_pad', [BATCH, 8, 8], {}),
        ('image', 'resize_with_pad', [RGB, 3, 9], {'method': 'nearest'}),
        ('image', 'psnr', [BATCH, T(np.full((2, 4, 6, 3), 0.5).tolist(), 'float32'), 1.0], {}),
        ('image', 'image_gradients', [GREY], {}), ('image', 'sobel_edges', [BATCH], {}),
        ('image', 'extract_patches', [BATCH, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'SAME'],
         {}),
        ('image', 'extract_patches', [GREY, [1, 2, 2, 1], [1, 1, 3, 1], [1, 2, 1, 1], 'VALID'],
         {}),
        ('image', 'stateless_random_flip_left_right', [BATCH, [1, 2]], {}),
        ('image', 'stateless_random_flip_up_down', [BATCH, [3, 4]], {}),
        ('image', 'stateless_random_brightness', [RGB, 0.3, [5, 6]], {}),
        ('image', 'stateless_random_contrast', [RGB, 0.2, 1.8, [7, 8]], {}),
        ('image', 'stateless_random_saturation', [RGB, 0.2, 1.8, [9, 1]], {}),
        ('image', 'stateless_random_hue', [RGB, 0.3, [2, 2]], {}),
        ('image', 'stateless_random_crop', [BATCH, [1, 2, 3, 3], [4, 4]], {}),
    ]
    BIG = T(rng.uniform(0, 1, (1, 24, 20, 2)).round(3).tolist(), 'float32')
    BIG2 = T(rng.uniform(0, 1, (1, 24, 20, 2)).round(3).tolist(), 'float32')
    cases += [
        ('image', 'ssim', [BIG, BIG2, 1.0], {}), ('image', 'ssim', [BIG, BIG, 1.0], {}),
        ('image', 'ssim', [BIG, BIG2, 1.0], {'filter_size': 5, 'filter_sigma': 0.8}),
        ('image', 'ssim_multiscale', [BIG, BIG2, 1.0],
         {'power_factors': [0.5, 0.5], 'filter_size': 5}),
        ('image', 'draw_bounding_boxes', [BATCH, [[[0.1, 0.2, 0.8, 0.9]], [[0.0, 0.0, 0.5,
                                                                             0.5]]],
                                          [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]]], {}),
        ('image', 'crop_and_resize', [BATCH, [[0.1, 0.2, 0.9, 0.7], [0.5, -0.2, 1.2, 1.0]],
                                      [1, 0], [3, 4]], {}),
        ('image', 'crop_and_resize', [BATCH, [[0.1, 0.2, 0.9, 0.7]], [0], [2, 5]],
         {'method': 'nearest', 'extrapolation_value': 0.5}),
        ('image', 'crop_and_resize', [BATCH, [[0.3, 0.2, 0.3, 0.7]], [1], [1, 1]], {}),
    ]
    boxes = T([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
               [0, 10.1, 1, 11.1], [0, 100, 1, 101]], 'float32')
    scores = T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], 'float32')
    cases += [
        ('image', 'non_max_suppression', [boxes, scores, 3], {}),
        ('image', 'non_max_suppression', [boxes, scores, 6], {'iou_threshold': 0.7,
                                                             'score_threshold': 0.4}),
        ('image', 'non_max_suppression_with_scores', [boxes, scores, 4], {}),
        ('image', 'non_max_suppression_padded', [boxes, scores, 5],
         {'pad_to_max_output_size': True}),
        ('image', 'non_max_suppression_overlaps',
         [T([[1, 0.7, 0.2], [0.7, 1, 0.0], [0.2, 0.0, 1]], 'float32'),
          T([0.1, 0.8, 0.5], 'float32'), 3], {'overlap_threshold': 0.6}),
    ]
    return cases


def strings_cases():
    W = T(['a', 'b', 'c', 'd'], 'string')
    M = T([['a', 'b', 'c'], ['d', 'e', 'f']], 'string')
    return [
        ('strings', 'ngrams', [W, 2], {}), ('strings', 'ngrams', [M, [1, 2]], {'separator': '-'}),
        ('strings', 'ngrams', [T(['a', 'b'], 'string'), 3], {'pad_values': ['<', '>'],
                                                            'padding_width': 1}),
        ('strings', 'ngrams', [W, 3], {'pad_values': '_'}),
        ('strings', 'ngrams', [T(['a', 'b'], 'string'), 4], {'preserve_short_sequences': True}),
        ('strings', 'unsorted_segment_join', [T(['a', 'b', 'c'], 'string'), [1, 0, 1], 3],
         {'separator': ':'}),
        ('strings', 'unsorted_segment_join', [M, [1, 1], 2], {}),
        ('strings', 'to_hash_bucket', [T(['hello', 'x', '', 'a longer string!'], 'string'),
                                       100], {}),
        ('strings', 'to_hash_bucket_strong', [T(['hello', 'x', '', 'sixteen bytes!!!'],
                                                'string'), 1000, [1, 2]], {}),
        ('strings', 'unicode_split_with_offsets', ['h\u00e9llo', 'UTF-8'], {}),
        ('strings', 'unicode_transcode', [T(['h\u00e9llo', 'abc'], 'string'), 'UTF-8',
                                          'UTF-16-BE'], {}),
        ('strings', 'unicode_transcode', [T(['abc'], 'string'), 'UTF-8', 'UTF-32-BE'], {}),
    ]


def CASES(tf=None):
    return tnp_cases() + signal_cases() + image_cases() + strings_cases() + \
        (io_cases(tf) if tf is not None else [])


def encode(value):
    """An output as JSON: values, dtype and shape of tensors; tuples and lists in order."""
    import tensorflow as tf
    if isinstance(value, (list, tuple)):
        return {'sequence': [encode(v) for v in value]}
    if isinstance(value, dict):
        return {'mapping': {key: encode(v) for key, v in value.items()}}
    if isinstance(value, tf.DType):
        return {'dtype_value': value.name}
    if isinstance(value, np.dtype):
        return {'dtype_value': value.name}
    if isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, tf.Tensor):
        return {'python': value.item() if isinstance(value, np.generic) else value}
    array = np.asarray(value.numpy(), dtype=object if value.dtype == tf.string else None)
    if array.dtype.kind in 'SO':
        listed = np.vectorize(lambda b: b.decode('latin-1'), otypes=[object])(array).tolist() \
            if array.size else array.tolist()
    elif array.dtype.kind == 'c':
        listed = [np.real(array).tolist(), np.imag(array).tolist()]
    else:
        listed = array.tolist()
    return {'value': listed, 'dtype': value.dtype.name, 'shape': list(array.shape)}


def decode_arg(tf, arg):
    """A case's argument as TensorFlow's value (tests/runtime/test_tf_surface_calls.py reads
    them the same way for runtime)."""
    if isinstance(arg, dict) and 'tensor' in arg:
        return tf.constant(arg['tensor'], dtype=arg['dtype'])
    if isinstance(arg, dict) and 'bytes' in arg:
        return base64.b64decode(arg['bytes'])
    if isinstance(arg, dict) and 'features' in arg:
        return {key: _feature(tf, *spec) for key, spec in arg['features'].items()}
    if isinstance(arg, list):
        return [decode_arg(tf, a) for a in arg]
    return arg


def _feature(tf, kind, shape, dtype, default):
    if kind == 'fixed':
        return tf.io.FixedLenFeature(shape, dtype, default)
    return tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing=True,
                                         default_value=default)


def main():
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp
    modules = {'tnp': tnp, 'signal': tf.signal, 'image': tf.image, 'io': tf.io,
               'strings': tf.strings}
    records = []
    for module, name, args, kwargs in CASES(tf):
        fn = getattr(modules[module], name)
        call_args = [decode_arg(tf, a) for a in args]
        if module == 'image' and name == 'convert_image_dtype':
            call_args[1] = tf.as_dtype(call_args[1])
        call_kwargs = {k: decode_arg(tf, v) for k, v in kwargs.items()}
        for key in ('dtype', 'out_type'):
            if module != 'tnp' and isinstance(call_kwargs.get(key), str):
                call_kwargs[key] = tf.as_dtype(call_kwargs[key])
        if module == 'tnp' and (name in ('promote_types', 'result_type') or
                                'dtype' in call_kwargs):
            for key in ('dtype',):
                if key in call_kwargs:
                    call_kwargs[key] = np.dtype(call_kwargs[key])
            if name == 'promote_types':
                call_args = [np.dtype(a) for a in call_args]
            if name == 'result_type':
                call_args = [np.dtype(a) if isinstance(a, str) else a for a in call_args]
        record = {'module': module, 'name': name, 'args': args, 'kwargs': kwargs}
        try:
            record['result'] = encode(fn(*call_args, **call_kwargs))
        except Exception as error:  # recorded: the tests expect the same error type
            record['error'] = type(error).__name__
        records.append(record)
    with open(OUT, 'w') as f:
        json.dump(records, f, indent=0, default=float)
        f.write('\n')
    print(f'{len(records)} cases, {sum("error" in r for r in records)} errors -> {OUT}')


if __name__ == '__main__':
    main()
