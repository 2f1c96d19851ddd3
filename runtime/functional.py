"""Higher-order functions over the first axis: `map_fn`, `scan`, `foldl`, `foldr`.

As TensorFlow builds them: the elements are unstacked into TensorArrays, one `rt.while_loop`
over the index reads them, calls the function and writes results into TensorArrays, which are
stacked at the end. In a graph that is one While whose body holds `fn`; eagerly the same code
is a Python loop.
"""
from runtime.control_flow import while_loop
from runtime.core import dtypes, nest
from runtime.core.context import name_scope
from runtime.core.tensor_spec import TensorSpec
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import zeros
from runtime.ops.shaping import concat, shape
from runtime.tensor_array import TensorArray


def _elements(elems, what):
    """Flat tensors of `elems` (each with a first axis of one length) and that length."""
    if elems is None:
        raise ValueError(f'{what}: elems must be a tensor or a nested structure of tensors.')
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f'{what}: elems must hold at least one tensor.')
    for t in flat:
        if t.shape.rank == 0:
            raise ValueError(f'{what}: the elements in elems must be at least rank 1 (they '
                             f'are sliced along their first axis), got a scalar.')
    static = {t.shape[0] for t in flat if t.shape.rank is not None} - {None}
    if len(static) > 1:
        raise ValueError(f'{what}: all tensors in elems must have the same first dimension, '
                         f'got {sorted(static)}.')
    n = static.pop() if static else shape(flat[0])[0]
    return flat, n


def _unstacked(flat, n):
    return [TensorArray(t.dtype, size=n, element_shape=t.shape[1:]).unstack(t) for t in flat]


def _signature_dtypes(signature, elems_flat, elems, what):
    """(structure, [dtype]) of fn's results: from fn_output_signature (dtypes or TensorSpecs),
    else the structure and dtypes of elems."""
    if signature is None:
        return elems, [t.dtype for t in elems_flat]
    leaves = nest.flatten(signature)
    out = []
    for leaf in leaves:
        if isinstance(leaf, TensorSpec):
            out.append(leaf.dtype)
        else:
            try:
                out.append(dtypes.as_dtype(leaf))
            except (TypeError, ValueError, KeyError):
                raise TypeError(f'{what}: fn_output_signature must hold dtypes or '
                                f'rt.TensorSpec, got {leaf!r}.') from None
    return signature, out


def _written(arrays, i, values, structure, what):
    flat = nest.flatten(values)
    if len(flat) != len(arrays):
        raise ValueError(f'{what}: fn returned {len(flat)} values but {len(arrays)} were '
                         f'expected (the structure of fn_output_signature, or of elems when '
                         f'it is not given: {structure!r}).')
    return [ta.write(i, v) for ta, v in zip(arrays, flat)]


def _accumulated(structure, new, what):
    """The leaves of fn's new accumulator, which must have as many as the old one."""
    flat = nest.flatten(new)
    expected = len(nest.flatten(structure))
    if len(flat) != expected:
        raise ValueError(f'{what}: fn must return an accumulator of the structure of the '
                         f'initializer ({expected} tensors), got {new!r}.')
    return flat


def _stacked(arrays, shapes, n):
    count = n if isinstance(n, int) else None
    return [ta.stack(num_elements=count, element_shape=shape)
            for ta, shape in zip(arrays, shapes)]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """`fn` applied to each slice of `elems` along its first axis, the results stacked.

    `elems` may be a nested structure of tensors of one first dimension; `fn` gets the same
    structure of slices. Give `fn_output_signature` (a dtype, an rt.TensorSpec, or a structure
    of them; `dtype` is its old name) when fn's results differ from elems in structure or dtype.
    """
    with name_scope(name or 'map'):
        return _map(fn, elems, fn_output_signature if fn_output_signature is not None else dtype)


def _map(fn, elems, fn_output_signature):
    what = 'rt.map_fn'
    flat, n = _elements(elems, what)
    structure, out_types = _signature_dtypes(fn_output_signature, flat, elems, what)
    inputs = _unstacked(flat, n)
    results = [TensorArray(t, size=n, dynamic_size=False) for t in out_types]
    shapes = [None] * len(results)

    def body(i, *arrays):
        x = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        written = _written(arrays, i, fn(x), structure, what)
        for k, ta in enumerate(written):
            shapes[k] = ta.element_shape
        return (i + 1, *written)

    _, *arrays = while_loop(lambda i, *_: i < n, body, (0, *results))
    return nest.pack_sequence_as(structure, _stacked(arrays, shapes, n))


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """The running values of `a = fn(a, x)` over the slices x of `elems`, stacked. `a` starts
    at `initializer` (if None: the first slice, which then is not passed to fn)."""
    return _fold(fn, elems, initializer, reverse, name, 'rt.scan', stacked=True)


def _fold(fn, elems, initializer, reverse, name, what, stacked=False):
    with name_scope(name or what.split('.')[-1]):
        return _fold_in_scope(fn, elems, initializer, reverse, what, stacked)


def _fold_in_scope(fn, elems, initializer, reverse, what, stacked):
    """The final accumulator of `a = fn(a, x)` over the slices of `elems`, or (`stacked`, for
    scan) every accumulator, stacked."""
    flat, n = _elements(elems, what)
    inputs = _unstacked(flat, n)

    def read(i):
        return nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])

    start, step = (n - 1, -1) if reverse else (0, 1)
    if initializer is None:
        acc, structure, first, count = read(start), elems, start + step, n - 1
    else:
        acc, structure, first, count = initializer, initializer, start, n
    acc_flat = [convert_to_tensor(a) for a in nest.flatten(acc)]
    results = []
    if stacked:
        results = [TensorArray(a.dtype, size=n, element_shape=a.shape) for a in acc_flat]
        if initializer is None:
            results = [ta.write(start, a) for ta, a in zip(results, acc_flat)]

    def body(k, i, acc, *arrays):
        new_flat = _accumulated(structure, fn(nest.pack_sequence_as(structure, acc), read(i)),
                                what)
        if stacked:
            arrays = _written(arrays, i, new_flat, structure, what)
        return (k + 1, i + step, new_flat, *arrays)

    _, _, final, *arrays = while_loop(lambda k, *_: k < count, body,
                                      (0, first, acc_flat, *results))
    if stacked:
        return nest.pack_sequence_as(structure, _stacked(arrays, [a.shape for a in acc_flat], n))
    return nest.pack_sequence_as(structure, final)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`a = fn(a, x)` over the slices x of `elems` from first to last; returns the final `a`
    (starting at `initializer`, or at the first slice)."""
    return _fold(fn, elems, initializer, False, name, 'rt.foldl')


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`foldl` from last to first."""
    return _fold(fn, elems, initializer, True, name, 'rt.foldr')


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to each slice of `elems` along its first axis, the results stacked, as
    `map_fn` without a signature: the results' structure and dtypes are those of `fn` on one
    slice. Eagerly (and in a graph when the first dimension is known) the slices are mapped
    one by one; else by `map_fn`'s While, whose signature a call of `fn` on the first slice
    gives. `fallback_to_while_loop` and `warn` concern TensorFlow's vectorizing compiler,
    which this runtime does not have: every `fn` runs as written."""
    flat, n = _elements(elems, 'rt.vectorized_map')
    known = flat[0].shape[0] if flat[0].shape.rank is not None else None
    if known == 0:  # no slice to map: fn on a slice of zeros gives the results' types
        probe = fn(nest.pack_sequence_as(elems, [zeros(shape(t)[1:], t.dtype) for t in flat]))
        return nest.map_structure(lambda r: zeros(concat([[0], shape(r)], 0),
                                                  convert_to_tensor(r).dtype), probe)
    if known is None:
        first = fn(nest.pack_sequence_as(elems, [t[0] for t in flat]))
        signature = nest.map_structure(
            lambda r: TensorSpec(convert_to_tensor(r).shape, convert_to_tensor(r).dtype), first)
        return map_fn(fn, elems, fn_output_signature=signature)
    rows = [fn(nest.pack_sequence_as(elems, [t[i] for t in flat])) for i in range(known)]
    return nest.map_structure(lambda *parts: stack([convert_to_tensor(p) for p in parts]),
                              *rows)
