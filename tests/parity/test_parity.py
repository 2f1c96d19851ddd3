"""Parity with TensorFlow: each program in programs/ runs here with `tf` bound to `autograph_rt`
(what `import autograph_rt as tf` gives), and must do what it did under TensorFlow
(fixtures/NAME.json, written by tools/tf_parity_fixtures.py): the same recorded values (dtype,
shape, data within float32 tolerance), the same printed output (tf./rt. prefixes aside), the
same exception types.

Where SPEC deliberately differs from TensorFlow, SPEC_DIFFERENCES says what SPEC expects instead.
"""
import json
import os
import types

import numpy as np
import pytest

import autograph_rt
import runtime as rt
from tests.parity import harness  # the runner shared with tools/tf_parity_fixtures.py

HERE = os.path.dirname(os.path.abspath(__file__))

PROGRAMS = sorted(n[:-3] for n in os.listdir(os.path.join(HERE, 'programs')) if n.endswith('.py'))


def py_result(value):
    return {'kind': 'py', 'type': type(value).__name__, 'value': value}


# What SPEC asks for where TensorFlow 2 behaves otherwise: (program, label) -> expected record,
# or (program, 'error') -> the program-level error SPEC expects instead of TensorFlow's.
SPEC_DIFFERENCES = {
    # By design: `assert` on a tensor becomes a graph assertion; TensorFlow's default tf.function
    # leaves it to Python and fails with OperatorNotAllowedInGraphError.
    ('autograph_assert', 'error'): None,
    ('autograph_assert', 'py_assert_ok'): harness.array(np.int32(3), 'int32'),
    ('autograph_assert', 'py_assert_fails'): {'kind': 'error', 'type': 'InvalidArgumentError'},
    # By design: early returns inside tensor if/elif convert; TensorFlow 2.21 raises
    # "ValueError: the else branch must also have a return statement".
    ('autograph_early_return', 'error'): None,
    ('autograph_early_return', 'big'): harness.array(np.int32(2), 'int32'),
    ('autograph_early_return', 'small'): harness.array(np.int32(1), 'int32'),
    ('autograph_early_return', 'neg'): harness.array(np.int32(0), 'int32'),
    # By design: enumerate and zip over tensors convert; TensorFlow 2.21 refuses to iterate.
    ('autograph_enumerate_zip', 'error'): None,
    ('autograph_enumerate_zip', 'out'): {'kind': 'tuple', 'items': [
        harness.array(np.float32(8.0), 'float32'), harness.array(np.float32(14.0), 'float32')]},
    # By design: two tensors of different dtypes, or a Python value that does not fit, are a
    # TypeError; TensorFlow's eager kernels raise InvalidArgumentError.
    ('conversion_dtypes', 'add_mismatch'): {'kind': 'error', 'type': 'TypeError'},
    ('conversion_dtypes', 'frac_into_int'): {'kind': 'error', 'type': 'TypeError'},
    # The same rule for an op's dtype constraint (TensorFlow: InvalidArgumentError eagerly,
    # TypeError while building a graph; here TypeError both ways).
    ('shape_errors', 'one_hot_float'): {'kind': 'error', 'type': 'TypeError'},
    # By design: 1, True and 1.0 are distinct cache keys (TensorFlow 2.21 traces once for them).
    ('function_cache_keys_literals', 'count'): py_result(3),
    ('function_cache_keys_literals', 'float_result'): harness.array(np.float32(1.0), 'float32'),
    ('function_cache_keys_literals', 'stdout'): 'Tracing! int\nTracing! bool\nTracing! float\n',
    # By design: a Variable created on the first trace persists and is reused; TensorFlow traces
    # a variable-creating function twice and rejects the second creation on the first call.
    ('function_variables_once', 'bad_first'): harness.array(np.float32(2.0), 'float32'),
    # By design: .numpy() on a symbolic tensor raises OperatorNotAllowedInGraphError (TensorFlow:
    # AttributeError, symbolic tensors have no numpy method).
    ('graph_bool_error', 'numpy_in_graph'): {'kind': 'error',
                                             'type': 'OperatorNotAllowedInGraphError'},
}

# Differences found and not fixed (docs/parity.md): program -> reason. Strict: a fix makes the
# test pass, and then its entry must go.
KNOWN_DIFFERENCES = {
    'tensor_array_clear_after_read': 'TensorArray has no clear_after_read: TensorFlow zeroes '
                                     'an element read eagerly, ours keeps it',
}


def expected_for(name):
    with open(os.path.join(HERE, 'fixtures', name + '.json')) as f:
        fixture = json.load(f)
    records = dict(fixture['records'])
    labels = [label for label, _ in fixture['records']]
    for (program, label), value in SPEC_DIFFERENCES.items():
        if program != name:
            continue
        if label == 'error':
            fixture['error'] = value
        elif label == 'stdout':
            fixture['stdout'] = value
        else:
            if label not in records:
                labels.append(label)
            records[label] = value
    return fixture, labels, records


def same(expected, actual, where):
    """None if the two described values agree, else a message."""
    if expected['kind'] != actual['kind']:
        return f'{where}: TensorFlow {expected}, ours {actual}'
    kind = expected['kind']
    if kind == 'array':
        if expected['dtype'] != actual['dtype'] or expected['shape'] != actual['shape']:
            return (f"{where}: TensorFlow {expected['dtype']}{expected['shape']}, "
                    f"ours {actual['dtype']}{actual['shape']}")
        e, a = expected['value'], actual['value']
        if expected['dtype'] in ('float16', 'float32', 'float64'):
            ok = np.allclose(np.array(e, dtype=float), np.array(a, dtype=float),
                             rtol=1e-3 if expected['dtype'] == 'float16' else 1e-5, atol=1e-6,
                             equal_nan=True)
        else:
            ok = e == a
        return None if ok else f'{where}: TensorFlow {e}, ours {a}'
    if kind in ('list', 'tuple'):
        if len(expected['items']) != len(actual['items']):
            return f"{where}: TensorFlow {len(expected['items'])} items, ours {len(actual['items'])}"  # noqa: E501
        for i, (e, a) in enumerate(zip(expected['items'], actual['items'])):
            message = same(e, a, f'{where}[{i}]')
            if message:
                return message
        return None
    if kind == 'dict':
        if sorted(expected['items']) != sorted(actual['items']):
            return f"{where}: TensorFlow keys {sorted(expected['items'])}, ours {sorted(actual['items'])}"  # noqa: E501
        for key in expected['items']:
            message = same(expected['items'][key], actual['items'][key], f'{where}[{key!r}]')
            if message:
                return message
        return None
    if kind == 'py' and expected['type'] == 'float' and actual['type'] == 'float':
        ok = np.isclose(expected['value'], actual['value'], rtol=1e-5, atol=1e-6)
        return None if ok else f'{where}: TensorFlow {expected}, ours {actual}'
    return None if expected == actual else f'{where}: TensorFlow {expected}, ours {actual}'


def differences(name, tf=None):
    fixture, labels, expected = expected_for(name)
    rt.random.set_seed(0)
    result = harness.run_program(os.path.join(HERE, 'programs', name + '.py'),
                                 tf or autograph_rt)
    found = []
    ours = dict(result['records'])
    error = fixture['error'] and fixture['error']['type']
    our_error = result['error'] and result['error']['type']
    if error != our_error:
        found.append(f"program error: TensorFlow {error}, ours {our_error} "
                     f"({result['error'] and result['error']['where'].strip()})")
    for label in labels:
        if label not in ours:
            if not our_error:
                found.append(f'{label}: not recorded')
            continue
        message = same(expected[label], ours[label], label)
        if message:
            found.append(message)
    expected_out = harness.normalize_stdout(fixture['stdout'])
    our_out = harness.normalize_stdout(result['stdout'])
    if expected_out != our_out:
        found.append(f'printed output differs:\n--- TensorFlow\n{expected_out}--- ours\n{our_out}')
    return found


@pytest.mark.parametrize('name', [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[name]))
    if name in KNOWN_DIFFERENCES else name for name in PROGRAMS])
def test_program_does_what_it_does_under_tensorflow(name):
    found = differences(name)
    assert not found, '\n'.join(found)


def test_every_program_has_a_fixture():
    fixtures = sorted(n[:-5] for n in os.listdir(os.path.join(HERE, 'fixtures')))
    assert fixtures == PROGRAMS


def test_the_comparison_catches_a_wrong_value():
    """A shim whose reduce_sum is off by one makes a program that sums fail."""
    class OffByOne(types.ModuleType):
        def __getattr__(self, name):
            if name == 'reduce_sum':
                return lambda *args, **kwargs: rt.reduce_sum(*args, **kwargs) + 1
            return getattr(autograph_rt, name)
    found = differences('math_reductions', OffByOne('tf'))
    assert any(message.startswith('sum:') for message in found)
