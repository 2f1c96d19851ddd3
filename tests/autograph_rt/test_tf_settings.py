"""TensorFlow's names for settings, checkpoint reading, SavedModel options and tf.function's
parameters, through `import autograph_rt as tf`."""
import os

import numpy as np
import pytest

import autograph_rt as tf


def test_checkpoints_read_without_restoring(tmp_path):
    v = tf.Variable([1.0, 2.0])
    step = tf.Variable(7, dtype=tf.int64)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v, step=step), str(tmp_path), 3)
    path = manager.save()
    reader = tf.train.load_checkpoint(str(tmp_path))
    shapes, kinds = reader.get_variable_to_shape_map(), reader.get_variable_to_dtype_map()
    assert shapes['v/.ATTRIBUTES/VARIABLE_VALUE'] == [2]
    assert kinds['step/.ATTRIBUTES/VARIABLE_VALUE'] is tf.int64
    assert reader.has_tensor('v/.ATTRIBUTES/VARIABLE_VALUE')
    assert tf.train.load_variable(path, 'v/.ATTRIBUTES/VARIABLE_VALUE').tolist() == [1.0, 2.0]
    with pytest.raises(tf.errors.NotFoundError):
        reader.get_tensor('nothing')
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == path and state.all_model_checkpoint_paths == [path]
    assert tf.train.get_checkpoint_state(str(tmp_path / 'none')) is None
    assert next(tf.train.checkpoints_iterator(str(tmp_path), timeout=1)) == path
    assert list(tf.train.checkpoints_iterator(str(tmp_path / 'none'), timeout=0.05)) == []


def test_config_settings_are_kept_and_checked():
    tf.config.optimizer.set_experimental_options({'constant_folding': False})
    assert tf.config.optimizer.get_experimental_options()['constant_folding'] is False
    with pytest.raises(ValueError):
        tf.config.optimizer.set_experimental_options({'no_such_pass': True})
    tf.config.threading.set_intra_op_parallelism_threads(2)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 2
    with pytest.raises(ValueError):
        tf.config.threading.set_inter_op_parallelism_threads(-1)
    cpu = tf.config.list_physical_devices('CPU')[0]
    with pytest.raises(ValueError, match='non-GPU'):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(ValueError, match='CPU'):
        tf.config.set_visible_devices([], 'CPU')
    tf.config.set_visible_devices(cpu)
    assert tf.config.get_soft_device_placement() is True
    tf.config.set_soft_device_placement(True)
    assert tf.config.experimental.get_device_details(cpu) == {}


def test_saved_model_options_tags_and_constants(tmp_path):
    class Adder(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return x + 1.0

    export = str(tmp_path / 'adder')
    tf.saved_model.save(Adder(), export, options=tf.saved_model.SaveOptions())
    assert tf.saved_model.contains_saved_model(export)
    assert not tf.saved_model.contains_saved_model(str(tmp_path))
    loaded = tf.saved_model.load(export, tags=[tf.saved_model.SERVING],
                                 options=tf.saved_model.LoadOptions())
    assert float(loaded(tf.constant(1.0))) == 2.0
    with pytest.raises(ValueError, match='tags'):
        tf.saved_model.load(export, tags=['train'])
    with pytest.raises(NotImplementedError):
        tf.saved_model.SaveOptions(save_debug_info=True)
    assert os.path.exists(os.path.join(export, tf.saved_model.SAVED_MODEL_FILENAME_PB))
    assert tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == 'serving_default'


def test_function_takes_tensorflow_s_parameters_in_order():
    def double(x):
        return x * 2

    f = tf.function(double, [tf.TensorSpec([None], tf.float32)], True, None, False)
    assert f.input_signature[0].shape.as_list() == [None]
    assert np.array_equal(f(tf.constant([1.0])).numpy(), [2.0])
    g = tf.function(double, experimental_relax_shapes=True, experimental_compile=None,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ALL)
    assert float(g(tf.constant(2.0))) == 4.0
    with pytest.raises(NotImplementedError):
        tf.function(double, experimental_follow_type_hints=True)
    assert tf.autograph.experimental.do_not_convert()(double) is double


def test_error_classes_and_codes():
    error = tf.errors.ResourceExhaustedError(None, None, 'out of memory')
    assert isinstance(error, tf.errors.OpError) and str(error) == 'out of memory'
    assert error.error_code == tf.errors.RESOURCE_EXHAUSTED == 8
    assert tf.errors.OpError(None, None, 'm', tf.errors.ABORTED).error_code == 10
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.gather([1, 2], 5)
    assert info.value.error_code == tf.errors.INVALID_ARGUMENT


def test_set_loop_options_takes_tensorflow_s_order():
    @tf.function
    def grow(n):
        x = tf.constant([0])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(None, None, None,
                                                       [(x, tf.TensorShape([None]))])
            x = tf.concat([x, [i]], 0)
        return x

    assert grow(tf.constant(3)).numpy().tolist() == [0, 0, 1, 2]
