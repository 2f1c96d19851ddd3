"""TensorFlow loads a SavedModel holding every op of the math-like surface (rt.math,
rt.nn, rt.linalg, rt.strings, rt.debugging) and computes what we compute: the node attrs and
op types are TensorFlow's own.

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed, e.g.
`AUTOGRAPH_RT_TF_PYTHON=/work/tfenv/bin/python python3 -m pytest -q tests/interop`.
"""
import os
import pickle
import subprocess

import numpy as np
import pytest

import autograph as ag
import runtime as rt

TF_PYTHON = os.environ.get('AUTOGRAPH_RT_TF_PYTHON')
pytestmark = pytest.mark.skipif(not TF_PYTHON, reason='AUTOGRAPH_RT_TF_PYTHON is not set')

TF_SCRIPT = '''
import pickle, sys
import numpy as np
import tensorflow as tf
with open(sys.argv[2], 'rb') as f:
    args = pickle.load(f)
serve = tf.saved_model.load(sys.argv[1]).signatures['serving_default']
result = serve(**{k: tf.constant(v.astype(bytes) if v.dtype == object else v)
                  for k, v in args.items()})
with open(sys.argv[3], 'wb') as f:
    pickle.dump({k: np.asarray(v.numpy()) for k, v in result.items()}, f)
'''


def every_op(x, m, s, i):
    out = {name: getattr(rt.math, name)(x * 0.5) for name in (
        'log1p', 'expm1', 'reciprocal', 'tan', 'asin', 'acos', 'atan', 'asinh', 'atanh', 'sinh',
        'cosh', 'erf', 'erfc', 'softplus', 'is_nan', 'is_inf', 'is_finite', 'log_sigmoid')}
    out['rsqrt'] = rt.math.rsqrt(rt.abs(x) + 0.5)
    out['lgamma'] = rt.math.lgamma(rt.abs(x) + 0.5)
    out['digamma'] = rt.math.digamma(rt.abs(x) + 0.5)
    out['polygamma'] = rt.math.polygamma(2.0, rt.abs(x) + 0.5)
    out['acosh'] = rt.math.acosh(rt.abs(x) + 1.5)
    out['squared_difference'] = rt.math.squared_difference(x, 1.0)
    out['divide_no_nan'] = rt.math.divide_no_nan(x, x - 0.25)
    out['atan2'] = rt.math.atan2(x, x + 1.0)
    out['xlogy'] = rt.math.xlogy(x, rt.abs(x) + 1.0)
    out['xdivy'] = rt.math.xdivy(x, x + 3.0)
    out['multiply_no_nan'] = rt.math.multiply_no_nan(x, x)
    out['add_n'] = rt.math.add_n([x, x, x])
    out['reduce_logsumexp'] = rt.math.reduce_logsumexp(x, 1)
    out['reduce_std'] = rt.math.reduce_std(x, 0)
    out['reduce_euclidean_norm'] = rt.math.reduce_euclidean_norm(x, 1, keepdims=True)
    out['cumsum'] = rt.math.cumsum(x, 1, exclusive=True, reverse=True)
    out['cumprod'] = rt.math.cumprod(x, 0)
    out['cumulative_logsumexp'] = rt.math.cumulative_logsumexp(x, 1)
    out['top_k_values'], out['top_k_indices'] = rt.math.top_k(x, 2)
    out['in_top_k'] = rt.math.in_top_k(rt.constant([0, 1]), x, 2)
    out['segment_sum'] = rt.math.segment_sum(x, rt.constant([0, 0]))
    out['unsorted_segment_sum'] = rt.math.unsorted_segment_sum(x, rt.constant([1, 0]), 3)
    out['bincount'] = rt.math.bincount(i)
    out['bincount_weights'] = rt.math.bincount(i, weights=rt.cast(i, rt.float32), minlength=7)
    out['confusion_matrix'] = rt.math.confusion_matrix(rt.constant([0, 1, 2]),
                                                       rt.constant([0, 2, 2]))
    out['sort'] = rt.sort(x)
    out['argsort'] = rt.argsort(x, direction='DESCENDING')
    out['einsum'] = rt.einsum('ij,kj->ik', x, x)
    out['tensordot'] = rt.tensordot(x, x, [[1], [1]])
    out['norm'] = rt.norm(x)
    out['clip_by_norm'] = rt.clip_by_norm(x, 1.0)
    out['global_norm'] = rt.linalg.global_norm([x, x])
    for name in ('relu6', 'elu', 'selu', 'softsign', 'gelu', 'silu', 'softmax', 'log_softmax'):
        out[name] = getattr(rt.nn, name)(x * 4)
    out['leaky_relu'] = rt.nn.leaky_relu(x, 0.1)
    out['softmax_axis_0'] = rt.nn.softmax(x, axis=0)
    out['softmax_cross_entropy'] = rt.nn.softmax_cross_entropy_with_logits(
        labels=rt.nn.softmax(x * 2), logits=x)
    out['sparse_softmax_cross_entropy'] = rt.nn.sparse_softmax_cross_entropy_with_logits(
        labels=rt.constant([1, 3]), logits=x)
    out['sigmoid_cross_entropy'] = rt.nn.sigmoid_cross_entropy_with_logits(
        labels=rt.nn.sigmoid(x), logits=x)
    out['l2_loss'] = rt.nn.l2_loss(x)
    out['bias_add'] = rt.nn.bias_add(x, rt.constant([1., 2., 3., 4.]))
    image = rt.reshape(rt.concat([x, x, x], 0), [1, 3, 4, 2])
    out['conv2d'] = rt.nn.conv2d(image, rt.reshape(rt.range(16.), [2, 2, 2, 2]), 1, 'SAME')
    out['max_pool2d'] = rt.nn.max_pool2d(image, 2, 1, 'SAME')
    out['avg_pool2d'] = rt.nn.avg_pool2d(image, 2, 2, 'SAME')
    out['inv'] = rt.linalg.inv(m)
    out['det'] = rt.linalg.det(m)
    out['solve'] = rt.linalg.solve(m, m)
    out['triangular_solve'] = rt.linalg.triangular_solve(m, m, lower=False, adjoint=True)
    out['cholesky'] = rt.linalg.cholesky(m)
    out['qr_q'], out['qr_r'] = rt.linalg.qr(m)
    out['diag'] = rt.linalg.diag(x[0], k=1)
    out['diag_part'] = rt.linalg.diag_part(m, k=-1)
    out['band_part'] = rt.linalg.band_part(m, 1, 0)
    out['trace'] = rt.linalg.trace(m)
    out['logdet'] = rt.linalg.logdet(m)
    out['matvec'] = rt.linalg.matvec(m, m[0])
    out['join'] = rt.strings.join([s, s], separator='-')
    out['length'] = rt.strings.length(s)
    out['length_chars'] = rt.strings.length(s, unit='UTF8_CHAR')
    for name in ('lower', 'upper', 'strip'):
        out[name] = getattr(rt.strings, name)(s)
    out['substr'] = rt.strings.substr(s, 0, 2)
    out['as_string'] = rt.strings.as_string(x, precision=3)
    out['as_string_ints'] = rt.strings.as_string(i, width=3, fill='0')
    out['format'] = rt.strings.format('x={} s={}', [x, s])
    out['regex_replace'] = rt.strings.regex_replace(s, 'l+', 'L')
    out['regex_full_match'] = rt.strings.regex_full_match(s, '[a-z]+')
    out['reduce_join'] = rt.strings.reduce_join(s, separator=',')
    out['to_number'] = rt.strings.to_number(rt.constant(['1.5', '2']))
    out['check_numerics'] = rt.debugging.check_numerics(x, 'm')
    return out


def test_tensorflow_runs_our_graphs_of_the_math_surface_and_agrees(tmp_path):
    f = ag.function(every_op, input_signature=[
        rt.TensorSpec([None, 4], rt.float32), rt.TensorSpec([3, 3], rt.float64),
        rt.TensorSpec([None], rt.string), rt.TensorSpec([None], rt.int32)])
    args = dict(x=np.array([[0.3, -0.6, 1.2, 0.1], [0.9, 0.2, -0.4, 0.5]], np.float32),
                m=np.array([[4., 1., 0.5], [1., 3., 1.], [0.5, 1., 2.]]),
                s=np.array(['Hello'.encode(), 'wörld '.encode()], object),
                i=np.array([1, 1, 4, 0], np.int32))
    ours = {k: np.asarray(v.numpy()) for k, v in
            f(**{k: rt.constant(v) for k, v in args.items()}).items()}
    export = str(tmp_path / 'surface')
    ag.saved_model.save(f, export)
    (tmp_path / 'args.pkl').write_bytes(pickle.dumps(args))
    done = subprocess.run([TF_PYTHON, '-c', TF_SCRIPT, export, str(tmp_path / 'args.pkl'),
                           str(tmp_path / 'out.pkl')], capture_output=True, text=True,
                          timeout=300, env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    theirs = pickle.loads((tmp_path / 'out.pkl').read_bytes())
    assert sorted(theirs) == sorted(ours)
    for name, value in theirs.items():
        assert value.shape == ours[name].shape, name
        if value.dtype.kind == 'f':
            np.testing.assert_allclose(ours[name], value, rtol=1e-5, atol=1e-6, err_msg=name)
        else:
            assert value.tolist() == ours[name].tolist(), name
