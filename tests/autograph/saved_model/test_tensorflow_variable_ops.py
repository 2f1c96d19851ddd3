"""SavedModels written by TensorFlow 2.21 whose functions update variables with every op and
attr TensorFlow writes for `tf.Variable` methods load and give TensorFlow's results
(tests/runtime/fixtures/tf2_variable_ops_saved_model, written by
tools/make_tf_variable_ops_saved_model.py with the results TensorFlow gave); the attrs of loaded
nodes follow one policy, declared on each OpDef (`foreign_attrs`)."""
import json
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph import importer
from runtime.ops.registry import ANY_VALUE, REGISTRY

FIXTURE = os.path.join(os.path.dirname(__file__), '..', '..', 'runtime', 'fixtures',
                       'tf2_variable_ops_saved_model')


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return np.asarray(value).tolist()


def test_a_tensorflow_module_updating_variables_loads_and_gives_tensorflows_results():
    with open(os.path.join(FIXTURE, 'expected.json')) as f:
        expected = json.load(f)
    loaded = ag.saved_model.load(FIXTURE)
    for (name, arg), want in zip(expected['calls'], expected['results']):
        dtype = rt.int32 if isinstance(np.asarray(arg).flat[0].item(), int) else rt.float32
        assert _plain(getattr(loaded, name)(rt.constant(arg, dtype))) == want, name
    final = expected['results'][-1]
    assert loaded.v.numpy().tolist() == final['v']
    assert int(loaded.counter.numpy()) == final['counter']
    assert loaded.free.numpy().tolist() == final['free']


def test_attrs_that_do_not_change_the_result_are_accepted_and_others_refused():
    assign = REGISTRY['AssignVariableOp']
    kept = importer.supported_attrs(assign, {'dtype': rt.float32, 'validate_shape': True}, 'n')
    assert kept['validate_shape'] is True  # implemented: the kernel checks the shape
    assert importer.supported_attrs(REGISTRY['Sum'], {'keep_dims': False, 'T': rt.float32},
                                     'n') == {'keep_dims': False, 'T': rt.float32}
    with pytest.raises(ValueError, match=r"\(AddV2\) has attr bogus=3"):
        importer.supported_attrs(REGISTRY['AddV2'], {'T': rt.float32, 'bogus': 3}, 'n')
    for opdef in REGISTRY.values():  # the policy is data: every declared value is a tuple
        for values in opdef.foreign_attrs.values():
            assert values is ANY_VALUE or isinstance(values, tuple)


def test_assign_with_validate_shape_checks_the_shape_as_tensorflow():
    storage = rt.Variable([1.0, 2.0]).storage
    assign = REGISTRY['AssignVariableOp'].kernel
    assign(storage, np.array([3.0, 4.0], np.float32), validate_shape=True)
    assert storage.value.tolist() == [3.0, 4.0]
    with pytest.raises(rt.errors.InvalidArgumentError, match='wrong shape'):
        assign(storage, np.array([1.0], np.float32), validate_shape=True)
    assign(storage, np.array([1.0], np.float32))  # validate_shape=False: the shape may change
    assert storage.value.tolist() == [1.0]
