"""The op registry: every op is declared once, as an `OpDef`, and everything else reads it.

This module declares ops and does nothing else: running them is `runtime.ops.dispatch`,
converting Python values is `runtime.ops.convert`. It also declares the structural ops every graph
needs (Const, Placeholder, Identity). The op modules register the rest. The executor, the
GraphDef printer, the optimizer passes and the code generator read `OpDef` fields, never op
names; docs/design.md lists which code reads each field.
"""
import operator as operator_
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from runtime.core import dtypes as dtypes_
from runtime.core import errors
from runtime.core.shapes import TensorShape
from runtime.ops.allowed_dtypes import ALLOWED

REGISTRY: dict[str, 'OpDef'] = {}
# `OpDef.dtypes` of the arithmetic ops: TensorFlow refuses bools there (`True + True`).
NUMERIC = frozenset(d for d in dtypes_.PUBLIC if d.is_numeric)
# ... and of those that take complex numbers too (AddV2, Mul, Exp, Sum, MatMul, ...)
NUMBERS = NUMERIC | dtypes_.COMPLEX
# (dtype, shape) of a tensor: what `infer` returns per output and `cost` reads
Spec = tuple[dtypes_.DType, TensorShape]


@dataclass(frozen=True, slots=True)
class Elementwise:
    """The `elementwise` tag of an OpDef (see there). `ufunc`: numpy's ufunc that the kernel is
    (`np.tanh`), or None when the kernel is another function: code may call it with `out=` to
    write into a dead operand's buffer, and the native backend calls it by name (`np.tanh`)."""
    ufunc: np.ufunc | None = None

    @staticmethod
    def of(kernel: Callable[..., Any]) -> 'Elementwise':
        """The tag of an elementwise op whose kernel is `kernel`, for the op modules'
        tables (its `ufunc` when the kernel is one)."""
        return Elementwise(kernel if isinstance(kernel, np.ufunc) else None)


ELEMENTWISE = Elementwise()  # the tag of an elementwise op whose kernel is no ufunc


@dataclass(frozen=True, slots=True)
class PythonOperator:
    """How Python writes an operator: `symbol` (`'<'`; `'[]'` for a subscript), `arity`, and
    `in_place`, its augmented form (`operator.iadd` for `+`) or None."""
    symbol: str
    arity: int = 2
    in_place: Callable[..., Any] | None = None

    def expression(self, *operands: str) -> str:
        """The operator applied to the sources `operands`: `a < b`, `-a`, `a[i]`."""
        if self.symbol == '[]':
            return f'{operands[0]}[{operands[1]}]'
        if self.arity == 1:
            return f'{self.symbol}{operands[0]}'
        return f'{operands[0]} {self.symbol} {operands[1]}'


PYTHON_OPERATORS: dict[Callable[..., Any], PythonOperator] = {
    operator_.add: PythonOperator('+', in_place=operator_.iadd),
    operator_.sub: PythonOperator('-', in_place=operator_.isub),
    operator_.mul: PythonOperator('*', in_place=operator_.imul),
    operator_.truediv: PythonOperator('/', in_place=operator_.itruediv),
    operator_.floordiv: PythonOperator('//', in_place=operator_.ifloordiv),
    operator_.mod: PythonOperator('%', in_place=operator_.imod),
    operator_.pow: PythonOperator('**', in_place=operator_.ipow),
    operator_.matmul: PythonOperator('@'),
    operator_.lt: PythonOperator('<'), operator_.le: PythonOperator('<='),
    operator_.gt: PythonOperator('>'), operator_.ge: PythonOperator('>='),
    operator_.eq: PythonOperator('=='), operator_.ne: PythonOperator('!='),
    operator_.neg: PythonOperator('-', arity=1),
    operator_.getitem: PythonOperator('[]'),
}


@dataclass(slots=True, eq=False)
class OpDef:
    """One op type: every fact about it.

    name: TensorFlow's op type (`AddV2`).
    kernel(*input_values, **attrs) -> value, or a tuple of values when the op has several
        outputs. It takes the op's attrs as keywords, except type attrs like `T` and
        `_`-prefixed metadata.
    infer(inputs, attrs) -> [(dtype, shape)] for each output, from the input tensors.
    inputs / outputs: TensorFlow's arg names (naming converted constants `Greater/y`, and
        FunctionDef's `node:out_arg:index`); `outputs` as one str is one list-valued arg.
    type_attrs: ((attr, input index), ...): attrs that take their dtype from an input (`T`).
    defaults: the attrs a graph node records when the caller left them out (the kernel's
        keyword defaults are the same values).
    stateful: the op has side effects or reads state; never folded, merged or reordered.
    bind_kernel(attrs, payload) -> callable(*input_values): for ops whose kernel needs the
        node's payload (a variable's storage, a random generator); eager calls use it too.
    control_flow: 'if', 'while' or 'case', which the executor lowers to a Python `if`/`while`
        (a Case: an `if`/`elif` chain on its index) around the code of the library functions
        named in the attrs; None for other ops.
    function_attrs: the attrs naming those library functions, in order (`then_branch`,
        `else_branch`; a list-valued attr such as a Case's `branches` names several);
        `functions(attrs)` lists them.
    foldable: constant folding may run the kernel at optimization time (never when stateful).
    cost(input_specs, output_specs) -> estimated parallelizable work in flops (None: none or
        unknown), from (dtype, shape) pairs; the executor uses it to decide what runs in
        parallel. None: the output size.
    convert_inputs(op_name, inputs) -> inputs: converts the Python and numpy operands of a call
        to the dtype of its tensor operands (`runtime.ops.convert.unify_operands`); dispatch skips
        it when every input is an eager tensor of one dtype (the fast path). None: callers
        pass converted inputs.
    operator: the Python operator (`operator.lt`, `operator.add`, `operator.neg`,
        `operator.getitem`...) whose application to the operands equals the op's result (numpy
        operator semantics, numeric and bool operands); `PYTHON_OPERATORS[opdef.operator]` gives
        its symbol and in-place form. The backends write it as the operator (`a < b`), and
        passes recognise ops by it (`opdef.operator is operator.lt`).
    elementwise: an `Elementwise` tag: the op computes each output element from the same
        (broadcast) elements of its inputs into a new array, and the backends may write it
        element by element (the native backend's loops, fusion) or with `out=` (its `ufunc`).
        None: not an op the backends write elementwise (Identity, which returns its input,
        is not).
    neutral: (value, positions): a constant equal to `value` at one of `positions` makes the op
        return its other operand (`x + 0`, `x * 1`).
    involution: f(f(x)) == x (`-(-x)`).
    dtypes: the dtypes the op's type attrs accept: by default TensorFlow's allowed lists
        (runtime/ops/allowed_dtypes.py; e.g. no bool for AddV2); any other is refused
        (InvalidArgumentError eagerly, TypeError while building a graph). None: any dtype.
    gradient(op, *output_grads) -> a sequence of input gradients, one per input (None where an
        input has none), built from public op functions so gradient graphs are ordinary graphs.
        Not given here: the rules of runtime/gradients/rules/ attach it after the ops exist
        (`defgradient`, as JAX's `ad.defjvp`), so the op modules never import gradients.
        `op` has `.inputs`, `.outputs`, `.attrs`, `.get_attr(name)` and `.opdef` (a graph
        Operation, or the eager tape's record of the op); an output nothing depends on gets a
        zero gradient when another output has one (None with `gradient_takes_none`).
        `NO_GRADIENT`: deliberately not
        differentiable (comparisons, integer results, shapes, random numbers);
        `UNREGISTERED_GRADIENT`: TensorFlow has no gradient for it, so a gradient through it is
        TensorFlow's LookupError (`AdjustContrastv2`); None: no gradient declared, which is an
        error when a gradient must flow through the op (docs/gradients.md).
    gradient_takes_none: the `gradient` rule takes None as the gradient of an output nothing
        depends on, instead of zeros, and leaves out that output's term (TensorFlow's rules
        skip a zeros tensor, `_is_zeros_tensor`): the cross entropies' `backprop` output.
    nonzero: positions of inputs that must hold no zero when they are integers (division); the
        check (`check_nonzero`) runs before the kernel, and the executor drops it when a pass
        proves the input non-zero (a constant divisor).
    rewrite(node) -> (opdef, inputs) | None: a cheaper equivalent of an executor IR node of this
        op (runtime/executor/ir.py), given what produces its inputs; `inputs` are IR Values or
        numpy constants. The executor's simplify pass applies it.
    in_place: a kernel equal to `kernel` that may change its first input's value and return it
        (TensorListSetItem writing the list itself rather than making a new version); the
        executor calls it where runtime/executor/passes/in_place.py proves that no one else
        holds that value and nothing reads it afterwards (`Node.in_place`). Its result is such
        a value again.
    fresh_output: the first output is always a new value that only the op's users hold (the
        list TensorListReserve makes), so a later `in_place` op may take it over.
    liftable: stateful only through a random stream of its own (the node's payload), so a
        Variable's initializer made of such ops and constants may run once outside the graph
        being traced, as TensorFlow's `init_scope` lifts initializers
        (`runtime.executor.evaluate_constant`).
    foreign_attrs: {attr: values}: attrs another writer (TensorFlow) records on the op that the
        kernel does not take, with the values that leave the result unchanged here: `ANY_VALUE`
        (VarHandleOp's `debug_name`), or a tuple of values. An imported node with another value
        of such an attr, or with an attr neither the kernel, the type attrs, the defaults nor
        this field know, is refused with an error naming the op, the attr and its value (an
        attr at its zero value, `grad_a: false`, is accepted: it asks for nothing).
    partial(op, values) -> the value of the op's first output as far as it is known while a
        graph is built, from its inputs' partly known values (numpy object arrays, None for an
        unknown element; None for a wholly unknown input), or None: how a shape built from
        `rt.shape(x)[0]` and Python ints keeps its known dims (TensorFlow's
        `constant_value_as_shape`). `runtime.ops.infer.moves_elements` for the ops that only
        move elements (Pack, ConcatV2, StridedSlice); None: the op's value is known only when
        every input is fully known, and then by running the kernel (integer results only).
    """

    name: str
    kernel: Callable[..., Any] | None = None
    infer: Callable[[Sequence[Any], dict[str, Any]], Sequence[Spec]] | None = None
    inputs: tuple[str, ...] = ('x',)
    outputs: tuple[str, ...] | str = ('y',)
    type_attrs: tuple[tuple[str, int], ...] = (('T', 0),)
    defaults: dict[str, Any] = field(default_factory=dict)
    stateful: bool = False
    bind_kernel: Callable[[dict[str, Any], Any], Callable[..., Any]] | None = None
    control_flow: str | None = None
    function_attrs: tuple[str, ...] = ()
    foldable: bool = True
    cost: Callable[[Sequence[Spec], Sequence[Spec]], float | None] | None = None
    convert_inputs: Callable[[str, Sequence[Any]], Sequence[Any]] | None = None
    operator: Callable[..., Any] | None = None
    elementwise: 'Elementwise | None' = None
    neutral: tuple[Any, tuple[int, ...]] | None = None
    involution: bool = False
    dtypes: frozenset[dtypes_.DType] | None = None
    gradient: Callable[..., Sequence[Any]] | None = None
    gradient_takes_none: bool = False
    nonzero: tuple[int, ...] = ()
    rewrite: Callable[[Any], tuple['OpDef', Sequence[Any]] | None] | None = None
    in_place: Callable[..., Any] | None = None
    fresh_output: bool = False
    liftable: bool = False
    partial: Callable[[Any, list[Any]], Any] | None = None
    foreign_attrs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.foldable = self.foldable and not self.stateful

    def input_name(self, i: int) -> str:
        return self.inputs[i] if i < len(self.inputs) else f'{self.inputs[-1]}_{i}'

    def output_arg(self, index: int) -> str:
        """FunctionDef's `out_arg:index` for output `index`."""
        if isinstance(self.outputs, str):  # one list-valued output arg
            return f'{self.outputs}:{index}'
        return f'{self.outputs[index]}:0'

    def functions(self, attrs: Mapping[str, Any]) -> list[Any]:
        """The FunctionRefs of the library functions a node with `attrs` calls, in order."""
        refs: list[Any] = []
        for name in self.function_attrs:
            value = attrs.get(name)
            refs.extend(value if isinstance(value, (list, tuple)) else [value])
        return [ref for ref in refs if ref is not None]

    def kernel_attrs(self, attrs: Mapping[str, Any]) -> dict[str, Any]:
        """The attrs of a node the kernel takes as keywords (those that differ from the
        defaults; not type attrs, not `_`-prefixed metadata)."""
        skip = {name for name, _ in self.type_attrs}
        defaults = self.defaults
        return {k: v for k, v in attrs.items()
                if k not in skip and not k.startswith('_') and
                not (k in defaults and defaults[k] == v)}

    def refused_dtype(self, dtypes: Iterable[dtypes_.DType]) -> dtypes_.DType | None:
        """The first of `dtypes` (one per type attr) this op does not accept, or None."""
        allowed = self.dtypes
        if allowed is not None:
            for dtype in dtypes:
                if dtype not in allowed:
                    return dtype
        return None

    def __repr__(self) -> str:
        return f'OpDef({self.name})'


class _AnyValue:
    """`OpDef.foreign_attrs`' mark of an attr whose every value leaves the result unchanged."""

    def __repr__(self) -> str:
        return 'ANY_VALUE'


ANY_VALUE = _AnyValue()


def check_nonzero(value: np.ndarray) -> None:
    """The check of `nonzero` inputs: an integer divisor holding a zero is an error."""
    if value.dtype.kind in 'iu' and not value.all():
        raise errors.InvalidArgumentError(message='Integer division by zero')


def NO_GRADIENT(op: Any, *output_grads: Any) -> list[None]:
    """The `gradient` of an op that is deliberately not differentiable: no input gets one."""
    return [None] * len(op.inputs)


def UNREGISTERED_GRADIENT(op: Any, *output_grads: Any) -> list[None]:
    """The `gradient` of an op TensorFlow registers no gradient for (neither a gradient nor
    `NotDifferentiable`): a gradient that must flow through it raises TensorFlow's
    LookupError, in TensorFlow's words."""
    raise LookupError(f'gradient registry has no entry for: {op.opdef.name}')


def tensorflow_dtypes(name: str,
                      type_attrs: Sequence[tuple[str, int]]) -> frozenset[dtypes_.DType] | None:
    """The dtypes TensorFlow's op `name` allows for the type attrs `type_attrs` (those numpy
    has; runtime/ops/allowed_dtypes.py), or None where TensorFlow allows any for one of them
    (one set serves all of an OpDef's type attrs)."""
    allowed = ALLOWED.get(name, {})
    if not type_attrs or any(attr not in allowed for attr, _ in type_attrs):
        return None
    found = [allowed[attr] for attr, _ in type_attrs]
    return frozenset(dtypes_.as_dtype(d) for names in found for d in names)


def register(name: str, kernel: Callable[..., Any] | None = None,
             infer: Callable[..., Sequence[Spec]] | None = None, **fields: Any) -> OpDef:
    """Declare op `name` (see `OpDef` for the fields) and return its OpDef. An op TensorFlow
    has accepts the dtypes TensorFlow's does unless `dtypes` says otherwise."""
    if name in REGISTRY:
        raise ValueError(f'Op {name!r} is registered twice.')
    if 'dtypes' not in fields:
        fields['dtypes'] = tensorflow_dtypes(name, fields.get('type_attrs', (('T', 0),)))
    opdef = REGISTRY[name] = OpDef(name, kernel, infer, **fields)
    return opdef


# ---- the structural ops ---------------------------------------------------------------------

def _same_as_input(inputs: Sequence[Any], attrs: dict[str, Any]) -> list[Spec]:
    return [(inputs[0].dtype, inputs[0].shape)]


CONST = register('Const', infer=lambda inputs, attrs: [(attrs['dtype'], TensorShape(
    np.shape(attrs['value'])))], inputs=(), outputs=('output',), type_attrs=())
PLACEHOLDER = register('Placeholder', infer=lambda inputs, attrs: [(attrs['dtype'],
                       attrs['shape'])], inputs=(), outputs=('output',), type_attrs=())
IDENTITY = register('Identity', lambda x: x, _same_as_input, inputs=('input',),
                    outputs=('output',))
