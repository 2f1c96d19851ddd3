"""Running a sample with a library (TensorFlow or this project) and encoding what it gives."""
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from tools.opinfo.samples import ALL_FLOATS, OpInfo, Sample, cotangent, is_float, substitute


@dataclass(frozen=True)
class Library:
    """What `evaluate` needs of TensorFlow or of this project: the root namespace (`tf`, `rt`)
    and its `function` decorator."""
    ns: Any
    function: Callable[..., Any]


def resolve(ns: Any, call: str) -> Callable[..., Any]:
    if call.startswith('operator.'):
        import operator  # deferred: start-up cost (only the operator samples need it)
        return getattr(operator, call.split('.', 1)[1])
    target = ns
    for part in call.split('.'):
        target = getattr(target, part)
    return target


def dtype_name(value: np.ndarray) -> str:
    return 'string' if value.dtype == object else value.dtype.name


def flat_outputs(result: Any) -> list[Any]:
    if isinstance(result, (list, tuple)):
        return [o for r in result for o in flat_outputs(r)]
    return [] if result is None else [result]


def evaluate(lib: Library, entry: OpInfo, sample: Sample, traced: bool) -> dict[str, Any]:
    """The outputs (`out`), gradients (`grad`, `grad2`) and error type (`error`) of `sample`
    run eagerly or (traced) in a function."""
    ns, fn = lib.ns, resolve(lib.ns, entry.call)
    tensors = sample.tensors()
    order = 0 if sample.invalid or not (entry.grad and sample.grad) else \
        (2 if entry.grad2 else 1)
    watched = [i for i, x in enumerate(tensors) if is_float(dtype_name(x.value))]
    if not watched:
        order = 0

    def compute(*xs: Any) -> Any:
        args, kwargs = substitute((sample.args, sample.kwargs), list(xs), ns)
        return fn(*args, **kwargs)

    def weights(o: Any) -> Any:
        if o.shape.rank is not None and None not in o.shape.as_list():
            return ns.constant(cotangent(tuple(o.shape), o.dtype.name))
        # a shape known only when running: `cotangent`'s formula on the library's ops
        n = ns.cast(ns.range(ns.size(o)), o.dtype) + 1.0
        return ns.reshape(1.0 + 0.5 * ns.sin(n), ns.shape(o))

    def contract(outs: list[Any]) -> Any:
        terms = [ns.reduce_sum(o * weights(o))
                 for o in outs if o is not None and o.dtype.name in ALL_FLOATS]
        return ns.add_n(terms) if terms else None

    def run(*xs: Any) -> tuple[Any, Any, Any]:
        if not order:
            return flat_outputs(compute(*xs)), None, None
        sources = [xs[i] for i in watched]
        with ns.GradientTape(persistent=True) as outer:
            outer.watch(sources)
            with ns.GradientTape() as tape:
                tape.watch(sources)
                outs = flat_outputs(compute(*xs))
                loss = contract(outs)
            grads = tape.gradient(loss, sources) if loss is not None else None
            if grads is not None:  # IndexedSlices (a gather's) as dense tensors
                grads = [None if g is None else ns.convert_to_tensor(g) for g in grads]
            loss2 = contract(grads) if order == 2 and grads else None
        grads2 = outer.gradient(loss2, sources) if loss2 is not None else None
        return outs, grads, grads2

    inputs = [ns.constant(x.value, dtype=ns.as_dtype(dtype_name(x.value))) for x in tensors]
    runner = lib.function(run, autograph=False) if traced else run
    try:
        outs, grads, grads2 = runner(*inputs)
    except Exception as e:  # the error's type is the answer
        return {'error': type(e).__name__}
    result: dict[str, Any] = {'out': [encode(o) for o in outs]}
    if grads is not None:
        result['grad'] = [encode(g) for g in grads]
    if grads2 is not None:
        result['grad2'] = [encode(g) for g in grads2]
    return result


def static_shapes(lib: Library, entry: OpInfo, sample: Sample) -> Any:
    """The static shapes of the outputs when traced with every tensor argument's dims unknown
    (None for an unknown rank), or the error's type."""
    ns, fn = lib.ns, resolve(lib.ns, entry.call)
    tensors = sample.tensors()
    shapes: list[Any] = []

    def compute(*xs: Any) -> Any:
        args, kwargs = substitute((sample.args, sample.kwargs), list(xs), ns)
        outs = flat_outputs(fn(*args, **kwargs))
        shapes.extend(o.shape.as_list() if o.shape.rank is not None else None for o in outs)
        return outs

    spec = [ns.TensorSpec([None] * x.value.ndim, ns.as_dtype(dtype_name(x.value)))
            for x in tensors]
    try:
        lib.function(compute, autograph=False).get_concrete_function(*spec)
    except Exception as e:
        return {'error': type(e).__name__}
    return shapes


def encode(value: Any) -> Any:
    """A tensor's value as JSON data: dtype, shape and the values (complex as [re, im],
    strings as latin-1 text); None stays None."""
    if value is None:
        return None
    array = np.asarray(value.numpy() if hasattr(value, 'numpy') else value)
    if array.dtype.kind == 'S':  # a scalar string
        array = array.astype(object)
    name = 'string' if array.dtype == object else array.dtype.name
    if array.dtype.kind == 'c':
        data: Any = np.stack([array.real, array.imag], -1).tolist()
    elif array.dtype == object:
        data = np.array([b.decode('latin-1') for b in array.ravel()],
                        object).reshape(array.shape).tolist()
    else:
        data = array.tolist()
    return {'dtype': name, 'shape': list(array.shape), 'value': data}


def decode(record: dict[str, Any]) -> np.ndarray:
    """The array `encode` wrote."""
    name, shape, data = record['dtype'], tuple(record['shape']), record['value']
    if name == 'string':
        text = np.array(data, object).ravel() if shape else [data]
        return np.array([x.encode('latin-1') for x in text], object).reshape(shape)
    if name.startswith('complex'):
        pairs = np.array(data, np.float64).reshape(shape + (2,))
        return (pairs[..., 0] + 1j * pairs[..., 1]).astype(name)
    return np.array(data, dtype=name).reshape(shape)
