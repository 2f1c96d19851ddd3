"""Native rules of the shape, creation and indexing ops: Reshape ExpandDims Squeeze Transpose
ConcatV2 Shape Size Rank Fill Range Pack StridedSlice GatherV2 ScalarIndex, and MatMul and
BatchMatMulV2 (output shapes known when tracing)."""
import importlib.util

import numpy as np

from runtime.executor.native.rules import Unsupported, constant_value, lowers, np_name
from runtime.ops import convert, creation, math, shaping, slicing

# numba's np.dot multiplies float matrices with SciPy's BLAS (when SciPy is installed): as fast
# as numpy's matmul, where loops are ten times slower.
BLAS = importlib.util.find_spec('scipy') is not None


@lowers(creation.RANGE)
def _range(lowering, node, inputs, depth):
    same = all(ref.dtype is node.outputs[0].dtype for ref in node.inputs)
    return lowering.assign(node, f'arange({", ".join(inputs)})', depth, same=same)


@lowers(math.MATMUL)
def _matmul(lowering, node, inputs, depth):
    """Float matrices through BLAS (once.dot), integer ones (which BLAS has no form for), and
    floats without SciPy, in the loops of helpers.matmul."""
    attrs = {**node.opdef.defaults, **node.attrs}
    a, b = inputs
    helper = 'dot' if BLAS and node.outputs[0].dtype.is_floating else 'matmul'
    return lowering.assign(node, f'{helper}({a}, {b}, {bool(attrs["transpose_a"])}, '
                                 f'{bool(attrs["transpose_b"])})', depth, same=True)


@lowers(shaping.RESHAPE, shaping.EXPAND_DIMS, shaping.SQUEEZE)
def _reshape(lowering, node, inputs, depth):
    shape = node.outputs[0].shape
    if not shape.is_fully_defined():
        raise Unsupported(node, 'its output shape is not known when tracing')
    expr = f'reshaped({inputs[0]}, {tuple(shape.as_list())!r})'
    if node.inputs[0].shape.rank == 0:
        expr = inputs[0] if shape.rank == 0 else f'np.full({tuple(shape.as_list())!r}, {inputs[0]})'
    elif shape.rank == 0:
        expr = f'reshaped({inputs[0]}, (-1,))[0]'
    return lowering.assign(node, expr, depth, same=True)


@lowers(shaping.TRANSPOSE)
def _transpose(lowering, node, inputs, depth):
    """A transposed copy, as a loop nest (numba's transpose with axes compiles for seconds)."""
    perm = constant_value(node.inputs[1])
    rank = node.inputs[0].shape.rank
    if perm is None or rank is None:
        raise Unsupported(node, 'its permutation or input rank is not known when tracing')
    perm = [int(p) % rank for p in np.ravel(perm)] if rank else []
    x, dtype = inputs[0], np_name(node.outputs[0].dtype)
    if dtype is None:
        raise Unsupported(node, f'its dtype {node.outputs[0].dtype.name} is not one native '
                                f'code holds')
    out = lowering.result(node)
    lowering.line(depth, f'{out} = np.empty(({"".join(f"{x}.shape[{p}], " for p in perm)}), '
                         f'np.{dtype})')
    indexes = [lowering.fresh('i') for _ in perm]
    for k, (index, p) in enumerate(zip(indexes, perm)):
        lowering.line(depth + k, f'for {index} in range({x}.shape[{p}]):')
    source = [indexes[perm.index(axis)] for axis in range(rank)]
    lowering.line(depth + rank, f'{out}[{", ".join(indexes)}{"," if rank == 1 else ""}] = '
                                f'{x}[{", ".join(source)}{"," if rank == 1 else ""}]')
    return [out]


@lowers(shaping.CONCAT)
def _concat(lowering, node, inputs, depth):
    axis = constant_value(node.inputs[-1])
    rank = node.outputs[0].shape.rank
    if axis is None or rank is None:
        raise Unsupported(node, 'its axis or rank is not known when tracing')
    expr = f'concatenated(({", ".join(inputs[:-1])},), {int(axis) % rank})'
    return lowering.assign(node, expr, depth, same=True)


@lowers(shaping.SHAPE, shaping.SIZE, shaping.RANK)
def _shape_of(lowering, node, inputs, depth):
    """Shape, Size and Rank of an array whose rank is known."""
    rank = node.inputs[0].shape.rank
    if rank is None:
        raise Unsupported(node, 'its input rank is not known when tracing')
    x = inputs[0]
    expr = {shaping.SHAPE: f'np.array(({"".join(f"{x}.shape[{i}], " for i in range(rank))}))'
            if rank else 'np.zeros(0, np.int64)',
            shaping.SIZE: f'{x}.size' if rank else '1',
            shaping.RANK: repr(rank)}[node.opdef]
    return lowering.assign(node, expr, depth)


@lowers(creation.FILL)
def _fill(lowering, node, inputs, depth):
    rank = node.outputs[0].shape.rank
    if rank is None:
        raise Unsupported(node, 'its output rank is not known when tracing')
    # np.int64, not int(): numba compiles int() in every process
    dims = ', '.join(f'np.int64({inputs[0]}[{i}])' for i in range(rank))
    return lowering.assign(node, f"np.full(({dims},), {inputs[1]})", depth, same=True)


@lowers(convert.PACK)
def _pack(lowering, node, inputs, depth):
    if _only_indexes(lowering, node):
        return [None]  # StridedSlice reads the packed scalars directly
    axis = node.attrs.get('axis', 0)
    if all(ref.shape.rank == 0 for ref in node.inputs):
        expr = f'np.array(({"".join(f"{name}, " for name in inputs)}))'  # a tuple: once.array
    elif axis == 0:
        expr = f'np.stack(({", ".join(inputs)},))'
    else:
        raise Unsupported(node, 'native code stacks arrays along axis 0 only')
    return lowering.assign(node, expr, depth, same=True)


def _only_indexes(lowering, node):
    users = lowering.uses.get(node.outputs[0], [])
    return bool(users) and all(user != 'output' and user.opdef is slicing.STRIDED_SLICE and
                               position > 0 and _slice_problem(lowering, user) is None
                               for user, position in users)


def _slice_problem(lowering, node):
    """Why the StridedSlice `node` calls its kernel rather than being written natively (None
    when it is written natively): a Pack of scalars it reads is left to it only then."""
    if node.attrs.get('ellipsis_mask', 0) or node.attrs.get('new_axis_mask', 0):
        return 'native code slices without `...` and `None`'
    if node.inputs[0].shape.rank is None:
        return 'its input rank is not known when tracing'
    if any(lowering.is_boxed(ref) for ref in node.inputs + node.outputs):
        return 'it reads or makes a value native code does not hold'
    return None


def _index_items(lowering, node, ref, names):
    """Per dimension, the expression of begin/end/stride `ref` (a Const or a Pack of scalars)."""
    value = constant_value(ref)
    if value is not None:
        return [repr(int(v)) for v in np.ravel(value)]
    producer = ref.node
    if producer.opdef is convert.PACK and all(r.shape.rank == 0 for r in producer.inputs):
        return [names[r] for r in producer.inputs]
    raise Unsupported(node, 'its begin, end and strides are not scalars known to native code')


@lowers(slicing.STRIDED_SLICE)
def _strided_slice(lowering, node, inputs, depth):
    masks = {k: node.attrs.get(k, 0) for k in ('begin_mask', 'end_mask', 'shrink_axis_mask')}
    problem = _slice_problem(lowering, node)
    if problem is not None:
        raise Unsupported(node, problem)
    x_shape = node.inputs[0].shape
    names = lowering.names
    begin, end, strides = (_index_items(lowering, node, ref, names) for ref in node.inputs[1:])
    items = []
    for k, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << k
        if masks['shrink_axis_mask'] & bit:
            items.append(_checked_index(b, inputs[0], x_shape, k))
        else:
            items.append(f'{"" if masks["begin_mask"] & bit else b}:'
                         f'{"" if masks["end_mask"] & bit else e}:{s}')
    expr = f'{inputs[0]}[{", ".join(items)}{"," if len(items) == 1 else ""}]'
    return lowering.assign(node, expr, depth, same=True)


@lowers(slicing.GATHER)
def _gather(lowering, node, inputs, depth):
    axis = constant_value(node.inputs[2])
    if axis is None or int(axis) != 0 or node.inputs[1].shape.rank != 0:
        raise Unsupported(node, 'native code gathers one scalar index along axis 0')
    expr = f'{inputs[0]}[check_bounds({inputs[1]}, {inputs[0]}.shape[0])]'
    return lowering.assign(node, expr, depth, same=True)


@lowers(slicing.SCALAR_INDEX)
def _scalar_index(lowering, node, inputs, depth):
    """x[i] for a scalar i (StridedSlice's rewrite): negative i counts from the end, and an
    i out of range raises."""
    x, index = inputs
    if not node.inputs[0].shape.rank:
        raise Unsupported(node, 'its input rank is not known when tracing')
    value = node.inputs[1].constant
    literal = repr(int(value)) if value is not None and np.ndim(value) == 0 else index
    return lowering.assign(node, f'{x}[{_checked_index(literal, x, node.inputs[0].shape, 0)}]',
                           depth, same=True)


def _checked_index(index, x, shape, axis):
    """The index `index` into axis `axis` of the array `x` of `shape`: a literal when it is an
    int literal in range of a dim known when tracing (no check to compile), else checked."""
    size = shape[axis]
    if size is not None and index.lstrip('-').isdigit() and -size <= int(index) < size:
        return repr(int(index) % size)
    return f'check_index({index}, {x}.shape[{axis}])'


@lowers(math.BATCH_MATMUL)
def _batch_matmul(lowering, node, inputs, depth):
    """BatchMatMulV2 with batch dims known when tracing, each operand's either the output's
    or all 1 (broadcast): a loop of matrix products."""
    out_shape = node.outputs[0].shape
    if out_shape.rank is None or not out_shape[:-2].is_fully_defined() or \
            any(ref.shape.rank is None for ref in node.inputs):
        raise Unsupported(node, 'its batch dims are not known when tracing')
    batch = out_shape[:-2].as_list()
    total = int(np.prod(batch))
    operands = []
    for ref, name in zip(node.inputs, inputs):
        dims = ref.shape[:-2]
        own = [1] * (len(batch) - dims.rank) + dims.as_list() if dims.is_fully_defined() else None
        if own is None or own not in (batch, [1] * len(batch)):
            raise Unsupported(node, 'native code broadcasts whole batches only (each operand '
                                    'has the batch dims of the result, or none)')
        rows = 1 if own != batch else total
        operands.append(f'reshaped({name}, ({rows}, '
                        f'{name}.shape[{ref.shape.rank - 2}], {name}.shape[{ref.shape.rank - 1}]))')
    product = lowering.fresh('product')
    attrs = {**node.opdef.defaults, **node.attrs}
    lowering.line(depth, f'{product} = batch_matmul({operands[0]}, {operands[1]}, '
                         f'{bool(attrs["adj_x"])}, {bool(attrs["adj_y"])})')
    dims = ''.join(f'{d}, ' for d in batch)
    return lowering.assign(node, f'reshaped({product}, ({dims}{product}.shape[1], '
                                 f'{product}.shape[2]))', depth, same=True)
