"""The op conformance database: what every op is called with, described once as data.

One `OpInfo` per op of the registry (`runtime/ops/registry.py`) and per public differentiable
function built from ops (`nn.sigmoid_cross_entropy_with_logits`, `math.reduce_logsumexp`...).
An entry names TensorFlow's public function (`math.reduce_prod`), which this project spells the
same way, and generates its samples from one description: seeded random values in every dtype
the op accepts, the edge values users hit (0, -0.0, ties, kinks, inf and nan, empty tensors,
broadcasting shapes, int64 dims and axes) and invalid inputs, whose error type is expected.

`evaluate` runs one sample with a library (TensorFlow or this project), eagerly or in a traced
function: the outputs, their first (and second) order gradients, the static shape a trace with
unknown dims infers, or the error's type. `tools/tf_conformance_fixtures.py` records TensorFlow's
answers with it; tests/runtime/conformance compares this project with them. This module imports
numpy only, so both sides share it.
"""
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

FLOATS = ('float32', 'float64')
ALL_FLOATS = ('float16', 'float32', 'float64')
INTS = ('int32', 'int64')
REALS = ALL_FLOATS + INTS
NUMBERS = REALS + ('complex64',)
INF, NAN = float('inf'), float('nan')
SPECIALS = (INF, -INF, NAN)


@dataclass(frozen=True)
class T:
    """A tensor argument (the other arguments are passed as they are)."""
    value: np.ndarray


@dataclass(frozen=True)
class Sample:
    """One call: `args`/`kwargs` with `T` for tensors; `grad`: compare gradients with respect
    to its floating tensors; `invalid`: the call fails (TensorFlow's error type is expected)."""
    tag: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    grad: bool = True
    invalid: bool = False
    smooth: bool = False  # away from kinks: the finite-difference check applies

    def tensors(self) -> list[T]:
        found: list[T] = []
        _walk((self.args, self.kwargs), found.append)
        return found

    def digest(self) -> str:
        parts: list[bytes] = []
        _walk((self.args, self.kwargs), lambda t: parts.append(
            repr((t.value.dtype.str, t.value.shape, t.value.tolist())).encode()))
        parts.append(repr(_without_tensors((self.args, self.kwargs))).encode())
        return f'{zlib.crc32(b"|".join(parts)):08x}'


@dataclass(frozen=True)
class OpInfo:
    """One entry. `name`: the op type it samples (or, for a composite, its public name);
    `call`: TensorFlow's public name; `samples(rng)`: the samples; `grad`/`grad2`: first and
    second order gradients are compared; `covered_by`: instead of samples, where the op is
    checked against TensorFlow (stateful, dataset and control-flow ops, which take programs);
    `ops`: further registry ops the samples exercise (gradient kernels, helpers)."""
    name: str
    call: str = ''
    samples: Callable[[np.random.Generator], list[Sample]] | None = None
    family: str = 'misc'
    grad: bool = True
    grad2: bool = False
    covered_by: str = ''
    ops: tuple[str, ...] = ()

    def generate(self) -> list[Sample]:
        if self.samples is None:
            return []
        return self.samples(np.random.default_rng(zlib.crc32(self.name.encode())))


def _walk(struct: Any, visit: Callable[[T], None]) -> None:
    if isinstance(struct, T):
        visit(struct)
    elif isinstance(struct, (list, tuple)):
        for item in struct:
            _walk(item, visit)
    elif isinstance(struct, dict):
        for item in struct.values():
            _walk(item, visit)


def _without_tensors(struct: Any) -> Any:
    if isinstance(struct, T):
        return 'T'
    if isinstance(struct, (list, tuple)):
        return [_without_tensors(s) for s in struct]
    if isinstance(struct, dict):
        return {k: _without_tensors(v) for k, v in sorted(struct.items())}
    return struct


def substitute(struct: Any, values: list[Any], ns: Any) -> Any:
    """`struct` with its `T`s replaced by `values` in order (consumed from the front) and its
    `DType`s by the dtypes of the library `ns`."""
    if isinstance(struct, T):
        return values.pop(0)
    if isinstance(struct, DType):
        return ns.as_dtype(struct.name)
    if isinstance(struct, tuple):
        return tuple(substitute(s, values, ns) for s in struct)
    if isinstance(struct, list):
        return [substitute(s, values, ns) for s in struct]
    if isinstance(struct, dict):
        return {k: substitute(v, values, ns) for k, v in struct.items()}
    return struct


# -- value generators -------------------------------------------------------------------------

def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: str, lo: float = -2.0,
           hi: float = 2.0) -> np.ndarray:
    """Seeded random values of `dtype` in [lo, hi] (floats off the integers, so no ties)."""
    if dtype == 'bool':
        return rng.random(shape) < 0.5
    if dtype.startswith(('int', 'uint')):
        return rng.integers(int(np.ceil(lo)), int(np.floor(hi)) + 1, shape).astype(dtype)
    if dtype.startswith('complex'):
        return (rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)).astype(dtype)
    return rng.uniform(lo, hi, shape).astype(dtype)


def cotangent(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """The fixed, uneven weights a gradient check contracts an output with."""
    n = int(np.prod(shape, dtype=np.int64))
    return (1.0 + 0.5 * np.sin(np.arange(n) + 1.0)).reshape(shape).astype(dtype)


def is_float(dtype: str) -> bool:
    return dtype in ALL_FLOATS


def t(value: Any, dtype: str) -> T:
    return T(np.asarray(value, dtype=object if dtype == 'string' else dtype))


# -- sample families --------------------------------------------------------------------------

def unary(dtypes: tuple[str, ...] = ALL_FLOATS, lo: float = -2.0, hi: float = 2.0,
          edges: tuple[float, ...] = (0.0, -0.0), specials: tuple[float, ...] = SPECIALS,
          **kwargs: Any) -> Callable[[np.random.Generator], list[Sample]]:
    """An elementwise function of one tensor: random values in [lo, hi] in each dtype, its
    edges (kinks, 0 and -0.0), inf and nan, a scalar and an empty tensor."""
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample(f'random-{d}', (T(values(rng, (3, 4), d, lo, hi)),), kwargs, smooth=True)
               for d in dtypes]
        for d in (d for d in dtypes if is_float(d) and d != 'float16'):
            if edges:
                out.append(Sample(f'edges-{d}', (t(edges, d),), kwargs))
            if specials:
                out.append(Sample(f'specials-{d}', (t(specials, d),), kwargs))
        d = dtypes[0]
        out += [Sample('scalar', (T(values(rng, (), d, lo, hi)),), kwargs, smooth=True),
                Sample('empty', (T(values(rng, (0, 3), d, lo, hi)),), kwargs)]
        if 'float32' in dtypes and 'bool' not in dtypes:
            out.append(Sample('bool-invalid', (t([True], 'bool'),), kwargs, invalid=True))
        return out
    return samples


def binary(dtypes: tuple[str, ...] = REALS, lo: float = -2.0, hi: float = 2.0,
           edges: tuple[float, ...] = (0.0, 1.0, -1.0), ties: bool = True,
           **kwargs: Any) -> Callable[[np.random.Generator], list[Sample]]:
    """An elementwise function of two broadcasting tensors: random values in each dtype,
    broadcasting shapes, ties (x == y), every pair of edge values, a Python number operand, and
    the invalid calls (shapes that do not broadcast, mixed dtypes)."""
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = [Sample(f'random-{d}', (T(values(rng, (3, 4), d, lo, hi)),
                                      T(values(rng, (3, 4), d, lo, hi))), kwargs, smooth=True)
               for d in dtypes]
        d = dtypes[0]
        out.append(Sample('broadcast', (T(values(rng, (3, 1), d, lo, hi)),
                                        T(values(rng, (4,), d, lo, hi))), kwargs, smooth=True))
        out.append(Sample('scalar', (T(values(rng, (), d, lo, hi)),
                                     T(values(rng, (2,), d, lo, hi))), kwargs, smooth=True))
        if ties:
            x = values(rng, (5,), d, lo, hi)
            out.append(Sample('ties', (T(x), T(x.copy())), kwargs))
        for d in (d for d in dtypes if d in FLOATS):
            grid = np.array(edges, d)
            a, b = np.meshgrid(grid, grid)
            out.append(Sample(f'edges-{d}', (T(a.ravel()), T(b.ravel())), kwargs))
        out += [Sample('python-number', (T(values(rng, (3,), d, lo, hi)), 2), kwargs),
                Sample('empty', (T(values(rng, (0, 3), d)), T(values(rng, (1, 3), d))),
                       kwargs),
                Sample('shapes-invalid', (T(values(rng, (3,), d)), T(values(rng, (4,), d))),
                       kwargs, invalid=True)]
        if len(dtypes) > 1:
            out.append(Sample('dtypes-invalid', (T(values(rng, (2,), dtypes[0])),
                                                 T(values(rng, (2,), dtypes[1]))),
                              kwargs, invalid=True))
        return out
    return samples


def reduction(dtypes: tuple[str, ...] = REALS, lo: float = -2.0, hi: float = 2.0,
              edges: tuple[tuple[float, ...], ...] = ((1.0, 1.0, 0.5), (2.0, 0.0, 2.0)),
              axis: bool = True) -> Callable[[np.random.Generator], list[Sample]]:
    """A reduction: every axis form (None, each axis, negative, a list, an int64 tensor),
    keepdims, ties and zeros in the `edges` rows, an empty axis and an axis out of range."""
    def samples(rng: np.random.Generator) -> list[Sample]:
        out = []
        for d in dtypes:
            out.append(Sample(f'random-{d}', (T(values(rng, (3, 4), d, lo, hi)),), smooth=True))
        x = T(values(rng, (2, 3, 4), dtypes[0], lo, hi))
        forms: list[tuple[str, dict[str, Any]]] = [('axis0', {'axis': 0}),
                                                   ('axis-1', {'axis': -1}),
                                                   ('axis-list', {'axis': [0, 2]}),
                                                   ('axis-int64', {'axis': t(1, 'int64')}),
                                                   ('keepdims', {'axis': 1, 'keepdims': True})]
        if axis:
            out += [Sample(tag, (x,), kw, smooth=True) for tag, kw in forms]
        for d in (d for d in dtypes if d in FLOATS):
            out.append(Sample(f'edges-{d}', (t(edges, d),)))
            out.append(Sample(f'edges-axis-{d}', (t(edges, d),), {'axis': 1}))
        out.append(Sample('empty', (T(values(rng, (0, 3), dtypes[0])),), {'axis': 0}))
        if axis:
            out.append(Sample('axis-invalid', (x,), {'axis': 3}, invalid=True))
        return out
    return samples


def cases(*build: Callable[[np.random.Generator], Sample]
          ) -> Callable[[np.random.Generator], list[Sample]]:
    """Samples written out (ops with structural arguments): each item makes one."""
    return lambda rng: [b(rng) for b in build]


def s(tag: str, *args: Any, **kwargs: Any) -> Callable[[np.random.Generator], Sample]:
    """A written-out sample: `R(shape[, dtype, lo, hi])` in its arguments is a random tensor."""
    invalid = tag.endswith('invalid')
    smooth = tag.startswith('random')

    def make(rng: np.random.Generator) -> Sample:
        def fill(a: Any) -> Any:
            if isinstance(a, R):
                return T(values(rng, a.shape, a.dtype, a.lo, a.hi))
            if isinstance(a, list):
                return [fill(x) for x in a]
            if isinstance(a, tuple):
                return tuple(fill(x) for x in a)
            return a
        return Sample(tag, fill(args), {k: fill(v) for k, v in kwargs.items()},
                      invalid=invalid, smooth=smooth)
    return make


@dataclass(frozen=True)
class R:
    """A random tensor argument of a written-out sample."""
    shape: tuple[int, ...]
    dtype: str = 'float32'
    lo: float = -2.0
    hi: float = 2.0


def sample_list(entry: OpInfo) -> list[Sample]:
    return entry.generate()


# -- running a sample -------------------------------------------------------------------------

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


# -- the entries ------------------------------------------------------------------------------

def _unary_entries() -> list[OpInfo]:
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ('Abs', 'math.abs', {'dtypes': REALS}), ('Neg', 'math.negative', {'dtypes': REALS}),
        ('Sign', 'math.sign', {'dtypes': REALS}), ('Square', 'math.square', {'dtypes': REALS}),
        ('Acos', 'math.acos', {'lo': -0.9, 'hi': 0.9, 'edges': (0.0, 1.0, -1.0)}),
        ('Asin', 'math.asin', {'lo': -0.9, 'hi': 0.9, 'edges': (0.0, 1.0, -1.0)}),
        ('Atanh', 'math.atanh', {'lo': -0.9, 'hi': 0.9}),
        ('Acosh', 'math.acosh', {'lo': 1.1, 'hi': 3.0, 'edges': (1.0,)}),
        ('Asinh', 'math.asinh', {}), ('Atan', 'math.atan', {}), ('Cos', 'math.cos', {}),
        ('Cosh', 'math.cosh', {}), ('Sin', 'math.sin', {}), ('Sinh', 'math.sinh', {}),
        ('Tan', 'math.tan', {'lo': -1.2, 'hi': 1.2}), ('Tanh', 'math.tanh', {}),
        ('Exp', 'math.exp', {}), ('Expm1', 'math.expm1', {}), ('Erf', 'math.erf', {}),
        ('Erfc', 'math.erfc', {}), ('Sigmoid', 'math.sigmoid', {}),
        ('Log', 'math.log', {'lo': 0.1, 'hi': 3.0}),
        ('Log1p', 'math.log1p', {'lo': -0.9, 'hi': 3.0, 'edges': (0.0, -0.0, -1.0)}),
        ('Sqrt', 'math.sqrt', {'lo': 0.1, 'hi': 3.0}),
        ('Rsqrt', 'math.rsqrt', {'lo': 0.1, 'hi': 3.0}),
        ('Reciprocal', 'math.reciprocal', {'lo': 0.5, 'hi': 3.0}),
        ('Lgamma', 'math.lgamma', {'lo': 0.2, 'hi': 4.0, 'edges': (1.0, 2.0, 0.0, -1.0)}),
        ('Digamma', 'math.digamma', {'lo': 0.2, 'hi': 4.0, 'edges': (1.0, 0.0, -1.0)}),
        ('Floor', 'math.floor', {'edges': (0.0, -0.0, 0.5, -0.5, 1.0)}),
        ('Ceil', 'math.ceil', {'edges': (0.0, -0.0, 0.5, -0.5, 1.0)}),
        ('Round', 'math.round', {'edges': (0.5, 1.5, 2.5, -0.5, -1.5, 0.0, -0.0)}),
        ('Softplus', 'math.softplus', {'edges': (0.0, 30.0, -30.0)}),
        ('Softsign', 'math.softsign', {}),
        ('Relu', 'nn.relu', {'dtypes': REALS}),
        ('Relu6', 'nn.relu6', {'dtypes': REALS, 'lo': -2.0, 'hi': 8.0,
                               'edges': (0.0, -0.0, 6.0)}),
        ('Elu', 'nn.elu', {}), ('Selu', 'nn.selu', {}),
        ('LeakyRelu', 'nn.leaky_relu', {'alpha': 0.3}),
        ('IsFinite', 'math.is_finite', {}), ('IsInf', 'math.is_inf', {}),
        ('IsNan', 'math.is_nan', {}),
    ]
    smooth_second = {'Abs', 'Neg', 'Square', 'Sin', 'Cos', 'Tanh', 'Exp', 'Log', 'Sigmoid',
                     'Sqrt', 'Relu', 'Elu', 'Selu', 'LeakyRelu', 'Softplus', 'Reciprocal',
                     'Rsqrt', 'Atan', 'Erf'}
    gradient_ops = {'Relu': ('ReluGrad',), 'LeakyRelu': ('LeakyReluGrad',)}  # by grad2
    return [OpInfo(op, call, unary(**kw), 'unary', grad2=op in smooth_second,
                   ops=gradient_ops.get(op, ())) for op, call, kw in rows]


def _binary_entries() -> list[OpInfo]:
    compare = {'dtypes': REALS}
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ('AddV2', 'math.add', {'dtypes': NUMBERS}),
        ('Sub', 'math.subtract', {'dtypes': NUMBERS}),
        ('Mul', 'math.multiply', {'dtypes': NUMBERS}),
        ('RealDiv', 'math.divide', {'dtypes': ALL_FLOATS, 'lo': 0.5, 'hi': 2.0}),
        ('Maximum', 'math.maximum', {}), ('Minimum', 'math.minimum', {}),
        ('Pow', 'math.pow', {'dtypes': FLOATS, 'lo': 0.5, 'hi': 2.0,
                             'edges': (0.0, 1.0, -1.0, 2.0)}),
        ('Atan2', 'math.atan2', {'dtypes': FLOATS}),
        ('FloorDiv', 'math.floordiv', {'dtypes': REALS, 'lo': 1.0, 'hi': 5.0}),
        ('FloorMod', 'math.floormod', {'dtypes': REALS, 'lo': 1.0, 'hi': 5.0}),
        ('SquaredDifference', 'math.squared_difference', {'dtypes': REALS}),
        ('DivNoNan', 'math.divide_no_nan', {'dtypes': FLOATS}),
        ('MulNoNan', 'math.multiply_no_nan', {'dtypes': FLOATS}),
        ('Xlogy', 'math.xlogy', {'dtypes': FLOATS, 'lo': 0.1, 'hi': 2.0}),
        ('Xdivy', 'math.xdivy', {'dtypes': FLOATS, 'lo': 0.1, 'hi': 2.0}),
        ('Equal', 'math.equal', compare), ('NotEqual', 'math.not_equal', compare),
        ('Greater', 'math.greater', compare), ('GreaterEqual', 'math.greater_equal', compare),
        ('Less', 'math.less', compare), ('LessEqual', 'math.less_equal', compare),
        ('LogicalAnd', 'math.logical_and', {'dtypes': ('bool',), 'edges': ()}),
        ('LogicalOr', 'math.logical_or', {'dtypes': ('bool',), 'edges': ()}),
    ]
    second = {'AddV2', 'Sub', 'Mul', 'RealDiv', 'Maximum', 'Minimum', 'Pow',
              'SquaredDifference'}
    entries = [OpInfo(op, call, binary(**kw), 'binary', grad2=op in second)
               for op, call, kw in rows]
    order = t([[0.0], [1.0], [2.0]], 'float64')  # polygamma's whole orders
    entries.append(OpInfo('Polygamma', 'math.polygamma', cases(
        s('random', order, R((3, 4), 'float64', 0.5, 3.0)),
        s('float32', t([1.0, 3.0], 'float32'), R((2,), 'float32', 0.5, 3.0)),
        s('broadcast', t(1.0, 'float64'), R((4,), 'float64', 0.5, 3.0)),
        s('poles', t([1.0, 2.0, 1.0, 0.0, 1.5], 'float64'),
          t([0.0, -1.0, -2.5, -3.0, 1.0], 'float64')),
        s('ints-invalid', t([1], 'int32'), t([2], 'int32'))), 'binary'))
    entries.append(OpInfo('math.logical_xor', 'math.logical_xor',
                          binary(dtypes=('bool',), edges=()), 'binary'))
    entries.append(OpInfo('LogicalNot', 'math.logical_not',
                          unary(dtypes=('bool',), edges=(), specials=()), 'unary'))
    return entries


def _clip(rng: np.random.Generator) -> list[Sample]:
    x = values(rng, (3, 4), 'float32')
    edges = t([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0], 'float32')
    return [Sample('random', (T(x), -0.5, 0.5), smooth=True),
            Sample('bounds', (edges, -0.5, 1.0)),
            Sample('tensor-bounds', (edges, t([-1.0] * 6, 'float32'), t([0.0] * 6, 'float32'))),
            Sample('int64', (t([1, 5, -3], 'int64'), 0, 2)),
            Sample('empty', (T(values(rng, (0,), 'float32')), 0.0, 1.0))]


def _reduction_entries() -> list[OpInfo]:
    zeros = ((1.0, 0.0, 2.0), (0.0, 0.0, 3.0))
    ties = ((1.0, 1.0, 0.5), (2.0, 2.0, 2.0))
    rows: list[tuple[str, str, dict[str, Any], bool]] = [
        ('Sum', 'math.reduce_sum', {'dtypes': NUMBERS}, True),
        ('Mean', 'math.reduce_mean', {'dtypes': REALS}, True),
        ('Prod', 'math.reduce_prod', {'dtypes': REALS, 'edges': zeros}, False),
        ('Max', 'math.reduce_max', {'edges': ties}, False),
        ('Min', 'math.reduce_min', {'edges': ties}, False),
        ('EuclideanNorm', 'math.reduce_euclidean_norm', {'dtypes': FLOATS,
                                                         'edges': zeros}, False),
        ('All', 'math.reduce_all', {'dtypes': ('bool',)}, False),
        ('Any', 'math.reduce_any', {'dtypes': ('bool',)}, False),
        ('math.reduce_logsumexp', 'math.reduce_logsumexp', {'dtypes': FLOATS}, False),
        ('math.reduce_variance', 'math.reduce_variance', {'dtypes': FLOATS}, False),
        ('math.reduce_std', 'math.reduce_std', {'dtypes': FLOATS, 'edges': ties}, False),
        ('math.count_nonzero', 'math.count_nonzero', {'dtypes': REALS, 'edges': zeros},
         False),
    ]
    entries = [OpInfo(op, call, reduction(**kw), 'reduce', grad2=second)
               for op, call, kw, second in rows]
    for op, call in (('ArgMax', 'math.argmax'), ('ArgMin', 'math.argmin')):
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4))), s('axis1', R((3, 4), 'int32', -3, 3), axis=1),
            s('ties', t([[1.0, 1.0, 0.0], [2.0, 3.0, 3.0]], 'float32'), axis=1),
            s('int64-axis', R((3, 4), 'float64'), axis=t(0, 'int64')),
            s('output-int32', R((3, 4)), output_type=_dtype('int32')),
            s('axis-invalid', R((3, 4)), axis=2)), 'reduce'))
    for op, call, kw in (('Cumsum', 'math.cumsum', {}), ('Cumprod', 'math.cumprod', {}),
                         ('CumulativeLogsumexp', 'math.cumulative_logsumexp', {})):
        d = 'float64'
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4), d), axis=1),
            s('zeros', t([[1.0, 0.0, 2.0, 3.0], [0.0, 2.0, 0.0, 1.0]], d), axis=1),
            s('exclusive-reverse', R((3, 4), d), axis=0, exclusive=True, reverse=True),
            s('int64-axis', R((3, 4), d), axis=t(1, 'int64')),
            s('int32', R((3, 4), 'int32'), axis=0) if op != 'CumulativeLogsumexp' else
            s('float32', R((3, 4)), axis=0),
            s('axis-invalid', R((3, 4), d), axis=2)), 'reduce', grad2=op == 'Cumsum'))
    entries.append(OpInfo('ClipByValue', 'clip_by_value', _clip, 'binary'))
    return entries


def _dtype(name: str) -> 'DType':
    return DType(name)


@dataclass(frozen=True)
class DType:
    """A dtype argument (`dtype=`, `out_type=`): resolved to the library's dtype by name."""
    name: str


def _nn_entries() -> list[OpInfo]:
    f = 'float32'
    img, flt = R((2, 5, 6, 3)), R((3, 2, 3, 4))
    ties_img = t(np.tile(np.array([[1.0, 1.0], [0.5, 1.0]], f), (1, 2, 2))
                 .reshape(1, 4, 4, 1), f)
    zero_logits = t([[0.0, 0.0, 1.0], [0.0, -1.0, 0.0]], f)
    labels = t([[1.0, 0.0, 0.5], [0.0, 1.0, 0.25]], f)
    return [
        OpInfo('Softmax', 'nn.softmax', cases(
            s('random', R((3, 4))), s('float64', R((3, 4), 'float64')),
            s('axis0', R((3, 4)), axis=0), s('ties', t([[1.0, 1.0], [0.0, 0.0]], f)),
            s('empty', R((0, 3)))), 'nn', grad2=True),
        OpInfo('LogSoftmax', 'nn.log_softmax', cases(
            s('random', R((3, 4))), s('float64', R((3, 4), 'float64')),
            s('axis0', R((3, 4)), axis=0), s('ties', t([[1.0, 1.0], [0.0, 0.0]], f))), 'nn'),
        OpInfo('SoftmaxCrossEntropyWithLogits', 'nn.softmax_cross_entropy_with_logits', cases(
            s('random', labels=R((3, 4), f, 0.0, 1.0), logits=R((3, 4))),
            s('zeros', labels=labels, logits=zero_logits),
            s('float64', labels=R((2, 3), 'float64', 0.0, 1.0), logits=R((2, 3), 'float64'))),
            'nn'),
        OpInfo('SparseSoftmaxCrossEntropyWithLogits',
               'nn.sparse_softmax_cross_entropy_with_logits', cases(
                   s('random', labels=t([0, 3, 1], 'int32'), logits=R((3, 4))),
                   s('int64-labels', labels=t([2, 0], 'int64'), logits=zero_logits),
                   s('label-invalid', labels=t([5, 0], 'int32'), logits=zero_logits)), 'nn'),
        OpInfo('nn.sigmoid_cross_entropy_with_logits', 'nn.sigmoid_cross_entropy_with_logits',
               cases(s('random', labels=R((3, 4), f, 0.0, 1.0), logits=R((3, 4))),
                     s('zero-logits', labels=labels, logits=zero_logits),
                     s('float64', labels=R((3,), 'float64', 0, 1), logits=R((3,), 'float64')),
                     s('shapes-invalid', labels=R((3,)), logits=R((4,)))), 'nn', grad2=True),
        OpInfo('math.log_sigmoid', 'math.log_sigmoid', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.gelu', 'nn.gelu', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.silu', 'nn.silu', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.l2_normalize', 'nn.l2_normalize', cases(
            s('random', R((3, 4))), s('axis', R((3, 4), 'float64'), axis=1),
            s('zeros', t([[0.0, 0.0], [3.0, 4.0]], f), axis=1)), 'nn'),
        OpInfo('nn.moments', 'nn.moments', cases(
            s('random', R((3, 4)), axes=[0]), s('keepdims', R((3, 4), 'float64'), axes=[0, 1],
                                                 keepdims=True),
            s('ties', t([[1.0, 1.0], [1.0, 1.0]], f), axes=[1])), 'nn'),
        OpInfo('L2Loss', 'nn.l2_loss', unary(FLOATS, specials=()), 'nn'),
        OpInfo('BiasAdd', 'nn.bias_add', cases(
            s('random', R((3, 4)), R((4,))), s('nhwc', img, R((3,))),
            s('float64', R((2, 3), 'float64'), R((3,), 'float64')),
            s('shapes-invalid', R((3, 4)), R((3,)))), 'nn', grad2=True),
        OpInfo('Conv2D', 'nn.conv2d', cases(
            s('same', img, flt, strides=[1, 2, 2, 1], padding='SAME'),
            s('valid', img, flt, strides=1, padding='VALID'),
            s('dilations', img, R((2, 2, 3, 2)), strides=1, padding='SAME', dilations=2),
            s('channels-invalid', img, R((3, 2, 4, 4)), strides=1, padding='SAME')), 'nn',
            ops=('Conv2DBackpropInput', 'Conv2DBackpropFilter')),
        OpInfo('MaxPool', 'nn.max_pool2d', cases(
            s('random', img, ksize=2, strides=2, padding='SAME'),
            s('valid', img, ksize=3, strides=1, padding='VALID'),
            s('ties', ties_img, ksize=2, strides=2, padding='VALID')), 'nn', grad2=True,
            ops=('MaxPoolGrad', 'MaxPoolGradGrad')),
        OpInfo('AvgPool', 'nn.avg_pool2d', cases(
            s('random', img, ksize=2, strides=2, padding='SAME'),
            s('valid', img, ksize=3, strides=1, padding='VALID')), 'nn', ops=('AvgPoolGrad',)),
        OpInfo('TopKV2', 'math.top_k', cases(
            s('random', R((3, 4)), k=2), s('ties', t([[1.0, 1.0, 0.0, 1.0]], f), k=2),
            s('int64-k', R((3, 4), 'float64'), k=t(3, 'int64')),
            s('k-invalid', R((3, 4)), k=5)), 'nn'),
        OpInfo('InTopKV2', 'math.in_top_k', cases(
            s('random', targets=t([0, 3, 1], 'int32'), predictions=R((3, 4)), k=2),
            s('ties', targets=t([0, 1], 'int64'), predictions=t([[1, 1, 0], [0, 2, 2]], f),
              k=1)), 'nn', grad=False),
    ]


def _linalg_entries() -> list[OpInfo]:
    d = 'float64'
    spd = t([[4.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.5, 1.0, 2.0]], d)
    m = t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, d)
    tri = t(np.tril(np.arange(1, 10).reshape(3, 3) / 4.0 + np.eye(3)), d)
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], bool]] = [
        ('MatMul', 'linalg.matmul', cases(
            s('random', R((3, 4)), R((4, 2))), s('float64', R((2, 3), d), R((3, 2), d)),
            s('transpose', R((4, 3)), R((2, 4)), transpose_a=True, transpose_b=True),
            s('int32', R((2, 3), 'int32'), R((3, 2), 'int32')),
            s('empty', R((0, 3)), R((3, 2))),
            s('shapes-invalid', R((3, 4)), R((3, 4)))), True),
        ('BatchMatMulV2', 'linalg.matmul', cases(
            s('random', R((2, 3, 4)), R((2, 4, 2))),
            s('broadcast', R((2, 1, 3, 4), d), R((3, 4, 2), d))), True),
        ('Einsum', 'einsum', cases(
            s('matmul', 'ij,jk->ik', R((3, 4)), R((4, 2))),
            s('trace', 'ii->', R((3, 3), d)), s('outer', 'i,j->ij', R((3,)), R((2,)))), False),
        ('Cholesky', 'linalg.cholesky', cases(s('spd', spd)), False),
        ('MatrixDeterminant', 'linalg.det', cases(s('random', m),
                                                  s('float32', R((2, 3, 3)))), False),
        ('LogMatrixDeterminant', 'linalg.slogdet', cases(s('random', m)), False),
        ('MatrixInverse', 'linalg.inv', cases(s('random', m),
                                              s('adjoint', m, adjoint=True)), False),
        ('MatrixSolve', 'linalg.solve', cases(s('random', m, R((3, 2), d))), False),
        ('MatrixSolveLs', 'linalg.lstsq', cases(s('random', R((4, 3), d), R((4, 2), d))),
         False),
        ('MatrixTriangularSolve', 'linalg.triangular_solve', cases(
            s('lower', tri, R((3, 2), d)), s('adjoint', tri, R((3, 2), d), adjoint=True)),
         False),
        ('MatrixExponential', 'linalg.expm', cases(s('random', R((3, 3), d, -0.5, 0.5))),
         False),
        ('Qr', 'linalg.qr', cases(s('random', m)), False),
        ('Svd', 'linalg.svd', cases(s('random', m, compute_uv=False)), False),
        ('SelfAdjointEigV2', 'linalg.eigvalsh', cases(s('random', spd)), False),
        ('MatrixBandPart', 'linalg.band_part', cases(
            s('random', R((4, 4)), 1, 0), s('int64', R((3, 4), d), t(0, 'int64'),
                                             t(-1, 'int64'))), False),
        ('MatrixDiagPartV3', 'linalg.diag_part', cases(s('random', R((3, 4))),
                                                       s('batch', R((2, 3, 3), d))), False),
        ('MatrixDiagV3', 'linalg.diag', cases(s('random', R((3,))),
                                              s('batch', R((2, 3), d))), False),
        ('linalg.norm', 'linalg.norm', cases(
            s('random', R((3, 4))), s('axis', R((3, 4), d), axis=1),
            s('zeros', t([[0.0, 0.0], [3.0, 4.0]], d), axis=1)), False),
        ('linalg.trace', 'linalg.trace', cases(s('random', R((3, 3), d))), False),
    ]
    return [OpInfo(op, call, gen, 'linalg', grad2=second) for op, call, gen, second in rows]


def _special_entries() -> list[OpInfo]:
    """The special functions and segment products of runtime/ops/special_more.py and
    runtime/ops/segment_prod.py (fixture family `special`)."""
    d = 'float64'
    unary_rows: list[tuple[str, str, dict[str, Any]]] = [
        ('Erfinv', 'math.erfinv', {'lo': -0.95, 'hi': 0.95, 'edges': (0.0, -0.0, 1.0, -1.0),
                                   'dtypes': FLOATS}),
        ('Ndtri', 'math.ndtri', {'lo': 0.02, 'hi': 0.98, 'edges': (0.0, 0.5, 1.0),
                                 'dtypes': FLOATS}),
        ('math.erfcinv', 'math.erfcinv', {'lo': 0.05, 'hi': 1.95, 'edges': (0.0, 1.0, 2.0),
                                          'dtypes': FLOATS}),
        ('BesselI0', 'math.bessel_i0', {'lo': -4.0, 'hi': 4.0}),
        ('BesselI0e', 'math.bessel_i0e', {'lo': -40.0, 'hi': 40.0}),
        ('BesselI1', 'math.bessel_i1', {'lo': -4.0, 'hi': 4.0}),
        ('BesselI1e', 'math.bessel_i1e', {'lo': -40.0, 'hi': 40.0}),
        ('BesselJ0', 'math.special.bessel_j0', {'lo': -30.0, 'hi': 30.0}),
        ('BesselJ1', 'math.special.bessel_j1', {'lo': -30.0, 'hi': 30.0}),
        ('BesselY0', 'math.special.bessel_y0', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselY1', 'math.special.bessel_y1', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK0', 'math.special.bessel_k0', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK0e', 'math.special.bessel_k0e', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0,)}),
        ('BesselK1', 'math.special.bessel_k1', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK1e', 'math.special.bessel_k1e', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0,)}),
        ('Dawsn', 'math.special.dawsn', {'lo': -8.0, 'hi': 8.0, 'dtypes': FLOATS}),
        ('Expint', 'math.special.expint', {'lo': 0.1, 'hi': 8.0, 'edges': (0.0, -1.0, 50.0),
                                           'dtypes': FLOATS}),
        ('FresnelCos', 'math.special.fresnel_cos', {'lo': -7.0, 'hi': 7.0, 'dtypes': FLOATS}),
        ('FresnelSin', 'math.special.fresnel_sin', {'lo': -7.0, 'hi': 7.0, 'dtypes': FLOATS}),
        ('Spence', 'math.special.spence', {'lo': 0.05, 'hi': 4.0, 'edges': (0.0, 1.0, 0.5),
                                           'dtypes': FLOATS}),
    ]
    out = [OpInfo(op, call, unary(**kw), 'special') for op, call, kw in unary_rows]
    grid_a, grid_x = (g.ravel() for g in np.meshgrid([0.0, 1.0, 3.0, 0.5], [0.0, 1.0, 3.0, 0.5]))

    def incomplete_gamma() -> Callable[[np.random.Generator], list[Sample]]:
        return cases(
            s('random-float64', R((3, 4), d, 0.3, 4.0), R((3, 4), d, 0.3, 4.0)),
            s('random-float32', R((3, 4), 'float32', 0.3, 4.0), R((3, 4), 'float32', 0.3, 4.0)),
            s('broadcast', R((3, 1), d, 0.3, 4.0), R((4,), d, 0.3, 4.0)),
            s('edges', t(grid_a, d), t(grid_x, d)))
    out += [
        OpInfo('Igamma', 'math.igamma', incomplete_gamma(), 'special', ops=('IgammaGradA',)),
        OpInfo('Igammac', 'math.igammac', incomplete_gamma(), 'special'),
        OpInfo('Zeta', 'math.zeta', cases(
            s('random', R((3, 4), d, 1.5, 5.0), R((3, 4), d, 0.5, 3.0)),
            s('random-float32', R((2, 3), 'float32', 1.5, 5.0), R((2, 3), 'float32', 0.5, 3.0)),
            s('edges', t([1.0, 2.0, 2.0, 0.5, 3.0], d), t([1.0, -1.0, -1.5, 2.0, 0.25], d))),
               'special'),
        OpInfo('Betainc', 'math.betainc', cases(
            s('random', R((3, 4), d, 0.5, 4.0), R((3, 4), d, 0.5, 4.0), R((3, 4), d, 0.05, 0.95)),
            s('random-float32', R((4,), 'float32', 0.5, 4.0), R((4,), 'float32', 0.5, 4.0),
              R((4,), 'float32', 0.05, 0.95)),
            s('edges', t([1.0, 2.0, 0.5, 3.0], d), t([1.0, 3.0, 0.5, 2.0], d),
              t([0.0, 1.0, 0.5, 0.999], d))), 'special'),
        OpInfo('SegmentProd', 'math.segment_prod', cases(
            s('random', R((5, 2), d, 0.5, 2.0), t([0, 0, 1, 1, 3], 'int32')),
            s('zeros', t([[1.0, 0.0], [2.0, 0.0], [0.0, 3.0]], d), t([0, 0, 0], 'int64')),
            s('int32', R((4,), 'int32', -3, 3), t([0, 1, 1, 2], 'int32')),
            s('unsorted-invalid', R((3,), d), t([1, 0, 1], 'int32'))), 'special'),
        OpInfo('UnsortedSegmentProd', 'math.unsorted_segment_prod', cases(
            s('random', R((5, 2), d, 0.5, 2.0), t([2, 0, 2, -1, 0], 'int32'), 4),
            s('zeros', t([1.0, 0.0, 2.0, 0.0, 0.0, 5.0], d), t([0, 0, 1, 1, 2, 2], 'int64'), 3),
            s('float32', R((4, 3), 'float32', 0.5, 2.0), t([1, 1, 0, 1], 'int32'), 2)),
               'special'),
    ]
    return out


def _linalg_more_entries() -> list[OpInfo]:
    """LU, tridiagonal and banded systems, eigh_tridiagonal (runtime/ops/linalg_more.py;
    fixture family `linalg_more`)."""
    d = 'float64'
    m = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], d)
    batch = t([[[2.0, 1.0], [4.0, 3.0]], [[0.5, 2.0], [1.0, 1.0]]], d)
    lu_m, perm = t([[7.0, 8.0, 10.0], [1 / 7, 6 / 7, 11 / 7], [4 / 7, 0.5, -0.5]], d), \
        t([2, 0, 1], 'int32')
    diags = t([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]], d)
    bands = t([[2.0, 3.0, 4.0], [0.5, 0.6, 0.7]], d)  # lower: diagonal, then subdiagonal
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], bool]] = [
        ('Lu', 'linalg.lu', cases(
            s('random', R((4, 4), d)), s('batch', batch), s('int64', m, output_idx_type='int64'),
            s('float32', R((3, 3))), s('singular-invalid', t([[1.0, 2.0], [2.0, 4.0]], d)),
            s('shape-invalid', R((2, 3), d))), False),
        ('linalg.lu_solve', 'linalg.lu_solve', cases(s('random', lu_m, perm, R((3, 2), d))),
         True),
        ('linalg.lu_reconstruct', 'linalg.lu_reconstruct', cases(s('random', lu_m, perm)),
         True),
        ('linalg.lu_matrix_inverse', 'linalg.lu_matrix_inverse',
         cases(s('random', lu_m, perm)), True),
        ('TridiagonalSolve', 'linalg.tridiagonal_solve', cases(
            s('random', diags, R((3, 2), d)), s('vector', diags, R((3,), d)),
            s('no-pivoting', diags, R((3, 2), d), partial_pivoting=False),
            s('float32', R((2, 3, 4), 'float32', 1.0, 3.0), R((2, 4, 1), 'float32')),
            s('sequence', [t([1.0, 2.0, 0.0], d), t([4.0, 5.0, 6.0], d), t([0.0, 7.0, 8.0], d)],
              R((3, 1), d), diagonals_format='sequence'),
            s('matrix', t([[4.0, 1.0, 0.0], [7.0, 5.0, 2.0], [0.0, 8.0, 6.0]], d), R((3, 2), d),
              diagonals_format='matrix')), True),
        ('TridiagonalMatMul', 'linalg.tridiagonal_matmul', cases(
            s('random', R((3, 4), d), R((4, 2), d)),
            s('batch', R((2, 3, 3)), R((2, 3, 2)))), True),
        ('BandedTriangularSolve', 'linalg.banded_triangular_solve', cases(
            s('lower', bands, R((3, 2), d)),
            s('upper-adjoint', t([[0.5, 0.6, 0.7], [2.0, 3.0, 4.0]], d),
              R((3, 2), d), lower=False, adjoint=True),
            s('float32', t([[2.0, 3.0, 4.0], [1.0, 1.5, 0.5]], 'float32'), R((3, 2)))), True),
        ('MatrixSquareRoot', 'linalg.sqrtm', cases(
            s('random', t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, d)),
            s('batch', t([[[2.0, 1.0], [0.5, 3.0]], [[1.5, -0.5], [0.25, 1.0]]], d)),
            s('float32', t([[4.0, 1.0], [2.0, 3.0]], 'float32')),
            s('shape-invalid', R((2, 3), d))), True),
        ('MatrixLogarithm', 'linalg.logm', cases(
            s('complex128', t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, 'complex128')),
            s('rotation', t([[0.0, -1.0], [1.0, 0.0]], 'complex128')),
            s('complex64', t([[4.0, 1.0], [2.0, 3.0]], 'complex64')),
            s('real-invalid', t([[4.0, 1.0], [2.0, 3.0]], d))), False),
        ('linalg.eigh_tridiagonal', 'linalg.eigh_tridiagonal', cases(
            s('values', t([1.0, 2.0, 3.0, 0.5], d), t([0.5, -0.4, 0.3], d)),
            s('range', t([1.0, 2.0, 3.0, 0.5], d), t([0.5, -0.4, 0.3], d), select='i',
              select_range=[1, 2])), False),
    ]
    return [OpInfo(op, call, gen, 'linalg_more', grad2=False, grad=grad)
            for op, call, gen, grad in rows]


def _array_entries() -> list[OpInfo]:
    d, i64 = 'float64', 'int64'
    x = R((2, 3, 4))
    idx = t([[0, 1], [1, 2]], 'int32')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Reshape', 'reshape', cases(
            s('random', x, [4, 6]), s('infer', x, [-1, 2]), s('int64', x, t([3, 8], i64)),
            s('scalar', R(()), []), s('size-invalid', x, [5, 5])), {}),
        ('Transpose', 'transpose', cases(
            s('default', x), s('perm', x, [2, 0, 1]), s('int64', x, t([0, 2, 1], i64)),
            s('perm-invalid', x, [0, 1])), {}),
        ('Tile', 'tile', cases(
            s('random', R((2, 3)), [2, 1]), s('int64', R((2, 3), d), t([1, 3], i64)),
            s('zero', R((2, 3)), [0, 2]), s('rank-invalid', R((2, 3)), [2])), {}),
        ('Pad', 'pad', cases(
            s('random', R((2, 3)), [[1, 0], [2, 1]]),
            s('int64', R((2, 3), d), t([[0, 1], [1, 1]], i64))), {}),
        ('PadV2', 'pad', cases(s('constant', R((2, 3)), [[1, 1], [0, 2]],
                                 constant_values=1.5)), {}),
        ('MirrorPad', 'pad', cases(
            s('reflect', R((3, 4)), [[1, 1], [2, 1]], mode='REFLECT'),
            s('symmetric', R((3, 4), d), [[2, 0], [0, 3]], mode='SYMMETRIC')),
         {'ops': ('MirrorPadGrad',)}),
        ('ConcatV2', 'concat', cases(
            s('random', [R((2, 3)), R((1, 3))], 0), s('axis-1', [R((2, 3)), R((2, 2))], -1),
            s('int64-axis', [R((2, 3), d), R((2, 1), d)], t(1, i64)),
            s('shapes-invalid', [R((2, 3)), R((2, 2))], 0)), {}),
        ('Pack', 'stack', cases(
            s('random', [R((2, 3)), R((2, 3))]), s('axis', [R((3,)), R((3,))], axis=1),
            s('shapes-invalid', [R((2,)), R((3,))])), {}),
        ('Unpack', 'unstack', cases(s('random', x), s('axis', x, axis=-1)), {}),
        ('Split', 'split', cases(
            s('random', R((4, 3)), 2), s('axis', R((3, 4), d), 2, axis=1),
            s('uneven-invalid', R((3, 4)), 2)), {}),
        ('SplitV', 'split', cases(
            s('random', R((5, 3)), [2, 3]), s('infer', R((3, 5), d), [1, -1], axis=1),
            s('int64', R((5, 3)), t([4, 1], i64))), {}),
        ('Slice', 'slice', cases(
            s('random', x, [0, 1, 1], [2, 2, -1]),
            s('int64', x, t([1, 0, 0], i64), t([1, 3, 2], i64)),
            s('size-invalid', x, [0, 0, 0], [3, 1, 1])), {}),
        ('StridedSlice', 'operator.getitem', cases(
            s('slices', x, (slice(None), slice(1, None), slice(None, None, 2))),
            s('index', x, (1, slice(None, 2))), s('newaxis', x, (None, Ellipsis, -1)),
            s('negative-step', x, (slice(None, None, -1), 0)),
            s('index-invalid', x, 5)), {'ops': ('StridedSliceGrad',)}),
        ('GatherV2', 'gather', cases(
            s('random', R((4, 3)), t([3, 0, 3], 'int32')),
            s('axis', R((4, 3), d), t([[2, 0]], i64), axis=1),
            s('index-invalid', R((4, 3)), t([4], 'int32'))), {}),
        ('GatherNd', 'gather_nd', cases(
            s('random', R((3, 4)), idx), s('slices', R((3, 4), d), t([[2], [0]], i64)),
            s('index-invalid', R((3, 4)), t([[3, 0]], 'int32'))), {}),
        ('ScatterNd', 'scatter_nd', cases(
            s('random', idx, R((2,)), [3, 4]),
            s('duplicates', t([[1], [1]], i64), R((2, 3), d), t([3, 3], i64))), {}),
        ('Fill', 'fill', cases(
            s('random', [2, 3], 1.5), s('int64-dims', t([2], i64), t(2, i64)),
            s('int64-list', [t(3, i64)], t(3, i64)), s('mixed-list', [t(2, i64), 3], 0.5),
            s('int32', t([3], 'int32'), t(7, 'int32')), s('scalar', [], 0.5),
            s('dims-invalid', [-1, 2], 1.0)), {'grad': False}),
        ('Range', 'range', cases(
            s('ints', 5), s('start-limit', 2, 9, 3), s('floats', 0.5, 2.0, 0.25),
            s('int64', t(1, i64), t(7, i64)), s('negative', 5, 0, -2)), {'grad': False}),
        ('LinSpace', 'linspace', cases(
            s('random', 0.0, 1.0, 5), s('int64-num', t(-1.0, 'float32'), t(1.0, 'float32'),
                                          t(4, i64)), s('one', 2.0, 3.0, 1)), {'grad': False}),
        ('OneHot', 'one_hot', cases(
            s('random', t([0, 2, -1, 3], 'int32'), 3),
            s('int64', t([[1], [0]], i64), t(2, 'int32'), on_value=5.0, off_value=-1.0),
            s('axis', t([0, 1], 'int32'), 3, axis=0)), {'grad': False}),
        ('ExpandDims', 'expand_dims', cases(
            s('random', R((2, 3)), 1), s('negative', R((2, 3)), -1),
            s('int64', R((2, 3), d), t(0, i64)), s('axis-invalid', R((2, 3)), 4)), {}),
        ('Squeeze', 'squeeze', cases(
            s('all', R((1, 3, 1))), s('axis', R((1, 3, 1), d), [2]),
            s('axis-invalid', R((1, 3, 1)), [1])), {}),
        ('BroadcastTo', 'broadcast_to', cases(
            s('random', R((3, 1)), [2, 3, 4]), s('int64', R((1,), d), t([3], i64)),
            s('shape-invalid', R((3,)), [2])), {}),
        ('ReverseV2', 'reverse', cases(
            s('random', x, [1]), s('several', x, [0, -1]), s('int64', x, t([2], i64))), {}),
        ('Where', 'where', cases(
            s('random', R((3, 4), 'bool')), s('float', t([[0.0, 1.0], [2.0, 0.0]], d))),
         {'grad': False}),
        ('SelectV2', 'where', cases(
            s('random', R((3, 4), 'bool'), R((3, 4)), R((3, 4))),
            s('broadcast', R((3, 1), 'bool'), R((4,), d), R((3, 4), d)),
            s('scalar', R((2,), 'bool'), R((2,)), 0.0),
            s('shapes-invalid', R((3,), 'bool'), R((2,)), R((2,)))), {}),
        ('Shape', 'shape', cases(s('random', x), s('int64', x, out_type=_dtype(i64))), {}),
        ('Size', 'size', cases(s('random', x), s('int64', x, out_type=_dtype(i64))), {}),
        ('Rank', 'rank', cases(s('random', x), s('scalar', R(()))), {}),
        ('Cast', 'cast', cases(
            s('to-int', t([1.7, -1.7, 0.5, -0.0], 'float32'), _dtype('int32')),
            s('to-float', R((3,), 'int64'), _dtype('float32')),
            s('to-bool', t([0.0, 2.0, -0.0], 'float64'), _dtype('bool')),
            s('from-bool', t([True, False], 'bool'), _dtype('float32')),
            s('float64', R((2, 3)), _dtype('float64'))), {}),
        ('AddN', 'math.add_n', cases(
            s('random', [R((2, 3)), R((2, 3)), R((2, 3))]),
            s('one', [R((3,), d)]), s('int', [R((2,), 'int32'), R((2,), 'int32')])), {}),
        ('Identity', 'identity', unary(REALS, specials=()), {}),
        ('StopGradient', 'stop_gradient', unary(FLOATS, specials=()), {}),
        ('ZerosLike', 'zeros_like', unary(REALS + ('bool',), specials=()), {}),
        ('OnesLike', 'ones_like', unary(REALS + ('bool',), specials=()), {}),
        ('CheckNumerics', 'debugging.check_numerics', cases(
            s('random', R((3,)), 'message'), s('nan-invalid', t([1.0, NAN], 'float32'),
                                                'message')), {}),
        ('TensorScatterUpdate', 'tensor_scatter_nd_update', cases(
            s('random', R((3, 4)), idx, R((2,))), s('rows', R((3, 4), d), t([[2]], i64),
                                                   R((1, 4), d))), {}),
        ('TensorScatterAdd', 'tensor_scatter_nd_add', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('duplicates', R((3,), d), t([[1], [1]], i64), R((2,), d))), {}),
        ('TensorScatterSub', 'tensor_scatter_nd_sub', cases(
            s('random', R((3, 4)), idx, R((2,)))), {}),
        ('TensorScatterMax', 'tensor_scatter_nd_max', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('ties', t([1.0, 2.0, 3.0], 'float32'), t([[0], [1]], 'int32'),
              t([1.0, 5.0], 'float32'))), {}),
        ('TensorScatterMin', 'tensor_scatter_nd_min', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('ties', t([1.0, 2.0, 3.0], 'float32'), t([[0], [1]], 'int32'),
              t([1.0, -5.0], 'float32'))), {}),
        ('SegmentSum', 'math.segment_sum', cases(
            s('random', R((4, 3)), t([0, 0, 1, 3], 'int32')),
            s('int64', R((3,), d), t([0, 1, 1], i64))), {}),
        ('UnsortedSegmentSum', 'math.unsorted_segment_sum', cases(
            s('random', R((4, 3)), t([1, 0, 1, 3], 'int32'), 4),
            s('int64', R((3,), d), t([2, 0, 2], i64), t(3, i64))), {}),
        ('DenseBincount', 'math.bincount', cases(
            s('random', t([1, 1, 3, 0], 'int32')),
            s('weights', t([1, 2, 2], 'int32'), weights=t([0.5, 1.0, 2.0], 'float32')),
            s('minlength', t([1, 2], 'int32'), minlength=5)), {'grad': False}),
        ('AdjustContrastv2', 'image.adjust_contrast', cases(
            s('random', R((4, 4, 3), 'float32', 0.0, 1.0), 2.0)), {'grad': False}),
        ('repeat', 'repeat', cases(
            s('random', R((2, 3)), 2, axis=1), s('tensor', R((3,), d), t([1, 0, 2], i64))),
         {}),
        ('clip_by_norm', 'clip_by_norm', cases(
            s('clipped', R((3, 4)), 1.0), s('zeros', t([0.0, 0.0], 'float32'), 1.0),
            s('axes', R((3, 4), d), 1.0, axes=[1])), {}),
        ('sort', 'sort', cases(s('random', R((3, 4))),
                               s('ties', t([[2.0, 1.0, 2.0, 1.0]], 'float32')),
                               s('descending', R((5,), d), direction='DESCENDING')), {}),
        ('boolean_mask', 'boolean_mask', cases(
            s('random', R((3, 4)), t([True, False, True], 'bool'))), {}),
        ('eye', 'eye', cases(s('square', 3), s('int64', t(2, i64), t(3, i64))),
         {'grad': False}),
        ('ones', 'ones', cases(s('list', [2, 3]), s('int64-scalar', t(3, i64)),
                               s('int64-list', [t(2, i64), t(3, i64)]),
                               s('int32-vector', t([2, 1], 'int32'))), {'grad': False}),
    ]
    return [OpInfo(op, call, gen, 'array', **kw) for op, call, gen, kw in rows]


def _bitwise_complex_entries() -> list[OpInfo]:
    """The bitwise, complex-number and integer-rounding elementwise ops."""
    ints = INTS + ('uint8',)
    shifts = {'dtypes': INTS, 'lo': 0.0, 'hi': 5.0, 'edges': ()}
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]]]] = [
        ('BitwiseAnd', 'bitwise.bitwise_and', binary(INTS, -8.0, 8.0, edges=())),
        ('BitwiseOr', 'bitwise.bitwise_or', binary(INTS, -8.0, 8.0, edges=())),
        ('BitwiseXor', 'bitwise.bitwise_xor', binary(INTS, -8.0, 8.0, edges=())),
        ('LeftShift', 'bitwise.left_shift', binary(**shifts)),
        ('RightShift', 'bitwise.right_shift', binary(**shifts)),
        ('Invert', 'bitwise.invert', unary(ints, -8.0, 8.0, edges=(), specials=())),
        ('NextAfter', 'math.nextafter', binary(FLOATS, edges=(0.0, -0.0, 1.0, INF, NAN))),
        ('Rint', 'math.rint', unary(FLOATS, edges=(0.5, 1.5, 2.5, -0.5, -1.5, 0.0, -0.0))),
    ]
    entries = [OpInfo(op, call, gen, 'bitwise', grad=op == 'Rint') for op, call, gen in rows]
    for op, call in (('TruncateDiv', 'truncatediv'), ('TruncateMod', 'truncatemod')):
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4), 'int32', 1.0, 9.0), R((3, 4), 'int32', 1.0, 4.0)),
            s('negative', t([-7, 7, -7, 7, 0], 'int64'), t([2, 2, -2, -2, 3], 'int64')),
            s('float', t([-7.5, 7.5, -7.5, 2.0], 'float32'), t([2.0, -2.0, 2.0, 3.0], 'float32')),
            s('broadcast', R((3, 1), 'int32', 1.0, 9.0), t([2, 3], 'int32'))),
            'bitwise', grad=False))
    complex_rows = (('Real', 'math.real'), ('Imag', 'math.imag'), ('Conj', 'math.conj'),
                    ('Angle', 'math.angle'))
    entries += [OpInfo(op, call, cases(
        s('random', R((3, 4), 'complex64')), s('complex128', R((2,), 'complex128')),
        s('zeros', t([0j, -0.0 + 0j, 1j, -1 + 0j], 'complex64')), s('float', R((3,)))),
        'bitwise') for op, call in complex_rows]
    entries.append(OpInfo('Complex', 'complex', cases(
        s('random', R((3, 4)), R((3, 4))), s('float64', R((2,), 'float64'), R((2,), 'float64')),
        s('broadcast', R((3, 1)), R((4,))),
        s('dtypes-invalid', R((2,)), R((2,), 'float64'))), 'bitwise'))
    return entries


def _array_more_entries() -> list[OpInfo]:
    """Array ops with index and shape arguments."""
    i64, d = 'int64', 'float64'
    sorted_rows = t([[1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 5.0, 9.0]], 'float32')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Roll', 'roll', cases(
            s('random', R((3, 4)), 1, 0), s('several', R((3, 4), d), [1, -2], [0, 1]),
            s('int64', R((5,)), t(7, i64), t(0, i64)), s('same-axis', R((3, 4)), [1, 2], [1, 1]),
            s('negative-axis', R((2, 3)), -1, -1), s('axis-invalid', R((3,)), 1, 2)), {}),
        ('Unique', 'unique', cases(
            s('random', t([1, 2, 1, 3, 2], 'int32')),
            s('float', t([1.5, -0.5, 2.0, 1.5], 'float32')),
            s('int64-index', t([3, 3, 1], i64), out_idx=_dtype(i64)),
            s('empty', t(np.zeros((0,)), 'float32')),
            s('rank-invalid', t([[1, 2]], 'int32'))), {'grad': False}),
        ('UniqueWithCounts', 'unique_with_counts', cases(
            s('random', t([1, 2, 1, 3, 2, 2], 'int32')),
            s('int64-index', t([0.5, 0.5, 1.0], d), out_idx=_dtype(i64))), {'grad': False}),
        ('InvertPermutation', 'math.invert_permutation', cases(
            s('random', t([2, 0, 3, 1], 'int32')), s('int64', t([1, 0], i64)),
            s('duplicate-invalid', t([0, 0], 'int32'))), {}),
        ('UnravelIndex', 'unravel_index', cases(
            s('random', t([1, 5, 7], 'int32'), t([3, 4], 'int32')),
            s('scalar', t(5, i64), t([2, 3], i64)), s('list', t([0, 11], 'int32'), [3, 4]),
            s('range-invalid', t([12], 'int32'), t([3, 4], 'int32'))), {}),
        ('LowerBound', 'searchsorted', cases(
            s('random', sorted_rows, t([[2.0, 0.5, 4.0], [0.0, 9.0, 10.0]], 'float32')),
            s('int', t([1, 3, 3, 5], 'int32'), t([3, 6, 0], 'int32')),
            s('int64-out', t([1.0, 2.0], d), t([1.5], d), out_type=_dtype(i64))), {}),
        ('UpperBound', 'searchsorted', cases(
            s('random', sorted_rows, t([[2.0, 0.5, 4.0], [0.0, 9.0, 10.0]], 'float32'),
              side='right'),
            s('int', t([1, 3, 3, 5], 'int32'), t([3, 6, 0], 'int32'), side='right')), {}),
        ('ReverseSequence', 'reverse_sequence', cases(
            s('random', R((3, 4)), t([1, 4, 2], i64), seq_axis=1, batch_axis=0),
            s('int32', R((4, 2, 3), d), t([2, 3], 'int32'), seq_axis=0, batch_axis=1),
            s('length-invalid', R((2, 3)), t([4, 1], i64), seq_axis=1, batch_axis=0)), {}),
        ('EnsureShape', 'ensure_shape', cases(
            s('random', R((2, 3)), [2, 3]), s('unknown-dim', R((2, 3), d), [None, 3]),
            s('shape-invalid', R((2, 3)), [3, 2])), {}),
        ('HistogramFixedWidth', 'histogram_fixed_width', cases(
            s('random', R((10,)), [-2.0, 2.0], nbins=5),
            s('outside', t([-5.0, 0.0, 5.0, 1.0], 'float32'), t([-1.0, 1.0], 'float32'),
              nbins=3),
            s('int64', R((6,), d, 0.0, 1.0), t([0.0, 1.0], d), nbins=4, dtype=_dtype(i64))),
         {'grad': False}),
    ]
    return [OpInfo(op, call, gen, 'array', **kw) for op, call, gen, kw in rows]


def _string_entries() -> list[OpInfo]:
    words = t([b'Hello', b' a b ', b''], 'string')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]]]] = [
        ('AsString', 'strings.as_string', cases(
            s('float', t([1.5, -0.0, 1e10], 'float32')), s('int', R((3,), 'int64', -9, 9)),
            s('precision', t([3.14159], 'float64'), precision=2),
            s('bool', t([True, False], 'bool')))),
        ('ReduceJoin', 'strings.reduce_join', cases(
            s('all', words), s('separator', words, separator='-'))),
        ('StaticRegexFullMatch', 'strings.regex_full_match', cases(
            s('random', words, '[A-Z].*'))),
        ('StaticRegexReplace', 'strings.regex_replace', cases(
            s('random', words, 'l+', 'L'), s('first', words, ' ', '_',
                                              replace_global=False))),
        ('StringFormat', 'strings.format', cases(
            s('random', 'x={} y={}', [R((3,)), t(2, 'int64')]))),
        ('StringJoin', 'strings.join', cases(s('random', [words, words], separator='+'))),
        ('StringLength', 'strings.length', cases(
            s('bytes', words), s('utf8', t(['é'.encode(), b'ab'], 'string'),
                                 unit='UTF8_CHAR'))),
        ('StringLower', 'strings.lower', cases(s('random', words))),
        ('StringUpper', 'strings.upper', cases(s('random', words))),
        ('StringStrip', 'strings.strip', cases(s('random', words))),
        ('StringToNumber', 'strings.to_number', cases(
            s('float', t([b'1.5', b'-2', b'1e3'], 'string')),
            s('int64', t([b'12', b'-7'], 'string'), out_type=_dtype('int64')),
            s('text-invalid', t([b'x'], 'string')))),
        ('Substr', 'strings.substr', cases(
            s('random', words, 1, 2), s('utf8', t(['héllo'.encode()], 'string'), 1, 3,
                                         unit='UTF8_CHAR'))),
    ]
    return [OpInfo(op, call, gen, 'strings', grad=False) for op, call, gen in rows]


def _core_more_entries() -> list[OpInfo]:
    """Array ops with structural arguments and the 3-D, dilated and morphological nn ops, in
    their own fixture groups (`array_more2`, `nn_more`)."""
    f, d, i32, i64 = 'float32', 'float64', 'int32', 'int64'
    img, flt = R((2, 5, 6, 3)), R((3, 2, 3, 4))
    vol, vflt = R((2, 4, 5, 3, 2)), R((2, 3, 2, 2, 3))
    ties_img = t(np.tile(np.array([[1.0, 1.0], [0.5, 1.0]], f), (1, 2, 2)).reshape(1, 4, 4, 1), f)
    ties_vol = t(np.tile(np.array([1.0, 0.5, 1.0, 1.0], f), 8).reshape(1, 2, 4, 4, 1), f)
    # (sampled classes, true and sampled expected counts) of a candidate sampler
    sampled = (t([1, 7, 3, 0], i64), t([[0.5, 0.2], [0.1, 0.3], [0.2, 0.5]], f),
               t([0.5, 0.1, 0.1, 0.4], f))
    sampled_one = (t([1, 7, 3, 0], i64), t([[0.5], [0.1], [0.2]], d), t([0.5, 0.1, 0.1, 0.4], d))
    array: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Bitcast', 'bitcast', cases(
            s('random', R((3, 4)), _dtype(i32)), s('narrow', R((2,), d), _dtype('uint16')),
            s('wide', t([[0, 0, 128, 63], [0, 0, 0, 64]], 'uint8'), _dtype(f)),
            s('shape-invalid', t([1, 2, 3], 'uint8'), _dtype(f))), {'grad': False}),
        ('DynamicPartition', 'dynamic_partition', cases(
            s('random', R((5, 3)), t([1, 0, 2, 1, 0], i32), 3),
            s('2d-partitions', R((2, 3, 2), d), t([[0, 1, 1], [1, 0, 0]], i32), 2),
            s('empty-part', R((3,)), t([0, 0, 0], i32), 2),
            s('index-invalid', R((3,)), t([0, 3, 1], i32), 2)), {'grad2': True}),
        ('DynamicStitch', 'dynamic_stitch', cases(
            s('random', [t([0, 2], i32), t([1, 3], i32)], [R((2, 3)), R((2, 3))]),
            s('2d-indices', [t([[0, 4], [2, 3]], i32)], [R((2, 2, 3), d)]),
            s('int', [t([1], i32), t([0], i32)], [t([5], i64), t([7], i64)])), {'grad2': True}),
        ('ParallelConcat', 'parallel_stack', cases(s('random', [R((2, 3)), R((2, 3))])),
         {'grad': False}),
        ('SpaceToBatchND', 'space_to_batch_nd', cases(
            s('random', R((2, 4, 6, 3)), [2, 3], [[0, 0], [0, 0]]),
            s('padded', R((1, 5, 5, 2), d), [2, 2], [[1, 0], [0, 1]]),
            s('one-dim', R((2, 6, 3)), [3], [[1, 2]]),
            s('divisible-invalid', R((1, 5, 4, 1)), [2, 2], [[0, 0], [0, 0]])),
         {'grad2': True}),
        ('BatchToSpaceND', 'batch_to_space', cases(
            s('random', R((6, 2, 2, 3)), [2, 3], [[0, 0], [0, 0]]),
            s('cropped', R((4, 3, 3, 2), d), [2, 2], [[1, 0], [0, 1]]),
            s('batch-invalid', R((3, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]])), {'grad2': True}),
        ('strided_slice', 'strided_slice', cases(
            s('masks', R((3, 4, 5)), [0, 1, 0], [2, 3, 0], [1, 1, 1], begin_mask=1, end_mask=4),
            s('ellipsis', R((3, 4, 5), d), [0, 1], [0, 3], [1, 1], ellipsis_mask=1),
            s('new-axis-shrink', R((3, 4)), [0, 1, 0], [0, 2, 4], [1, 1, 2], new_axis_mask=1,
              shrink_axis_mask=2),
            s('negative-stride', R((5,)), [-1], [0], [-2]),
            s('default-strides', R((4, 3)), [1, 0], [3, 2])), {}),
        ('RandomIndexShuffle', 'random_index_shuffle', cases(
            s('random', t(np.arange(10), i64), t([1, 2, 3], i64), t(9, i64)),
            s('rounds', t(5, i32), t([4, 5, 6], i32), t(100000, i32), rounds=6),
            s('seed-rows', t([0, 1, 2], 'uint64'), t([[1, 2, 3], [4, 5, 6], [7, 8, 9]], i32),
              t(2 ** 40, 'uint64')),
            s('seed-invalid', t([0, 1], i64), t([1, 2], i64), t(9, i64))), {'grad': False}),
        ('Fingerprint', 'fingerprint', cases(
            s('bytes', t(np.arange(150, dtype=np.uint8).reshape(2, 75), 'uint8')),
            s('short-rows', t(np.arange(24).reshape(8, 3), i32)),
            s('floats', t([[1.5, 2.5], [3.0, -1.0]], f)),
            s('strings', t([b'hello', b'', b'x' * 70], 'string')),
            s('string-rows', t([[b'ab', b'cd'], [b'e', b'']], 'string')),
            s('method-invalid', t([1, 2], i32), 'md5')), {'grad': False}),
        ('histogram_fixed_width_bins', 'histogram_fixed_width_bins', cases(
            s('random', R((10,)), [-2.0, 2.0], nbins=5),
            s('outside', t([[-5.0, 0.0], [5.0, 1.0]], f), t([-1.0, 1.0], f), nbins=3)),
         {'grad': False}),
        ('required_space_to_batch_paddings', 'required_space_to_batch_paddings', cases(
            s('random', [5, 6], [2, 4], [[1, 1], [0, 2]]), s('no-base', [7], [3])),
         {'grad': False}),
    ]
    nn: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Conv3D', 'nn.conv3d', cases(
            s('same', vol, vflt, strides=[1, 2, 1, 2, 1], padding='SAME'),
            s('valid', R((1, 4, 4, 3, 2), d), R((2, 2, 2, 2, 2), d), [1, 1, 1, 1, 1], 'VALID'),
            s('channels-invalid', vol, R((2, 2, 2, 3, 2)), [1, 1, 1, 1, 1], 'SAME')),
         {'grad2': True, 'ops': ('Conv3DBackpropInputV2', 'Conv3DBackpropFilterV2')}),
        ('nn.conv3d_transpose', 'nn.conv3d_transpose', cases(
            s('same', R((2, 2, 5, 2, 3)), vflt, [2, 4, 5, 3, 2], [1, 2, 1, 2, 1], 'SAME')), {}),
        ('Conv', 'conv', cases(
            s('3d', vol, vflt, [1, 2, 1, 2, 1], 'SAME'),
            s('2d', R((2, 5, 6, 3), d), R((3, 2, 3, 4), d), [1, 1, 2, 1], 'VALID'),
            s('1d-invalid', R((2, 7, 3)), R((3, 3, 2)), [1, 2, 1], 'SAME')), {'grad': False}),
        ('Conv2DBackpropInputV2', 'conv2d_backprop_input_v2', cases(
            s('random', R((2, 5, 6, 3)), R((3, 2, 3, 4)), R((2, 3, 3, 4)), [1, 2, 2, 1], 'SAME'),
            s('valid', R((1, 5, 5, 2), d), R((2, 2, 2, 3), d), R((1, 4, 4, 3), d), [1, 1, 1, 1],
              'VALID')), {'grad': False}),
        ('Conv2DBackpropFilterV2', 'conv2d_backprop_filter_v2', cases(
            s('random', R((2, 5, 6, 3)), R((3, 2, 3, 4)), R((2, 3, 3, 4)), [1, 2, 2, 1], 'SAME'),
            s('valid', R((1, 5, 5, 2), d), R((2, 2, 2, 3), d), R((1, 4, 4, 3), d), [1, 1, 1, 1],
              'VALID')), {'grad': False}),
        ('ExtractVolumePatches', 'extract_volume_patches', cases(
            s('same', vol, [1, 2, 3, 2, 1], [1, 2, 2, 1, 1], 'SAME'),
            s('valid', R((1, 3, 4, 4, 2), d), [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], 'VALID'),
            s('int', R((1, 2, 3, 3, 1), i32, -5, 5), [1, 1, 2, 2, 1], [1, 1, 1, 1, 1], 'VALID')),
         {'grad2': True}),
        ('MaxPool3D', 'nn.max_pool3d', cases(
            s('random', vol, ksize=2, strides=2, padding='SAME'),
            s('valid', vol, [1, 2, 3, 1, 1], 1, 'VALID'),
            s('ties', ties_vol, 2, 2, 'VALID')),
         {'grad2': True, 'ops': ('MaxPool3DGrad', 'MaxPool3DGradGrad')}),
        ('AvgPool3D', 'nn.avg_pool3d', cases(
            s('random', vol, 2, 2, 'SAME'), s('valid', R((1, 4, 4, 3, 2)), [1, 2, 2, 2, 1], 1,
                                              'VALID')),
         {'grad2': True, 'ops': ('AvgPool3DGrad',)}),
        ('MaxPoolWithArgmax', 'nn.max_pool_with_argmax', cases(
            s('random', img, 2, 2, 'SAME'),
            s('batch-index', img, [1, 3, 2, 1], [1, 1, 2, 1], 'VALID',
              include_batch_in_index=True),
            s('float64', R((2, 4, 4, 2), d), 2, 2, 'VALID'),
            s('ties', ties_img, 2, 2, 'VALID')),
         {'grad2': True, 'ops': ('MaxPoolGradWithArgmax',)}),
        ('Dilation2D', 'nn.dilation2d', cases(
            s('same', img, R((2, 3, 3), f, -0.5, 0.5), [1, 1, 1, 1], 'SAME', 'NHWC',
              [1, 1, 1, 1]),
            s('strided-rate', R((2, 5, 6, 3), d), R((2, 2, 3), d), [1, 2, 2, 1], 'VALID', 'NHWC',
              [1, 2, 2, 1])),
         {'ops': ('Dilation2DBackpropInput', 'Dilation2DBackpropFilter')}),
        ('nn.erosion2d', 'nn.erosion2d', cases(
            s('same', img, R((2, 3, 3), f, -0.5, 0.5), [1, 1, 1, 1], 'SAME', 'NHWC',
              [1, 2, 1, 1])), {}),
        ('IsotonicRegression', 'nn.isotonic_regression', cases(
            s('random', R((3, 5))), s('increasing', R((2, 4), d), decreasing=False),
            s('axis0', R((4, 3)), axis=0),
            s('ties', t([[1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 1.0, 1.0]], f)),
            s('int', t([[3, 1, 2]], i32))), {}),
        ('FractionalMaxPool', 'nn.fractional_max_pool', cases(
            s('random', R((2, 7, 9, 2)), [1.0, 1.5, 1.7, 1.0], seed=5),
            s('pseudo-overlapping', R((1, 11, 6, 3), d), [1.0, 2.3, 1.4, 1.0],
              pseudo_random=True, overlapping=True, seed=17),
            s('scalar-ratio', t(np.arange(2 * 8 * 8 * 1).reshape(2, 8, 8, 1) % 7, i64), 1.6,
              overlapping=True, seed=3),
            s('ratio-invalid', R((1, 3, 3, 1)), [1.0, 4.0, 1.0, 1.0], seed=1)),
         {'ops': ('FractionalMaxPoolGrad',)}),
        ('FractionalAvgPool', 'nn.fractional_avg_pool', cases(
            s('random', R((2, 7, 9, 2)), [1.0, 1.5, 1.7, 1.0], seed=5),
            s('pseudo-overlapping', R((1, 11, 6, 3), d), [1.0, 2.3, 1.4, 1.0],
              pseudo_random=True, overlapping=True, seed=17)),
         {'ops': ('FractionalAvgPoolGrad',)}),
        ('ComputeAccidentalHits', 'nn.compute_accidental_hits', cases(
            s('random', t([[1, 2], [3, 1]], i64), t([1, 5, 1, 3], i64), 2),
            s('none', t([[7]], i64), t([1, 2], i64), 1)), {'grad': False}),
        ('nn.atrous_conv2d', 'nn.atrous_conv2d', cases(
            s('same', img, flt, 2, 'SAME'), s('valid', img, R((2, 2, 3, 4)), 2, 'VALID')), {}),
        ('nn.atrous_conv2d_transpose', 'nn.atrous_conv2d_transpose', cases(
            s('same', R((2, 5, 6, 4)), R((3, 3, 3, 4)), [2, 5, 6, 3], 2, 'SAME'),
            s('valid', R((2, 3, 4, 4)), R((2, 2, 3, 4)), [2, 5, 6, 3], 2, 'VALID')), {}),
        ('nn.depthwise_conv2d_backprop_input', 'nn.depthwise_conv2d_backprop_input', cases(
            s('random', [2, 5, 6, 3], R((3, 2, 3, 2)), R((2, 5, 6, 6)), [1, 1, 1, 1], 'SAME'),
            s('strided', [2, 5, 6, 3], R((2, 2, 3, 1)), R((2, 2, 3, 3)), [1, 2, 2, 1],
              'VALID')), {}),
        ('nn.depthwise_conv2d_backprop_filter', 'nn.depthwise_conv2d_backprop_filter', cases(
            s('random', img, [3, 2, 3, 2], R((2, 3, 3, 6)), [1, 2, 2, 1], 'SAME')), {}),
        ('nn.nce_loss', 'nn.nce_loss', cases(
            s('random', R((10, 4)), R((10,)), t([[1, 2], [3, 4], [5, 1]], i64), R((3, 4)), 4, 10,
              num_true=2, sampled_values=sampled),
            s('accidental-hits', R((10, 4), d), R((10,), d), t([[1], [3], [0]], i64),
              R((3, 4), d), 4, 10, sampled_values=sampled_one, remove_accidental_hits=True)),
         {}),
        ('nn.sampled_softmax_loss', 'nn.sampled_softmax_loss', cases(
            s('random', R((10, 4)), R((10,)), t([[1, 2], [3, 4], [5, 1]], i64), R((3, 4)), 4,
              10, num_true=2, sampled_values=sampled),
            s('kept-hits', R((10, 4)), R((10,)), t([[1], [3], [0]], i64), R((3, 4)), 4, 10,
              sampled_values=sampled, remove_accidental_hits=False)), {}),
        ('nn.collapse_repeated', 'nn.collapse_repeated', cases(
            s('random', t([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], i32), t([5, 3], i32))),
         {'grad': False}),
    ]
    return ([OpInfo(op, call, gen, 'array_more2', **kw) for op, call, gen, kw in array] +
            [OpInfo(op, call, gen, 'nn_more', **kw) for op, call, gen, kw in nn])


# Ops whose calls are programs rather than values (state, datasets, control flow, random
# streams, I/O), and the image, signal and string ops whose public calls other tests record
# from TensorFlow: checked against TensorFlow by the tests named here.
COVERED: dict[str, tuple[str, ...]] = {
    'tests/parity and tests/runtime/test_control_flow.py (control flow programs)': (
        'If', 'StatelessIf', 'While', 'StatelessWhile', 'Case', 'StatelessCase',
        'TensorListConcatV2', 'TensorListFromTensor', 'TensorListGather',
        'TensorListGetItem', 'TensorListLength', 'TensorListReserve',
        'TensorListScatterIntoExistingList', 'TensorListSetItem', 'TensorListSplit',
        'TensorListStack', 'Assert', 'PrintV2', 'NoOp', 'IdentityN'),
    'tests/runtime/test_state.py, tests/runtime/test_optimizers.py (variables)': (
        'VarHandleOp', 'ReadVariableOp', 'AssignVariableOp', 'AssignAddVariableOp',
        'AssignSubVariableOp', 'ResourceApplyAdam', 'ResourceApplyGradientDescent',
        'ResourceApplyKerasMomentum', 'ResourceScatterNdUpdate', 'ResourceStridedSliceAssign'),
    'tests/runtime/test_random_more.py (seeded determinism, moments, shapes, dtypes; '
    'StatelessMultinomial against TensorFlow-recorded numbers)': (
        'RandomGamma', 'RandomPoissonV2', 'RandomGammaGrad', 'StatelessRandomGammaV3',
        'StatelessRandomPoisson', 'StatelessRandomBinomial', 'StatelessMultinomial',
        'StatelessParameterizedTruncatedNormal', 'UniformCandidateSampler',
        'LogUniformCandidateSampler', 'LearnedUnigramCandidateSampler',
        'FixedUnigramCandidateSampler', 'AllCandidateSampler'),
    'tests/runtime/test_random_tf.py (random streams recorded from TensorFlow)': (
        'RandomStandardNormal', 'RandomUniform', 'RandomUniformInt', 'TruncatedNormal',
        'RandomShuffle', 'Multinomial', 'RngReadAndSkip', 'StatelessRandomGetKeyCounter',
        'StatelessRandomNormalV2', 'StatelessRandomUniformFullIntV2',
        'StatelessRandomUniformIntV2', 'StatelessRandomUniformV2',
        'StatelessTruncatedNormalV2', 'DummySeedGenerator'),
    'tests/runtime/data and tests/interop/test_tensorflow_data.py (datasets)': (
        'AnonymousIteratorV3', 'BatchDatasetV2', 'CacheDataset', 'ConcatenateDataset',
        'DatasetCardinality', 'DirectedInterleaveDataset', 'FilterDataset', 'FlatMapDataset',
        'GeneratorDataset', 'InterleaveDataset', 'IteratorGetNext',
        'IteratorGetNextAsOptional', 'MakeIterator', 'MapDataset', 'OptionalGetValue',
        'OptionalHasValue', 'OptionsDataset', 'PaddedBatchDatasetV2',
        'ParallelMapDatasetV2', 'PrefetchDataset', 'RangeDataset', 'ReduceDataset',
        'RepeatDataset', 'ScanDataset', 'ShardDataset', 'ShuffleDatasetV3', 'SkipDataset',
        'TakeDataset', 'TakeWhileDataset', 'TensorDataset', 'TensorSliceDataset',
        'TextLineDataset', 'UnbatchDataset', 'ZipDataset'),
    'tests/runtime/test_io_more.py (file datasets and transformations recorded from '
    'TensorFlow by tools/tf_io_more_fixtures.py)': (
        'TFRecordDatasetV2', 'FixedLengthRecordDatasetV2', 'AssertCardinalityDataset',
        'IgnoreErrorsDataset', 'UniqueDataset', 'DatasetToSingleElement', 'SqlDataset',
        'RandomDataset', 'GroupByWindowDataset', 'GroupByReducerDataset',
        'StringToHashBucketFast', 'EncodeWav', 'DecodeWav', 'CombinedNonMaxSuppression',
        'ExtractGlimpseV2', 'DecodeGif', 'SampleDistortedBoundingBoxV2',
        'StatelessSampleDistortedBoundingBox'),
    'tests/runtime/summary and tests/interop/test_tensorflow_summary.py (summaries)': (
        'SummaryWriter', 'FlushSummaryWriter', 'WriteSummary', 'WriteGraphSummary',
        'EncodePng'),
    'tests/runtime/test_execution.py (Python functions in graphs)': (
        'PyFunc', 'PyFuncStateless', 'EagerPyFunc'),
    'tests/runtime/graph (the structural ops of every graph)': (
        'Const', 'Placeholder', 'BroadcastGradientArgs'),
    'tests/runtime/test_tf_surface_calls.py (rt.image calls recorded from TensorFlow) and '
    'tests/runtime/test_gradients_registry.py (gradients against TensorFlow)': (
        'AdjustHue', 'AdjustSaturation', 'CropAndResize', 'CropAndResizeGradImage',
        'DrawBoundingBoxesV2', 'ExtractImagePatches', 'HSVToRGB', 'RGBToHSV',
        'NonMaxSuppressionV3', 'NonMaxSuppressionV4', 'NonMaxSuppressionV5',
        'NonMaxSuppressionWithOverlaps', 'ResizeBicubic', 'ResizeBicubicGrad', 'ResizeBilinear',
        'ResizeBilinearGrad', 'ResizeNearestNeighbor', 'ResizeNearestNeighborGrad'),
    'tests/runtime/test_tf_surface_calls.py (rt.signal calls recorded from TensorFlow) and '
    'tests/runtime/test_gradients_registry.py (gradients against TensorFlow)': (
        'FFT', 'FFT2D', 'FFT3D', 'FFTND', 'IFFT', 'IFFT2D', 'IFFT3D', 'IFFTND', 'RFFT', 'RFFT2D',
        'RFFT3D', 'RFFTND', 'IRFFT', 'IRFFT2D', 'IRFFT3D', 'IRFFTND'),
    'tests/runtime/test_tf_surface_calls.py (rt.io calls recorded from TensorFlow) '
    'and tests/runtime/test_io_files.py (files)': (
        'DecodeBase64', 'EncodeBase64', 'DecodeBmp', 'DecodeCSV', 'DecodeCompressed',
        'DecodeImage', 'DecodeJSONExample', 'DecodePng', 'ExtractJpegShape', 'MatchingFiles',
        'ParseExampleV2', 'ParseSequenceExampleV2', 'ParseTensor', 'SerializeTensor',
        'ReadFile', 'WriteFile'),
    'tests/runtime/test_tf_surface_calls.py (rt.strings calls recorded from TensorFlow)': (
        'StringNGrams', 'StringToHashBucket', 'StringToHashBucketStrong', 'UnicodeTranscode',
        'UnsortedSegmentJoin'),
    'tests/autograph/saved_model/test_tensorflow_variable_ops.py (TensorFlow graphs with '
    'variable row scatters, loaded and run) and tests/runtime/test_gradients_registry.py': (
        'ResourceGather', 'ResourceScatterAdd', 'ResourceScatterDiv', 'ResourceScatterMax',
        'ResourceScatterMin', 'ResourceScatterMul', 'ResourceScatterNdAdd',
        'ResourceScatterNdSub', 'ResourceScatterSub', 'ResourceScatterUpdate'),
    'tests/runtime/executor/test_native_registry.py (a clock: its value is compared with no '
    'recording)': ('Timestamp',),
    'tests/runtime/test_string_split.py and tests/interop (ragged string results)': (
        'StringSplit', 'StringSplitV2', 'UnicodeDecode', 'UnicodeDecodeWithOffsets',
        'UnicodeEncode', 'DecodeRaw', 'DecodePaddedRaw'),
}


def entries() -> list[OpInfo]:
    """Every entry: the sampled ones, then one per covered op."""
    sampled = (_unary_entries() + _binary_entries() + _reduction_entries() + _nn_entries()
               + _linalg_entries() + _array_entries() + _string_entries()
               + _bitwise_complex_entries() + _array_more_entries() + _special_entries()
               + _linalg_more_entries() + _core_more_entries())
    covered = [OpInfo(op, covered_by=where) for where, ops in COVERED.items() for op in ops]
    return sampled + covered


def families(all_entries: list[OpInfo]) -> dict[str, list[OpInfo]]:
    out: dict[str, list[OpInfo]] = {}
    for e in all_entries:
        if e.samples is not None:
            out.setdefault(e.family, []).append(e)
    return out
