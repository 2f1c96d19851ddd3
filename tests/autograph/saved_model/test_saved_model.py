"""ag.saved_model.save / load and pickling of functions."""
import inspect
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph import serialization

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
FIXTURES = os.path.join(ROOT, 'tests', 'runtime', 'fixtures')


class Counter(rt.Module):
    """Variables, a method with an input_signature, a method traced twice, a submodule."""

    def __init__(self):
        super().__init__()
        self.count = rt.Variable(0.0)
        self.scale = rt.Variable([1.0, 2.0, 3.0])
        self.inner = rt.Module(name='inner')
        self.inner.offset = rt.Variable(10.0)

    @ag.function(input_signature=[rt.TensorSpec([None, 3], rt.float32)])
    def __call__(self, x):
        self.count.assign_add(1.0)
        y = x * self.scale
        if rt.reduce_sum(y) > 0:
            y = y * 2.0
        else:
            y = -y
        return y

    @ag.function
    def loop(self, n):
        i = rt.zeros([], n.dtype)
        total = rt.constant(0.0)
        while i < n:
            total += self.count + self.inner.offset
            i += 1
        return {'total': total, 'steps': i}


def saved_counter(tmp_path):
    m = Counter()
    m.loop(rt.constant(3))
    m.loop(rt.constant(3, rt.int64))
    export = str(tmp_path / 'counter')
    ag.saved_model.save(m, export, signatures={
        'serving_default': m.__call__.get_concrete_function(),
        'loop': m.loop.get_concrete_function(rt.constant(1))})
    return m, export


def exercise(m):
    """Calls that read and write variables, in a fixed order; returns plain values."""
    out = {}
    out['call'] = m(rt.constant([[1., 2., 3.]])).numpy().tolist()
    out['call_negative'] = m(rt.constant([[-1., 0., 0.]])).numpy().tolist()
    loop = m.loop(rt.constant(4))
    out['loop'] = [float(loop['total'].numpy()), int(loop['steps'].numpy())]
    out['loop64'] = int(m.loop(rt.constant(2, rt.int64))['steps'].numpy())
    out['count'] = float(m.count.numpy())
    return out


# The same calls in a fresh process, on the loaded object only, and what only it has.
LOAD_AND_EXERCISE = inspect.getsource(exercise) + '''
import json, sys
import autograph as ag, runtime as rt
m = ag.saved_model.load(sys.argv[1])
out = exercise(m)
sig = m.signatures['serving_default'](x=rt.constant([[1., 1., 1.]]))
out['signature'] = {k: v.numpy().tolist() for k, v in sig.items()}
out['modules'] = sorted(k for k in vars(m) if k != 'signatures' and
                        (not k.startswith('_') or k == '__call__'))
out['offset'] = float(m.inner.offset.numpy())
print(json.dumps(out))
'''


def test_a_fresh_process_with_only_the_directory_gets_the_same_results(tmp_path):
    m, export = saved_counter(tmp_path)
    expected = exercise(m)
    assert expected['count'] == 2.0 and expected['loop'] == [48.0, 4]
    script = tmp_path / 'elsewhere' / 'load.py'
    script.parent.mkdir()
    script.write_text(LOAD_AND_EXERCISE)
    env = {**os.environ, 'PYTHONPATH': ROOT}
    done = subprocess.run([sys.executable, str(script), export], capture_output=True,
                          text=True, cwd=str(script.parent), env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    for key in expected:
        assert got[key] == expected[key], key
    assert got['signature'] == {'output_0': [[2.0, 4.0, 6.0]]}
    assert got['modules'] == ['__call__', 'count', 'inner', 'loop', 'scale']
    assert got['offset'] == 10.0


def test_the_directory_holds_a_serve_metagraph_with_signatures(tmp_path):
    _, export = saved_counter(tmp_path)
    assert sorted(os.listdir(export)) == ['saved_model.pb', 'variables']
    from runtime.graph import serialization
    with open(os.path.join(export, 'saved_model.pb'), 'rb') as f:
        saved = serialization.decode('SavedModel', f.read())
    meta_graph, = saved['meta_graphs']
    assert meta_graph['meta_info_def']['tags'] == ['serve']
    serving = meta_graph['signature_def']['serving_default']
    assert list(serving['inputs']) == ['x'] and list(serving['outputs']) == ['output_0']
    assert serving['inputs']['x']['tensor_shape'] == {'dim': [{'size': -1}, {'size': 3}]}
    assert sorted(meta_graph['signature_def']['loop']['outputs']) == ['steps', 'total']
    ops = {n['op'] for n in meta_graph['graph_def']['node']}
    assert {'StatelessIf', 'While', 'VarHandleOp', 'AssignAddVariableOp'} <= ops or \
        {'StatelessIf', 'StatelessWhile', 'VarHandleOp', 'AssignAddVariableOp'} <= ops


def test_restored_functions_check_their_signatures(tmp_path):
    _, export = saved_counter(tmp_path)
    m = ag.saved_model.load(export)
    with pytest.raises(TypeError, match="argument 'x' has dtype int32"):
        m(rt.constant([[1, 2, 3]]))
    with pytest.raises(TypeError, match=r"shape \(1, 2\)"):
        m(rt.constant([[1., 2.]]))
    with pytest.raises(ValueError, match='No saved graph of this function accepts'):
        m.loop(rt.constant(1.5))
    with pytest.raises(TypeError, match='unexpected keyword argument'):
        m(y=rt.constant([[1., 2., 3.]]))
    # a convertible Python value works, like a tensor of the saved dtype
    np.testing.assert_array_equal(m([[1., 1., 1.]]).numpy(), [[2., 4., 6.]])


def test_assignments_in_restored_functions_update_the_restored_variables(tmp_path):
    _, export = saved_counter(tmp_path)
    m = ag.saved_model.load(export)
    assert float(m.count.numpy()) == 0.0
    m(rt.constant([[0., 0., 1.]]))
    m.signatures['serving_default'](x=rt.constant([[0., 0., 1.]]))
    assert float(m.count.numpy()) == 2.0
    m.count.assign(5.0)  # an assignment from outside is seen by the graphs
    assert float(m.loop(rt.constant(1))['total'].numpy()) == 15.0


def test_signatures_take_keywords_and_return_named_outputs(tmp_path):
    @ag.function(input_signature=[rt.TensorSpec([2], rt.float32), rt.TensorSpec([], rt.float32)])
    def pair(a, b):
        return a + b, a * b

    export = str(tmp_path / 'pair')
    ag.saved_model.save(pair, export)
    loaded = ag.saved_model.load(export)
    out = loaded.signatures['serving_default'](a=rt.constant([1., 2.]), b=rt.constant(3.))
    assert sorted(out) == ['output_0', 'output_1']
    np.testing.assert_array_equal(out['output_1'].numpy(), [3., 6.])
    with pytest.raises(TypeError, match='keyword arguments only'):
        loaded.signatures['serving_default'](rt.constant([1., 2.]), rt.constant(3.))
    with pytest.raises(TypeError, match=r"missing \['b'\]"):
        loaded.signatures['serving_default'](a=rt.constant([1., 2.]))
    total, product = loaded(rt.constant([1., 2.]), rt.constant(3.))  # the function itself
    np.testing.assert_array_equal(total.numpy(), [4., 5.])


def test_a_variable_outside_the_saved_module_is_refused(tmp_path):
    stray = rt.Variable(1.0, name='stray')
    m = rt.Module()

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def uses_stray(x):
        return x + stray

    m.f = uses_stray
    with pytest.raises(ValueError, match="uses the Variable 'stray'.*not an attribute"):
        ag.saved_model.save(m, str(tmp_path / 'stray'))


def test_corrupt_and_truncated_files_are_clear_errors(tmp_path):
    _, export = saved_counter(tmp_path)
    pb = os.path.join(export, 'saved_model.pb')
    with open(pb, 'rb') as f:
        good = f.read()
    with open(pb, 'wb') as f:
        f.write(good[:len(good) // 2])
    with pytest.raises(ValueError, match='saved_model.pb: not a valid SavedModel'):
        ag.saved_model.load(export)
    with open(pb, 'wb') as f:
        f.write(bytes(b ^ 0x5A for b in good))
    with pytest.raises(ValueError, match='saved_model.pb'):
        ag.saved_model.load(export)
    with open(pb, 'wb') as f:
        f.write(good)
    data_file = os.path.join(export, 'variables', 'variables.data-00000-of-00001')
    with open(data_file, 'rb') as f:
        data = f.read()
    with open(data_file, 'wb') as f:
        f.write(data[:len(data) // 3])
    with pytest.raises(ValueError, match='variables.data-00000-of-00001: truncated'):
        ag.saved_model.load(export)
    index = os.path.join(export, 'variables', 'variables.index')
    with open(index, 'rb') as f:
        data = f.read()
    with open(index, 'wb') as f:
        f.write(data[:len(data) // 3])
    with pytest.raises(ValueError, match='variables.index: '):
        ag.saved_model.load(export)
    os.remove(index)
    with pytest.raises(OSError, match='variables.index: the variables file is missing'):
        ag.saved_model.load(export)
    with pytest.raises(OSError, match='no such SavedModel directory'):
        ag.saved_model.load(str(tmp_path / 'nothing'))


def test_variables_are_a_tensorflow_checkpoint_and_old_npz_files_still_load(tmp_path):
    module, export = saved_counter(tmp_path)
    values = serialization.read_bundle(os.path.join(export, 'variables', 'variables'))
    np.testing.assert_array_equal(values['scale/.ATTRIBUTES/VARIABLE_VALUE'], [1., 2., 3.])
    assert values['inner/offset/.ATTRIBUTES/VARIABLE_VALUE'] == 10.0
    graph = serialization.decode('TrackableObjectGraph',
                                    values['_CHECKPOINTABLE_OBJECT_GRAPH'][()])
    inner = next(c for c in graph['nodes'][0]['children'] if c['local_name'] == 'inner')
    offset, = graph['nodes'][inner['node_id']]['children']
    assert graph['nodes'][offset['node_id']]['attributes'][0]['checkpoint_key'] == \
        'inner/offset/.ATTRIBUTES/VARIABLE_VALUE'
    # a directory written before checkpoints: variables/variables.npz, one array per variable
    meta = json.loads(serialization.decode('SavedModel', open(
        os.path.join(export, 'saved_model.pb'), 'rb').read())['meta_graphs'][0]['collection_def'][
        'autograph_rt/object_graph']['bytes_list']['value'][0])
    np.savez(os.path.join(export, 'variables', 'variables.npz'),
             **{f'v{i}': values[f'{spec["path"]}/.ATTRIBUTES/VARIABLE_VALUE'] * 2
                for i, spec in enumerate(meta['variables'])})
    for name in os.listdir(os.path.join(export, 'variables')):
        if not name.endswith('.npz'):
            os.remove(os.path.join(export, 'variables', name))
    loaded = ag.saved_model.load(export)
    np.testing.assert_array_equal(loaded.scale.numpy(), [2., 4., 6.])
    assert float(loaded.inner.offset.numpy()) == 20.0


def test_a_savedmodel_written_by_tensorflow_runs_its_signature():
    loaded = ag.saved_model.load(os.path.join(FIXTURES, 'tf_v1_saved_model'))
    out = loaded.signatures['serving_default'](x=rt.constant([[1., -2., 3.]]),
                                               k=rt.constant(2))
    # TensorFlow's own results for this input
    np.testing.assert_array_equal(out['z'].numpy(), [[5., -7., 13.]])
    np.testing.assert_array_equal(out['total'].numpy(), [11.])


# TensorFlow's own results for tests/runtime/fixtures/tf2_saved_model (tools/make_tf_fixtures.py)
TF2_CALL = [[0., 0.], [4., 5.5]]
TF2_STATS_POSITIVE = {'total': 39.0, 'peak': 7.5}
TF2_STATS_NEGATIVE = {'total': 3.0, 'peak': 0.0}


def load_tf2_fixture(tmp_path=None):
    source = os.path.join(FIXTURES, 'tf2_saved_model')
    if tmp_path is None:
        return ag.saved_model.load(source)
    import shutil
    target = str(tmp_path / 'tf2_saved_model')
    shutil.copytree(source, target)
    return target


def test_a_module_saved_by_tensorflow_2_serves_its_signatures_with_tensorflows_numbers():
    loaded = ag.saved_model.load(os.path.join(FIXTURES, 'tf2_saved_model'))
    assert sorted(loaded.signatures) == ['serving_default', 'stats']
    out = loaded.signatures['serving_default'](x=rt.constant([[1., -1.], [2., 0.5]]))
    np.testing.assert_array_equal(out['output_0'].numpy(), TF2_CALL)
    stats = loaded.signatures['stats'](v=rt.constant([1., 2.]))
    assert {k: float(v.numpy()) for k, v in stats.items()} == TF2_STATS_POSITIVE


def test_tensorflow_2_variables_and_attribute_functions_are_restored():
    loaded = load_tf2_fixture()
    np.testing.assert_array_equal(loaded.w.numpy(), [[1., 2.], [3., 4.]])
    np.testing.assert_array_equal(loaded.b.numpy(), [0.5, -0.5])
    assert float(loaded.scale.factor.numpy()) == 2.0  # a sub-module's variable
    assert len(loaded.trainable_variables) == 4
    np.testing.assert_array_equal(loaded(rt.constant([[1., -1.], [2., 0.5]])).numpy(), TF2_CALL)
    # a function that calls another tf.function and branches on a tensor
    for v, expected in [([1., 2.], TF2_STATS_POSITIVE), ([-1., -2.], TF2_STATS_NEGATIVE)]:
        out = loaded.stats(v=rt.constant(v))
        assert {k: float(t.numpy()) for k, t in out.items()} == expected
    # assignments inside the restored function update the restored Variable
    assert int(loaded.bump(rt.constant(3)).numpy()) == 3
    assert int(loaded.bump(2).numpy()) == 5
    assert int(loaded.steps.numpy()) == 5
    # and assignments from outside are seen by the functions and the signatures
    loaded.b.assign([10.0, 0.0])
    out = loaded.signatures['serving_default'](x=rt.constant([[1., -1.]]))
    np.testing.assert_array_equal(out['output_0'].numpy(), [[8., 0.]])


def test_tensorflow_2_restored_functions_check_their_input_signature():
    loaded = load_tf2_fixture()
    with pytest.raises(TypeError, match="argument 'x' has shape \\(2, 3\\)"):
        loaded(rt.zeros([2, 3]))
    with pytest.raises(TypeError, match="argument 'n' has dtype float32"):
        loaded.bump(rt.constant(1.0))


def test_a_tensorflow_2_function_traced_several_times_dispatches_on_its_arguments():
    loaded = ag.saved_model.load(os.path.join(FIXTURES, 'tf2_traced_saved_model'))
    assert [float(v.numpy()) for v in loaded.layers] == [1.0, 2.0]  # a list of Variables
    assert len(loaded.trainable_variables) == 3
    # TensorFlow's results for the three traces (tools/make_tf_fixtures.py)
    y, extra = loaded.f(rt.constant(1.0))
    assert (float(y.numpy()), float(extra['a'].numpy())) == (3.0, 5.0)
    y, extra = loaded.f(rt.constant(2, rt.int64), True)
    assert y.dtype == rt.int64 and (int(y.numpy()), int(extra['a'].numpy())) == (12, 14)
    y, extra = loaded.f(x=rt.constant([1.0, 2.0]))
    np.testing.assert_array_equal(extra['a'].numpy(), [5.0, 8.0])
    with pytest.raises(ValueError, match='No saved graph of this function accepts'):
        loaded.f(rt.constant([[1.0]]), True)
    # `double` defaults to False, and only the int64 graph was traced with True
    with pytest.raises(ValueError, match='No saved graph of this function accepts'):
        loaded.f(rt.constant(2, rt.int64))


def test_the_object_graph_written_for_tensorflow_loads_on_its_own(tmp_path):
    # What tf.saved_model.load reads (the SavedObjectGraph, FunctionDefs binding the variables,
    # the checkpoint), read back without the JSON this package writes for itself.
    module, export = saved_counter(tmp_path)
    path = os.path.join(export, 'saved_model.pb')
    with open(path, 'rb') as f:
        message = serialization.decode('SavedModel', f.read())
    del message['meta_graphs'][0]['collection_def']
    with open(path, 'wb') as f:
        f.write(serialization.encode('SavedModel', message))
    loaded = ag.saved_model.load(export)
    x = rt.constant([[1.0, -1.0, 2.0]])
    expected = module(x).numpy()
    np.testing.assert_array_equal(loaded(x).numpy(), expected)
    np.testing.assert_array_equal(
        loaded.signatures['serving_default'](x=x)['output_0'].numpy(), expected)
    assert float(loaded.count.numpy()) == 2.0  # both calls ran the assign_add
    out = loaded.signatures['loop'](n=rt.constant(2))
    assert {k: v.numpy().item() for k, v in out.items()} == {'total': 24.0, 'steps': 2}
    assert loaded.loop(rt.constant(1, rt.int64))['steps'].dtype == rt.int64


def test_a_damaged_tensorflow_2_checkpoint_is_a_clear_error(tmp_path):
    export = load_tf2_fixture(tmp_path)
    data = os.path.join(export, 'variables', 'variables.data-00000-of-00001')
    index = os.path.join(export, 'variables', 'variables.index')
    with open(data, 'rb') as f:
        good = f.read()
    with open(data, 'wb') as f:
        f.write(bytes([good[0] ^ 0xFF]) + good[1:])
    with pytest.raises(ValueError, match='variables.data-00000-of-00001: .* fails its checksum'):
        ag.saved_model.load(export)
    with open(data, 'wb') as f:
        f.write(good[:20])
    with pytest.raises(ValueError, match='variables.data-00000-of-00001: truncated'):
        ag.saved_model.load(export)
    with open(data, 'wb') as f:
        f.write(good)
    with open(index, 'rb') as f:
        good_index = f.read()
    with open(index, 'wb') as f:
        f.write(good_index[:len(good_index) - 10])
    with pytest.raises(ValueError, match='variables.index: not a checkpoint index'):
        ag.saved_model.load(export)
    os.remove(index)
    with pytest.raises(OSError, match='variables.index: the checkpoint index is missing'):
        ag.saved_model.load(export)


# ---- pickle --------------------------------------------------------------------------------

@ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
def clipped_square(x):
    y = x * x
    if rt.reduce_max(y) > 10.0:
        y = rt.minimum(y, 10.0)
    return y


def test_functions_with_an_input_signature_and_concrete_functions_pickle():
    x = rt.constant([1., 2., 5.])
    expected = clipped_square(x).numpy()
    for fn in (clipped_square, clipped_square.get_concrete_function()):
        data = pickle.dumps(fn)
        assert b'test_saved_model' not in data  # no reference to this file's code
        restored = pickle.loads(data)
        np.testing.assert_array_equal(restored(x).numpy(), expected)


def test_a_pickled_function_carries_the_values_of_its_variables():
    v = rt.Variable(3.0)

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def add_v(x):
        return x + v

    restored = pickle.loads(pickle.dumps(add_v))
    assert float(restored(rt.constant(1.0)).numpy()) == 4.0


def test_a_function_without_an_input_signature_does_not_pickle():
    @ag.function
    def f(x):
        return x

    with pytest.raises(TypeError, match='only Functions with an input_signature'):
        pickle.dumps(f)


def test_pickled_functions_run_in_another_process():
    data = pickle.dumps(clipped_square)
    code = ('import pickle, sys; import runtime as rt; '
            'f = pickle.loads(sys.stdin.buffer.read()); '
            'print(f(rt.constant([1., 2., 5.])).numpy().tolist())')
    done = subprocess.run([sys.executable, '-c', code], input=data, capture_output=True,
                          cwd='/', env={**os.environ, 'PYTHONPATH': ROOT}, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == '[1.0, 4.0, 10.0]'


def test_restored_functions_pickle_again_with_their_current_variable_values(tmp_path):
    _, export = saved_counter(tmp_path)
    m = ag.saved_model.load(export)
    m.count.assign(2.0)
    loop = pickle.loads(pickle.dumps(m.loop))
    assert float(loop(rt.constant(1))['total'].numpy()) == 12.0  # count 2 + offset 10
    again = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(clipped_square))))
    np.testing.assert_array_equal(again(rt.constant([4.0])).numpy(), [10.0])


def test_random_ops_and_prints_run_in_restored_functions(tmp_path, capsys):
    @ag.function(input_signature=[rt.TensorSpec([], rt.int32)])
    def noisy(n):
        rt.print('drawing', n)
        return rt.random.uniform([n, 2], seed=7)

    export = str(tmp_path / 'noisy')
    ag.saved_model.save(noisy, export)
    loaded = ag.saved_model.load(export)
    capsys.readouterr()
    values = loaded(rt.constant(3)).numpy()
    assert values.shape == (3, 2) and ((values >= 0) & (values < 1)).all()
    assert capsys.readouterr().err == 'drawing 3\n'


def test_a_module_saved_without_signatures_serves_its_one_signature_method(tmp_path):
    m = Counter()
    export = str(tmp_path / 'plain')
    ag.saved_model.save(m, export)
    loaded = ag.saved_model.load(export)
    assert list(loaded.signatures) == ['serving_default']
    out = loaded.signatures['serving_default'](x=rt.constant([[1., 1., 1.]]))
    np.testing.assert_array_equal(out['output_0'].numpy(), [[2., 4., 6.]])
    # the loaded object is a Module: its variables are found the same way
    assert sorted(float(np.sum(v.numpy())) for v in loaded.variables) == [1.0, 6.0, 10.0]
    assert [s.name for s in loaded.submodules] == ['inner']


class _LazyDense(rt.Module):
    """A layer that makes its variables on its first call (mlp_core's DenseLayer)."""

    def __init__(self, out_dim):
        self.out_dim = out_dim
        self.built = False

    def __call__(self, x):
        if not self.built:
            self.w = rt.Variable(rt.random.uniform((x.shape[1], self.out_dim), seed=3))
            self.b = rt.Variable(rt.zeros([self.out_dim]))
            self.built = True
        return rt.matmul(x, self.w) + self.b


class _Export(rt.Module):
    def __init__(self, layer):
        self.layer = layer

    @ag.function(input_signature=[rt.TensorSpec([None, 4], rt.float32)])
    def __call__(self, x):
        return self.layer(x)


def test_variables_a_signature_trace_creates_while_saving_are_saved(tmp_path):
    module = _Export(_LazyDense(2))  # never called: saving traces it and so builds the layer
    ag.saved_model.save(module, str(tmp_path / 'lazy'))
    assert module.layer.built
    loaded = ag.saved_model.load(str(tmp_path / 'lazy'))
    x = np.ones([1, 4], np.float32)
    np.testing.assert_allclose(loaded(x).numpy(), module(x).numpy(), rtol=1e-6)
    assert sorted(v.shape.as_list() for v in loaded.variables) == [[2], [4, 2]]


def test_a_function_made_from_a_lambda_saves_and_loads(tmp_path):
    module = rt.Module()
    module.double = ag.function(lambda x: x * 2,
                                input_signature=[rt.TensorSpec([], rt.float32)])
    module.triple = ag.function(lambda x: x * 3,
                                input_signature=[rt.TensorSpec([], rt.float32)])
    ag.saved_model.save(module, str(tmp_path))
    loaded = ag.saved_model.load(str(tmp_path))
    assert float(loaded.double(rt.constant(3.0))) == 6.0
    assert float(loaded.triple(rt.constant(3.0))) == 9.0
