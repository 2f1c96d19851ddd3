"""TensorFlow's public API, walked (fixtures/tf_api_ledger.json, written by
tools/tf_api_ledger.py in a Python that has TensorFlow), compared with `autograph_rt`: every
name has a decision (here with TensorFlow's signature, out of scope with a reason, or not
implemented yet), the names here take TensorFlow's parameters, and coverage per module stays
at or above the floors below. `pytest -s` prints the table (as tools/tf_api_coverage.py does).
"""
import json
import os

import pytest

from autograph_rt import namespace, scope
from tools import tf_api_coverage as coverage

HERE = os.path.dirname(os.path.abspath(__file__))

# The least coverage (names here with TensorFlow's signature / names in scope) each module keeps;
# raise a floor when a module gains names, never lower one.
FLOORS = {
    'tf': 0.98, 'tf.math': 0.99, 'tf.nn': 0.95, 'tf.linalg': 0.97, 'tf.random': 1.0,
    'tf.data': 1.0, 'tf.train': 1.0, 'tf.summary': 1.0, 'tf.config': 1.0,
    'tf.config.experimental': 1.0, 'tf.config.optimizer': 1.0, 'tf.config.threading': 1.0,
    'tf.debugging': 1.0, 'tf.dtypes': 0.95, 'tf.errors': 1.0, 'tf.nest': 1.0,
    'tf.autograph': 1.0, 'tf.autograph.experimental': 1.0, 'tf.saved_model': 0.96,
    'tf.bitwise': 1.0, 'tf.strings': 1.0, 'tf.experimental.numpy': 1.0,
    'tf.experimental.numpy.random': 1.0, 'tf.signal': 1.0, 'tf.image': 1.0, 'tf.io': 1.0,
    'tf.io.gfile': 1.0, 'tf.math.special': 1.0, 'tf.version': 1.0, 'tf.audio': 1.0,
    'tf.data.experimental': 0.85,
}


@pytest.fixture(scope='module')
def ledger():
    return coverage.load_ledger()


@pytest.fixture(scope='module')
def rows(ledger):
    return coverage.statuses(ledger)


def test_the_ledger_is_tensorflow_s_api_walked(ledger):
    modules = ledger['modules']
    assert ledger['tensorflow_version'].startswith('2.')
    for path in ('tf', 'tf.math', 'tf.nn', 'tf.linalg', 'tf.random', 'tf.data', 'tf.train',
                 'tf.summary', 'tf.config', 'tf.debugging', 'tf.io', 'tf.strings', 'tf.image',
                 'tf.signal', 'tf.experimental.numpy', 'tf.autograph', 'tf.saved_model',
                 'tf.dtypes', 'tf.errors', 'tf.nest', 'tf.bitwise'):
        assert modules[path], path
    assert modules['tf.math']['reduce_sum'] == {'kind': 'function', 'params': [
        {'name': 'input_tensor', 'kind': 'POSITIONAL_OR_KEYWORD', 'none': True},
        {'name': 'axis', 'kind': 'POSITIONAL_OR_KEYWORD', 'value': None},
        {'name': 'keepdims', 'kind': 'POSITIONAL_OR_KEYWORD', 'value': False},
        {'name': 'name', 'kind': 'POSITIONAL_OR_KEYWORD', 'value': None}]}
    assert modules['tf']['keras']['kind'] == 'module'


def test_the_package_s_name_index_is_the_ledger_s(ledger):
    with open(namespace.NAMES_FILE) as f:
        names = json.load(f)
    assert names['tensorflow_version'] == ledger['tensorflow_version']
    assert names['modules'] == {path: sorted(entries)
                                for path, entries in ledger['modules'].items()}


def test_every_name_has_a_decision(rows):
    assert {row.status for row in rows} <= {'ok', 'signature', 'missing', 'out of scope'}
    for row in rows:
        if row.status == 'out of scope':
            reason = scope.decision(f'{row.path}.{row.name}')
            assert reason.why and reason.instead


def test_coverage_per_module_keeps_its_floor(rows):
    counts = coverage.table(rows)
    print('\n' + coverage.markdown(counts, 'TensorFlow'))
    low = {path: f'{coverage.coverage(counts[path]):.0%} < {floor:.0%}'
           for path, floor in FLOORS.items() if coverage.coverage(counts[path]) < floor - 1e-9}
    assert low == {}


def test_the_signature_check_compares_names_order_and_literal_defaults():
    params = [{'name': 'x', 'kind': 'POSITIONAL_OR_KEYWORD', 'none': True},
              {'name': 'axis', 'kind': 'POSITIONAL_OR_KEYWORD', 'value': None},
              {'name': 'name', 'kind': 'POSITIONAL_OR_KEYWORD', 'value': 'Sum'}]

    def same(x, axis=None, name=None):
        return x

    def reordered(axis, x, name=None):
        return x

    def other_default(x, axis=0, name=None):
        return x

    def no_name(x, axis=None):
        return x

    def extra_required(x, axis=None, name=None, *, flag):
        return x

    assert coverage.signature_problem(params, same) is None
    assert coverage.signature_problem(params, reordered).startswith('parameters (x, axis, name)')
    assert coverage.signature_problem(params, other_default) == (
        'axis: default None in TensorFlow, here 0')
    assert coverage.signature_problem(params, no_name) is not None
    assert coverage.signature_problem(params, extra_required) == (
        "extra required parameter 'flag'")
