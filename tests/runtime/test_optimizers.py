"""`rt.optimizers.SGD` and `Adam` against TensorFlow's numbers (recorded from tensorflow 2.21,
`tf.keras.optimizers`, three steps on the same loss), eagerly and inside `ag.function`."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt

# w after each of three steps, from TensorFlow.
TENSORFLOW = {
    'SGD': [[0.7459697723388672, -1.1583852767944336, 2.798999309539795],
            [0.5233328342437744, -0.7351130843162537, 2.613287925720215],
            [0.3320504426956177, -0.5152432918548584, 2.4383254051208496]],
    'SGD momentum': [[0.7459697723388672, -1.1583852767944336, 2.798999309539795],
                     [0.2947055995464325, 0.022340059280395508, 2.432387351989746],
                     [-0.26606205105781555, 0.9760817885398865, 1.9350858926773071]],
    'Adam': [[0.900000810623169, -1.9000006914138794, 2.900000810623169],
             [0.8001551628112793, -1.8002043962478638, 2.8001301288604736],
             [0.7005890011787415, -1.7007665634155273, 2.7004551887512207]],
    'Adam custom': [[0.9900392293930054, -1.9900119304656982, 2.9900496006011963],
                    [0.9800695776939392, -1.9800235033035278, 2.9800870418548584],
                    [0.9700989723205566, -1.9700387716293335, 2.9701218605041504]],
}
OPTIMIZERS = {
    'SGD': lambda: rt.optimizers.SGD(0.1),
    'SGD momentum': lambda: rt.optimizers.SGD(0.1, momentum=0.9),
    'Adam': lambda: rt.optimizers.Adam(0.1),
    'Adam custom': lambda: rt.optimizers.Adam(0.01, beta_1=0.8, beta_2=0.99, epsilon=1e-3),
}
WEIGHTS = rt.constant([1.0, 2.0, 0.5])


def loss_of(w):
    return rt.reduce_sum(w * w * WEIGHTS) + rt.reduce_sum(rt.sin(w))


def train_step(w, optimizer):
    with rt.GradientTape() as tape:
        loss = loss_of(w)
    optimizer.apply_gradients(zip([tape.gradient(loss, w)], [w]))
    return loss


@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_three_eager_steps_match_tensorflow(name):
    w = rt.Variable([1.0, -2.0, 3.0])
    optimizer = OPTIMIZERS[name]()
    for expected in TENSORFLOW[name]:
        train_step(w, optimizer)
        np.testing.assert_allclose(w.numpy(), expected, rtol=2e-6, atol=1e-6)
    assert optimizer.iterations.numpy() == 3


@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
def test_three_steps_in_one_traced_function_match_tensorflow(name):
    w = rt.Variable([1.0, -2.0, 3.0])
    optimizer = OPTIMIZERS[name]()
    step = ag.function(train_step)
    for expected in TENSORFLOW[name]:
        step(w, optimizer)
        np.testing.assert_allclose(w.numpy(), expected, rtol=2e-6, atol=1e-6)
    assert step.experimental_get_tracing_count() == 1  # slots were made on the first call only
    assert optimizer.iterations.numpy() == 3


def test_slot_variables_are_created_once_and_gradients_of_none_are_skipped():
    w, unused = rt.Variable([1.0, 2.0]), rt.Variable(5.0)
    optimizer = rt.optimizers.SGD(0.5, momentum=0.5)

    @ag.function
    def step():
        with rt.GradientTape() as tape:
            loss = rt.reduce_sum(w * w)
        grads = tape.gradient(loss, [w, unused])
        optimizer.apply_gradients(zip(grads, [w, unused]))

    step()
    step()
    assert step.experimental_get_tracing_count() == 1
    assert unused.numpy() == 5.0
    # v1 = -0.5 * 2w0 = -w0 -> w1 = 0; then v2 = 0.5 * v1 - 0.5 * 0 = -0.5 w0 -> w2 = -0.5 w0
    np.testing.assert_allclose(w.numpy(), [-0.5, -1.0])


def test_apply_gradients_refuses_what_it_cannot_train():
    optimizer = rt.optimizers.Adam()
    with pytest.raises(TypeError, match='rt.Variable'):
        optimizer.apply_gradients([(rt.constant(1.0), rt.constant(2.0))])
    with pytest.raises(TypeError, match='int32'):
        optimizer.apply_gradients([(rt.constant(1), rt.Variable(2))])


def test_an_optimizer_is_a_module_so_a_saved_trainer_keeps_its_slots(tmp_path):
    class Trainer(rt.Module):
        def __init__(self):
            super().__init__()
            self.w = rt.Variable([[0.5], [-0.5]])
            self.optimizer = rt.optimizers.Adam(0.1)

        @ag.function(input_signature=(rt.TensorSpec([None, 2], rt.float32),
                                      rt.TensorSpec([None, 1], rt.float32)))
        def step(self, x, y):
            with rt.GradientTape() as tape:
                loss = rt.reduce_mean(rt.square(rt.relu(rt.matmul(x, self.w)) - y))
            self.optimizer.apply_gradients([(tape.gradient(loss, self.w), self.w)])
            return loss

    trainer = Trainer()
    x, y = rt.constant([[1.0, 2.0], [3.0, 1.0]]), rt.constant([[1.0], [2.0]])
    trainer.step(x, y)
    optimizer = trainer.optimizer
    assert [v.name for v in optimizer.variables] == [
        optimizer.iterations.name] + [v.name for v in optimizer.slot_variables]
    assert len(optimizer.slot_variables) == 2 and not optimizer.trainable_variables
    ag.saved_model.save(trainer, str(tmp_path))
    loaded = ag.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded.step(x, y).numpy(), trainer.step(x, y).numpy())
