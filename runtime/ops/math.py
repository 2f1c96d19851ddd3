"""Elementwise arithmetic, unary math and matmul (`cast` lives in runtime.ops.array)."""
import operator

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, Tensor
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor, unify_inputs, unify_operands
from runtime.ops.dispatch import apply, binary_op_function, op_function, refused_dtype
from runtime.ops.infer import broadcast, broadcast_shape, same_as_input
from runtime.ops.registry import ELEMENTWISE, NUMBERS, NUMERIC, Elementwise, register

# The `operator` functions are numpy's ufuncs for arrays and take numpy's fast scalar path for
# numpy scalars; the `operator` tag lets the code generator write them as infix operators.
# The dtypes each accepts are TensorFlow's (runtime/ops/allowed_dtypes.py), but AddV2 takes
# strings too (TensorFlow's tf.add writes an Add op for them), and TensorList values
# (variant), which gradients through TensorArrays accumulate.
_BINARY = {  # public name: (TensorFlow op, kernel, Python operator, neutral)
    'add': ('AddV2', operator.add, operator.add, (0, (0, 1))),
    'subtract': ('Sub', operator.sub, operator.sub, (0, (1,))),
    'multiply': ('Mul', operator.mul, operator.mul, (1, (0, 1))),
    'floordiv': ('FloorDiv', operator.floordiv, operator.floordiv, None),
    'mod': ('FloorMod', operator.mod, operator.mod, None),
    'pow': ('Pow', operator.pow, operator.pow, None),
    'maximum': ('Maximum', np.maximum, None, None),
    'minimum': ('Minimum', np.minimum, None, None),
}
_ADD_TAKES = NUMBERS | {dtypes.string, dtypes.variant}
_DIVISIONS = {'floordiv', 'mod'}  # integer division by zero is an error, as in TensorFlow
REAL_DIV = register('RealDiv', operator.truediv, broadcast, inputs=('x', 'y'), outputs=('z',),
                    operator=operator.truediv, elementwise=ELEMENTWISE, neutral=(1, (1,)))
OPS = {name: register(op, kernel, broadcast, inputs=('x', 'y'), outputs=('z',),
                      convert_inputs=unify_inputs, operator=python_operator, neutral=neutral,
                      nonzero=(1,) if name in _DIVISIONS else (),
                      elementwise=Elementwise.of(kernel),
                      **({'dtypes': _ADD_TAKES} if op == 'AddV2' else {}))
       for name, (op, kernel, python_operator, neutral) in _BINARY.items()}


def _binary_function(public_name, default_name=None):
    opdef = OPS[public_name]
    return binary_op_function(
        opdef, public_name, f'Elementwise {public_name} with broadcasting (op `{opdef.name}`).',
        default_name)


add = _binary_function('add')
subtract = _binary_function('subtract')
multiply = _binary_function('multiply')
floordiv = _binary_function('floordiv')
mod = _binary_function('mod')
pow = _binary_function('pow')  # noqa: A001 - rt.pow, as in TensorFlow
maximum = _binary_function('maximum')
minimum = _binary_function('minimum')

# Integer true division gives floats, as in TensorFlow (the narrow ints go to float32).
_TRUEDIV_DTYPE = {dtypes.int8: dtypes.float32, dtypes.uint8: dtypes.float32,
                  dtypes.int16: dtypes.float32, dtypes.int32: dtypes.float64,
                  dtypes.int64: dtypes.float64}


def divide(x, y, name=None):
    """`x / y` (op `RealDiv`); integer operands are cast to float first."""
    inputs, dtype = unify_operands('RealDiv', x, y)
    if dtype is dtypes.bool:  # as TensorFlow's `/`: refused before any op is made
        raise TypeError('Invalid dtype bool in `/` (rt.divide): divide numbers; use rt.cast '
                        'to convert bools first.')
    target = _TRUEDIV_DTYPE.get(dtype)
    if target is not None:
        inputs = [cast(v, target) if isinstance(v, Tensor) else v.astype(target.np_dtype)
                  for v in inputs]
    return apply(REAL_DIV, inputs, name=name)


# The forms Python's operators call (installed by runtime.ops.operators): the same ops, with
# the node names TensorFlow's operators give them (`x + y` is an AddV2 node named "add").
def _truediv_operator(x, y):
    return divide(x, y, name='truediv')


def _matmul_operator(a, b):
    return matmul(a, b, name='matmul')


_MUL = OPS['multiply']


def _multiply_operator(x, y):
    """`x * y`. Mul refuses bools, but TensorFlow's `*` multiplies them as int32 (Cast, Mul,
    Cast back): their logical and."""
    try:
        return apply(_MUL, (x, y), None, 'mul')  # as rt.multiply, without its frame
    except (errors.InvalidArgumentError, TypeError) as e:
        if dtypes.bool not in (getattr(x, 'dtype', None), getattr(y, 'dtype', None)):
            raise
        refused = e
    try:
        x, y = (cast(convert_to_tensor(v, dtypes.bool), dtypes.int32) for v in (x, y))
    except (TypeError, ValueError):
        raise refused from None
    return cast(apply(_MUL, (x, y), None, 'mul'), dtypes.bool)


OPERATORS = {
    'add': _binary_function('add', 'add'), 'sub': _binary_function('subtract', 'sub'),
    'mul': _multiply_operator, 'truediv': _truediv_operator,
    'floordiv': _binary_function('floordiv', 'floordiv'), 'mod': _binary_function('mod', 'mod'),
    'pow': _binary_function('pow', 'pow'), 'matmul': _matmul_operator,
}


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _relu(x):
    return np.maximum(x, 0)


def _relu_grad_kernel(gradients, features):
    return gradients * (features > 0)


RELU_GRAD = register('ReluGrad', _relu_grad_kernel, same_as_input,
                     inputs=('gradients', 'features'), outputs=('backprops',),
                     elementwise=ELEMENTWISE)


_UNARY = {  # public name: (TensorFlow op, kernel, floats only (complex numbers also serve))
    'negative': ('Neg', operator.neg, False),  # operator and involution: registered below
    'abs': ('Abs', np.abs, False),
    'square': ('Square', np.square, False),
    'sign': ('Sign', np.sign, False),
    'relu': ('Relu', _relu, False),
    'round': ('Round', np.round, False),
    'sqrt': ('Sqrt', np.sqrt, True),
    'exp': ('Exp', np.exp, True),
    'log': ('Log', np.log, True),
    'sin': ('Sin', np.sin, True),
    'cos': ('Cos', np.cos, True),
    'tanh': ('Tanh', np.tanh, True),
    'sigmoid': ('Sigmoid', _sigmoid, True),
    'floor': ('Floor', np.floor, True),
    'ceil': ('Ceil', np.ceil, True),
}
# TensorFlow's arg names where they are not `x` and `y` (FunctionDefs refer to outputs by them)
_ARG_NAMES = {'Relu': {'inputs': ('features',), 'outputs': ('activations',)}}
UNARY_OPS = {name: register(op, kernel, same_as_input,
                            operator=operator.neg if op == 'Neg' else None,
                            involution=op == 'Neg', elementwise=Elementwise.of(kernel),
                            **_ARG_NAMES.get(op, {}))
             for name, (op, kernel, _) in _UNARY.items()}


def unary_function(opdef, public_name, floats_only, namespace='rt', doc=None, arg='x'):
    """The public function `<namespace>.<public_name>(x, name=None)` running unary `opdef`;
    `floats_only`: a non-floating `x` is a TypeError. `arg` is TensorFlow's name of the
    parameter (`features` for relu and softplus)."""
    def unary(x, name=None):
        x = convert_to_tensor(x)
        if floats_only and not (x.dtype.is_floating or x.dtype.is_complex and
                                opdef.dtypes is not None and x.dtype in opdef.dtypes):
            raise refused_dtype(f'{namespace}.{public_name} needs a floating-point tensor, got '
                                f'{x.dtype.name}; use rt.cast(x, rt.float32) first.', x)
        return apply(opdef, [x], name=name)
    if arg != 'x':  # the parameter renamed in the code object: no wrapper on the call path
        unary.__code__ = unary.__code__.replace(
            co_varnames=(arg,) + unary.__code__.co_varnames[1:])
    return op_function(unary, public_name,
                       doc or f'Elementwise {public_name} (op `{opdef.name}`).')


def _unary_function(public_name):
    return unary_function(UNARY_OPS[public_name], public_name, _UNARY[public_name][2],
                          arg='features' if public_name == 'relu' else 'x')


negative = _unary_function('negative')
abs = _unary_function('abs')  # noqa: A001
square = _unary_function('square')
sign = _unary_function('sign')
relu = _unary_function('relu')
round = _unary_function('round')  # noqa: A001
sqrt = _unary_function('sqrt')
exp = _unary_function('exp')
log = _unary_function('log')
sin = _unary_function('sin')
cos = _unary_function('cos')
tanh = _unary_function('tanh')
sigmoid = _unary_function('sigmoid')
floor = _unary_function('floor')
ceil = _unary_function('ceil')


CLIP = register('ClipByValue', np.clip, same_as_input,
                inputs=('t', 'clip_value_min', 'clip_value_max'), outputs=('output',),
                convert_inputs=unify_inputs, elementwise=ELEMENTWISE, dtypes=NUMERIC)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return apply(CLIP, (t, clip_value_min, clip_value_max), name=name)


# ---- matmul -----------------------------------------------------------------------------------

def _matmul_kernel(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.T
    if transpose_b:
        b = b.T
    return np.matmul(a, b)


def _batch_matmul_kernel(x, y, adj_x=False, adj_y=False):
    if adj_x:
        x = np.swapaxes(x, -1, -2)
    if adj_y:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


def _matmul_infer(inputs, attrs):
    a, b = (t.shape for t in inputs)
    if a.rank is not None and a.rank != 2 or b.rank is not None and b.rank != 2:
        raise ValueError(f'MatMul needs rank-2 inputs, got shapes {a} and {b}')
    m, k = (a[1], a[0]) if attrs.get('transpose_a') else (a[0], a[1]) if a.rank else (None, None)
    k2, n = (b[1], b[0]) if attrs.get('transpose_b') else (b[0], b[1]) if b.rank else (None, None)
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f'Matrix size-incompatible: In[0]: {a}, In[1]: {b}')
    return [(inputs[0].dtype, TensorShape([m, n]))]


def _batch_matmul_infer(inputs, attrs):
    a, b = (t.shape for t in inputs)
    if a.rank is None or b.rank is None:
        return [(inputs[0].dtype, TensorShape(None))]
    da, db = a.as_list(), b.as_list()
    if attrs.get('adj_x'):
        da[-2:] = da[-2:][::-1]
    if attrs.get('adj_y'):
        db[-2:] = db[-2:][::-1]
    if da[-1] is not None and db[-2] is not None and da[-1] != db[-2]:
        raise ValueError(f'Matrix size-incompatible: In[0]: {a}, In[1]: {b}')
    batch = broadcast_shape(TensorShape(da[:-2]), TensorShape(db[:-2])).as_list()
    return [(inputs[0].dtype, TensorShape(batch + [da[-2], db[-1]]))]


def _matmul_cost(input_specs, output_specs):
    """Multiply-adds: every element of `a` meets each of the N output columns.

    Float products run in the BLAS library, which already spreads one product over every core,
    so they offer no work to run in parallel with others (measured: no gain, a little loss).
    """
    (dtype, a), (_, out) = input_specs[0], output_specs[0]
    if dtype.is_floating or not a.is_fully_defined() or out.rank is None or out[-1] is None:
        return None
    return a.num_elements() * out[-1]


MATMUL = register('MatMul', _matmul_kernel, _matmul_infer, inputs=('a', 'b'),
                  outputs=('product',), defaults={'transpose_a': False, 'transpose_b': False},
                  cost=_matmul_cost, convert_inputs=unify_inputs, operator=operator.matmul)
BATCH_MATMUL = register('BatchMatMulV2', _batch_matmul_kernel, _batch_matmul_infer,
                        inputs=('x', 'y'), outputs=('output',),
                        defaults={'adj_x': False, 'adj_y': False}, cost=_matmul_cost,
                        convert_inputs=unify_inputs, operator=operator.matmul)


def _read(operand):
    """A Variable operand's current value (TensorFlow's tensor-conversion protocol, as
    `unify_operands` converts it), so `x @ w` takes the fast path; any other as it is."""
    if isinstance(operand, Tensor):
        return operand
    as_tensor = getattr(operand, '__tf_tensor__', None)
    return operand if as_tensor is None else as_tensor()


_TRANSPOSED = {(True, False): {'transpose_a': True}, (False, True): {'transpose_b': True},
               (True, True): {'transpose_a': True, 'transpose_b': True}}


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Matrix product (op `MatMul`; `BatchMatMulV2` when an input has rank above 2).
    `adjoint_a`/`adjoint_b` transpose real matrices (complex ones are not supported there);
    the sparsity and gradient hints change nothing; `output_type` must be the inputs' dtype."""
    if adjoint_a or adjoint_b or output_type is not None:
        return _matmul_options(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b,
                               output_type, name)
    if type(a) is not EagerTensor:
        a = _read(a)
    if type(b) is not EagerTensor:
        b = _read(b)
    plain = False
    if type(a) is EagerTensor and type(b) is EagerTensor:  # the hot case: two eager matrices
        try:
            plain = a.value.ndim == 2 == b.value.ndim
        except AttributeError:  # a scalar string holds `bytes`
            pass
    if plain:
        if transpose_a or transpose_b:  # as below (gradients transpose)
            return apply(MATMUL, (a, b), _TRANSPOSED[bool(transpose_a), bool(transpose_b)], name)
        return apply(MATMUL, (a, b), None, name)
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        (a, b), _ = unify_operands('MatMul', a, b)
    ranks = [a.ndim if isinstance(a, Tensor) else np.ndim(a),
             b.ndim if isinstance(b, Tensor) else np.ndim(b)]
    if ranks[0] == 2 and ranks[1] == 2:
        attrs = None
        if transpose_a or transpose_b:
            attrs = {'transpose_a': True} if transpose_a else {}
            if transpose_b:
                attrs['transpose_b'] = True
        return apply(MATMUL, (a, b), attrs, name)
    if 1 in ranks or 0 in ranks:
        raise ValueError(f'rt.matmul needs inputs of rank 2 or more, got ranks {ranks}.')
    attrs = {}
    if transpose_a:
        attrs['adj_x'] = True
    if transpose_b:
        attrs['adj_y'] = True
    return apply(BATCH_MATMUL, (a, b), attrs, name=name)


def _matmul_options(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, output_type, name):
    (a, b), dtype = unify_operands('MatMul', a, b)
    if (adjoint_a or adjoint_b) and dtype.is_complex:
        raise NotImplementedError('matmul(adjoint_a/adjoint_b=True) of complex matrices is not '
                                  'supported; the adjoint of a real matrix is its transpose.')
    if output_type is not None and dtypes.as_dtype(output_type) is not dtype:
        raise NotImplementedError(f'matmul(output_type={output_type!r}) of {dtype.name} inputs '
                                  f'is not supported: the product has the inputs\' dtype.')
    return matmul(a, b, bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b),
                  name=name)
