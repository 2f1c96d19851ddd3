"""`rt.experimental.numpy`, `rt.signal`, `rt.image`, `rt.io` and `rt.strings` give what
TensorFlow gives (values, dtypes, shapes) for the sample calls recorded with TensorFlow by
tools/tf_surface_call_fixtures.py, eagerly and inside `ag.function`. Where TensorFlow's own call
fails (its numpy API without numpy behavior calls tensor methods that only exist with it),
the result is numpy's."""
import base64
import builtins
import json
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
import runtime.experimental.numpy as rnp

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_surface_calls.json')
CASES = json.load(open(FIXTURE, encoding='utf-8'))
MODULES = {'tnp': rnp, 'signal': getattr(rt, 'signal', None), 'image': rt.image, 'io': rt.io,
           'strings': rt.strings}


def _feature(kind, shape, dtype, default):
    if kind == 'fixed':
        return rt.io.FixedLenFeature(shape, dtype, default)
    return rt.io.FixedLenSequenceFeature(shape, dtype, allow_missing=True, default_value=default)


def _arg(arg):
    if isinstance(arg, dict) and 'tensor' in arg:
        return rt.constant(arg['tensor'], dtype=arg['dtype'])
    if isinstance(arg, dict) and 'bytes' in arg:
        return base64.b64decode(arg['bytes'])
    if isinstance(arg, dict) and 'features' in arg:
        return {key: _feature(*spec) for key, spec in arg['features'].items()}
    if isinstance(arg, list):
        return [_arg(a) for a in arg]
    return arg


def _numpy_arg(arg):
    if isinstance(arg, dict) and 'tensor' in arg:
        return np.asarray(arg['tensor'], dtype=arg['dtype'])
    if isinstance(arg, list):
        return [_numpy_arg(a) for a in arg]
    return arg


def _call(case, fn):
    args = [_arg(a) for a in case['args']]
    kwargs = {k: _arg(v) for k, v in case['kwargs'].items()}
    if case['module'] == 'image' and case['name'] == 'convert_image_dtype':
        args[1] = rt.as_dtype(args[1])
    for key in ('dtype', 'out_type'):
        if case['module'] != 'tnp' and isinstance(kwargs.get(key), str):
            kwargs[key] = rt.as_dtype(kwargs[key])
    if case['module'] == 'tnp' and (case['name'] in ('promote_types', 'result_type') or
                                    'dtype' in kwargs):
        if 'dtype' in kwargs:
            kwargs['dtype'] = np.dtype(kwargs['dtype'])
        args = [np.dtype(a) if isinstance(a, str) else a for a in args]
    return fn(*args, **kwargs)


def _check(expected, got, where):
    if 'mapping' in expected:
        assert isinstance(got, dict) and sorted(got) == sorted(expected['mapping']), where
        for key, e in expected['mapping'].items():
            _check(e, got[key], where + (key,))
        return
    if 'sequence' in expected:
        assert isinstance(got, (list, tuple)), where
        assert len(got) == len(expected['sequence']), where
        for e, g in zip(expected['sequence'], got):
            _check(e, g, where)
        return
    if 'dtype_value' in expected:
        assert np.dtype(getattr(got, 'name', got)).name == expected['dtype_value'], where
        return
    if 'python' in expected:
        assert not isinstance(got, rt.Tensor) and got == expected['python'], where
        return
    assert isinstance(got, rt.Tensor), (where, got)
    assert got.dtype.name == expected['dtype'], (where, got.dtype.name, expected['dtype'])
    assert list(got.shape) == expected['shape'], (where, got.shape, expected['shape'])
    value = np.asarray(got.numpy(), dtype=object if got.dtype == rt.string else None)
    if value.dtype.kind == 'c':
        want = np.asarray(expected['value'][0]) + 1j * np.asarray(expected['value'][1])
    elif value.dtype.kind in 'SO':
        want = np.asarray(expected['value'], dtype=object)
        value = np.vectorize(lambda b: b.decode('latin-1'), otypes=[object])(value) \
            if value.size else value
        assert np.array_equal(value, want), where
        return
    else:
        want = np.asarray(expected['value'], dtype=value.dtype if value.size else None)
    tolerance = 1e-3 if value.dtype == np.float16 else 1e-5
    np.testing.assert_allclose(value, want, rtol=tolerance, atol=tolerance, equal_nan=True,
                               err_msg=str(where))


def _nd(transform):
    return lambda x, fft_length=None, axes=None, norm=None: transform(x, fft_length, axes, norm)


# numpy's counterparts of the calls TensorFlow's own build cannot run (its CPU kernels of the
# N-D transforms are not registered)
REFERENCES = {'fftnd': _nd(np.fft.fftn), 'ifftnd': _nd(np.fft.ifftn),
              'rfftnd': _nd(np.fft.rfftn), 'irfftnd': _nd(np.fft.irfftn)}


def _numpy_result(case):
    fn = REFERENCES.get(case['name']) or getattr(np, case['name'])
    return fn(*[_numpy_arg(a) for a in case['args']], **case['kwargs'])


# calls whose bytes may differ from TensorFlow's (zlib settings, row filters) while meaning the
# same: both are decoded and compared
DECODERS = {'encode_png': lambda data: rt.io.decode_png(data).numpy()}


def _ids(case):
    return f"{case['module']}.{case['name']}"


@pytest.mark.parametrize('module', sorted({c['module'] for c in CASES}))
def test_calls_agree_with_tensorflow_eagerly_and_in_functions(module):
    cases = [c for c in CASES if c['module'] == module]
    assert cases
    for case in cases:
        fn = getattr(MODULES[module], case['name'])
        where = (_ids(case), case['args'], case['kwargs'])
        if 'error' in case and case['module'] != 'tnp' and case['name'] not in REFERENCES:
            with pytest.raises(getattr(rt.errors, case['error'], None) or
                               getattr(builtins, case['error'])):
                _call(case, fn)
            continue
        if 'error' in case:
            try:
                expected = np.asarray(_numpy_result(case))
            except (ValueError, TypeError):  # numpy refuses the call too
                with pytest.raises((ValueError, TypeError, rt.errors.InvalidArgumentError)):
                    _call(case, fn)
                continue
            got = _call(case, fn)
            got = got if not isinstance(got, rt.Tensor) else got.numpy()
            np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, err_msg=str(where))
            continue
        if case['name'] in DECODERS:
            decode = DECODERS[case['name']]
            want = case['result']['value'].encode('latin-1')
            np.testing.assert_array_equal(decode(_call(case, fn)), decode(want))
            continue
        _check(case['result'], _call(case, fn), where)
        if 'python' not in case['result'] and 'dtype_value' not in case['result']:
            traced = ag.function(lambda case=case, fn=fn: _call(case, fn))
            _check(case['result'], traced(), ('in ag.function',) + where)
