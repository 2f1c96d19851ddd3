"""Write tests/runtime/fixtures/tf_surface_calls.json: what TensorFlow gives for sample calls of
`tf.experimental.numpy`, `tf.signal`, `tf.image`, `tf.io` and `tf.strings` (run with a Python
that has tensorflow; it is never a project dependency):

    /path/to/tf-venv/bin/python tools/tf_surface_fixtures.py

Each case is (module, function, positional args, keyword args); an argument written
`T(value, dtype)` is a tensor. The fixture holds each case with TensorFlow's outputs (values,
dtypes, shapes); tests/runtime/test_tf_surface_calls.py makes the same calls on runtime, eagerly
and inside `ag.function`, and compares.
"""
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


def CASES():
    return tnp_cases() + signal_cases()


def encode(value):
    """An output as JSON: values, dtype and shape of tensors; tuples and lists in order."""
    import tensorflow as tf
    if isinstance(value, (list, tuple)):
        return {'sequence': [encode(v) for v in value]}
    if isinstance(value, tf.DType):
        return {'dtype_value': value.name}
    if isinstance(value, np.dtype):
        return {'dtype_value': value.name}
    if isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, tf.Tensor):
        return {'python': value.item() if isinstance(value, np.generic) else value}
    array = value.numpy()
    if array.dtype.kind in 'SO':
        listed = np.vectorize(lambda b: b.decode('latin-1'), otypes=[object])(array).tolist() \
            if array.size else array.tolist()
    elif array.dtype.kind == 'c':
        listed = [np.real(array).tolist(), np.imag(array).tolist()]
    else:
        listed = array.tolist()
    return {'value': listed, 'dtype': value.dtype.name, 'shape': list(array.shape)}


def decode_arg(tf, arg):
    if isinstance(arg, dict) and 'tensor' in arg:
        return tf.constant(arg['tensor'], dtype=arg['dtype'])
    if isinstance(arg, list):
        return [decode_arg(tf, a) for a in arg]
    return arg


def main():
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp
    modules = {'tnp': tnp, 'signal': tf.signal, 'image': tf.image, 'io': tf.io,
               'strings': tf.strings}
    records = []
    for module, name, args, kwargs in CASES():
        fn = getattr(modules[module], name)
        call_args = [decode_arg(tf, a) for a in args]
        call_kwargs = {k: decode_arg(tf, v) for k, v in kwargs.items()}
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
