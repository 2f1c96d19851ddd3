"""`apply`: the one way an op runs, eagerly or into the graph being built.

Every public op function, `rt.Variable`'s reads and writes and the random ops end in `apply`.
Eagerly it runs the op's kernel (or the kernel `bind_kernel` makes from the payload) on numpy
values now, turns kernel failures into `rt.errors.InvalidArgumentError` naming the op (other
exceptions keep their type, see `errors.raised_by_kernel`), and wraps the results as eager
tensors. While a graph is being built (or an input is symbolic) it adds an
Operation instead. Gradient tapes record ops here, and only here: the If, Case and While ops,
whose outputs their library functions decide, come through `add_operation`
(runtime.ops.control's builders).
"""
from typing import Any, Callable, Iterable, Sequence, TypeVar

from runtime.core import context, dtypes, errors
from runtime.core.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.ops.registry import CONST, OpDef, Spec, check_nonzero

_state = context.state
_building_graphs = context.building_graphs
_active_tapes = context.active_tapes
_dtype_of = dtypes.of_value
_by_numpy = dtypes.NUMERIC_BY_NUMPY.get


def apply(opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any] | None = None,
          name: str | None = None, payload: Any = None) -> Any:
    """Run `opdef` on `inputs` eagerly, or add it to the graph being built.

    `inputs` are Tensors or numpy values already of the right dtype, or, for an op with
    `convert_inputs`, any operands (that converts them). Returns the output tensor, a list of
    them, or, for an op without outputs, None eagerly and the Operation in a graph.
    """
    if _building_graphs[0] and _state.graphs:
        return _build_in_default_graph(opdef, inputs, attrs, name, payload)
    convert = opdef.convert_inputs
    if convert is not None and len(inputs) == 2 and type(a := inputs[0]) is EagerTensor and \
            type(b := inputs[1]) is EagerTensor and (d := a.dtype) is b.dtype and \
            ((allowed := opdef.dtypes) is None or d in allowed):
        # The fast path (binary ops, the hot case): two eager tensors of one accepted dtype
        # need no conversion or check. Others take the other path, which refuses what
        # `OpDef.dtypes` leaves out (TensorFlow refuses arithmetic on bools, and maximum or
        # floordiv of complex numbers).
        values: Any = (a.value, b.value)
    elif convert is None and 0 < (n := len(inputs)) < 3 and \
            type(a := inputs[0]) is EagerTensor and \
            (n == 1 or type(b := inputs[1]) is EagerTensor and b.dtype is a.dtype) and \
            ((allowed := opdef.dtypes) is None or a.dtype in allowed):
        # Unary ops and matmul-like ones on eager tensors of one accepted dtype: nothing to
        # convert or check (the type attrs all name inputs of that dtype).
        values = (a.value,) if n == 1 else (a.value, b.value)
    else:
        if convert is not None:
            inputs = convert(opdef.name, inputs)
        values = []
        for t in inputs:
            kind = type(t)
            if kind is EagerTensor:
                values.append(t.value)
            elif kind is SymbolicTensor:  # eager code using a graph tensor adds to its graph
                return _build(t.op.graph, opdef, inputs, attrs, name, payload)
            else:
                values.append(t)
        if opdef.dtypes is not None:
            _check_value_dtypes(opdef, values)
    # Run the kernel now; its failures become InvalidArgumentError naming the op, and any
    # other exception propagates as it is, with a note naming the op.
    try:
        for i in opdef.nonzero:
            check_nonzero(values[i])
        if opdef.bind_kernel is not None:
            out = opdef.bind_kernel(attrs or {}, payload)(*values)
        else:
            # an op without bind_kernel has a kernel (ops the executor lowers never run here)
            out = opdef.kernel(*values, **attrs) if attrs else opdef.kernel(*values)  # type: ignore[misc]
    except errors.OpError as e:
        if not e.message.endswith(']'):
            e.args = (errors.eager_message(opdef.name, e.message),)
        raise
    except Exception as e:
        if not errors.raised_by_kernel(e):
            e.add_note(f'(raised while the {opdef.name} op ran)')
            raise
        raise errors.InvalidArgumentError(None, None,
                                          errors.eager_message(opdef.name, str(e))) from e
    n = len(opdef.outputs)
    if n == 1:
        try:
            dtype = _by_numpy(out.dtype)  # numeric and bool: the common case of `_dtype_of`
        except AttributeError:
            dtype = None
        outputs: Any = EagerTensor(out, dtype or _dtype_of(out))
    elif n == 0:
        outputs = None
    else:
        outputs = [EagerTensor(v, _dtype_of(v)) for v in out]
    if _active_tapes[0]:  # the gradient-tape hook: the one place eager ops are recorded
        for tape in _state.tapes:  # `record` below, inlined
            tape.record(opdef, inputs, attrs, outputs)
    return outputs


def _build_in_default_graph(opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any] | None,
                            name: str | None, payload: Any) -> Any:
    if opdef.convert_inputs is not None:
        inputs = opdef.convert_inputs(opdef.name, inputs)
    return _build(_state.graphs[-1], opdef, inputs, attrs, name, payload)


def _build(graph: Any, opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any] | None,
           name: str | None, payload: Any) -> Any:
    outputs = build(graph, opdef, inputs, attrs or {}, name, payload)
    if _active_tapes[0]:  # graph ops are recorded too, as TensorFlow's tapes do
        record(opdef, inputs, attrs, outputs)
    return outputs


def record(opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any] | None,
           outputs: Any) -> None:
    """Hand a finished op to every active tape (`context.state.tapes`); a tape has
    `record(opdef, inputs, attrs, outputs)`."""
    for tape in _state.tapes:
        tape.record(opdef, inputs, attrs, outputs)


def add_operation(graph: Any, opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any],
                  op_name: str, output_specs: Sequence[Spec]) -> Any:
    """An Operation of `opdef` added to `graph` as `build` adds one (the OpDef's defaults and
    type attrs), named exactly `op_name` and with the given `output_specs`, and recorded on the
    active tapes as `apply` records ops: how the If, Case and While ops are made, whose outputs
    their library functions decide and whose name is that of the scope the functions were
    traced in (runtime.ops.control)."""
    op = build_operation(graph, opdef, inputs, attrs, op_name, output_specs=output_specs)
    if _active_tapes[0]:
        record(opdef, inputs, attrs, op.outputs)
    return op


def build(graph: Any, opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any],
          name: str | None = None, payload: Any = None,
          output_specs: Sequence[Spec] | None = None) -> Any:
    """Add an Operation to `graph`; numpy inputs become Const nodes named `<op>/<arg>`.
    Returns its output (one), its outputs (a list), or the Operation (no outputs)."""
    op = build_operation(graph, opdef, inputs, attrs, graph.unique_name(name or opdef.name),
                         payload, output_specs)
    if len(op.outputs) == 1 and not isinstance(opdef.outputs, str):
        return op.outputs[0]
    if not op.outputs:
        return op
    return list(op.outputs)


def build_operation(graph: Any, opdef: OpDef, inputs: Sequence[Any], attrs: dict[str, Any],
                    scope: str, payload: Any = None,
                    output_specs: Sequence[Spec] | None = None) -> Any:
    """The Operation `build` adds, named exactly `scope` (a unique name): the OpDef's defaults
    and type attrs added to `attrs`, its dtypes checked, its outputs inferred unless given."""
    tensors = []
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            with graph.exact_scope(scope):
                t = build(graph, CONST, [], {'dtype': _dtype_of(t), 'value': t},
                          opdef.input_name(i))
        tensors.append(t)
    all_attrs = {**opdef.defaults, **attrs}
    for attr, index in opdef.type_attrs:
        all_attrs[attr] = tensors[index].dtype
    if opdef.dtypes is not None:
        _check_dtypes(opdef, [all_attrs[attr] for attr, _ in opdef.type_attrs], TypeError)
    if output_specs is None:
        try:
            output_specs = opdef.infer(tensors, attrs)  # type: ignore[misc]  # None: TypeError
        except (ValueError, TypeError) as e:
            raise type(e)(f'{e} (while adding {opdef.name} op {scope!r} with input shapes '
                          f'{[str(t.shape) for t in tensors]})') from None
    return graph.create_op(opdef, tensors, all_attrs, scope, output_specs, payload)


def _check_value_dtypes(opdef: OpDef, values: Sequence[Any]) -> None:
    """`_check_dtypes` on eager values (a function of its own: a comprehension over `values`
    in `apply` would make `values` a closure cell there, slowing every eager op)."""
    # only called for an op that limits its dtypes (no test here: `apply` made it)
    allowed: frozenset[dtypes.DType] = opdef.dtypes  # type: ignore[assignment]
    for _, i in opdef.type_attrs:  # the common case: numpy values of accepted dtypes
        if _by_numpy(getattr(values[i], 'dtype', None)) not in allowed:
            break
    else:
        return
    _check_dtypes(opdef, [_dtype_of(values[i]) for _, i in opdef.type_attrs],
                  errors.InvalidArgumentError)


def _check_dtypes(opdef: OpDef, dtypes_: list[dtypes.DType], error: type[Exception]) -> None:
    """Refuse a dtype the op does not accept (`OpDef.dtypes`), in TensorFlow's words."""
    refused = opdef.refused_dtype(dtypes_)
    if refused is not None:
        attr = opdef.type_attrs[dtypes_.index(refused)][0]
        allowed = ', '.join(sorted(d.name for d in opdef.dtypes or ()))
        message = (f"Value for attr '{attr}' of {refused.name} is not in the list of allowed "
                   f"values: {allowed}; use rt.cast to convert the operands first (bools: "
                   f"rt.logical_and / rt.logical_or) [Op:{opdef.name}]")
        raise error(message) if error is TypeError else error(None, None, message)


def graph_of(values: Iterable[Any]) -> Any:
    """The graph ops on `values` go into: the default graph, else the graph of a symbolic
    value, else None (eager)."""
    graphs = _state.graphs
    if graphs:
        return graphs[-1]
    for v in values:
        if type(v) is SymbolicTensor:
            return v.op.graph
    return None


def refused_dtype(message: str, *values: Any) -> Exception:
    """TensorFlow's error for an operand of a dtype the op refuses, to raise: an
    InvalidArgumentError eagerly, a TypeError while building a graph."""
    if graph_of(values) is None:
        return errors.InvalidArgumentError(None, None, message)
    return TypeError(message)


F = TypeVar('F', bound=Callable[..., Any])


def op_function(function: F, public_name: str, doc: str | None) -> F:
    """`function` as the public op function `rt.<public_name>` (its name and docstring)."""
    function.__name__ = function.__qualname__ = public_name
    function.__doc__ = doc
    return function


def binary_op_function(opdef: OpDef, public_name: str, doc: str | None,
                       default_name: str | None = None) -> Callable[..., Any]:
    """The public function `rt.<public_name>(x, y, name=None)` running the two-input `opdef`."""
    def binary(x: Any, y: Any, name: str | None = default_name) -> Any:
        return apply(opdef, (x, y), None, name)
    return op_function(binary, public_name, doc)
