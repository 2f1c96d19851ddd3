"""Every op in the registry either has a gradient that agrees with central finite differences
(float64, relative error at most 1e-6), eagerly and in graphs with known and unknown shapes, or
is declared NO_GRADIENT (or UNREGISTERED_GRADIENT: TensorFlow has none, a gradient through it is
its LookupError). An op with neither fails `test_every_op_declares_its_gradient`, and an
op with a gradient but no example below fails `test_every_gradient_has_a_finite_difference_case`.

To add an op's case: an entry in CASES, `op type: [Case(fn, inputs), ...]`, where `fn` builds
the op from tensors (Variables with `variables=True`) and `inputs` are float64 arrays in a
domain where the op is smooth.
"""
import os
import pathlib
import subprocess
import sys
from typing import Callable, NamedTuple

import numpy as np
import pytest
from core_more_gradient_cases import GRADIENT_CASES, STATIC_ONLY, STEPS
from surface_gradient_cases import CASES as SURFACE_CASES

import runtime as rt
from runtime.core import context
from runtime.ops import bitwise as runtime_bitwise
from runtime.ops import fft as _FFT
from runtime.ops import linalg_more, list_ops, random_more, segment_prod, special_more
from runtime.ops import nn as nn_ops
from runtime.ops import slicing as slicing_ops
from runtime.ops import special_bessel as _BESSEL
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, REGISTRY, UNREGISTERED_GRADIENT

rng = np.random.RandomState(0)


def u(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape)


def pos(*shape):
    return u(*shape, low=0.5, high=2.0)


class Case(NamedTuple):
    fn: Callable
    inputs: list
    variables: bool = False  # inputs are rt.Variables (the tape watches them on read)
    graph_only: bool = False  # control flow: eagerly it is Python control flow, no op
    dynamic: bool = True  # also build it on placeholders of unknown dims
    h: float = 1e-6  # the finite-difference step


def _if(pred_positive, stateful=False):
    def fn(x, y):
        v = rt.Variable(1.0, dtype=rt.float64, trainable=False) if stateful else 1.0
        return rt.cond(rt.reduce_sum(x) > 0 if pred_positive else rt.reduce_sum(x) < 0,
                       lambda: rt.sin(x) * y * v, lambda: rt.exp(y) + x)
    return fn


def _while(stateful=False):
    def fn(x, w):
        v = rt.Variable(1.0, dtype=rt.float64, trainable=False) if stateful else 1.0

        def body(i, acc):
            return i + 1, rt.tanh(acc * w) + x * v
        return rt.while_loop(lambda i, acc: i < 3, body, (rt.constant(0), x))[1]
    return fn


def _case(index, stateful=False):
    """rt.switch_case over three branches; an index outside them runs the last."""
    def fn(x, y):
        v = rt.Variable(1.0, dtype=rt.float64, trainable=False) if stateful else 1.0
        return rt.switch_case(rt.constant(index), [lambda: rt.sin(x) * y * v,
                                                    lambda: rt.exp(y) + x,
                                                    lambda: x * x])
    return fn


def _mirror_pad_grad(x, y):
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = rt.pad(x, [[1, 1], [2, 2]], mode='REFLECT')
    return tape.gradient(z, x, output_gradients=y) * x


def _list_split(x):
    """Rows of `x * x` split into a list of two 2-row elements (op TensorListSplit)."""
    handle = apply(list_ops.SPLIT, [x * x, np.int32(-1), np.array([2, 2], np.int64)],
                   {'element_dtype': rt.float64})
    return list_ops.stack_list(handle, rt.float64, rt.TensorShape([2, 3])) * x[:2]


def _py_function(x, y):
    p, q = rt.py_function(lambda a, b: (rt.sin(a) * b, b * b), [x, y], [rt.float64, rt.float64])
    return p * y + q


def _slice_grad(x, y):
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = x[1:, ::2]
    return tape.gradient(z, x, output_gradients=y) * x


def _relu_grad(g, x):
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = rt.relu(x)
    return tape.gradient(z, x, output_gradients=g) * g


def _xent_outputs(which, sparse):
    """A cross entropy's `backprop` output alone (which=1) or both outputs (which=None) of
    logits `x` (and dense `labels`): the gradient rule gets None, not zeros, for an output
    nothing depends on (`gradient_takes_none`), and both terms when both are used."""
    def fn(x, *labels):
        if sparse:
            loss, backprop = apply(nn_ops.SPARSE_SOFTMAX_XENT, [x, np.array([2, 0], np.int32)])
        else:
            loss, backprop = apply(nn_ops.SOFTMAX_XENT, [x, labels[0]])
        if which == 1:
            return backprop
        return backprop * rt.expand_dims(loss, -1)
    return fn


@rt.custom_gradient
def _custom_square(x):
    """x * x with its gradient given by hand (through an IdentityN op)."""
    return x * x, lambda dy: dy * 2 * x


CASES = {
    'Identity': [Case(rt.identity, [u(3)])],
    'Pack': [Case(lambda a, b: rt.stack([a, b * b], axis=1), [u(2, 3), u(2, 3)])],
    # float32 values and a power-of-two step: x +- h stays exact through the float32 cast
    'Cast': [Case(lambda x: rt.cast(rt.cast(x, rt.float32), rt.float64) * x,
                  [np.array([0.5, -1.25, 1.75])], h=2.0 ** -10)],
    'Fill': [Case(lambda v: rt.fill([2, 3], v) * rt.constant([1.0, 2.0, 3.0], rt.float64),
                  [u()])],
    'BroadcastTo': [Case(lambda x: rt.broadcast_to(x, [2, 3, 2]) ** 2, [u(3, 1)])],
    'Reshape': [Case(lambda x: rt.reshape(x, [3, 2]) ** 2, [u(2, 3)])],
    'Transpose': [Case(lambda x: rt.transpose(x) * rt.constant([[1.0, 2.0]], rt.float64),
                       [u(2, 3)])],
    'ConcatV2': [Case(lambda a, b: rt.concat([a, b * a[:, :1]], axis=1), [u(2, 3), u(2, 2)])],
    'ExpandDims': [Case(lambda x: rt.expand_dims(x, 1) * x, [u(3)])],
    'Squeeze': [Case(lambda x: rt.squeeze(x, axis=1) ** 2, [u(3, 1)])],
    'UnsortedSegmentSum': [Case(lambda x: slicing_ops.unsorted_segment_sum(
        x, rt.constant([1, 0, 1]), 3) ** 2, [u(3, 2)])],
    'GatherV2': [Case(lambda x: rt.gather(x, [2, 0, 2]) ** 2, [u(3, 2)]),
                 Case(lambda x: rt.gather(x, rt.constant([[1], [0]]), axis=1) ** 2, [u(3, 2)])],
    'StridedSlice': [Case(lambda x: x[1:, ::2] * x[0, 1], [u(3, 4)]),
                     Case(lambda x: x[..., None, 1] ** 2, [u(2, 3)])],
    'StridedSliceGrad': [Case(_slice_grad, [u(3, 4), u(2, 2)])],
    'SelectV2': [Case(lambda x, y: rt.where(rt.constant([True, False, True]), x * y, y),
                      [u(3), u(2, 1)])],
    'Sum': [Case(lambda x: rt.reduce_sum(x * x, axis=1), [u(2, 3)]),
            Case(lambda x: rt.reduce_sum(x, axis=[0, 2], keepdims=True) ** 2, [u(2, 3, 2)])],
    'Mean': [Case(lambda x: rt.reduce_mean(x ** 2, axis=0), [u(4, 2)]),
             Case(lambda x: rt.reduce_mean(x ** 2), [u(4, 2)])],
    'Max': [Case(lambda x: rt.reduce_max(x, axis=1) ** 2, [u(3, 4)])],
    'Min': [Case(lambda x: rt.reduce_min(x, axis=0, keepdims=True) ** 2, [u(3, 4)])],
    'Prod': [Case(lambda x: rt.reduce_prod(x, axis=1), [pos(2, 3)])],
    'ReadVariableOp': [Case(lambda v: v.read_value() * v, [u(3)], variables=True)],
    'ResourceGather': [Case(lambda v: v.sparse_read([2, 0, 2]) ** 2, [u(3, 2)], variables=True)],
    'RealDiv': [Case(lambda x, y: x / y, [u(2, 3), pos(3)])],
    'AddV2': [Case(lambda x, y: (x + y) ** 2, [u(2, 3), u(3)])],
    'Sub': [Case(lambda x, y: (x - y) ** 2, [u(2, 1), u(1, 3)])],
    'Mul': [Case(lambda x, y: x * y, [u(2, 3), u(2, 1)])],
    'FloorMod': [Case(lambda x, y: rt.mod(x, y), [np.array([0.3, 2.7, -1.2]),
                                                   np.array([1.1, 1.3, 0.7])])],
    'Pow': [Case(lambda x, y: x ** y, [pos(2, 3), u(3)])],
    'Maximum': [Case(lambda x, y: rt.maximum(x, y) ** 2, [np.array([1.0, -1.0, 0.5]),
                                                         np.array([0.0, 2.0, -3.0])])],
    'Minimum': [Case(lambda x, y: rt.minimum(x, y) ** 2, [np.array([1.0, -1.0, 0.5]),
                                                         np.array([0.0, 2.0, -3.0])])],
    'ReluGrad': [Case(lambda g, x: _relu_grad(g, x), [u(4), np.array([1.0, -1.0, 0.5, -2.0])])],
    'Neg': [Case(lambda x: -x * x, [u(3)])],
    'Abs': [Case(lambda x: rt.abs(x) * x, [np.array([1.0, -0.5, 2.0])])],
    'Square': [Case(rt.square, [u(3)])],
    'Sign': [Case(lambda x: rt.sign(x) * x, [np.array([1.0, -0.5, 2.0])])],
    'Relu': [Case(rt.relu, [np.array([1.0, -0.5, 2.0, -3.0])])],
    'Sqrt': [Case(rt.sqrt, [pos(3)])],
    'Exp': [Case(rt.exp, [u(3)])],
    'Log': [Case(rt.log, [pos(3)])],
    'Sin': [Case(rt.sin, [u(3)])],
    'Cos': [Case(rt.cos, [u(3)])],
    'Tanh': [Case(rt.tanh, [u(3)])],
    'Sigmoid': [Case(rt.sigmoid, [u(3)])],
    'ClipByValue': [Case(lambda x, lo, hi: rt.clip_by_value(x, lo, hi),
                         [np.array([-2.0, 0.1, 3.0]), np.array([-1.0, -1.0, -1.0]),
                          np.array(1.0)])],
    'MatMul': [Case(lambda a, b: rt.matmul(a, b), [u(2, 3), u(3, 4)]),
               Case(lambda a, b: rt.matmul(a, b, transpose_a=True), [u(3, 2), u(3, 4)]),
               Case(lambda a, b: rt.matmul(a, b, transpose_b=True), [u(2, 3), u(4, 3)]),
               Case(lambda a, b: rt.matmul(a, b, transpose_a=True, transpose_b=True),
                    [u(3, 2), u(4, 3)])],
    'BatchMatMulV2': [Case(lambda a, b: rt.matmul(a, b), [u(2, 2, 3), u(1, 3, 2)]),
                      Case(lambda a, b: rt.matmul(a, b, transpose_a=True, transpose_b=True),
                           [u(2, 3, 2), u(2, 2, 3)])],
    'Tile': [Case(lambda x: rt.tile(x, [2, 3]) ** 2, [u(2, 3)])],
    'Pad': [Case(lambda x: rt.pad(x, [[1, 0], [2, 1]]) * 3.0, [u(2, 3)])],
    'PadV2': [Case(lambda x: rt.pad(x, [[1, 0], [2, 1]], constant_values=3.) ** 2, [u(2, 3)])],
    'MirrorPad': [Case(lambda x: rt.pad(x, [[1, 1], [2, 2]], mode='REFLECT') ** 2, [u(2, 3)]),
                  Case(lambda x: rt.pad(x, [[1, 0], [3, 1]], mode='SYMMETRIC') ** 2, [u(2, 3)])],
    'MirrorPadGrad': [Case(_mirror_pad_grad, [u(2, 3), u(4, 7)])],
    'Slice': [Case(lambda x: rt.slice(x, [0, 1], [2, 2]) ** 2, [u(2, 3)]),
              Case(lambda x: rt.slice(x, [1, 0], [-1, 2]) * x[0, 0], [u(3, 3)])],
    'Split': [Case(lambda x: rt.split(x, 3, axis=1)[1] * rt.split(x, 3, axis=1)[2], [u(2, 3)])],
    'SplitV': [Case(lambda x: rt.split(x, [2, 1], axis=1)[0] * rt.split(x, [2, 1], axis=1)[1],
                    [u(2, 3)])],
    'Unpack': [Case(lambda x: rt.unstack(x, num=2)[1] * rt.unstack(x, num=2)[0], [u(2, 3)]),
               Case(lambda x: rt.unstack(x, num=3, axis=1)[2] ** 2, [u(2, 3)])],
    'ReverseV2': [Case(lambda x: rt.reverse(x, [0, 1]) * x, [u(2, 3)])],
    'GatherNd': [Case(lambda x: rt.gather_nd(x, [[1, 2], [0, 0], [1, 2]]) ** 2, [u(2, 3)]),
                 Case(lambda x: rt.gather_nd(x, [[1]]) * x[0], [u(2, 3)])],
    'ScatterNd': [Case(lambda x: rt.scatter_nd([[1], [0]], x, [3, 3]) ** 2, [u(2, 3)])],
    'TensorScatterUpdate': [Case(lambda x, v: rt.tensor_scatter_nd_update(
        x, [[0, 1], [1, 2]], v) ** 2, [u(2, 3), u(2)]),
        Case(lambda x, v: rt.tensor_scatter_nd_update(x, [[1]], v * v), [u(2, 3), u(1, 3)])],
    'TensorScatterAdd': [Case(lambda x, v: rt.tensor_scatter_nd_add(
        x, [[0, 1], [0, 1]], v * v) * x, [u(2, 3), u(2)])],
    'TensorScatterSub': [Case(lambda x, v: rt.tensor_scatter_nd_sub(x, [[1]], v) ** 2,
                              [u(2, 3), u(1, 3)])],
    'TensorScatterMin': [Case(lambda x, v: rt.tensor_scatter_nd_min(x, [[0, 1], [1, 0]], v) ** 2,
                              [np.array([[0.5, 1.5, 2.], [-1., 0.3, 0.7]]),
                               np.array([0.9, -1.4])])],
    'TensorScatterMax': [Case(lambda x, v: rt.tensor_scatter_nd_max(x, [[1]], v) * x,
                              [np.array([[0.5, 1.5, 2.], [-1., 0.3, 0.7]]),
                               np.array([[0.2, -0.6, 1.1]])])],
    'IdentityN': [Case(lambda x, y: rt.reduce_sum(_custom_square(x * y)) * x, [u(2, 3), u(3)])],
    'TensorListScatterIntoExistingList': [Case(lambda x: rt.TensorArray(rt.float64, size=3).scatter(
        [2, 0, 1], x * x).stack() * x, [u(3, 2)])],
    'TensorListGather': [Case(lambda x: rt.TensorArray(rt.float64, size=3).unstack(x).gather(
        [1, 2, 1]) ** 2, [u(3, 2)])],
    'TensorListConcatV2': [Case(lambda x: rt.TensorArray(rt.float64, size=3).unstack(
        x * x).concat() * rt.reshape(x, [-1]), [u(3, 2)])],
    'TensorListSplit': [Case(_list_split, [u(4, 3)])],
    'TensorListSetItem': [Case(lambda x: rt.TensorArray(rt.float64, size=2).write(
        0, x).write(1, x * x).stack(), [u(3)])],
    'TensorListStack': [Case(lambda x, y: rt.TensorArray(rt.float64, size=2).write(
        1, x).write(0, y).stack() * y, [u(2, 2), u(2, 2)])],
    'TensorListGetItem': [Case(lambda x: rt.TensorArray(rt.float64, size=2).write(
        0, x).write(1, 2.0 * x).read(1) * x, [u(3)])],
    'TensorListFromTensor': [Case(lambda x: list_ops.stack_list(
        list_ops.from_tensor(x * x), rt.float64, rt.TensorShape([3])), [u(2, 3)])],
    'StatelessIf': [Case(_if(True), [u(3), u(3)], graph_only=True),
                    Case(_if(False), [u(3), u(3)], graph_only=True)],
    'If': [Case(_if(True, stateful=True), [u(3), u(3)], graph_only=True)],
    'StatelessCase': [Case(_case(0), [u(3), u(3)], graph_only=True),
                      Case(_case(1), [u(3), u(3)], graph_only=True),
                      Case(_case(7), [u(3), u(3)], graph_only=True)],
    'Case': [Case(_case(0, stateful=True), [u(3), u(3)], graph_only=True)],
    # eagerly under a tape py_function runs its function without an op (the tape records it)
    'EagerPyFunc': [Case(_py_function, [u(3), u(3)], graph_only=True)],
    'StatelessWhile': [Case(_while(), [u(3), u(3)], graph_only=True)],
    'While': [Case(_while(stateful=True), [u(3), u(3)], graph_only=True)],
}
# The math-like surface keeps its cases beside its own gradient test.
for _op_type, _fn, _inputs in SURFACE_CASES:
    CASES.setdefault(_op_type, []).append(Case(_fn, _inputs))
# the cross entropies' `backprop` output, alone and with the loss; dense labels whose rows sum
# to 1 (TensorFlow's loss gradient, `backprop`, assumes it)
_LABEL_ROWS = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
_BITS = runtime_bitwise  # the parts of complex numbers
CASES['Roll'].append(Case(lambda x: rt.roll(x, [1, -1], [0, 1]) * x, [u(2, 3)]))
CASES['Conj'] = [Case(lambda a, b: _BITS.imag(_BITS.conj(_BITS.complex(a, b))) * a,
                      [u(2, 3), u(2, 3)])]
CASES['Complex'] = [Case(lambda a, b: _BITS.real(_BITS.complex(a, b)) ** 2 +
                         _BITS.imag(_BITS.complex(a, b)) * a, [u(2, 3), u(3)])]
CASES['Real'] = [Case(lambda a, b: _BITS.real(_BITS.complex(a, b)) * a, [u(2, 3), u(2, 3)])]
CASES['Imag'] = [Case(lambda a, b: _BITS.imag(_BITS.complex(a, b)) * a, [u(2, 3), u(2, 3)])]
CASES['Angle'] = [Case(lambda a, b: _BITS.angle(_BITS.complex(a, b)) * a, [pos(2, 3), u(2, 3)])]


def _spectrum_loss(z):  # a real loss of a complex spectrum that weighs every part differently
    positions = rt.cast(rt.range(rt.shape(z)[-1]), _BITS.real(z).dtype)
    return _BITS.real(z) * rt.cos(positions) + _BITS.imag(z) * rt.sin(1 + positions)


for _name, _shape in (('FFT', (4,)), ('IFFT', (2, 3)), ('FFT2D', (2, 3)), ('IFFT2D', (3, 2)),
                      ('FFT3D', (2, 2, 3)), ('IFFT3D', (2, 3, 2))):
    CASES[_name] = [Case(lambda a, b, op=_FFT.COMPLEX_OPS[_name]: _spectrum_loss(
        apply(op, [_BITS.complex(a, b)])), [u(*_shape), u(*_shape)])]
CASES['RFFT'] = [Case(lambda x: _spectrum_loss(_FFT.rfft(x)), [u(2, 5)]),
                 Case(lambda x: _spectrum_loss(_FFT.rfft(x, [4])), [u(5)]),
                 Case(lambda x: _spectrum_loss(_FFT.rfft(x, [8])), [u(5)])]
CASES['RFFT2D'] = [Case(lambda x: _spectrum_loss(_FFT.rfft2d(x)), [u(3, 4)]),
                   Case(lambda x: _spectrum_loss(_FFT.rfft2d(x, [2, 6])), [u(3, 4)])]
CASES['IRFFT'] = [Case(lambda a, b: _FFT.irfft(_BITS.complex(a, b)) * np.arange(6.0),
                       [u(4), u(4)]),
                  Case(lambda a, b: _FFT.irfft(_BITS.complex(a, b), [5]) * np.arange(5.0),
                       [u(4), u(4)])]
CASES['IRFFT2D'] = [Case(lambda a, b: _FFT.irfft2d(_BITS.complex(a, b)) * np.arange(4.0),
                         [u(3, 3), u(3, 3)])]


def _resized(x, size, method='bilinear'):  # resizes give float32: back to float64, linear
    return rt.cast(rt.image.resize(x, size, method), rt.float64)


CASES['ResizeBilinear'] = [Case(lambda x: _resized(x, [5, 3]), [u(1, 3, 4, 2)], h=0.25),
                          Case(lambda x: _resized(x, [2, 7]), [u(2, 4, 3, 1)], h=0.25)]
CASES['ResizeNearestNeighbor'] = [Case(lambda x: rt.image.resize(x, [5, 3], 'nearest') ** 2,
                                       [u(1, 3, 4, 2)])]
CASES['ResizeBicubic'] = [Case(lambda x: _resized(x, [6, 3], 'bicubic'), [u(1, 4, 4, 1)],
                               h=0.25)]
CASES['ExtractImagePatches'] = [Case(lambda x: rt.image.extract_patches(
    x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], 'SAME') ** 2, [u(2, 4, 5, 2)], dynamic=False),
    Case(lambda x: rt.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1], [1, 2, 1, 1],
                                            'VALID') * 2.0, [u(1, 5, 5, 1)], dynamic=False)]
CASES['CropAndResize'] = [Case(lambda x: rt.cast(rt.image.crop_and_resize(
    x, [[0.1, 0.2, 0.9, 0.7], [0.5, 0.0, 1.0, 1.0]], [1, 0], [3, 4]), rt.float64),
    [u(2, 5, 6, 2)], dynamic=False, h=0.25)]
CASES['SparseSoftmaxCrossEntropyWithLogits'] += [Case(_xent_outputs(1, True), [u(2, 3)]),
                                                 Case(_xent_outputs(None, True), [u(2, 3)])]
CASES['SoftmaxCrossEntropyWithLogits'] += [Case(_xent_outputs(1, False), [u(2, 3), _LABEL_ROWS]),
                                           Case(_xent_outputs(None, False),
                                                [u(2, 3), _LABEL_ROWS])]

for _op_type, _cases in GRADIENT_CASES.items():
    CASES[_op_type] = [Case(fn, inputs, dynamic=_op_type not in STATIC_ONLY,
                            h=STEPS.get(_op_type, 1e-6)) for fn, inputs in _cases]


_SPECIAL = special_more


class _FixedStream:
    """A random op's stream that gives the same Philox key and counter every run, so a
    stateful op draws the same numbers each time the finite differences run it."""

    def reserve(self, n, blocks_per_number=256):
        return np.array([12345], np.int64), np.array([0, 678], np.int64)


def _random_gamma(alpha):
    return apply(random_more.RANDOM_GAMMA, [np.int32([3]), alpha], {}, payload=_FixedStream())


CASES.update({
    'Erfinv': [Case(_SPECIAL.erfinv, [u(2, 3, low=-0.9, high=0.9)])],
    'Ndtri': [Case(_SPECIAL.ndtri, [u(2, 3, low=0.05, high=0.95)])],
    'BesselI0': [Case(_SPECIAL.bessel_i0, [u(2, 3)])],
    'BesselI0e': [Case(_SPECIAL.bessel_i0e, [u(2, 3)])],
    'BesselI1': [Case(_SPECIAL.bessel_i1, [u(2, 3)])],
    'BesselI1e': [Case(_SPECIAL.bessel_i1e, [u(2, 3)])],
    'Betainc': [Case(lambda x: _SPECIAL.betainc(2.0, 3.5, x), [u(2, 3, low=0.1, high=0.9)])],
    'Igamma': [Case(_SPECIAL.igamma, [pos(2, 3), pos(2, 3)], h=1e-5)],
    'Igammac': [Case(_SPECIAL.igammac, [pos(2, 3), pos(1, 3)], h=1e-5)],
    'Zeta': [Case(lambda q: _SPECIAL.zeta(3.0, q), [pos(2, 3)])],
    'SegmentProd': [Case(lambda x: segment_prod.segment_prod(x, [0, 0, 1, 1, 1]),
                         [pos(5, 2)])],
    'UnsortedSegmentProd': [Case(lambda x: segment_prod.unsorted_segment_prod(
        x, [0, 2, 0, 1, -1], 3), [pos(5, 2)])],
    **{_BESSEL.OPS[name].name: [Case(getattr(_BESSEL, name), [domain])] for name, domain in (
        ('bessel_j0', u(2, 3, low=-5.0, high=5.0)), ('bessel_j1', u(2, 3, low=-5.0, high=5.0)),
        ('bessel_y0', pos(2, 3) * 3), ('bessel_y1', pos(2, 3) * 3), ('bessel_k0', pos(2, 3)),
        ('bessel_k0e', pos(2, 3)), ('bessel_k1', pos(2, 3)), ('bessel_k1e', pos(2, 3)),
        ('dawsn', u(2, 3)), ('expint', pos(2, 3)), ('fresnel_cos', u(2, 3)),
        ('fresnel_sin', u(2, 3)), ('spence', pos(2, 3)))},
    'MatrixSquareRoot': [Case(linalg_more.sqrtm, [np.eye(3) * 3 + u(3, 3) * 0.5],
                              dynamic=False)],
    'TridiagonalSolve': [Case(lambda d, r: linalg_more.tridiagonal_solve(d, r),
                              [np.array([[1.0, 0.5, 0.0], [4.0, 5.0, 6.0], [0.0, 0.7, 0.8]]),
                               u(3, 2)], dynamic=False)],
    'TridiagonalMatMul': [Case(lambda d, r: linalg_more.tridiagonal_matmul(d, r),
                               [u(3, 4), u(4, 2)], dynamic=False)],
    'BandedTriangularSolve': [
        Case(lambda b, r: linalg_more.banded_triangular_solve(b, r),
             [np.array([[2.0, 3.0, 4.0], [0.5, 0.6, 0.7]]), u(3, 2)], dynamic=False),
        Case(lambda b, r: linalg_more.banded_triangular_solve(b, r, lower=False, adjoint=True),
             [np.array([[0.5, 0.6, 0.7], [2.0, 3.0, 4.0]]), u(3, 2)], dynamic=False)],
    'RandomGamma': [Case(_random_gamma, [pos(2)], h=1e-5, dynamic=False)],
    'StatelessRandomGammaV3': [Case(lambda a: random_more.stateless_gamma(
        [4, 2], [3, 4], a, dtype=rt.float64), [pos(2)], h=1e-5, dynamic=False)],
})


# ---- the checks ---------------------------------------------------------------------------------

class OpTypes:
    """A stand-in tape that notes the op types dispatch hands it."""

    def __init__(self):
        self.seen = set()

    def record(self, opdef, inputs, attrs, outputs):
        self.seen.add(opdef.name)


def graph_op_types(graph):
    seen = {op.type for op in graph.operations}
    for function in graph.library.values():
        seen |= {op.type for op in function.operations}
    return seen


def eager_run(case, arrays, cotangent):
    """(value, gradients, op types seen) eagerly."""
    seen = OpTypes()
    if case.variables:
        xs = [rt.Variable(a) for a in arrays]
    else:
        xs = [rt.constant(a) for a in arrays]
    with context.recording(seen), rt.GradientTape() as tape:
        if not case.variables:
            tape.watch(xs)
        y = case.fn(*xs)
    grads = tape.gradient(y, xs, output_gradients=rt.constant(cotangent))
    return y.numpy(), [None if g is None else g.numpy() for g in grads], seen.seen


def graph_run(case, arrays, cotangent, dynamic):
    """(value, gradients, op types in the graph) from a graph with placeholders."""
    g = rt.Graph()
    with g.as_default():
        xs = [rt.placeholder(rt.float64, [None] * a.ndim if dynamic else a.shape)
              for a in arrays]
        tape = rt.GradientTape()
        with tape:
            tape.watch(xs)
            y = case.fn(*xs)
        w = rt.placeholder(rt.float64, [None] * np.ndim(cotangent) if dynamic else
                           np.shape(cotangent))
        grads = tape.gradient(y, xs, output_gradients=w)
    feeds = dict(zip(xs, arrays))
    feeds[w] = cotangent
    fetch = [y] + [gr for gr in grads if gr is not None]
    values = g.run(fetch, feeds)
    it = iter(values[1:])
    return values[0], [None if gr is None else next(it) for gr in grads], graph_op_types(g)


def numeric_gradients(case, arrays, cotangent):
    """Central differences of sum(fn(x) * cotangent), one element at a time, in a graph."""
    g = rt.Graph()
    with g.as_default():
        xs = [rt.placeholder(rt.float64, a.shape) for a in arrays]
        if case.variables:
            variables = [rt.Variable(a) for a in arrays]
            y = case.fn(*variables)
        else:
            y = case.fn(*xs)
        loss = rt.reduce_sum(y * rt.constant(cotangent))

    def value(values):
        if case.variables:
            for v, a in zip(variables, values):
                v.assign(a)
        return float(g.run(loss, dict(zip(xs, values))))

    h = case.h
    result = []
    for i, a in enumerate(arrays):
        grad = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[i][index] += h
            minus[i][index] -= h
            grad[index] = (value(plus) - value(minus)) / (2 * h)
        result.append(grad)
    return result


def assert_close(analytic, numeric, label):
    assert analytic is not None, f'{label}: no gradient'
    analytic = np.asarray(analytic)
    assert analytic.shape == numeric.shape, f'{label}: shape {analytic.shape} != {numeric.shape}'
    scale = max(np.abs(numeric).max(initial=0), np.abs(analytic).max(initial=0), 1e-3)
    error = np.abs(analytic - numeric).max(initial=0) / scale
    assert error <= 1e-6, f'{label}: relative error {error:.2e}\n{analytic}\n{numeric}'


CASE_IDS = [(op, i) for op in sorted(CASES) for i in range(len(CASES[op]))]


@pytest.mark.parametrize('op_type,index', CASE_IDS, ids=[f'{op}-{i}' for op, i in CASE_IDS])
def test_gradient_matches_finite_differences(op_type, index):
    case = CASES[op_type][index]
    arrays = [np.array(a, dtype=np.float64) for a in case.inputs]
    probe_graph = rt.Graph()
    with probe_graph.as_default():
        probe = case.fn(*([rt.Variable(a) for a in arrays] if case.variables else
                          [rt.constant(a) for a in arrays]))
    cotangent = u(*np.shape(probe_graph.run(probe)))  # a random weight per output element
    numeric = numeric_gradients(case, arrays, cotangent)
    runs = {'graph': graph_run(case, arrays, cotangent, dynamic=False)} if not case.variables \
        else {}
    if case.dynamic and not case.variables:
        runs['graph, unknown dims'] = graph_run(case, arrays, cotangent, dynamic=True)
    if not case.graph_only:
        runs['eager'] = eager_run(case, arrays, cotangent)
    for mode, (_, grads, seen) in runs.items():
        assert op_type in seen, f'the case for {op_type} does not run it ({mode})'
        for i, (a, n) in enumerate(zip(grads, numeric)):
            assert_close(a, n, f'{op_type} {mode}, input {i}')


def test_every_op_declares_its_gradient():
    undeclared = sorted(name for name, opdef in REGISTRY.items() if opdef.gradient is None)
    assert undeclared == [], (
        f'These ops declare neither a gradient nor NO_GRADIENT: {undeclared}. Declare each '
        f'with `defgradient` or `not_differentiable` in runtime/gradients/rules/ '
        f'(docs/gradients.md).')


def test_every_gradient_has_a_finite_difference_case():
    unchecked = sorted(name for name, opdef in REGISTRY.items()
                       if opdef.gradient not in (None, NO_GRADIENT, UNREGISTERED_GRADIENT) and
                       name not in CASES)
    assert unchecked == [], (
        f'These ops have a gradient but no case in CASES of {__file__}: {unchecked}.')


def test_an_undeclared_gradient_on_the_path_is_a_lookup_error():
    from runtime.ops.infer import same_as_input
    from runtime.ops.registry import register
    opdef = register('TestOnlyUndeclared', lambda x: x * 2, same_as_input)
    try:
        x = rt.constant([1.0, 2.0])
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = apply(opdef, [x])
        with pytest.raises(LookupError, match='TestOnlyUndeclared'):
            tape.gradient(y, x)
    finally:
        del REGISTRY['TestOnlyUndeclared']


def test_every_gradient_is_a_rule_of_the_gradients_layer():
    """The op modules declare ops without gradients; runtime/gradients/rules/ attaches them."""
    elsewhere = sorted(name for name, opdef in REGISTRY.items()
                       if opdef.gradient not in (None, NO_GRADIENT, UNREGISTERED_GRADIENT) and
                       not opdef.gradient.__module__.startswith('runtime.gradients.rules.'))
    assert elsewhere == [], (
        f'These ops take their gradient from outside runtime/gradients/rules/: {elsewhere}. '
        f'Move each into a rules module, declared with `defgradient` (docs/gradients.md).')


def test_defgradient_attaches_a_gradient_once():
    from runtime.gradients.rules.common import defgradient, not_differentiable
    from runtime.ops.infer import same_as_input
    from runtime.ops.registry import register
    first = register('TestOnlyTwice', lambda x: x * 3, same_as_input)
    second = register('TestOnlyNever', lambda x: -x, same_as_input)
    try:
        rule = defgradient(first)(lambda op, grad: [grad * 3])
        assert first.gradient is rule
        with pytest.raises(ValueError, match='TestOnlyTwice'):
            defgradient(first)(lambda op, grad: [grad])
        not_differentiable(second)
        assert second.gradient is NO_GRADIENT
        x = rt.constant([1.0, 2.0])
        with rt.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y, z = apply(first, [x]), apply(second, [x])
        assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]
        assert tape.gradient(z, x) is None
    finally:
        del REGISTRY['TestOnlyTwice'], REGISTRY['TestOnlyNever']


def test_import_runtime_alone_attaches_every_gradient():
    """A fresh interpreter that only imports runtime has every op's rule (or NO_GRADIENT)."""
    probe = ('import runtime\n'
             'from runtime.ops.registry import REGISTRY\n'
             'print(sorted(n for n, o in REGISTRY.items() if o.gradient is None))\n')
    root = pathlib.Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, '-c', probe], cwd=root, capture_output=True,
                            text=True, timeout=60, env={**os.environ, 'PYTHONPATH': str(root)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '[]'
