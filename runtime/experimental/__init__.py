"""`rt.experimental`: of TensorFlow's `tf.experimental`, `numpy` (`rt.experimental.numpy`)."""
from runtime.experimental import numpy

__all__ = ['numpy']
