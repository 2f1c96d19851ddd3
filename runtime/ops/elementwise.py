"""More elementwise math (`rt.math`): log1p, rsqrt, the inverse trig functions, erf, is_nan,
squared_difference, divide_no_nan, add_n, and the composites TensorFlow builds from them.

Each op is a table row; the public functions are made by one factory, as in `runtime.ops.math`.
Their gradients are in runtime/gradients/rules/math.py.
"""
import math as pymath

import numpy as np

from runtime.core import dtypes
from runtime.ops.compare import logical_and, logical_not, logical_or
from runtime.ops.convert import convert_to_tensor, unify_inputs, unify_operands
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import broadcast, same_as_input
from runtime.ops.math import divide, negative, unary_function
from runtime.ops.registry import ELEMENTWISE, Elementwise, register


def _vectorized(scalar_fn):
    """A numpy kernel from a `math` function (numpy has no erf/erfc/lgamma)."""
    ufunc = np.frompyfunc(scalar_fn, 1, 1)

    def kernel(x):
        return np.asarray(ufunc(x), dtype=np.asarray(x).dtype)[()]
    return kernel


def _bool_infer(inputs, attrs):
    return [(dtypes.bool, inputs[0].shape)]

_UNARY = {  # public name: (TensorFlow op, kernel)
    'log1p': ('Log1p', np.log1p),
    'expm1': ('Expm1', np.expm1),
    'reciprocal': ('Reciprocal', np.reciprocal),
    'rsqrt': ('Rsqrt', lambda x: 1 / np.sqrt(x)),
    'tan': ('Tan', np.tan),
    'asin': ('Asin', np.arcsin),
    'acos': ('Acos', np.arccos),
    'atan': ('Atan', np.arctan),
    'asinh': ('Asinh', np.arcsinh),
    'acosh': ('Acosh', np.arccosh),
    'atanh': ('Atanh', np.arctanh),
    'sinh': ('Sinh', np.sinh),
    'cosh': ('Cosh', np.cosh),
    'erf': ('Erf', _vectorized(pymath.erf)),
    'erfc': ('Erfc', _vectorized(pymath.erfc)),
}


_PER_ELEMENT_KERNEL = ('Erf', 'Erfc')  # math's functions per element: the backends call them
UNARY_OPS = {name: register(op, kernel, same_as_input, elementwise=None
                            if op in _PER_ELEMENT_KERNEL else Elementwise.of(kernel))
             for name, (op, kernel) in _UNARY.items()}
_PREDICATES = {'is_nan': ('IsNan', np.isnan), 'is_inf': ('IsInf', np.isinf),
               'is_finite': ('IsFinite', np.isfinite)}
PREDICATE_OPS = {name: register(op, kernel, _bool_infer, elementwise=Elementwise.of(kernel))
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

def _div_no_nan_kernel(x, y):
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(y == 0, np.zeros((), x.dtype), x / np.where(y == 0, 1, y)).astype(x.dtype)


SQUARED_DIFFERENCE = register('SquaredDifference', lambda x, y: np.square(x - y), broadcast,
                              inputs=('x', 'y'), outputs=('z',), convert_inputs=unify_inputs,
                              elementwise=ELEMENTWISE)
DIV_NO_NAN = register('DivNoNan', _div_no_nan_kernel, broadcast, inputs=('x', 'y'),
                      outputs=('z',), convert_inputs=unify_inputs)


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


_FLOAT_BINARY = {  # public name: (TensorFlow op, arg names, kernel)
    'atan2': ('Atan2', ('y', 'x'), np.arctan2),
    'xlogy': ('Xlogy', ('x', 'y'), _guarded(lambda x, y: np.where(x == 0, 0, x * np.log(y)))),
    'xdivy': ('Xdivy', ('x', 'y'), _guarded(lambda x, y: np.where(x == 0, 0, x / y))),
    'multiply_no_nan': ('MulNoNan', ('x', 'y'), _guarded(lambda x, y: np.where(y == 0, 0, x * y))),
}
FLOAT_BINARY_OPS = {name: register(op, kernel, broadcast, inputs=args, outputs=('z',),
                                   convert_inputs=unify_inputs,
                                   elementwise=Elementwise.of(kernel))
                    for name, (op, args, kernel) in _FLOAT_BINARY.items()}


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


_atan2 = _float_binary('atan2')


def atan2(y, x, name=None):
    """The angle of the point (x, y) elementwise, `arctan(y / x)` in the right quadrant (op
    `Atan2`)."""
    return _atan2(y, x, name)
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
                 convert_inputs=unify_inputs)


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
                    outputs=('activations',), elementwise=ELEMENTWISE)
softplus = unary_function(SOFTPLUS, 'softplus', floats_only=True, namespace='rt.math',
                          doc='`log(exp(x) + 1)`, computed stably (op `Softplus`).',
                          arg='features')


def log_sigmoid(x, name=None):
    """`log(sigmoid(x))`, computed stably as TensorFlow does: `-softplus(-x)`."""
    return negative(softplus(negative(x)), name=name)
