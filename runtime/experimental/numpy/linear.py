"""Products, diagonals, differences and the array predicates of `rt.experimental.numpy`
(`dot`, `outer`, `kron`, `cross`, `diag`, `trace`, `diff`, `polyval`, `shape`, `ndim`, ...)."""
import numpy as np

from runtime import math as rtm
from runtime.core import dtypes
from runtime.experimental.numpy.core import (
    asarray,
    canonical_axis,
    promote,
    static_rank,
)
from runtime.experimental.numpy.manipulation import moveaxis, ravel
from runtime.experimental.numpy.reductions import accumulating
from runtime.ops.array import cast
from runtime.ops.bitwise import conj
from runtime.ops.compare import where
from runtime.ops.convert import constant, stack
from runtime.ops.creation import range as rt_range
from runtime.ops.creation import zeros_like
from runtime.ops.linalg import diag as rt_diag
from runtime.ops.linalg import diag_part as rt_diag_part
from runtime.ops.linalg import einsum as rt_einsum
from runtime.ops.linalg import tensordot as rt_tensordot
from runtime.ops.shaping import concat, expand_dims, reshape
from runtime.ops.shaping import shape as shape_of


def dot(a, b):
    """numpy.dot: products summed over the last axis of `a` and the second-to-last of `b`."""
    a, b = promote(a, b)
    ra, rb = static_rank(a), static_rank(b)
    if ra == 0 or rb == 0:
        return a * b
    if rb == 1:
        return rt_tensordot(a, b, [[ra - 1], [0]])
    return rt_tensordot(a, b, [[ra - 1], [rb - 2]])


def inner(a, b):
    """numpy.inner: products summed over the last axes."""
    a, b = promote(a, b)
    ra, rb = static_rank(a), static_rank(b)
    if ra == 0 or rb == 0:
        return a * b
    return rt_tensordot(a, b, [[ra - 1], [rb - 1]])


def outer(a, b):
    """numpy.outer: the products of the flattened operands."""
    a, b = promote(a, b)
    return expand_dims(ravel(a), 1) * expand_dims(ravel(b), 0)


def vdot(a, b):
    """numpy.vdot: the dot product of the flattened operands (the first conjugated)."""
    a, b = promote(a, b)
    a, b = ravel(a), ravel(b)
    if None not in (a.shape[0], b.shape[0]) and a.shape[0] != b.shape[0]:
        raise ValueError(f'vdot needs operands of one size, got {a.shape[0]} and {b.shape[0]}.')
    if a.dtype.is_complex:
        a = conj(a)
    return rtm.reduce_sum(a * b)


def kron(a, b):
    """numpy.kron: the Kronecker product."""
    a, b = promote(a, b)
    ra, rb = static_rank(a), static_rank(b)
    rank = max(ra, rb)
    a = reshape(a, [1] * (rank - ra) + list(a.shape)) if ra < rank else a
    b = reshape(b, [1] * (rank - rb) + list(b.shape)) if rb < rank else b
    shape_a, shape_b = list(a.shape), list(b.shape)
    expanded_a = reshape(a, [d for n in shape_a for d in (n, 1)])
    expanded_b = reshape(b, [d for n in shape_b for d in (1, n)])
    return reshape(expanded_a * expanded_b, [x * y for x, y in zip(shape_a, shape_b)])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross: the cross product of 3-vectors (2-vectors get a zero third component)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote(a, b)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)

    def components(v):
        if v.shape[-1] == 2:
            v = _append_zero(v)
        return [v[..., i] for i in range(3)]
    (a0, a1, a2), (b0, b1, b2) = components(a), components(b)
    two_d = a.shape[-1] == 2 and b.shape[-1] == 2
    if two_d:
        return a0 * b1 - a1 * b0
    result = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return moveaxis(result, -1, axisc)


def _append_zero(v):
    return concat([v, zeros_like(v[..., :1])], -1)


def tensordot(a, b, axes=2):
    """numpy.tensordot."""
    a, b = promote(a, b)
    return rt_tensordot(a, b, axes)


def einsum(subscripts, *operands, **kwargs):
    """numpy.einsum (op `Einsum`)."""
    return rt_einsum(subscripts, *promote(*operands))


def diag(v, k=0):
    """numpy.diag: the diagonal `k` of a matrix, or a matrix with vector `v` on it."""
    v = asarray(v)
    rank = static_rank(v)
    if rank == 1:
        return rt_diag(v, k=k)
    if rank != 2:
        raise ValueError(f'Input to diag should be of rank 1 or 2. Found rank: {rank}')
    return diagonal(v, k)


def diagflat(v, k=0):
    """numpy.diagflat: the flattened input on diagonal `k`."""
    return diag(ravel(v), k)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """numpy.diagonal: the diagonal of the `axis1`/`axis2` planes, as the last axis."""
    a = asarray(a)
    rank = static_rank(a)
    axis1, axis2 = canonical_axis(axis1, rank), canonical_axis(axis2, rank)
    if (axis1, axis2) != (rank - 2, rank - 1):
        a = moveaxis(a, [axis1, axis2], [-2, -1])
    rows, cols = a.shape[-2], a.shape[-1]
    if rows is not None and cols is not None and (offset >= cols or -offset >= rows):
        return a[..., :0, 0]
    return rt_diag_part(a, k=offset)


def diag_indices(n, ndim=2):
    """numpy.diag_indices: `ndim` copies of `range(n)`."""
    if n < 0:
        raise ValueError(f'n argument to diag_indices must be nonnegative, got {n}')
    if ndim < 0:
        raise ValueError(f'ndim argument to diag_indices must be nonnegative, got {ndim}')
    return (rt_range(np.int32(n)),) * ndim


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """numpy.trace: the sum along a diagonal."""
    return rtm.reduce_sum(accumulating(diagonal(a, offset, axis1, axis2), dtype), -1)


def diff(a, n=1, axis=-1):
    """numpy.diff: the `n`-th differences along `axis`."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f'Argument `order` must be a non-negative integer, got {n}')
    rank = static_rank(a)
    axis = canonical_axis(axis, rank)
    for _ in range(n):
        upper = tuple(slice(1, None) if i == axis else slice(None) for i in range(rank))
        lower = tuple(slice(None, -1) if i == axis else slice(None) for i in range(rank))
        a = rtm.not_equal(a[upper], a[lower]) if a.dtype.is_bool else a[upper] - a[lower]
    return a


def polyval(p, x):
    """numpy.polyval: the polynomial with coefficients `p` (highest first) at `x`."""
    p_tensor = asarray(p)
    x = asarray(x)
    coefficients = [p_tensor[i] for i in range(p_tensor.shape[0])]
    result = zeros_like(promote(x, p_tensor[0] if coefficients else 0)[0])
    for c in coefficients:
        result, c = promote(result, c)
        result = result * cast(x, result.dtype) + c
    return result


def ix_(*args):
    """numpy.ix_: open meshes of 1-D index arrays."""
    n = len(args)
    results = []
    for i, a in enumerate(args):
        a = asarray(a)
        if static_rank(a) != 1:
            raise ValueError('Arguments to ix_ must be 1-d')
        if a.dtype.is_bool:
            a = where(a)[:, 0]
        results.append(reshape(a, [1] * i + [-1] + [1] * (n - i - 1)))
    return results


def shape(a):
    """numpy.shape: the static shape as a tuple."""
    return tuple(asarray(a).shape.as_list())


def ndim(a):
    """numpy.ndim."""
    return static_rank(asarray(a))


def size(x, axis=None):
    """numpy.size: the number of elements (along `axis`)."""
    dims = asarray(x).shape.as_list()
    if axis is not None:
        return dims[axis]
    return int(np.prod(dims)) if None not in dims else rtm.reduce_prod(
        shape_of(asarray(x), out_type=dtypes.int64))


def isscalar(num):
    """numpy.isscalar: rank 0."""
    return static_rank(asarray(num)) == 0


def iscomplexobj(x):
    """numpy.iscomplexobj: a complex dtype."""
    return asarray(x).dtype.is_complex


def isrealobj(x):
    """numpy.isrealobj: not a complex dtype."""
    return not iscomplexobj(x)


def array_equal(a1, a2):
    """numpy.array_equal: equal shapes and equal elements (a bool tensor)."""
    a1, a2 = promote(a1, a2)
    if a1.shape.as_list() != a2.shape.as_list() and a1.shape.is_fully_defined() and \
            a2.shape.is_fully_defined():
        return constant(False)
    return rtm.reduce_all(rtm.equal(a1, a2))

