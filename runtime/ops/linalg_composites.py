"""`tf.linalg` names TensorFlow builds from other ops: `cross`, `normalize`, `set_diag`,
`tensor_diag`, `tensor_diag_part`, `cholesky_solve`."""
from runtime.ops.convert import convert_to_tensor, stack, unify_operands
from runtime.ops.creation import eye, ones_like
from runtime.ops.linalg import diag, diag_part, norm, triangular_solve
from runtime.ops.shaping import reshape


def cross(a, b, name=None):
    """The cross product of the 3-vectors on the last axis of `a` and `b`."""
    (a, b), _ = unify_operands('Cross', a, b)
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if a.shape.rank is not None and a.shape[-1] not in (None, 3):
        raise ValueError(f'cross needs vectors of 3 on the last axis, got shape {a.shape}.')
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def normalize(tensor, ord='euclidean', axis=None, name=None):
    """(`tensor` divided by its norm, the norm) over `axis` (as `rt.norm`, kept dims)."""
    tensor = convert_to_tensor(tensor)
    length = norm(tensor, ord=ord, axis=axis, keepdims=True)
    return tensor / length, length


def set_diag(input, diagonal, name='set_diag', k=0, align='RIGHT_LEFT'):
    """`input` with its main diagonal (of each matrix) replaced by `diagonal` (k=0 only)."""
    if k != 0:
        raise NotImplementedError('set_diag supports the main diagonal (k=0) only.')
    x = convert_to_tensor(input)
    rows, cols = x.shape[-2], x.shape[-1]
    if rows is None or cols is None:
        raise ValueError('set_diag needs matrices of known size.')
    mask = eye(rows, cols, dtype=x.dtype)
    new = diag(convert_to_tensor(diagonal, x.dtype), num_rows=rows, num_cols=cols)
    return x * (ones_like(mask) - mask) + new


def tensor_diag(diagonal, name=None):
    """The tensor of rank 2k with `diagonal` (rank k) on its diagonal and zeros elsewhere."""
    d = convert_to_tensor(diagonal)
    if not d.shape.is_fully_defined():
        raise ValueError('tensor_diag needs a diagonal of known shape.')
    dims = d.shape.as_list()
    size = 1
    for n in dims:
        size *= n
    return reshape(diag(reshape(d, [size])), dims + dims, name=name)


def tensor_diag_part(input, name=None):
    """The diagonal of the rank-2k tensor `input`: `out[i..] = input[i.., i..]`."""
    x = convert_to_tensor(input)
    if not x.shape.is_fully_defined() or x.shape.rank % 2:
        raise ValueError(f'tensor_diag_part needs an even rank of known shape, got {x.shape}.')
    dims = x.shape.as_list()
    half = dims[:len(dims) // 2]
    size = 1
    for n in half:
        size *= n
    return reshape(diag_part(reshape(x, [size, size])), half, name=name)


def cholesky_solve(chol, rhs, name=None):
    """The solution of `A x = rhs` given `chol`, the Cholesky factor of A: two triangular
    solves."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)

