"""rt.train: Checkpoint, CheckpointManager, latest_checkpoint and list_variables, eagerly and
with ag.function training steps, in TensorFlow's checkpoint format (a fixture TensorFlow wrote
is read here; tests/interop/test_checkpoint_tensorflow.py checks both ways with TensorFlow)."""
import json
import os
import shutil

import numpy as np
import pytest

import autograph as ag
import runtime as rt

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_checkpoint')


class Dense(rt.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = rt.Variable([[1., 2.], [3., 4.]], name='w')
        self.b = rt.Variable([0.5, -0.5], name='b')


class Model(rt.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense(name='dense')
        self.extra = [rt.Variable(7, name='count', trainable=False)]


class Lazy(rt.Module):
    """Builds its variables on the first call, as the guides' FlexibleDenseModule."""

    def __init__(self):
        super().__init__()
        self.built = False

    def __call__(self, x):
        if not self.built:
            self.w = rt.Variable(rt.ones([x.shape[-1], 2]), name='w')
            self.built = True
        return rt.matmul(x, self.w)


def step(model, opt):
    with rt.GradientTape() as tape:
        loss = rt.reduce_sum(rt.matmul([[1., 1.]], model.dense.w) + model.dense.b) ** 2
    variables = [model.dense.w, model.dense.b]
    opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


def test_save_then_restore_into_a_new_program_state(tmp_path):
    model = Model()
    ckpt = rt.train.Checkpoint(model=model)
    path = ckpt.save(str(tmp_path / 'ckpt'))
    assert path == str(tmp_path / 'ckpt-1')
    assert ckpt.save_counter.numpy() == 1 and ckpt.save_counter.dtype is rt.int64
    assert os.path.exists(path + '.index') and os.path.exists(path + '.data-00000-of-00001')
    assert rt.train.latest_checkpoint(str(tmp_path)) == path
    model.dense.w.assign([[0., 0.], [0., 0.]])
    other = Model()
    other.dense.w.assign([[9., 9.], [9., 9.]])
    status = rt.train.Checkpoint(model=other).restore(path)
    status.assert_consumed()
    np.testing.assert_array_equal(other.dense.w.numpy(), [[1., 2.], [3., 4.]])
    assert other.extra[0].numpy() == 7


def test_write_names_exactly_the_prefix_and_records_nothing(tmp_path):
    ckpt = rt.train.Checkpoint(model=Model())
    assert ckpt.write(str(tmp_path / 'weights')) == str(tmp_path / 'weights')
    assert not os.path.exists(tmp_path / 'checkpoint')
    assert rt.train.latest_checkpoint(str(tmp_path)) is None
    assert rt.train.list_variables(str(tmp_path / 'weights')) == [
        ('_CHECKPOINTABLE_OBJECT_GRAPH', []),
        ('model/dense/b/.ATTRIBUTES/VARIABLE_VALUE', [2]),
        ('model/dense/w/.ATTRIBUTES/VARIABLE_VALUE', [2, 2]),
        ('model/extra/0/.ATTRIBUTES/VARIABLE_VALUE', [])]
    restored = Model()
    restored.extra[0].assign(1)
    rt.train.Checkpoint(model=restored).read(str(tmp_path / 'weights')).assert_consumed()
    assert restored.extra[0].numpy() == 7


def test_variables_created_after_restore_get_their_values(tmp_path):
    lazy = Lazy()
    lazy(rt.constant([[1., 1., 1.]]))
    lazy.w.assign(rt.fill([3, 2], 5.0))
    path = rt.train.Checkpoint(model=lazy).write(str(tmp_path / 'lazy'))
    fresh = Lazy()
    status = rt.train.Checkpoint(model=fresh).restore(path)
    with pytest.raises(AssertionError, match='Unresolved object in checkpoint'):
        status.assert_consumed()
    out = fresh(rt.constant([[1., 1., 1.]]))  # w is made now, and restored at once
    np.testing.assert_array_equal(out.numpy(), [[15., 15.]])
    status.assert_consumed()


def test_optimizer_slots_restore_when_a_traced_step_creates_them(tmp_path):
    model, opt = Model(), rt.optimizers.Adam(0.01)
    train = ag.function(step)
    train(model, opt)
    train(model, opt)
    path = rt.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / 'ckpt'))
    resumed, resumed_opt = Model(), rt.optimizers.Adam(0.5)
    status = rt.train.Checkpoint(model=resumed, optimizer=resumed_opt).restore(path)
    assert resumed_opt.learning_rate == pytest.approx(0.01)
    assert resumed_opt.iterations.numpy() == 2
    ag.function(step)(resumed, resumed_opt)  # the slots are made in this trace, then restored
    status.assert_consumed()
    step(model, opt)  # the original, one more step eagerly
    np.testing.assert_allclose(resumed.dense.w.numpy(), model.dense.w.numpy(), rtol=1e-6)
    np.testing.assert_allclose(resumed_opt.slot(resumed.dense.w, 'v').numpy(),
                               opt.slot(model.dense.w, 'v').numpy(), rtol=1e-6)


def test_a_restored_variable_is_what_a_function_reads(tmp_path):
    model = Model()
    path = rt.train.Checkpoint(model=model).write(str(tmp_path / 'c'))

    @ag.function
    def total(m):
        return rt.reduce_sum(m.dense.w)

    other = Model()
    other.dense.w.assign(rt.zeros([2, 2]))
    assert total(other).numpy() == 0.0
    rt.train.Checkpoint(model=other).restore(path)
    assert total(other).numpy() == 10.0


def test_checkpoint_manager_keeps_the_newest(tmp_path):
    ckpt = rt.train.Checkpoint(model=Model())
    manager = rt.train.CheckpointManager(ckpt, str(tmp_path / 'run'), max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.checkpoints == []
    paths = [manager.save() for _ in range(4)]
    assert [os.path.basename(p) for p in paths] == ['ckpt-1', 'ckpt-2', 'ckpt-3', 'ckpt-4']
    assert manager.checkpoints == paths[2:] and manager.latest_checkpoint == paths[3]
    assert sorted(os.listdir(tmp_path / 'run')) == [
        'checkpoint', 'ckpt-3.data-00000-of-00001', 'ckpt-3.index',
        'ckpt-4.data-00000-of-00001', 'ckpt-4.index']
    with open(tmp_path / 'run' / 'checkpoint') as f:
        state = f.read()
    assert state.startswith('model_checkpoint_path: "ckpt-4"\n'
                            'all_model_checkpoint_paths: "ckpt-3"\n'
                            'all_model_checkpoint_paths: "ckpt-4"\n')
    assert rt.train.latest_checkpoint(str(tmp_path / 'run')) == paths[3]
    again = rt.train.CheckpointManager(ckpt, str(tmp_path / 'run'), max_to_keep=2)
    assert again.checkpoints == paths[2:]
    assert os.path.basename(again.save(checkpoint_number=100)) == 'ckpt-100'
    assert not os.path.exists(paths[2] + '.index')
    with pytest.raises(ValueError, match='max_to_keep'):
        rt.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=0)


def test_restore_of_none_restores_nothing():
    status = rt.train.Checkpoint(model=Model()).restore(rt.train.latest_checkpoint('/nonexistent'))
    assert status.expect_partial() is status
    with pytest.raises(AssertionError):
        status.assert_consumed()


def test_another_shape_is_an_error_naming_the_variable_and_nothing_changes(tmp_path):
    path = rt.train.Checkpoint(model=Model()).write(str(tmp_path / 'c'))

    class Wider(Model):
        def __init__(self):
            super().__init__()
            self.dense.b = rt.Variable([0., 0., 0.], name='b')

    wider = Wider()
    wider.dense.w.assign(rt.zeros([2, 2]))
    with pytest.raises(ValueError, match=r'shape \(2,\).*shape \(3,\) and name b:0'):
        rt.train.Checkpoint(model=wider).restore(path)
    np.testing.assert_array_equal(wider.dense.w.numpy(), np.zeros([2, 2]))  # not half-restored


def test_another_dtype_is_invalid_argument_naming_the_variable(tmp_path):
    path = rt.train.Checkpoint(model=Model()).write(str(tmp_path / 'c'))
    ints = Model()
    ints.dense.w = rt.Variable([[1, 2], [3, 4]], name='w')
    with pytest.raises(rt.errors.InvalidArgumentError, match="'w' is int32 but the checkpoint"):
        rt.train.Checkpoint(model=ints).restore(path)


def test_truncated_or_missing_files_are_errors_naming_the_file(tmp_path):
    path = rt.train.Checkpoint(model=Model()).write(str(tmp_path / 'c'))
    data = path + '.data-00000-of-00001'
    with open(data, 'rb') as f:
        blob = f.read()
    with open(data, 'wb') as f:
        f.write(blob[:5])
    with pytest.raises(ValueError, match='c.data-00000-of-00001: truncated'):
        rt.train.Checkpoint(model=Model()).restore(path)
    with open(path + '.index', 'rb') as f:
        index = f.read()
    with open(path + '.index', 'wb') as f:
        f.write(index[:20])
    with pytest.raises(ValueError, match=r'c\.index'):
        rt.train.Checkpoint(model=Model()).restore(path)
    with pytest.raises(rt.errors.NotFoundError, match='checkpoint suffix'):
        rt.train.Checkpoint(model=Model()).restore(str(tmp_path / 'nothing'))


def test_unmatched_python_objects_fail_assert_existing_objects_matched(tmp_path):
    path = rt.train.Checkpoint(model=Model()).write(str(tmp_path / 'c'))
    model = Model()
    model.new = rt.Variable(1.0, name='new')
    status = rt.train.Checkpoint(model=model).restore(path)
    with pytest.raises(AssertionError, match='1 Python objects that were not bound'):
        status.assert_existing_objects_matched()
    assert status.assert_nontrivial_match() is status


def test_only_trackable_objects_go_in_a_checkpoint():
    with pytest.raises(ValueError, match='expecting model to be a trackable object'):
        rt.train.Checkpoint(model=3)


def test_a_module_without_super_init_saves_and_restores(tmp_path):
    class Bare(rt.Module):
        def __init__(self):
            self.w = rt.Variable(2.0)

    bare = Bare()
    assert bare.name == 'bare' and bare.variables == (bare.w,)
    path = rt.train.Checkpoint(m=bare).write(str(tmp_path / 'b'))
    assert rt.train.list_variables(path)[1] == ('m/w/.ATTRIBUTES/VARIABLE_VALUE', [])
    again = Bare()
    again.w.assign(0.0)
    rt.train.Checkpoint(m=again).restore(path).assert_consumed()
    assert again.w.numpy() == 2.0


def test_reads_a_checkpoint_tensorflow_wrote(tmp_path):
    with open(os.path.join(FIXTURE, 'values.json')) as f:
        expected = json.load(f)
    shutil.copytree(FIXTURE, tmp_path / 'tf')
    latest = rt.train.latest_checkpoint(str(tmp_path / 'tf'))
    assert os.path.basename(latest) == expected['path']
    model, opt = Model(), rt.optimizers.Adam(0.5)
    ckpt = rt.train.Checkpoint(model=model, optimizer=opt)
    status = ckpt.restore(latest)
    np.testing.assert_allclose(model.dense.w.numpy(), expected['w'])
    np.testing.assert_allclose(model.dense.b.numpy(), expected['b'])
    assert model.extra[0].numpy() == expected['count']
    assert opt.iterations.numpy() == expected['iterations']
    assert opt.learning_rate == pytest.approx(expected['learning_rate'])
    assert ckpt.save_counter.numpy() == expected['save_counter']
    step(model, opt)  # Keras made its slots for [w, b]: ours are made in that order too
    status.assert_consumed()
    manager = rt.train.CheckpointManager(ckpt, str(tmp_path / 'tf'), max_to_keep=3)
    assert os.path.basename(manager.save()) == f'ckpt-{expected["save_counter"] + 1}'


def test_tensorflow_slots_are_the_moments_of_the_next_step(tmp_path):
    with open(os.path.join(FIXTURE, 'values.json')) as f:
        expected = json.load(f)
    model, opt = Model(), rt.optimizers.Adam(0.01)
    rt.train.Checkpoint(model=model, optimizer=opt).restore(os.path.join(FIXTURE, 'ckpt-2'))
    w_before = model.dense.w.numpy()
    with rt.GradientTape() as tape:
        loss = rt.reduce_sum(rt.matmul([[1., 1.]], model.dense.w) + model.dense.b) ** 2
    g = tape.gradient(loss, model.dense.w).numpy()
    step(model, opt)
    m = 0.9 * np.array(expected['m'][0]) + 0.1 * g
    np.testing.assert_allclose(opt.slot(model.dense.w, 'm').numpy(), m, rtol=1e-5)
    assert not np.allclose(model.dense.w.numpy(), w_before)
