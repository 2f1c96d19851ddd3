"""Gradients of If/StatelessIf, Case/StatelessCase and While/StatelessWhile.

Both work on the op's library functions (the traced branches, loop condition and body):

- **If**: the gradient is another If on the same predicate. Each of its branches re-runs the
  forward branch's ops on the If's inputs (`inline`) and differentiates them (`backprop`), so
  each branch's gradient sees its own intermediate values; it returns a gradient for every float
  input (zeros where that branch does not use it), so both branches agree.
- **Case**: the same, a gradient Case on the same branch index over every branch's gradient.
- **While**: a forward While re-runs the loop and accumulates each iteration's loop variables in
  TensorLists (stacks) and counts the iterations; then the gradient While runs that many
  iterations in reverse: iteration k reads the loop variables of forward iteration k, re-runs
  the body on them and differentiates it, carrying the gradients of the loop variables and
  summing those of the loop invariants (captured tensors, variables read in the body).

Both are built with `rt.cond` / `rt.while_loop`, so gradient graphs are ordinary graphs (their
control flow lowers, optimizes and prints like the user's own).
"""
import numpy as np

from runtime import context, dtypes
from runtime.control_flow import cond, switch_case, while_loop
from runtime.gradients.backprop import add_gradients, backprop, differentiable
from runtime.ops import list_ops
from runtime.ops.array import identity, zeros, zeros_like
from runtime.ops.compare import greater
from runtime.ops.dispatch import apply, build
from runtime.ops.registry import PLACEHOLDER
from runtime.shapes import TensorShape
from runtime.tensor import SymbolicTensor


def library_function(op, attr):
    return op.graph.library[op.get_attr(attr).name]


def inline(function, inputs):
    """Add the ops of FuncGraph `function` to the current graph, its inputs replaced by
    `inputs`; returns (its outputs, the new Operations in order). Ops without outputs (prints,
    assertions, variable writes) are left out: only values are recomputed."""
    graph = context.current_graph()
    mapping = {id(p): t for p, t in zip(function.inputs, inputs)}
    start = len(graph.operations)
    for op in function.operations:
        if op.opdef is PLACEHOLDER:
            if id(op.outputs[0]) not in mapping:
                raise ValueError(f'Function {function.name!r} has an input {op.name!r} that '
                                 f'was not given.')
            continue
        if not op.outputs:
            continue
        op_inputs = [mapping[id(t)] for t in op.inputs]
        specs = None if op.opdef.infer is not None else [(t.dtype, t.shape) for t in op.outputs]
        out = build(graph, op.opdef, op_inputs, op.attrs, op.name.rsplit('/', 1)[-1],
                    op.payload, specs)
        new = [out] if isinstance(out, SymbolicTensor) else list(out)
        for old, t in zip(op.outputs, new):
            mapping[id(old)] = t
    outputs = [mapping[id(t)] for t in function.outputs]
    return outputs, graph.operations[start:]


def _local(t):
    """A tensor of the current graph standing for `t` (an input of the op being
    differentiated), distinct per use so that gradients are not mixed up."""
    graph = context.current_graph()
    if t.graph is not graph:
        t = graph.capture(t)
    return identity(t) if t.dtype is not dtypes.resource else t


def _zeros_for(t):
    """Zeros of the value `t` carries: its own shape, a variable's for a handle, a list of
    zeros like its elements for a TensorList (which must have every element set)."""
    if t.dtype is dtypes.resource:
        storage = t.op.payload
        return zeros(storage.shape, storage.dtype)
    return _zeros_like_gradient(t)


def _zeros_like_gradient(g):
    if g.dtype is dtypes.variant:  # a list of zeros shaped like the list's elements
        return list_ops.from_tensor(zeros_like(list_ops.stack_list(g, g.dtype, TensorShape(None))))
    return zeros_like(g)


def _differentiate(function, inputs, output_grads):
    """Re-run `function` on `inputs` and return the gradient of each input (None for
    non-differentiable inputs), given the gradients of its outputs."""
    local = [_local(t) for t in inputs]
    outputs, ops = inline(function, local)
    targets = [(o, g) for o, g in zip(outputs, output_grads) if g is not None]
    sources = [t for t in local if differentiable(t)]
    found = backprop(ops, [o for o, _ in targets], [g for _, g in targets], sources)
    by_id = {id(s): g for s, g in zip(sources, found)}
    return [by_id.get(id(t)) if differentiable(t) else None for t in local]


def _output_grads(op, grads):
    return [g if g is not None or not t.dtype.is_floating else zeros_like(t)
            for t, g in zip(op.outputs, grads)]


def _branches_gradient(op, grads, functions, choose, name):
    """The gradient of an op that runs one of the library `functions` on its inputs after the
    first (the predicate or branch index): `choose(op.inputs[0], gradient branches, name)` picks
    the gradient branch of the branch that ran."""
    selector, inputs = op.inputs[0], list(op.inputs[1:])
    grads = _output_grads(op, grads)
    wanted = [i for i, t in enumerate(inputs) if differentiable(t) and
              t.dtype is not dtypes.variant]
    if not wanted:
        return [None] * len(op.inputs)

    def branch(function):
        def gradient_branch():
            found = _differentiate(function, inputs, grads)
            return [found[i] if found[i] is not None else _zeros_for(inputs[i]) for i in wanted]
        return gradient_branch

    results = choose(selector, [branch(f) for f in functions], name)
    out = [None] * len(op.inputs)
    for i, g in zip(wanted, results):
        out[i + 1] = g
    return out


def if_gradient(op, grads):
    """The gradient of an If/StatelessIf: an If over the branches' gradients."""
    functions = [library_function(op, 'then_branch'), library_function(op, 'else_branch')]
    return _branches_gradient(op, grads, functions, lambda pred, branches, name: cond(
        pred, branches[0], branches[1], name=name), 'gradients/cond')


def case_gradient(op, grads):
    """The gradient of a Case/StatelessCase: a Case on the same index over the branches'
    gradients (an index outside the branches runs the last one, as the forward Case does)."""
    functions = [op.graph.library[ref.name] for ref in op.get_attr('branches')]
    return _branches_gradient(op, grads, functions, lambda index, branches, name: switch_case(
        index, branches, name=name), 'gradients/switch_case')


def while_gradient(op, grads):
    """The gradient of a While/StatelessWhile: a While running the iterations in reverse."""
    cond_fn, body_fn = library_function(op, 'cond'), library_function(op, 'body')
    inputs = list(op.inputs)
    shapes = list(op.get_attr('output_shapes'))
    n = len(inputs)
    invariant = [body_fn.outputs[i] is body_fn.inputs[i] for i in range(n)]
    carried = [i for i in range(n) if not invariant[i]]
    grads = _output_grads(op, grads)

    # 1. The forward loop again, pushing each iteration's loop variables on stacks.
    def assemble(values):
        full, it = [], iter(values)
        for i in range(n):
            full.append(inputs[i] if invariant[i] else next(it))
        return full

    def forward_cond(k, *state):
        values = state[len(carried):]
        return inline(cond_fn, assemble(values))[0][0]

    def forward_body(k, *state):
        stacks, values = state[:len(carried)], state[len(carried):]
        stacks = [apply(list_ops.SET_ITEM, [s, k, v], {'dynamic_size': True})
                  for s, v in zip(stacks, values)]
        outputs = inline(body_fn, assemble(values))[0]
        return (k + 1, *stacks, *[outputs[i] for i in carried])

    empty = [apply(list_ops.RESERVE, [np.int32(0)], {'element_dtype': inputs[i].dtype,
                                                     'element_shape': shapes[i]})
             for i in carried]
    invariants = ([TensorShape([])] + [TensorShape([])] * len(carried) +
                  [shapes[i] for i in carried])
    state = while_loop(forward_cond, forward_body,
                       (np.int32(0), *empty, *[inputs[i] for i in carried]),
                       shape_invariants=invariants, name='gradients/forward')
    count, stacks = state[0], state[1:1 + len(carried)]

    # 2. The reverse loop. A TensorList loop variable carries its gradient (a list) when one
    # reaches the loop's output.
    carried_grads = [i for i in carried if inputs[i].dtype.is_floating or
                     inputs[i].dtype is dtypes.variant and grads[i] is not None]
    summed = [i for i in range(n) if invariant[i] and differentiable(inputs[i])]
    if not carried_grads and not summed:
        return [None] * n

    def backward_cond(k, *state):
        return greater(k, 0)

    def backward_body(k, *state):
        k = k - 1
        carried_state = state[:len(carried_grads)]
        sums = state[len(carried_grads):]
        values = [apply(list_ops.GET_ITEM, [s, k], {'element_dtype': inputs[i].dtype,
                                                    '_element_shape': shapes[i]})
                  for s, i in zip(stacks, carried)]
        output_grads = [None] * n
        for i, g in zip(carried_grads, carried_state):
            output_grads[i] = g
        found = _differentiate(body_fn, assemble(values), output_grads)
        new_carried = [found[i] if found[i] is not None else _zeros_like_gradient(g)
                       for i, g in zip(carried_grads, carried_state)]
        new_sums = [add_gradients(s, found[i]) if found[i] is not None else s
                    for i, s in zip(summed, sums)]
        return (k, *new_carried, *new_sums)

    initial_sums = [grads[i] if grads[i] is not None and inputs[i].dtype.is_floating
                    else _zeros_for(inputs[i]) for i in summed]
    invariants = ([TensorShape([])] + [shapes[i] for i in carried_grads] +
                  [s.shape for s in initial_sums])
    final = while_loop(backward_cond, backward_body,
                       (count, *[grads[i] for i in carried_grads], *initial_sums),
                       shape_invariants=invariants, name='gradients/while')
    out = [None] * n
    for i, g in zip(carried_grads + summed, final[1:]):
        out[i] = g
    return out
