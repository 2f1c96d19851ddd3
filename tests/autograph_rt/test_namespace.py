"""`import autograph_rt as tf`: TensorFlow 2's names over runtime and autograph, the import
forms TensorFlow's modules support, and the errors for names that are not here."""
import importlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph as ag
import autograph_rt as tf
import runtime as rt


def test_every_public_name_of_runtime_is_there_as_it_is():
    for name in rt.__all__:
        if name in rt._NAMESPACES:
            assert getattr(tf, name).__name__ == f'autograph_rt.{name}'
        else:
            assert getattr(tf, name) is getattr(rt, name), name


def relu(x):
    if x > 0:
        return x
    return 0


def test_the_names_autograph_provides():
    assert tf.function is ag.function
    assert tf.autograph.to_code(relu) == ag.to_code(relu)
    assert tf.autograph.to_graph(relu)(-2) == 0
    with pytest.raises(NotImplementedError):
        tf.autograph.to_graph(relu, recursive=False)
    assert tf.autograph.experimental.do_not_convert is ag.do_not_convert
    assert tf.autograph.experimental.set_loop_options is ag.experimental.set_loop_options
    assert tf.saved_model.save is ag.saved_model.save
    assert tf.saved_model.load is ag.saved_model.load
    assert tf.autodiff.GradientTape is rt.GradientTape
    assert tf.__version__ == rt.__version__


def test_submodules_import_as_tensorflow_s_do():
    from autograph_rt import nn
    from autograph_rt.math import reduce_sum
    assert nn is tf.nn and nn.relu is rt.nn.relu
    assert reduce_sum is rt.math.reduce_sum
    experimental = importlib.import_module('autograph_rt.config.experimental')
    assert experimental is tf.config.experimental
    assert tf.data.experimental.AUTOTUNE == rt.data.AUTOTUNE
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module('autograph_rt.keras')


def test_executing_eagerly_and_inside_function():
    assert tf.executing_eagerly() and not tf.inside_function()
    seen = []

    @tf.function
    def f(x):
        seen.append((tf.executing_eagerly(), tf.inside_function()))
        with tf.init_scope():
            seen.append((tf.executing_eagerly(), tf.inside_function()))
        return x + 1

    f(tf.constant(1))
    assert seen == [(False, True), (True, False)]
    with tf.Graph().as_default():
        assert not tf.executing_eagerly() and tf.inside_function()
    tf.config.run_functions_eagerly(True)
    try:
        seen.clear()
        f(tf.constant(2))
        assert seen[0] == (True, False)
    finally:
        tf.config.run_functions_eagerly(False)


def test_a_name_out_of_scope_says_why_and_what_to_use():
    with pytest.raises(AttributeError, match=r"'keras'.*out of scope \(Keras.*tf\.Module"):
        tf.keras
    with pytest.raises(AttributeError, match=r'tf\.RaggedTensor is out of scope \(ragged'):
        tf.RaggedTensor
    with pytest.raises(AttributeError, match=r'tf\.distribute is out of scope'):
        tf.distribute
    with pytest.raises(AttributeError, match=r'tf\.io\.RaggedFeature is out of scope'):
        tf.io.RaggedFeature
    with pytest.raises(AttributeError, match=r'tf\.optimizers\.RMSprop is out of scope'):
        tf.optimizers.RMSprop
    assert not hasattr(tf, 'compat')


def test_a_name_not_there_yet_says_so_and_an_unknown_name_is_a_plain_error():
    with pytest.raises(AttributeError, match=r"TensorFlow's tf\.math\.sobol_sample is in scope "
                                             r'but not implemented yet'):
        tf.math.sobol_sample
    with pytest.raises(AttributeError) as info:
        tf.no_such_name
    assert str(info.value) == "module 'autograph_rt' has no attribute 'no_such_name'"
    # the implementation modules are not TensorFlow names
    assert not hasattr(tf, 'scope') and not hasattr(tf, 'namespace')
    assert not hasattr(tf.data, 'dataset') and not hasattr(tf.config, 'dataclass')


def test_dir_lists_what_is_there():
    names = dir(tf)
    assert {'constant', 'function', 'autograph', 'saved_model', 'math', 'executing_eagerly',
            'inside_function'} <= set(names)
    assert 'keras' not in names and 'scope' not in names
    assert dir(tf.autograph.experimental) == ['Feature', 'do_not_convert', 'set_loop_options']


def test_a_tensorflow_program_runs_with_its_import_line_changed(tmp_path):
    program = tmp_path / 'program.py'
    program.write_text(textwrap.dedent('''
        import autograph_rt as tf

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def relu_sum(x):
            total = tf.constant(0.0)
            for v in x:
                if v > 0:
                    total += v
            return total

        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            loss = tf.math.square(w * 3.0 - 1.0)
        grad = tape.gradient(loss, w)
        ds = tf.data.Dataset.range(5).map(lambda x: x * 2).batch(2)
        print(relu_sum(tf.constant([1.0, -2.0, 3.0])).numpy(), grad.numpy(),
              [b.numpy().tolist() for b in ds], tf.executing_eagerly())
        print(tf.autograph.to_code(relu_sum.python_function).count('ag__.for_stmt'))
    '''))
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines() == ['4.0 30.0 [[0, 2], [4, 6], [8]] True', '1']


def test_values_are_the_runtime_s():
    assert np.array_equal(tf.math.add([1, 2], 3).numpy(), [4, 5])
    assert tf.dtypes.float32 is rt.float32 and tf.errors.OpError is rt.errors.OpError
