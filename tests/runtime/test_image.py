"""rt.image (runtime/ops/image.py): values as TensorFlow 2.21 gives them."""
import numpy as np
import pytest

import runtime as rt

IMAGES = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
MEAN = IMAGES.mean(axis=(0, 1), keepdims=True)


def test_adjust_contrast_moves_each_channel_from_its_mean_over_height_and_width():
    expected = (IMAGES - MEAN) * 2 + MEAN
    np.testing.assert_allclose(rt.image.adjust_contrast(IMAGES, 2.0).numpy(), expected,
                               rtol=1e-6, atol=1e-6)


def test_adjust_contrast_in_a_graph(graph):
    expected = (IMAGES - MEAN) * 2 + MEAN
    staged = rt.image.adjust_contrast(rt.constant(IMAGES), 2.0)
    assert staged.op.type == 'AdjustContrastv2' and staged.shape == (2, 3, 4)
    np.testing.assert_allclose(graph.run(staged), expected, rtol=1e-6, atol=1e-6)


def test_adjust_contrast_converts_other_dtypes_as_tensorflow():
    pixels = np.array([[[10], [30]]], np.uint8)
    out = rt.image.adjust_contrast(pixels, 2.0)  # scaled to [0, 1], adjusted, saturated back
    assert out.dtype is rt.uint8 and out.numpy().ravel().tolist() == [0, 40]
    assert rt.image.adjust_contrast(np.ones((1, 1, 1)), 2.0).dtype is rt.float64
    with pytest.raises(rt.errors.InvalidArgumentError, match='at least 3-D'):
        rt.image.adjust_contrast(np.ones((2, 2), np.float32), 2.0)
    with pytest.raises(rt.errors.InvalidArgumentError, match='contrast_factor must be scalar'):
        rt.image.adjust_contrast(np.ones((1, 1, 1), np.float32), [1.0, 2.0])


def test_a_gradient_through_adjust_contrast_is_tensorflows_lookup_error():
    image = rt.Variable([[[0.5, 0.0, 0.0]]])
    delta = rt.Variable(0.1)
    with rt.GradientTape() as tape:
        new_image = rt.image.adjust_contrast(image, delta)
    with pytest.raises(LookupError, match='^gradient registry has no entry for: AdjustContrastv2$'):
        tape.gradient(new_image, [image, delta])
