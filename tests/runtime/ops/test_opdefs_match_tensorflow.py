"""Every op the registry has that TensorFlow has too agrees with TensorFlow's OpDef: its input
and output arg names (FunctionDefs name outputs by them, GraphDefs inputs), whether it is
stateful, and the dtypes it accepts. TensorFlow's facts are recorded in fixtures/tf_opdefs.json
by tools/tf_opdef_fixtures.py, which also writes runtime/ops/allowed_dtypes.py."""
import json
import os

import pytest

from runtime.ops.allowed_dtypes import ALLOWED
from runtime.ops.registry import REGISTRY, tensorflow_dtypes

with open(os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_opdefs.json')) as f:
    RECORDED = json.load(f)
TF_OPS = RECORDED['ops']
OURS = sorted(name for name in REGISTRY if name in TF_OPS)

# Where the registry deliberately or not yet differs, and why.
KNOWN_ARGS = {
    # the axis is an attr here, not the last input
    'ConcatV2': 'inputs',
    # a dataset's functions are Python callables here, not captured inputs
    'GeneratorDataset': 'inputs',
    # TensorList ops: the element shape is the list's own here, not an input
    'TensorListReserve': 'inputs', 'TensorListGetItem': 'inputs',
    'TensorListStack': 'inputs', 'TensorListGather': 'inputs', 'TensorListConcatV2': 'inputs',
    # example parsing handles dense features only: the sparse and ragged args are not here
    'ParseExampleV2': 'outputs', 'ParseSequenceExampleV2': 'inputs outputs',
}
# datasets and summary writers are Python objects here, made once, not resources a graph
# re-creates (every op with `Dataset` in its name); a variable handle is the variable's own
KNOWN_STATEFUL = {'VarHandleOp', 'SummaryWriter'} | {
    name for name in TF_OPS if 'Dataset' in name and name in REGISTRY
    and REGISTRY[name].stateful != TF_OPS[name]['stateful']}
KNOWN_DTYPES = {
    # tf.add writes an Add op for strings; here AddV2 takes them. TensorArray gradients
    # accumulate TensorLists (variant) with it.
    'AddV2': {'string', 'variant'},
    # complex numbers: not yet (numpy's kernels order complex numbers lexicographically, or
    # have no floor division for them)
    'ClipByValue': {'complex64', 'complex128'},
    'Svd': {'complex64', 'complex128'}, 'SelfAdjointEigV2': {'complex64', 'complex128'},
    'LogMatrixDeterminant': {'complex64', 'complex128'},
    'MatrixExponential': {'complex64', 'complex128'},
    'MatrixSolveLs': {'complex64', 'complex128'},
    # 16-bit PNGs and half-precision contrast: not yet
    'EncodePng': {'uint16'}, 'AdjustContrastv2': {'float16'},
    # special functions in float16, and complex matrices for these linear algebra ops: not yet
    **{op: {'float16'} for op in ('Dawsn', 'Erfinv', 'Expint', 'FresnelCos', 'FresnelSin',
                                  'Ndtri', 'Spence')},
    **{op: {'complex64', 'complex128', 'float16'} for op in ('BandedTriangularSolve', 'Lu',
                                                             'MatrixSquareRoot')},
    'TridiagonalMatMul': {'complex64', 'complex128'},
    'TridiagonalSolve': {'complex64', 'complex128'},
}


def names(args):
    return [args] if isinstance(args, str) else list(args)


def test_the_fixture_covers_the_registry():
    # an op TensorFlow has must be recorded: run tools/tf_opdef_fixtures.py after adding one
    # (TensorFlow's op types of its math, array, nn and linalg modules, as the conformance
    # fixtures list them)
    assert len(OURS) > 300
    with open(os.path.join(os.path.dirname(__file__), '..', 'conformance', 'fixtures',
                           'tf_ops.json')) as f:
        tensorflow_has = {op for ops in json.load(f).values() for op in ops}
    unrecorded = sorted(name for name in REGISTRY
                        if name in tensorflow_has and name not in TF_OPS)
    assert unrecorded == []
    assert set(ALLOWED) <= set(TF_OPS)


@pytest.mark.parametrize('name', OURS)
def test_arg_names_are_tensorflows(name):
    opdef, theirs = REGISTRY[name], TF_OPS[name]
    known = KNOWN_ARGS.get(name, '')
    if 'inputs' not in known:
        assert names(opdef.inputs) == theirs['inputs']
    if 'outputs' not in known:
        assert names(opdef.outputs) == theirs['outputs']


@pytest.mark.parametrize('name', OURS)
def test_statefulness_is_tensorflows(name):
    assert REGISTRY[name].stateful == TF_OPS[name]['stateful'] or name in KNOWN_STATEFUL


@pytest.mark.parametrize('name', OURS)
def test_accepted_dtypes_are_tensorflows(name):
    opdef = REGISTRY[name]
    theirs = tensorflow_dtypes(name, opdef.type_attrs)
    ours = opdef.dtypes
    if theirs is None or ours is None:
        assert ours == theirs
        return
    differ = {d.name for d in ours ^ theirs}
    assert differ == KNOWN_DTYPES.get(name, set())


def test_known_differences_are_still_differences():
    # a difference fixed is taken off the lists above
    for name, what in KNOWN_ARGS.items():
        opdef, theirs = REGISTRY[name], TF_OPS[name]
        assert any(names(getattr(opdef, part)) != theirs[part] for part in what.split())
    assert all(REGISTRY[n].stateful != TF_OPS[n]['stateful'] for n in KNOWN_STATEFUL)
