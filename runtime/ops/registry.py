"""The op registry: every op is declared once, as data, and everything else reads it.

An `OpDef` gives TensorFlow's op type name, the names of its input and output args (for naming
converted constants like `Greater/y` and for FunctionDef's `node:out_arg:index`), the attrs that
take their type from an input (`T`), shape/dtype inference, the numpy kernel and whether the op
is stateful. `apply` runs the kernel at once when executing eagerly, or adds an Operation to the
graph being built. The executor, GraphDef output and the optimizer read the same OpDefs.
"""
import numpy as np

from runtime import context, dtypes, errors
from runtime.shapes import TensorShape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

REGISTRY = {}


class OpDef:
    """One op type.

    kernel(*input_values, **attrs) -> value, or a tuple of values when the op has several
    outputs. It takes the op's attrs as keywords, except type attrs like `T` and `_`-prefixed
    metadata; `defaults` are the attrs a graph node records when the caller left them out (the
    kernel's keyword defaults are the same values).
    infer(inputs, attrs) -> [(dtype, shape)] for each output, from the input tensors.
    compile_kernel(attrs, payload) -> callable(*input_values): for ops whose kernel needs the
    node's payload (a variable's storage, a random generator); eager calls use it too.
    structured: 'if' or 'while' for control flow, which the executor lowers to a Python
    `if`/`while` around the code of the library functions named in the attrs.
    cost(input_specs, output_specs) -> estimated parallelizable work in flops (None: none or
    unknown), from (dtype, shape) pairs; ops without one cost their output size. The executor uses it to decide what runs in parallel.
    native: how `jit_compile=True` writes the op in numba-compiled code: a Python expression
    template over the inputs `{0}`, `{1}`... and attrs `{name}`, which may call numpy and the
    helpers of runtime/executor/native/helpers.py; None: no native lowering (unless the native
    backend lowers the op itself, see runtime/executor/native/lower.py).
    """

    __slots__ = ('name', 'kernel', 'infer', 'inputs', 'outputs', 'type_attrs', 'defaults',
                 'stateful', 'compile_kernel', 'structured', 'foldable', 'cost', 'native')

    def __init__(self, name, kernel=None, infer=None, *, inputs=('x',), outputs=('y',),
                 type_attrs=(('T', 0),), defaults=None, stateful=False, compile_kernel=None,
                 structured=None, foldable=True, cost=None, native=None):
        self.name = name
        self.native = native
        self.cost = cost
        self.structured = structured
        self.defaults = defaults or {}
        self.kernel = kernel
        self.infer = infer
        self.inputs = inputs
        self.outputs = outputs
        self.type_attrs = type_attrs
        self.stateful = stateful
        self.compile_kernel = compile_kernel
        self.foldable = foldable and not stateful

    def input_name(self, i):
        return self.inputs[i] if i < len(self.inputs) else f'{self.inputs[-1]}_{i}'

    def output_arg(self, index):
        """FunctionDef's `out_arg:index` for output `index`."""
        if isinstance(self.outputs, str):  # one list-valued output arg
            return f'{self.outputs}:{index}'
        return f'{self.outputs[index]}:0'

    def __repr__(self):
        return f'OpDef({self.name})'


def register(name, kernel=None, infer=None, **kwargs):
    if name in REGISTRY:
        raise ValueError(f'Op {name!r} is registered twice.')
    opdef = REGISTRY[name] = OpDef(name, kernel, infer, **kwargs)
    return opdef


def apply(opdef, inputs, attrs=None, name=None, payload=None):
    """Run `opdef` on `inputs` eagerly, or add it to the graph being built.

    `inputs` are Tensors or numpy values already of the right dtype (the op functions convert
    Python operands first). Returns the output tensor, a list of them, or, for an op without
    outputs, None eagerly and the Operation in a graph.
    """
    graphs = context.state.graphs
    graph = graphs[-1] if graphs else None
    if graph is None:
        for t in inputs:
            if type(t) is SymbolicTensor:
                graph = t.op.graph
                break
        else:
            return _run_eager(opdef, inputs, attrs)
    return build(graph, opdef, inputs, attrs or {}, name, payload)


def _run_eager(opdef, inputs, attrs):
    values = [t._value if type(t) is EagerTensor else t for t in inputs]
    return run_kernel(opdef, values, attrs)


def run_kernel(opdef, values, attrs=None):
    """Run `opdef`'s kernel on numpy values now and wrap the results as eager tensors."""
    try:
        out = opdef.kernel(*values, **attrs) if attrs else opdef.kernel(*values)
    except errors.OpError as e:
        if not e.message.endswith(']'):
            e.args = (e.message + f' [Op:{opdef.name}]',)
        raise
    except (ValueError, IndexError, TypeError, ZeroDivisionError, FloatingPointError) as e:
        raise errors.InvalidArgumentError(None, None, f'{e} [Op:{opdef.name}]') from e
    n = len(opdef.outputs)
    if n == 1:
        return EagerTensor(out, dtype_of_value(out))
    if n == 0:
        return None
    return [EagerTensor(v, dtype_of_value(v)) for v in out]


_BY_NUMPY = dtypes._BY_NUMPY
_OBJECT = np.dtype(object)


def dtype_of_value(value):
    """The runtime dtype of a kernel's output (object arrays are strings, Python lists variants)."""
    dt = getattr(value, 'dtype', None)
    found = _BY_NUMPY.get(dt)
    if found is not None:
        return found
    return dtypes.string if dt == _OBJECT or isinstance(value, bytes) else dtypes.variant


def build(graph, opdef, inputs, attrs, name=None, payload=None, output_specs=None):
    """Add an Operation; Python/numpy inputs become Const nodes named `<op>/<arg>`."""
    scope = graph.unique_name(name or opdef.name)
    tensors = []
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            from runtime.ops.core import const_node
            with graph.exact_scope(scope):
                t = const_node(graph, t, dtype_of_value(t), opdef.input_name(i))
        tensors.append(t)
    all_attrs = {**opdef.defaults, **attrs}
    for attr, index in opdef.type_attrs:
        all_attrs[attr] = tensors[index].dtype
    if output_specs is None:
        try:
            output_specs = opdef.infer(tensors, attrs)
        except (ValueError, TypeError) as e:
            raise type(e)(f'{e} (while adding {opdef.name} op {scope!r} with input shapes '
                          f'{[str(t.shape) for t in tensors]})') from None
    op = graph.create_op(opdef, tensors, all_attrs, scope, output_specs, payload)
    if len(op.outputs) == 1 and not isinstance(opdef.outputs, str):
        return op.outputs[0]
    if not op.outputs:
        return op
    return list(op.outputs)


def constant_value(t):
    """The value of `t` if it is known without running anything (eager or a Const), else None."""
    if type(t) is EagerTensor:
        return t._value
    if type(t) is SymbolicTensor:
        op = t.op
        if op.opdef.name == 'Const':
            return op.attrs['value']
        return None
    if isinstance(t, (np.ndarray, np.generic)):
        return t
    return None


# ---- shape inference helpers shared by the op modules -----------------------------------------

def broadcast_shape(a, b):
    """numpy broadcasting on partial shapes; ValueError naming both shapes if incompatible."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    da, db = a.as_list(), b.as_list()
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None:
            out.append(y)
        elif y is None or x == y:
            out.append(x)
        else:
            raise ValueError(f'Shapes {a} and {b} are incompatible for broadcasting')
    return TensorShape(out)


def same_as_input(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


def kernel_attrs(op):
    """The attrs the kernel of `op` takes as keywords (those that differ from the defaults)."""
    opdef = op.opdef
    skip = {name for name, _ in opdef.type_attrs}
    return {k: v for k, v in op.attrs.items()
            if k not in skip and not k.startswith('_') and
            not (k in opdef.defaults and opdef.defaults[k] == v)}


def broadcast(inputs, attrs):
    return [(inputs[0].dtype, broadcast_shape(inputs[0].shape, inputs[1].shape))]


def broadcast_bool(inputs, attrs):
    return [(dtypes.bool, broadcast_shape(inputs[0].shape, inputs[1].shape))]


def no_outputs(inputs, attrs):
    return []
