"""autograph/saved_model/custom_gradients.py and the gradients of loaded functions: a function
saved and loaded again passes gradients to its arguments and variables under a GradientTape,
through the `rt.custom_gradient`s it uses when they were saved
(`SaveOptions(experimental_custom_gradients=True)`, the default, as TensorFlow's advanced
autodiff guide shows), and TensorFlow's LookupError when they were not."""
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph import serialization


@rt.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return rt.clip_by_norm(dy, 0.5)
    return y, backward


@rt.custom_gradient
def uses_forward(x):
    e = rt.exp(x)

    def backward(dy):
        return dy * e  # a tensor of the forward graph: this gradient cannot be saved alone
    return e, backward


class Model(rt.Module):
    def __init__(self):
        super().__init__()
        self.w = rt.Variable(3.0)

    @ag.function(input_signature=[rt.TensorSpec(None)])
    def call_custom_grad(self, x):
        return clip_gradients(x)

    @ag.function(input_signature=[rt.TensorSpec(None)])
    def plain(self, x):
        return rt.sin(x) * self.w

    @ag.function(input_signature=[rt.TensorSpec(None)])
    def forward_tensor(self, x):
        return uses_forward(x)


def _saved(tmp_path, **options):
    path = str(tmp_path / 'model')
    ag.saved_model.save(Model(), path, options=ag.saved_model.SaveOptions(**options)
                        if options else None)
    return path


def test_a_loaded_function_gives_its_saved_custom_gradient(tmp_path):
    loaded = ag.saved_model.load(_saved(tmp_path))
    v = rt.Variable(2.0)
    with rt.GradientTape() as t:
        output = loaded.call_custom_grad(v * v)
    assert float(output) == 4.0
    assert float(t.gradient(output, v)) == 2.0  # 4 clipped to 0.5, times dv*v/dv = 4


def test_a_loaded_function_passes_gradients_to_its_arguments_and_variables(tmp_path):
    loaded = ag.saved_model.load(_saved(tmp_path))
    x = rt.constant(0.5)
    with rt.GradientTape(persistent=True) as t:
        t.watch(x)
        y = loaded.plain(x)
        z = y * y
    dx, dw = t.gradient(y, [x, loaded.w])
    np.testing.assert_allclose(float(dx), np.cos(0.5) * 3.0, rtol=1e-6)
    np.testing.assert_allclose(float(dw), np.sin(0.5), rtol=1e-6)
    np.testing.assert_allclose(float(t.gradient(z, x)), 2 * float(y) * np.cos(0.5) * 3.0,
                               rtol=1e-5)
    assert float(loaded.plain(x)) == float(y)  # without a tape: the plain call


def test_without_the_option_the_custom_gradient_is_tensorflows_lookup_error(tmp_path):
    loaded = ag.saved_model.load(_saved(tmp_path, experimental_custom_gradients=False))
    v = rt.Variable(2.0)
    with rt.GradientTape():
        with pytest.raises(LookupError, match='experimental_custom_gradients=True'):
            loaded.call_custom_grad(v * v)
    assert float(loaded.call_custom_grad(rt.constant(3.0))) == 3.0  # the forward pass runs


def test_a_gradient_using_a_forward_tensor_is_not_saved(tmp_path):
    loaded = ag.saved_model.load(_saved(tmp_path))
    x = rt.constant(0.0)
    with rt.GradientTape() as t:
        t.watch(x)
        with pytest.raises(LookupError, match='No gradient defined'):
            loaded.forward_tensor(x)


def test_the_library_registers_the_gradient_functions_as_tensorflow_writes_them(tmp_path):
    path = _saved(tmp_path)
    with open(f'{path}/saved_model.pb', 'rb') as f:
        message = serialization.decode('SavedModel', f.read())
    library = message['meta_graphs'][0]['graph_def']['library']
    (registered,) = library['registered_gradients']
    assert registered['registered_op_type'].startswith('CustomGradient-')
    names = [f['signature']['name'] for f in library['function']]
    assert registered['gradient_func'] in names
    assert registered['gradient_func'].startswith('__inference_internal_grad_fn_')
    with open(f'{_saved(tmp_path / "off", experimental_custom_gradients=False)}/saved_model.pb',
              'rb') as f:
        off = serialization.decode('SavedModel', f.read())
    assert 'registered_gradients' not in off['meta_graphs'][0]['graph_def'].get('library', {})


def test_save_options_default_to_saving_custom_gradients_and_are_checked():
    assert ag.saved_model.SaveOptions().experimental_custom_gradients is True
    with pytest.raises(TypeError, match='SaveOptions'):
        ag.saved_model.save(Model(), '/nonexistent', options={'experimental_custom_gradients': 1})


def test_a_custom_gradient_tensorflow_saved_is_used_here():
    # tests/runtime/fixtures/tf2_custom_gradient_saved_model (tools/make_tf_fixtures.py): its
    # gradient halves; TensorFlow's own result through its loaded function is 2.0
    path = os.path.join(os.path.dirname(__file__), '..', '..', 'runtime', 'fixtures',
                        'tf2_custom_gradient_saved_model')
    loaded = ag.saved_model.load(path)
    v = rt.Variable(2.0)
    with rt.GradientTape() as t:
        output = loaded.call_custom_grad(v * v)
    assert float(output) == 4.0
    assert float(t.gradient(output, v)) == 2.0
