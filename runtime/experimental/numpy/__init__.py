# ruff: noqa: F401 - the imports are the public names; `__all__` is computed below
"""`rt.experimental.numpy`: numpy's API on tensors, as TensorFlow's `tf.experimental.numpy`.

Functions take tensors, variables, numpy arrays and Python values and return tensors; values
convert as numpy converts them (Python floats to float64) and operands meet at numpy's result
type (Python scalars weakly). Each function builds the runtime's graph ops, so it works inside
`ag.function` and has their gradients. The dtypes are numpy's types (`tnp.float32 is
np.float32`); `ndarray` is `rt.Tensor`.
"""
import numpy as np

from runtime.core.tensor import Tensor
from runtime.experimental.numpy import random
from runtime.experimental.numpy.core import asarray, numpy_dtype, result_type
from runtime.experimental.numpy.creation import (
    arange,
    array,
    asanyarray,
    ascontiguousarray,
    copy,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    geomspace,
    linspace,
    logspace,
    meshgrid,
    ones,
    ones_like,
    tri,
    tril,
    triu,
    vander,
    zeros,
    zeros_like,
)
from runtime.experimental.numpy.creation import identity_matrix as identity
from runtime.experimental.numpy.linear import (
    array_equal,
    cross,
    diag,
    diag_indices,
    diagflat,
    diagonal,
    diff,
    dot,
    einsum,
    inner,
    iscomplexobj,
    isrealobj,
    isscalar,
    ix_,
    kron,
    ndim,
    outer,
    polyval,
    shape,
    size,
    tensordot,
    trace,
    vdot,
)
from runtime.experimental.numpy.manipulation import (
    append,
    argsort,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_arrays,
    broadcast_to,
    compress,
    concatenate,
    dsplit,
    dstack,
    expand_dims,
    flatten,
    flip,
    fliplr,
    flipud,
    hsplit,
    hstack,
    moveaxis,
    nonzero,
    pad,
    ravel,
    repeat,
    reshape,
    roll,
    rot90,
    select,
    sort,
    split,
    squeeze,
    stack,
    swapaxes,
    take,
    take_along_axis,
    tile,
    transpose,
    vsplit,
    vstack,
    where,
)
from runtime.experimental.numpy.math_ops import (
    FUNCTIONS,
    allclose,
    angle,
    around,
    clip,
    divmod,
    imag,
    isclose,
    real,
    round,
    sign,
)
from runtime.experimental.numpy.reductions import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    average,
    count_nonzero,
    cumprod,
    cumsum,
    max,
    mean,
    min,
    nanmean,
    nanprod,
    nansum,
    prod,
    ptp,
    std,
    sum,
    var,
)

globals().update(FUNCTIONS)  # the elementwise functions of the table in math_ops.py

# numpy's dtypes and constants, as TensorFlow's numpy API re-exports them
bool_, complex_, complex64, complex128 = np.bool_, np.complex128, np.complex64, np.complex128
float_, float16, float32, float64 = np.float64, np.float16, np.float32, np.float64
int_, int8, int16, int32, int64 = np.int64, np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
object_, string_, unicode_, inexact = np.object_, np.bytes_, np.str_, np.inexact
e, pi, inf, newaxis = np.e, np.pi, np.inf, None
iinfo, issubdtype, ndarray = np.iinfo, np.issubdtype, Tensor


def finfo(dtype):
    """numpy.finfo of `dtype` (an `rt.DType` too)."""
    return np.finfo(numpy_dtype(dtype))


def promote_types(type1, type2):
    """numpy.promote_types of two dtypes (`rt.DType`s too), as a numpy dtype."""
    return np.promote_types(numpy_dtype(type1), numpy_dtype(type2))


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode='legacy'):
    """TensorFlow's switch to numpy methods on tensors: tensors here always have `.numpy()`,
    and the functions of this module always follow numpy's dtype rules, so it changes
    nothing."""
    if dtype_conversion_mode not in ('legacy', 'safe', 'all'):
        raise ValueError(f'{dtype_conversion_mode} is not a valid dtype_conversion_mode.')


__all__ = sorted(name for name in list(globals()) if not name.startswith('_') and
                 name not in ('np', 'Tensor', 'FUNCTIONS', 'numpy_dtype', 'core', 'creation',
                              'linear', 'manipulation', 'math_ops', 'reductions'))
