"""Tensor arguments, samples, entries and the builders that write samples from a description."""
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


@dataclass(frozen=True)
class DType:
    """A dtype argument (`dtype=`, `out_type=`): resolved to the library's dtype by name."""
    name: str
