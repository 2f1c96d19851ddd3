"""Run one parity program under a `tf` namespace and describe what it did as plain data.

Shared by tools/tf_parity_fixtures.py (run with TensorFlow, writes the fixtures) and
tests/parity/test_parity.py (runs the same program on `runtime`/`autograph` and compares).
Imports only numpy and the standard library, so both sides can load it.

A program is a .py file under programs/ that uses the globals `tf`, `np`, `record(label, value)`
(what to compare) and `raises(label, fn)` (calls fn; records its result or the exception type).
"""
import contextlib
import io
import math
import re
import sys
import traceback

import numpy as np


def describe(value):
    """Plain JSON data for a value from either side (tensors, Variables, shapes, numbers, nests)."""
    if value is None or isinstance(value, (bool, str)):
        return {'kind': 'py', 'type': type(value).__name__, 'value': value}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {'kind': 'py', 'type': type(value).__name__,
                'value': value if math.isfinite(value) else repr(value)}
    if isinstance(value, bytes):
        return {'kind': 'py', 'type': 'bytes', 'value': value.decode('latin-1')}
    if isinstance(value, (list, tuple)):
        return {'kind': type(value).__name__, 'items': [describe(v) for v in value]}
    if isinstance(value, dict):
        return {'kind': 'dict', 'items': {str(k): describe(v) for k, v in sorted(value.items())}}
    if hasattr(value, 'as_list') and hasattr(value, 'rank'):          # TensorShape
        return {'kind': 'shape', 'value': None if value.rank is None else value.as_list()}
    if hasattr(value, 'is_floating') and hasattr(value, 'as_numpy_dtype'):   # DType
        return {'kind': 'dtype', 'value': value.name}
    if hasattr(value, 'numpy') and hasattr(value, 'dtype'):           # tensor or Variable
        return array(value.numpy(), value.dtype.name)
    if isinstance(value, (np.ndarray, np.generic)):
        return array(value, None)
    return {'kind': 'other', 'type': type(value).__name__}


def array(value, dtype):
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind in 'SU':
        flat = [v.decode('latin-1') if isinstance(v, bytes) else str(v) for v in arr.ravel()]
        data = np.array(flat, dtype=object).reshape(arr.shape).tolist()
    else:
        data = [v if math.isfinite(v) else repr(float(v)) for v in arr.astype(np.float64).ravel()] \
            if arr.dtype.kind in 'fc' else arr.astype(np.int64 if arr.dtype.kind in 'iub'
                                                     else arr.dtype).ravel().tolist()
    return {'kind': 'array', 'dtype': dtype or arr.dtype.name, 'shape': list(arr.shape),
            'value': data}


class Recorder:
    def __init__(self):
        self.records = []

    def record(self, label, value):
        self.records.append([label, describe(value)])

    def raises(self, label, fn):
        try:
            value = fn()
        except Exception as e:          # the exception type is what is compared
            self.records.append([label, {'kind': 'error', 'type': type(e).__name__}])
        else:
            self.record(label, value)


def run_program(path, tf, stdout_capture=None):
    """Run the program at `path` with `tf` bound; returns {'records', 'stdout', 'error'}."""
    with open(path) as f:
        source = f.read()
    recorder = Recorder()
    name = 'parity_' + re.sub(r'\W', '_', path.rsplit('/', 1)[-1][:-3])
    scope = {'__name__': name, '__file__': path, 'tf': tf, 'np': np,
             'record': recorder.record, 'raises': recorder.raises}
    module = type(sys)(name)
    module.__dict__.update(scope)
    sys.modules[name] = module          # so that converters find the functions' module
    error = None
    capture = stdout_capture or contextlib.redirect_stdout
    buffer = io.StringIO()
    try:
        with capture(buffer):
            try:
                exec(compile(source, path, 'exec'), module.__dict__)
            except Exception as e:
                error = {'type': type(e).__name__,
                         'where': ''.join(traceback.format_exception_only(type(e), e))[:600]}
    finally:
        del sys.modules[name]
    return {'records': recorder.records, 'stdout': buffer.getvalue(), 'error': error}


def normalize_stdout(text):
    """Printed text with the two libraries' names taken out (tf.Tensor / rt.Tensor -> Tensor)."""
    text = re.sub(r'\b(tf|rt)\.(Tensor|Variable)\b', r'\2', text)
    return text
