"""numba helpers that the native forms of ops call (native/rules/forms.py), and the dtype casts.

Imported when a `jit_compile=True` graph is first lowered (it imports numba). Most helpers are
`cached` (native/once.py: compiled once per machine); the `overload`s pick an implementation
for the argument types when numba compiles the caller and compile in each process, so scalar
code calls their cached twins. The generated code's `np` is once.py's `NUMPY`. Errors have
constant messages; the caller runs the graph again with the default executor to report them.
"""
import numba
import numpy as np
from numba import types
from numba.extending import overload

from runtime.executor.native import atomics, once, vmath
from runtime.executor.native.calling import call_kernel
from runtime.executor.native.once import NUMPY, cached

# A *site* (loop nest, kernel call): no Python or C wrapper (~20% of an RNN gradient's compile)
SITE_OPTIONS = {'error_model': 'numpy', 'no_cpython_wrapper': True, 'no_cfunc_wrapper': True}

# Every name the generated code calls (`namespace()` hands them to it). Kernel calls are `site`s
# calling `call_kernel`; a loop nest called once is an `inline_site`, inlined by numba.
EXPORTS = {'np': NUMPY, 'objmode': numba.objmode, 'call_kernel': call_kernel,
           'site': cached(**SITE_OPTIONS),
           'inline_site': cached(inline='always', **SITE_OPTIONS),
           **vmath.EXPORTS, **atomics.EXPORTS, **once.EXPORTS}


def _export(stub):
    EXPORTS[stub.__name__] = stub
    return stub


def _is_int(numba_type):
    dtype = numba_type.dtype if isinstance(numba_type, types.Array) else numba_type
    return isinstance(dtype, types.Integer)


# ---- helpers named by native forms -------------------------------------------------------------

@_export
def floordiv(x, y):
    """x // y; integer division by zero raises ZeroDivisionError."""
    if np.asarray(y).dtype.kind in 'iu' and not np.all(y):
        raise ZeroDivisionError('Integer division by zero')
    return x // y


@overload(floordiv)
def _floordiv(x, y):
    if not _is_int(y):
        return lambda x, y: x // y
    if isinstance(y, types.Array):
        def checked(x, y):
            if (y == 0).any():
                raise ZeroDivisionError('Integer division by zero')
            return x // y
        return checked

    def checked_scalar(x, y):
        if y == 0:
            raise ZeroDivisionError('Integer division by zero')
        return x // y
    return checked_scalar


@_export
def floormod(x, y):
    """x % y; integer division by zero raises ZeroDivisionError."""
    if np.asarray(y).dtype.kind in 'iu' and not np.all(y):
        raise ZeroDivisionError('Integer division by zero')
    return x % y


@overload(floormod)
def _floormod(x, y):
    if not _is_int(y):
        return lambda x, y: x % y
    if isinstance(y, types.Array):
        def checked(x, y):
            if (y == 0).any():
                raise ZeroDivisionError('Integer division by zero')
            return x % y
        return checked

    def checked_scalar(x, y):
        if y == 0:
            raise ZeroDivisionError('Integer division by zero')
        return x % y
    return checked_scalar


@_export
def select(condition, x, y):
    """`x` where `condition` else `y`, elementwise."""
    return np.where(condition, x, y)[()]


@overload(select)
def _select(condition, x, y):
    if not any(isinstance(t, types.Array) for t in (condition, x, y)):
        return lambda condition, x, y: x if condition else y
    return lambda condition, x, y: np.where(condition, x, y)


@_export
def zeros_like(x):
    return np.zeros_like(x)[()]


@overload(zeros_like)
def _zeros_like(x):
    if isinstance(x, types.Array):
        return lambda x: np.zeros_like(x)
    return lambda x: x - x


@_export
def ones_like(x):
    return np.ones_like(x)[()]


@overload(ones_like)
def _ones_like(x):
    if isinstance(x, types.Array):
        return lambda x: np.ones_like(x)
    return lambda x: x - x + 1


# Scalar twins of the helpers above: scalar code (rank-0 values, and the elements of loops
# over arrays) calls these, compiled once per machine, where the overloads above would
# compile again in each process (native/rules/elementwise.py picks them).

@_export
@cached
def floordiv_scalar(x, y):
    """x // y of two numbers; an integer division by zero raises ZeroDivisionError (the
    lowering calls this only for integers with the check still to run)."""
    if y == 0:
        raise ZeroDivisionError('Integer division by zero')
    return x // y


@_export
@cached
def floormod_scalar(x, y):
    """x % y of two numbers, as floordiv_scalar."""
    if y == 0:
        raise ZeroDivisionError('Integer division by zero')
    return x % y


@_export
@cached
def select_scalar(condition, x, y):
    return x if condition else y


@_export
@cached
def arange(start, limit, delta):
    """`np.arange` in the dtype of `start` (numba's gives int64 for int32 bounds)."""
    if delta == 0:
        raise ValueError('Requires delta != 0')
    return np.arange(start, limit, delta).astype(np.asarray(start).dtype)


@_export
@cached
def matmul(a, b, transpose_a, transpose_b):
    """`a @ b` as loops: numba's np.dot needs SciPy and takes no integer matrices. Integer
    products wrap around in the dtype's width, as numpy's do."""
    if transpose_a:
        a = a.T
    if transpose_b:
        b = b.T
    n, k = a.shape
    k2, m = b.shape
    if k != k2:
        raise ValueError('Matrix size-incompatible')
    out = np.zeros((n, m), a.dtype)
    for i in range(n):
        for p in range(k):
            a_ip = a[i, p]
            for j in range(m):
                out[i, j] += a_ip * b[p, j]
    return out


@_export
@cached
def sparse_xent(logits, labels):
    """Sparse softmax cross-entropy of a matrix of logits: (loss per row, backprop), computed
    in the logits' dtype as the kernel computes it."""
    rows, classes = logits.shape
    loss = np.empty(rows, logits.dtype)
    backprop = np.empty_like(logits)
    for i in range(rows):
        label = labels[i]
        if label < 0 or label >= classes:
            raise ValueError('Received a label value outside the valid range')
        top = logits[i, 0]
        for j in range(1, classes):
            top = max(top, logits[i, j])
        total = logits.dtype.type(0)
        for j in range(classes):
            total += np.exp(logits[i, j] - top)
        log_total = np.log(total)
        for j in range(classes):
            backprop[i, j] = np.exp((logits[i, j] - top) - log_total)
        backprop[i, label] -= 1
        loss[i] = -((logits[i, label] - top) - log_total)
    return loss, backprop


@_export
@cached
def softmax_rows(x, log):
    """Softmax (log-softmax with `log`) of each row of a float matrix, in its dtype as the
    kernel computes it: the row's max subtracted, exp, divided by (less the log of) the sum;
    a NaN in a row makes it all NaN, as numpy's max does."""
    rows, columns = x.shape
    if columns == 0 and rows:
        raise ValueError('zero-size array to reduction operation maximum')
    out = np.empty_like(x)
    for i in range(rows):
        top = x[i, 0]
        for j in range(1, columns):
            value = x[i, j]
            if value > top or value != value:
                top = value
                if value != value:
                    break
        total = x.dtype.type(0)
        for j in range(columns):
            shifted = x[i, j] - top
            e = np.exp(shifted)
            total += e
            out[i, j] = shifted if log else e
        if log:
            log_total = np.log(total)
            for j in range(columns):
                out[i, j] -= log_total
        else:
            for j in range(columns):
                out[i, j] /= total
    return out


@_export
@cached
def descend(var, alpha, delta):
    """`var - alpha * delta` of two arrays of one shape, as a new array (the old value may
    still be read): SGD's update."""
    out = np.empty_like(var)
    flat, step, new = var.ravel(), np.ascontiguousarray(delta).ravel(), out.ravel()
    for i in range(flat.shape[0]):
        new[i] = flat[i] - alpha * step[i]
    return out


@_export
@cached
def batch_matmul(a, b, adj_x, adj_y):
    """Matrix products of 3-D stacks (a stack of one broadcasts), `adj_x`/`adj_y` transposing
    each matrix first."""
    batch = max(a.shape[0], b.shape[0])
    n = a.shape[2] if adj_x else a.shape[1]
    m = b.shape[1] if adj_y else b.shape[2]
    out = np.empty((batch, n, m), a.dtype)
    for t in range(batch):
        out[t] = matmul(a[t if a.shape[0] > 1 else 0], b[t if b.shape[0] > 1 else 0],
                        adj_x, adj_y)
    return out


@_export
@cached
def counted_end(start, limit, step):
    """The counter of a counted loop after it: the first value not below `limit`, or `start`."""
    if limit <= start:
        return start
    return start + ((limit - start + step - 1) // step) * step


@_export
@cached
def check_index(index, size):
    """`index` (negative counts from the end) if within `size`, else IndexError."""
    if index < 0:
        index += size
    if index < 0 or index >= size:
        raise IndexError('index out of range')
    return index


@_export
@cached
def reshaped(x, shape):
    """`x` of `shape` (a copy if `x` is not contiguous): numba's reshape compiles for ~0.5 s in
    each process, this once per machine."""
    return np.ascontiguousarray(x).reshape(shape)


@_export
@cached
def concatenated(arrays, axis):
    """`np.concatenate(arrays, axis)`, compiled once per machine (numba's compiles in each
    process)."""
    return np.concatenate(arrays, axis=axis)


@_export
def list_set(data, written, index, item):
    """Element `index` of a TensorList (`data`, `written`) becomes `item`."""
    if index < 0 or index >= data.shape[0]:
        raise IndexError('TensorArray index out of range')
    data[index] = item
    written[index] = True


@overload(list_set, jit_options={'cache': True})  # its lambdas: once per machine
def _list_set(data, written, index, item):
    """data[index] = item, by helpers compiled once per machine (an overload's own code
    compiles in each process)."""
    if not isinstance(item, types.Array):
        return lambda data, written, index, item: list_set_scalar(data, written, index, item)
    if item.ndim == 1:
        return lambda data, written, index, item: list_set_row(data, written, index, item)
    if item.ndim == 2:
        return lambda data, written, index, item: list_set_matrix(data, written, index, item)
    return lambda data, written, index, item: list_set_array(data, written, index, item)


@cached
def list_set_scalar(data, written, index, item):
    list_check_index(written, index)
    data[index] = item
    written[index] = True


@cached
def list_set_row(data, written, index, item):  # per element: numba's `=` compiles slowly
    list_check_index(written, index)
    for k in range(item.shape[0]):
        data[index, k] = item[k]
    written[index] = True


@cached
def list_set_matrix(data, written, index, item):  # a loop nest LLVM vectorizes (not ndindex)
    list_check_index(written, index)
    for i in range(item.shape[0]):
        for j in range(item.shape[1]):
            data[index, i, j] = item[i, j]
    written[index] = True


@cached
def list_set_array(data, written, index, item):
    list_check_index(written, index)
    row = data[index]
    for k in np.ndindex(item.shape):
        row[k] = item[k]
    written[index] = True


@_export
@cached
def list_reserve(size, template):
    """A TensorList of `size` elements shaped like `template[0]`: (data, written)."""
    if size < 0:
        raise ValueError('TensorArray size must be non-negative')
    return (np.empty((size,) + template.shape[1:], template.dtype),
            np.zeros(size, np.bool_))


@_export
@cached
def list_reserve_growing(size, template, rooms, slot):
    """A TensorList of dynamic size, `size` elements to start with: (data, written, size), with
    room for as many as this reservation's list had in an earlier call (`rooms[slot]`)."""
    if size < 0:
        raise ValueError('TensorArray size must be non-negative')
    room = max(size, 8, rooms[slot])
    return (np.empty((room,) + template.shape[1:], template.dtype), np.zeros(room, np.bool_),
            np.int64(size))


@_export
@cached
def list_grow(data, written, size, index, rooms, slot):  # room for `index`: twice when full
    if index < 0:
        raise IndexError('TensorArray index out of range')
    if index >= data.shape[0]:
        room = max(2 * data.shape[0], index + 1)
        rooms[slot] = max(rooms[slot], room)
        grown = np.empty((room,) + data.shape[1:], data.dtype)
        # copied element by element: numba's slice assignment `grown[:n] = data` is 400 kB
        # of LLVM IR (5 s to compile, and again in each graph it was linked into)
        old, new = np.ascontiguousarray(data).ravel(), grown.ravel()
        for i in range(old.shape[0]):
            new[i] = old[i]
        flags = np.zeros(room, np.bool_)
        for i in range(written.shape[0]):
            flags[i] = written[i]
        data, written = grown, flags
    return data, written, max(size, np.int64(index) + 1)


@_export
@cached
def list_check_index(written, index):
    if index < 0 or index >= written.shape[0]:
        raise IndexError('TensorArray index out of range')


@_export
@cached
def check_bounds(index, size):
    """`index` if 0 <= index < size (gather indices do not count from the end)."""
    if index < 0 or index >= size:
        raise IndexError('index out of range')
    return index


@_export
@cached
def list_get(data, written, index):
    if index < 0 or index >= data.shape[0] or not written[index]:
        raise IndexError('TensorArray read of an element never written')
    return data[index]


@_export
@cached
def list_gather(data, written, indices):
    """The elements `indices` of a TensorList, stacked; each must have been written."""
    out = np.empty((indices.shape[0],) + data.shape[1:], data.dtype)
    for k in range(indices.shape[0]):
        i = indices[k]
        if i < 0 or i >= data.shape[0] or not written[i]:
            raise IndexError('TensorArray.gather(): an element was never written')
        out[k] = data[i]
    return out


@_export
@cached
def list_scatter(data, written, indices, tensor):
    """Element `indices[k]` of a TensorList becomes `tensor[k]`."""
    if indices.shape[0] != tensor.shape[0]:
        raise ValueError('TensorArray.scatter(): as many indices as values needed')
    for k in range(indices.shape[0]):
        i = indices[k]
        if i < 0 or i >= data.shape[0]:
            raise IndexError('TensorArray index out of range')
        data[i] = tensor[k]
        written[i] = True


@_export
@cached
def list_split(tensor, lengths, length):
    """The data of the TensorList splitting `tensor` into pieces of `lengths` rows, each
    `length` (the element shape native code knows)."""
    for k in range(lengths.shape[0]):
        if lengths[k] != length:
            raise ValueError('TensorListSplit: native code splits into pieces of one length')
    if lengths.shape[0] * length != tensor.shape[0]:
        raise ValueError('TensorListSplit: the lengths do not add up to the rows')
    return np.ascontiguousarray(tensor).copy().reshape(
        (lengths.shape[0], length) + tensor.shape[1:])


@_export
@cached
def list_check_written(written):
    for i in range(written.shape[0]):
        if not written[i]:
            raise IndexError('TensorArray.stack(): elements were never written')


# ---- reductions as loops: numba's np.sum(axis=...) and np.max take seconds to compile -----------

@_export
@cached
def sum_all(x, start):
    """The sum of all elements, accumulated from `start` (0.0: in float64, 0: in int64), in
    eight partial sums: independent additions the CPU overlaps (and LLVM vectorizes), where
    one running total waits for each addition before the next."""
    flat = x.ravel()  # a view of a contiguous array
    size = flat.shape[0]
    partial = np.full(8, start)
    whole = size - size % 8
    for i in range(0, whole, 8):
        for lane in range(8):
            partial[lane] += flat[i + lane]
    total = start
    for i in range(whole, size):
        total += flat[i]
    for lane in range(8):
        total += partial[lane]
    return total


@_export
@cached
def prod_all(x, start):
    """The product of all elements, accumulated from `start` (1.0 or 1)."""
    total = start
    for value in x.flat:
        total *= value
    return total


@_export
@cached
def max_all(x):
    flat = np.ascontiguousarray(x).ravel()
    if flat.shape[0] == 0:
        raise ValueError('zero-size array to reduction operation maximum')
    best = flat[0]
    for value in flat:
        if value > best or value != value:
            best = value
            if value != value:
                break
    return best


@_export
@cached
def min_all(x):
    flat = np.ascontiguousarray(x).ravel()
    if flat.shape[0] == 0:
        raise ValueError('zero-size array to reduction operation minimum')
    best = flat[0]
    for value in flat:
        if value < best or value != value:
            best = value
            if value != value:
                break
    return best


@_export
@cached
def any_all(x):
    for value in np.ascontiguousarray(x).ravel():
        if value:
            return True
    return False


@_export
@cached
def all_all(x):
    for value in np.ascontiguousarray(x).ravel():
        if not value:
            return False
    return True


@_export
@cached
def sum_axis(x, axis, start):
    """Sums of a matrix over `axis` (0 or 1), accumulated from `start` (0.0 or 0)."""
    rows, columns = x.shape
    out = np.full(columns if axis == 0 else rows, start)
    for i in range(rows):
        for j in range(columns):
            out[j if axis == 0 else i] += x[i, j]
    return out


def namespace():
    """The globals of generated code compiled in memory (its sites are not cached: no file)."""
    return {**EXPORTS, 'site': cached(cache=False, **SITE_OPTIONS),
            'inline_site': cached(cache=False, inline='always', **SITE_OPTIONS)}
