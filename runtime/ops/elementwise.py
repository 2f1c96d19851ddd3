"""More elementwise math (`rt.math`): log1p, rsqrt, the inverse trig functions, erf, is_nan,
squared_difference, divide_no_nan, add_n, and the composites TensorFlow builds from them.

Each op sits in a table row with its gradient; the public functions are made by one factory, as
in `runtime.ops.math`.
"""
import math as pymath

import numpy as np

from runtime.core import dtypes
from runtime.ops.compare import logical_and, logical_not, logical_or, not_equal
from runtime.ops.convert import convert_to_tensor, unify_inputs, unify_operands
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import broadcast, same_as_input
from runtime.ops.math import (
    cast,
    divide,
    exp,
    log,
    negative,
    sigmoid,
    unary_function,
    zero_where_no_gradient,
)
from runtime.ops.reduce import unbroadcast
from runtime.ops.registry import NO_GRADIENT, register


def _vectorized(scalar_fn):
    """A numpy kernel from a `math` function (numpy has no erf/erfc/lgamma)."""
    ufunc = np.frompyfunc(scalar_fn, 1, 1)

    def kernel(x):
        return np.asarray(ufunc(x), dtype=np.asarray(x).dtype)[()]
    return kernel


def _bool_infer(inputs, attrs):
    return [(dtypes.bool, inputs[0].shape)]


_TWO_OVER_SQRT_PI = 2.0 / pymath.sqrt(pymath.pi)

_UNARY = {  # public name: (TensorFlow op, kernel, gradient(x, y, grad))
    'log1p': ('Log1p', np.log1p, lambda x, y, g: divide(g, 1.0 + x)),
    'expm1': ('Expm1', np.expm1, lambda x, y, g: g * exp(x)),
    # Reciprocal's and Rsqrt's gradients are 0 where grad is 0 (even where y is inf), as in
    # TensorFlow's ReciprocalGrad/RsqrtGrad.
    'reciprocal': ('Reciprocal', np.reciprocal,
                   lambda x, y, g: zero_where_no_gradient(g, negative(g) * y * y)),
    'rsqrt': ('Rsqrt', lambda x: 1 / np.sqrt(x),
              lambda x, y, g: zero_where_no_gradient(g, g * -0.5 * y * y * y)),
    'tan': ('Tan', np.tan, lambda x, y, g: g * (1.0 + y * y)),
    'asin': ('Asin', np.arcsin, lambda x, y, g: g * rsqrt(1.0 - x * x)),
    'acos': ('Acos', np.arccos, lambda x, y, g: negative(g) * rsqrt(1.0 - x * x)),
    'atan': ('Atan', np.arctan, lambda x, y, g: divide(g, 1.0 + x * x)),
    'asinh': ('Asinh', np.arcsinh, lambda x, y, g: g * rsqrt(x * x + 1.0)),
    'acosh': ('Acosh', np.arccosh, lambda x, y, g: g * rsqrt(x * x - 1.0)),
    'atanh': ('Atanh', np.arctanh, lambda x, y, g: divide(g, 1.0 - x * x)),
    'sinh': ('Sinh', np.sinh, lambda x, y, g: g * cosh(x)),
    'cosh': ('Cosh', np.cosh, lambda x, y, g: g * sinh(x)),
    'erf': ('Erf', _vectorized(pymath.erf),
            lambda x, y, g: g * _TWO_OVER_SQRT_PI * exp(negative(x * x))),
    'erfc': ('Erfc', _vectorized(pymath.erfc),
             lambda x, y, g: g * -_TWO_OVER_SQRT_PI * exp(negative(x * x))),
}


# How `jit_compile=True` writes them (OpDef.native): numpy ufuncs numba compiles.
_NATIVE = {'Log1p': 'np.log1p({0})', 'Expm1': 'np.expm1({0})', 'Reciprocal': '1 / {0}',
           'Rsqrt': '1 / np.sqrt({0})', 'Tan': 'np.tan({0})', 'Asin': 'np.arcsin({0})',
           'Acos': 'np.arccos({0})', 'Atan': 'np.arctan({0})', 'Asinh': 'np.arcsinh({0})',
           'Acosh': 'np.arccosh({0})', 'Atanh': 'np.arctanh({0})', 'Sinh': 'np.sinh({0})',
           'Cosh': 'np.cosh({0})', 'IsNan': 'np.isnan({0})', 'IsInf': 'np.isinf({0})',
           'IsFinite': 'np.isfinite({0})', 'SquaredDifference': '({0} - {1}) * ({0} - {1})',
           'Atan2': 'np.arctan2({0}, {1})', 'Softplus': 'np.logaddexp({0}, 0)',
           'Xlogy': 'select({0} == 0, 0, {0} * np.log({1}))',
           'Xdivy': 'select({0} == 0, 0, {0} / {1})',
           'MulNoNan': 'select({1} == 0, 0, {0} * {1})'}


def _unary_gradient(formula):
    def gradient(op, grad):
        return [formula(convert_to_tensor(op.inputs[0]), op.outputs[0], grad)]
    return gradient


UNARY_OPS = {name: register(op, kernel, same_as_input, gradient=_unary_gradient(formula),
                            native=_NATIVE.get(op))
             for name, (op, kernel, formula) in _UNARY.items()}
_PREDICATES = {'is_nan': ('IsNan', np.isnan), 'is_inf': ('IsInf', np.isinf),
               'is_finite': ('IsFinite', np.isfinite)}
PREDICATE_OPS = {name: register(op, kernel, _bool_infer, gradient=NO_GRADIENT,
                                native=_NATIVE[op])
                 for name, (op, kernel) in _PREDICATES.items()}


def _unary(public_name):
    opdef = UNARY_OPS.get(public_name) or PREDICATE_OPS[public_name]
    return unary_function(opdef, public_name, floats_only=True, namespace='rt.math')


log1p = _unary('log1p')
expm1 = _unary('expm1')
reciprocal = _unary('reciprocal')
rsqrt = _unary('rsqrt')
tan = _unary('tan')
asin = _unary('asin')
acos = _unary('acos')
atan = _unary('atan')
asinh = _unary('asinh')
acosh = _unary('acosh')
atanh = _unary('atanh')
sinh = _unary('sinh')
cosh = _unary('cosh')
erf = _unary('erf')
erfc = _unary('erfc')
is_nan = _unary('is_nan')
is_inf = _unary('is_inf')
is_finite = _unary('is_finite')


# ---- binary ------------------------------------------------------------------------------------

def _squared_difference_gradient(op, grad):
    x, y = (convert_to_tensor(t) for t in op.inputs)
    d = grad * (2.0 * (x - y)) if x.dtype.is_floating else grad
    return [unbroadcast(d, x), unbroadcast(negative(d), y)]


def _div_no_nan_kernel(x, y):
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(y == 0, np.zeros((), x.dtype), x / np.where(y == 0, 1, y)).astype(x.dtype)


def _div_no_nan_gradient(op, grad):
    x, y = (convert_to_tensor(t) for t in op.inputs)
    return [unbroadcast(div_no_nan(grad, y), x),
            unbroadcast(div_no_nan(negative(grad) * x, y * y), y)]


SQUARED_DIFFERENCE = register('SquaredDifference', lambda x, y: np.square(x - y), broadcast,
                              inputs=('x', 'y'), outputs=('z',), convert_inputs=unify_inputs,
                              gradient=_squared_difference_gradient,
                              native=_NATIVE['SquaredDifference'])
DIV_NO_NAN = register('DivNoNan', _div_no_nan_kernel, broadcast, inputs=('x', 'y'),
                      outputs=('z',), convert_inputs=unify_inputs, gradient=_div_no_nan_gradient)


def squared_difference(x, y, name=None):
    """`(x - y) ** 2` elementwise with broadcasting (op `SquaredDifference`)."""
    return apply(SQUARED_DIFFERENCE, (x, y), None, name)


def div_no_nan(x, y, name=None):
    """`x / y`, and 0 where `y` is 0 (op `DivNoNan`; floating dtypes)."""
    (x, y), dtype = unify_operands('DivNoNan', x, y)
    if not dtype.is_floating:
        raise TypeError(f'rt.math.divide_no_nan needs floating-point operands, got {dtype.name}.')
    return apply(DIV_NO_NAN, (x, y), None, name)


divide_no_nan = div_no_nan


def logical_xor(x, y, name=None):
    """Elementwise exclusive or of bools, built as TensorFlow builds it:
    `(x | y) & ~(x & y)` (ops `LogicalOr`, `LogicalAnd`, `LogicalNot`)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def truediv(x, y, name=None):
    """`x / y` (op `RealDiv`; integers are cast to floats first), as `rt.divide`."""
    return divide(x, y, name=name)


def _guarded(fn):
    """A numpy kernel whose 0/0 and log(0) are handled by a `where`, without warnings."""
    def kernel(x, y):
        with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
            return np.asarray(fn(x, y)).astype(x.dtype)[()]
    return kernel


def _operands(op):
    return [convert_to_tensor(t) for t in op.inputs]


def _atan2_gradient(op, grad):
    y, x = _operands(op)
    scale = divide(grad, x * x + y * y)
    return [unbroadcast(scale * x, y), unbroadcast(negative(scale) * y, x)]


def _xlogy_gradient(op, grad):
    x, y = _operands(op)
    nonzero = cast(not_equal(x, 0.0), x.dtype)
    return [unbroadcast(grad * nonzero * log(y), x), unbroadcast(grad * xdivy(x, y), y)]


def _xdivy_gradient(op, grad):
    x, y = _operands(op)
    nonzero = cast(not_equal(x, 0.0), x.dtype)
    return [unbroadcast(grad * nonzero / y, x),
            unbroadcast(grad * xdivy(negative(x), y * y), y)]


def _mul_no_nan_gradient(op, grad):
    x, y = _operands(op)
    return [unbroadcast(multiply_no_nan(grad, y), x), unbroadcast(multiply_no_nan(x, grad), y)]


_FLOAT_BINARY = {  # public name: (TensorFlow op, arg names, kernel, gradient)
    'atan2': ('Atan2', ('y', 'x'), np.arctan2, _atan2_gradient),
    'xlogy': ('Xlogy', ('x', 'y'), _guarded(lambda x, y: np.where(x == 0, 0, x * np.log(y))),
              _xlogy_gradient),
    'xdivy': ('Xdivy', ('x', 'y'), _guarded(lambda x, y: np.where(x == 0, 0, x / y)),
              _xdivy_gradient),
    'multiply_no_nan': ('MulNoNan', ('x', 'y'), _guarded(lambda x, y: np.where(y == 0, 0, x * y)),
                        _mul_no_nan_gradient),
}
FLOAT_BINARY_OPS = {name: register(op, kernel, broadcast, inputs=args, outputs=('z',),
                                   convert_inputs=unify_inputs, gradient=gradient,
                                   native=_NATIVE.get(op))
                    for name, (op, args, kernel, gradient) in _FLOAT_BINARY.items()}


def _float_binary(public_name):
    opdef = FLOAT_BINARY_OPS[public_name]

    def binary(x, y, name=None):
        (x, y), dtype = unify_operands(opdef.name, x, y)
        if not dtype.is_floating:
            raise TypeError(f'rt.math.{public_name} needs floating-point operands, got '
                            f'{dtype.name}.')
        return apply(opdef, (x, y), None, name)
    return op_function(binary, public_name, f'Elementwise {public_name} with broadcasting (op '
                                            f'`{opdef.name}`).')


atan2 = _float_binary('atan2')
xlogy = _float_binary('xlogy')
xdivy = _float_binary('xdivy')
multiply_no_nan = _float_binary('multiply_no_nan')


# ---- AddN --------------------------------------------------------------------------------------

def _add_n_kernel(*values, N=None):
    out = values[0].copy() if isinstance(values[0], np.ndarray) else values[0]
    for v in values[1:]:
        out = out + v
    return out


def _add_n_infer(inputs, attrs):
    shape = inputs[0].shape
    for t in inputs[1:]:
        if not shape.is_compatible_with(t.shape):
            raise ValueError(f'add_n: all inputs must have one shape, got {inputs[0].shape} and '
                             f'{t.shape}')
        shape = shape.merge_with(t.shape)
    return [(inputs[0].dtype, shape)]


ADD_N = register('AddN', _add_n_kernel, _add_n_infer, inputs=('inputs',), outputs=('sum',),
                 convert_inputs=unify_inputs,
                 gradient=lambda op, grad: [grad] * len(op.inputs))


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (op `AddN`)."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError('rt.math.add_n needs at least one input.')
    if len(inputs) == 1:
        return convert_to_tensor(inputs[0])
    inputs = [convert_to_tensor(t) if not hasattr(t, 'dtype') else t for t in inputs]
    return apply(ADD_N, inputs, {'N': len(inputs)}, name=name)


# ---- softplus ----------------------------------------------------------------------------------

def _softplus_kernel(features):
    return np.logaddexp(features, np.zeros((), features.dtype)).astype(features.dtype)


SOFTPLUS = register('Softplus', _softplus_kernel, same_as_input, inputs=('features',),
                    outputs=('activations',),
                    gradient=lambda op, grad: [grad * sigmoid(op.inputs[0])],
                    native=_NATIVE['Softplus'])
softplus = unary_function(SOFTPLUS, 'softplus', floats_only=True, namespace='rt.math',
                          doc='`log(exp(x) + 1)`, computed stably (op `Softplus`).')


def log_sigmoid(x, name=None):
    """`log(sigmoid(x))`, computed stably as TensorFlow does: `-softplus(-x)`."""
    return negative(softplus(negative(x)), name=name)
