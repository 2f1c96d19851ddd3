"""How native code writes one element of an elementwise op (and the op on whole arrays, which
numba's numpy support compiles): a `Form` per op, from its tags on the OpDef or registered
here with `@writes(opdef, ...)` where the tags do not say it.

- an op with the `operator` tag is its Python operator (`a < b`, `-a`);
- an op whose `elementwise` tag names a ufunc is that ufunc (`np.tanh(a)`), which numba
  compiles;
- the others (compositions such as `Sigmoid`, and ops whose helper has a scalar twin) are
  the functions below.

A form's function takes the operands' sources and `scalar` (True when they are scalars: the
elements of a loop, or rank-0 values), then the attrs it names, and returns the source.
native/rules/elementwise.py writes the loops around them.
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np

from runtime.ops import array, compare, creation, elementwise, math, nn
from runtime.ops.registry import IDENTITY, PYTHON_OPERATORS, OpDef


@dataclass(frozen=True, slots=True)
class Form:
    """`write(*operands, scalar=..., **attrs) -> source`; `attrs`: the attrs it reads (as
    literals); `keeps_dtype`: on operands of the result's dtype numba's result has that dtype
    too (no number literal in it widens an array to int64 or float64); `float32`: how one
    float32 element is written where that differs (`exp_f32(a)`: native/vmath.py's forms,
    which loops vectorize), else None; `float64` the same for float64 elements (`exp_f64(a)`);
    `raises`: it may raise (an integer division by zero): a loop computing it is not shared
    with the helper thread (native/team.py), which could not stop the caller's loop."""
    write: Callable[..., str]
    attrs: tuple[str, ...] = ()
    keeps_dtype: bool = True
    float32: Callable[..., str] | None = None
    float64: Callable[..., str] | None = None
    raises: bool = False


_WRITTEN: dict[OpDef, Form] = {}  # OpDef -> its Form, where its tags do not give it


def writes(*opdefs: OpDef, attrs: tuple[str, ...] = (), keeps_dtype: bool = True,
           float32: Callable[..., str] | None = None, float64: Callable[..., str] | None = None,
           raises: bool = False) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Register the decorated function as the form of `opdefs`."""
    def register(write: Callable[..., str]) -> Callable[..., str]:
        for opdef in opdefs:
            if opdef in _WRITTEN:
                raise ValueError(f'{opdef.name} has two native forms')
            _WRITTEN[opdef] = Form(write, attrs, keeps_dtype, float32, float64, raises)
        return write
    return register


# ufuncs whose float32 and float64 elements native/vmath.py computes (vectorizable: its own
# forms, or libm calls that loops vectorize with libmvec's SIMD variants)
_VECTOR_MATH = (np.exp, np.tanh, np.log, np.sin, np.cos)


def form_of(opdef: OpDef) -> Form | None:
    """The op's Form: its registered one, else from its `operator` or `elementwise` tag, else
    None (an op native code writes with a rule of its own, or by calling its kernel)."""
    form = _WRITTEN.get(opdef)
    if form is not None or opdef.elementwise is None:
        return form
    if opdef.operator is not None:
        return operator_form(opdef)
    ufunc = opdef.elementwise.ufunc
    if ufunc is not None:
        name = ufunc.__name__
        vector = ufunc in _VECTOR_MATH
        return Form(lambda *operands, scalar: f'np.{name}({", ".join(operands)})',
                    float32=(lambda x: f'{name}_f32({x})') if vector else None,
                    float64=(lambda x: f'{name}_f64({x})') if vector else None)
    return None


def operator_form(opdef: OpDef) -> Form:
    """The Form of an op with the `operator` tag: the operator on its operands."""
    assert opdef.operator is not None
    python = PYTHON_OPERATORS[opdef.operator]
    return Form(lambda *operands, scalar: python.expression(*operands))


def _helper(name: str, scalar: bool) -> str:
    """A helper of native/helpers.py that serves arrays and scalars (an overload, which numba
    compiles anew in every process), or in scalar code its scalar twin (`select_scalar`),
    compiled once per machine."""
    return f'{name}_scalar' if scalar else name


@writes(elementwise.ADD_N)
def _add_n(*operands: str, scalar: bool) -> str:
    """The operands added in order, as AddN's kernel adds them."""
    return '(' * (len(operands) - 1) + operands[0] + ''.join(f' + {x})' for x in operands[1:])


@writes(math.OPS['floordiv'], raises=True)
def _floordiv(x: str, y: str, scalar: bool) -> str:
    return f'{_helper("floordiv", scalar)}({x}, {y})'


@writes(math.OPS['mod'], raises=True)
def _floormod(x: str, y: str, scalar: bool) -> str:
    return f'{_helper("floormod", scalar)}({x}, {y})'


@writes(compare.SELECT)
def _select(condition: str, x: str, y: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({condition}, {x}, {y})'


@writes(creation.ZEROS_LIKE)  # a scalar: 0, cast to the dtype (`x - x` is NaN for inf)
def _zeros_like(x: str, scalar: bool) -> str:
    return '0' if scalar else f'zeros_like({x})'


@writes(creation.ONES_LIKE)
def _ones_like(x: str, scalar: bool) -> str:
    return '1' if scalar else f'ones_like({x})'


@writes(IDENTITY, array.CAST)  # the emitter casts every result to its dtype
def _same(x: str, scalar: bool) -> str:
    return x


@writes(math.UNARY_OPS['square'])
def _square(x: str, scalar: bool) -> str:
    return f'{x} * {x}'


@writes(math.UNARY_OPS['relu'], keeps_dtype=False)
def _relu(x: str, scalar: bool) -> str:
    return f'np.maximum({x}, 0)'


@writes(math.UNARY_OPS['round'])
def _round(x: str, scalar: bool) -> str:
    return f'np.rint({x})'


@writes(math.UNARY_OPS['sigmoid'], keeps_dtype=False,
        float32=lambda x: f'np.float32(1) / (np.float32(1) + exp_f32(-{x}))',
        float64=lambda x: f'1.0 / (1.0 + exp_f64(-{x}))')
def _sigmoid(x: str, scalar: bool) -> str:
    return f'1 / (1 + np.exp(-{x}))'


@writes(math.CLIP)
def _clip(x: str, low: str, high: str, scalar: bool) -> str:
    return f'np.minimum(np.maximum({x}, {low}), {high})'


@writes(math.RELU_GRAD, keeps_dtype=False)
def _relu_grad(gradients: str, features: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({features} > 0, {gradients}, 0)'


@writes(elementwise.UNARY_OPS['reciprocal'], keeps_dtype=False)
def _reciprocal(x: str, scalar: bool) -> str:
    return f'1 / {x}'


@writes(elementwise.UNARY_OPS['rsqrt'], keeps_dtype=False)
def _rsqrt(x: str, scalar: bool) -> str:
    return f'1 / np.sqrt({x})'


@writes(elementwise.SQUARED_DIFFERENCE)
def _squared_difference(x: str, y: str, scalar: bool) -> str:
    return f'({x} - {y}) * ({x} - {y})'


@writes(elementwise.SOFTPLUS, keeps_dtype=False)
def _softplus(x: str, scalar: bool) -> str:
    return f'np.logaddexp({x}, 0)'


@writes(elementwise.FLOAT_BINARY_OPS['xlogy'], keeps_dtype=False)
def _xlogy(x: str, y: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({x} == 0, 0, {x} * np.log({y}))'


@writes(elementwise.FLOAT_BINARY_OPS['xdivy'], keeps_dtype=False)
def _xdivy(x: str, y: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({x} == 0, 0, {x} / {y})'


@writes(elementwise.FLOAT_BINARY_OPS['multiply_no_nan'], keeps_dtype=False)
def _mul_no_nan(x: str, y: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({y} == 0, 0, {x} * {y})'


@writes(nn.ACTIVATION_OPS['relu6'], keeps_dtype=False)
def _relu6(x: str, scalar: bool) -> str:
    return f'np.minimum(np.maximum({x}, 0), 6)'


@writes(nn.ACTIVATION_OPS['softsign'], keeps_dtype=False)
def _softsign(x: str, scalar: bool) -> str:
    return f'{x} / (1 + np.abs({x}))'


@writes(nn.ACTIVATION_OPS['elu'], keeps_dtype=False)
def _elu(x: str, scalar: bool) -> str:
    return f'{_helper("select", scalar)}({x} > 0, {x}, np.expm1({x}))'


@writes(nn.LEAKY_RELU, attrs=('alpha',), keeps_dtype=False)
def _leaky_relu(x: str, scalar: bool, alpha: str) -> str:
    return f'{_helper("select", scalar)}({x} > 0, {x}, {x} * {alpha})'
