"""Gradients of If/StatelessIf, Case/StatelessCase and While/StatelessWhile (runtime/ops/control.py;
NoOp has none).

The forward computation runs once: as TensorFlow's cond_v2/while_v2 do, the gradient rewrites
the forward op so that it also outputs the values its gradient needs, and the gradient reads
them instead of recomputing them (so a random op or a variable read in a branch or loop body is
differentiated at the value it had in the forward run).

The gradient of a branch or loop body is built in a `GradientGraph`: `backprop` walks the
forward function's own ops, and each forward value a gradient op uses is captured through
`provide` instead of being recomputed:

- **If / Case**: each forward branch gets extra outputs, the intermediates its gradient uses
  (the other branches output stand-in zeros of the same dtype there); the gradient is an If (a
  Case) on the same predicate (index) whose branch k differentiates forward branch k reading
  those outputs. A forward input is read from the op's input directly.
- **While**: the forward loop gets an iteration counter and, for each intermediate the body's
  gradient uses, a TensorList loop variable to which every iteration writes its value (at the
  iteration's index). The gradient is a While running the iterations in reverse: iteration k
  reads the values of forward iteration k from those lists, carries the gradients of the loop
  variables and sums those of the loop invariants (captured tensors, variables read in the
  body). A loop invariant (or a loop variable the body passes on unchanged) is read from the
  op's input.

The rewrite changes the op in place: its existing outputs stay the same tensors, new outputs
(and, for a While, new loop variables) are appended, and its library functions get the new
inputs and outputs. An op differentiated again (a persistent tape, a second derivative) reuses
what it already outputs. Gradient graphs are ordinary graphs: they print, optimize and lower
like the user's own control flow, and can be differentiated again.
"""
import weakref
from dataclasses import dataclass, field

import numpy as np

from runtime.core import context, dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import SymbolicTensor
from runtime.gradients.backprop import add_gradients, backprop, differentiable
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.graph.graph import FuncGraph, uid
from runtime.ops import control, list_ops
from runtime.ops.array import identity
from runtime.ops.compare import greater
from runtime.ops.creation import fill, zeros, zeros_like
from runtime.ops.dispatch import apply, build
from runtime.ops.registry import CONST, IDENTITY


def library_function(op, attr):
    return op.graph.library[op.get_attr(attr).name]


class GradientGraph(FuncGraph):
    """The gradient function of the forward function `forward` (a branch or loop body).

    A tensor of `forward` its ops use is not captured like an outer tensor: a constant is
    rebuilt here, anything else is `provide(self, tensor)`, a tensor of this graph standing for
    the value it had in the forward run.
    """

    def __init__(self, name, outer_graph, forward, provide):
        super().__init__(name, outer_graph, outer_graph.current_scope)
        self.forward = forward
        self.provide = provide
        self.provided = {}  # id(forward tensor) -> the tensor of this graph standing for it

    def capture(self, tensor):
        if type(tensor) is not SymbolicTensor or tensor.graph is not self.forward:
            return super().capture(tensor)
        found = self.provided.get(id(tensor))
        if found is None:
            op = tensor.op
            if op.opdef is CONST:
                found = build(self, CONST, [], op.attrs, op.name.rsplit('/', 1)[-1])
            else:
                found = self.provide(self, tensor)
            self.provided[id(tensor)] = found
        return found


@dataclass(slots=True)
class Rewrite:
    """What a differentiated forward op outputs for its gradients."""

    outputs: dict = field(default_factory=dict)  # id(forward tensor) -> index of its output
    counter: int | None = None  # a While's iteration counter: index of its loop variable


_rewrites = weakref.WeakKeyDictionary()  # forward Operation -> Rewrite


def _rewrite_of(op):
    rewrite = _rewrites.get(op)
    if rewrite is None:
        rewrite = _rewrites[op] = Rewrite()
    return rewrite


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


def _stand_in(t):
    """A cheap value of `t`'s dtype (and rank) for a branch that does not compute `t`."""
    if t.dtype is dtypes.variant:
        return apply(list_ops.RESERVE, [np.int32(0)], {
            'element_dtype': t.op.attrs.get('element_dtype', dtypes.float32),
            'element_shape': TensorShape(None)})
    dims = [] if t.shape.rank is None else [d or 0 for d in t.shape.as_list()]
    return fill(np.array(dims, np.int32), t.dtype.np_dtype.type(0))


# ---- If and Case -------------------------------------------------------------------------------

@defgradient(control.IF, control.STATELESS_IF)
def if_gradient(op, *grads):
    """The gradient of an If/StatelessIf: an If over the branches' gradients."""
    functions = [library_function(op, 'then_branch'), library_function(op, 'else_branch')]
    return _branches_gradient(op, grads, functions, 'gradients/cond')


@defgradient(control.CASE, control.STATELESS_CASE)
def case_gradient(op, *grads):
    """The gradient of a Case/StatelessCase: a Case on the same index over the branches'
    gradients (an index outside the branches runs the last one, as the forward Case does)."""
    functions = [op.graph.library[ref.name] for ref in op.get_attr('branches')]
    return _branches_gradient(op, grads, functions, 'gradients/switch_case')


def _branches_gradient(op, grads, functions, name):
    """The gradient of an op that runs one of the library `functions` on its inputs after the
    first (the predicate or branch index)."""
    inputs = op.inputs[1:]
    wanted = [i for i, t in enumerate(inputs) if differentiable(t) and
              t.dtype is not dtypes.variant]
    if not wanted:
        return [None] * len(op.inputs)
    graph = context.current_graph()
    needed = []  # per branch: [(forward tensor, placeholder)]
    gradient_graphs = [_branch_gradient(op, graph, f, grads, wanted, needed) for f in functions]
    _output_intermediates(op, functions, needed, gradient_graphs)
    with graph.name_scope(name) as scope:
        if op.opdef.control_flow == 'if':
            gradient = control.build_if(graph, op.inputs[0], *gradient_graphs, scope)
        else:
            gradient = control.build_case(graph, op.inputs[0], gradient_graphs, scope)
    out = [None] * len(op.inputs)
    for i, g in zip(wanted, gradient.outputs):
        out[i + 1] = g
    return out


def _branch_gradient(op, graph, function, grads, wanted, needed):
    """A GradientGraph returning the gradients of the `wanted` inputs of forward branch
    `function`; the intermediates it reads are appended to `needed`."""
    positions = {id(p): j for j, p in enumerate(function.inputs)}
    intermediates = []
    needed.append(intermediates)

    def provide(fg, t):
        j = positions.get(id(t))
        if j is not None:  # a forward input: the op's input
            return fg.capture(op.inputs[j + 1])
        placeholder = fg.add_input(t.dtype, t.shape, 'intermediate', as_capture=True)
        intermediates.append((t, placeholder))
        return placeholder

    fg = GradientGraph(f'{function.name}_grad_{uid()}', graph, function, provide)
    with fg.as_default():
        targets = [(o, g) for o, g in zip(function.outputs, grads) if g is not None]
        sources = [function.inputs[i] for i in wanted]
        found = backprop(list(function.operations), [o for o, _ in targets],
                         [g for _, g in targets], sources)
        fg.outputs = [identity(g) if g is not None else _zeros_for(op.inputs[i + 1])
                      for i, g in zip(wanted, found)]
    graph.library[fg.name] = fg
    return fg


def _output_intermediates(op, functions, needed, gradient_graphs):
    """Make forward If/Case `op` output the intermediates the gradient branches read (stand-ins
    in the other branches) and bind each gradient branch's placeholder to its output."""
    rewrite = _rewrite_of(op)
    new = [(k, t) for k, intermediates in enumerate(needed) for t, _ in intermediates
           if id(t) not in rewrite.outputs]
    if new:
        specs = []
        for k, t in new:
            shape = t.shape
            for j, function in enumerate(functions):
                if j == k:
                    value = t
                else:
                    with function.as_default():
                        value = _stand_in(t)
                    shape = shape.most_specific_compatible_shape(value.shape)
                function.outputs = function.outputs + [value]
            specs.append((t.dtype, shape))
        op.attrs['Tout'] = list(op.attrs['Tout']) + [dtype for dtype, _ in specs]
        op.attrs['output_shapes'] = list(op.attrs['output_shapes']) + [s for _, s in specs]
        start = len(op.outputs)
        op.extend([], specs)
        for n, (_, t) in enumerate(new):
            rewrite.outputs[id(t)] = start + n
    for fg, intermediates in zip(gradient_graphs, needed):
        for t, placeholder in intermediates:
            value = op.outputs[rewrite.outputs[id(t)]]
            if value.graph is not fg.outer_graph:
                value = fg.outer_graph.capture(value)
            fg.bind_capture(value, placeholder)


# ---- While -------------------------------------------------------------------------------------

def _add_loop_variable(op, make_initial, next_value):
    """Append a loop variable to forward While `op`: its initial value `make_initial()` (built
    before `op`), its next value `next_value(placeholder)` (built in the body). Returns its
    index."""
    cond_fn, body_fn = library_function(op, 'cond'), library_function(op, 'body')
    with op.graph.building_before(op):
        initial = make_initial()
    shape = initial.shape
    cond_fn.add_input(initial.dtype, shape, 'loop_var')
    placeholder = body_fn.add_input(initial.dtype, shape, 'loop_var')
    with body_fn.as_default():
        body_fn.outputs = body_fn.outputs + [next_value(placeholder)]
    op.attrs['T'] = list(op.attrs['T']) + [initial.dtype]
    op.attrs['output_shapes'] = list(op.attrs['output_shapes']) + [shape]
    op.extend([initial], [(initial.dtype, shape)])
    return len(op.outputs) - 1


def _counter(op, rewrite):
    """The index of `op`'s iteration counter (a loop variable from 0, added once)."""
    if rewrite.counter is None:
        rewrite.counter = _add_loop_variable(
            op, lambda: build(op.graph, CONST, [], {'dtype': dtypes.int32, 'value': np.int32(0)},
                              'iterations'),
            lambda k: k + 1)
    return rewrite.counter


def _accumulator(op, rewrite, t):
    """The index of `op`'s output listing the value of body tensor `t` in every iteration (a
    TensorList loop variable each iteration writes at its index, added once per tensor)."""
    index = rewrite.outputs.get(id(t))
    if index is None:
        counter = library_function(op, 'body').inputs[_counter(op, rewrite)]
        index = rewrite.outputs[id(t)] = _add_loop_variable(
            op, lambda: apply(list_ops.RESERVE, [np.int32(0)], {
                'element_dtype': t.dtype, 'element_shape': t.shape}),
            lambda stack: apply(list_ops.SET_ITEM, [stack, counter, t], {'dynamic_size': True}))
    return index


def _passed_on(body_fn, i):
    """Whether the body returns its loop variable `i` unchanged (so it keeps its entry value)."""
    out, var = body_fn.outputs[i], body_fn.inputs[i]
    return out is var or out.op.opdef is IDENTITY and out.op.inputs[0] is var


@defgradient(control.WHILE, control.STATELESS_WHILE)
def while_gradient(op, *grads):
    """The gradient of a While/StatelessWhile: a While running the iterations in reverse, from
    the forward loop's iteration count down to 0."""
    rewrite = _rewrite_of(op)
    _counter(op, rewrite)
    n = len(op.inputs)
    grads = list(grads) + [None] * (n - len(grads))
    carried, summed = _differentiated(op, grads)
    if not carried and not summed:
        return [None] * n
    graph = context.current_graph()
    carried_grads = [grads[i] if grads[i] is not None else zeros_like(op.outputs[i])
                     for i in carried]
    initial_sums = [grads[i] if grads[i] is not None and op.inputs[i].dtype.is_floating
                    else _zeros_for(op.inputs[i]) for i in summed]
    body, reads = _reverse_body(op, graph, rewrite, carried, summed, initial_sums)
    cond = _reverse_cond(graph, body)
    graph.library[body.name] = body
    graph.library[cond.name] = cond
    loop_vars = [op.outputs[rewrite.counter], *carried_grads, *initial_sums,
                 *[op.outputs[index] for index, _ in reads]]
    with graph.name_scope('gradients/while') as scope:
        backward = control.build_while(graph, loop_vars, [t.shape for t in body.inputs], cond,
                                       body, scope)
    out = [None] * n
    for i, g in zip(carried + summed, backward.outputs[1:]):
        out[i] = g
    return out


def _differentiated(op, grads):
    """(carried, summed): the loop variables whose gradients the reverse loop carries from one
    iteration to the next (float ones the body changes; lists with a gradient), and the loop
    invariants whose gradients it sums over the iterations."""
    body_fn = library_function(op, 'body')
    inputs = op.inputs
    invariant = [body_fn.outputs[i] is body_fn.inputs[i] for i in range(len(inputs))]
    carried = [i for i, t in enumerate(inputs) if not invariant[i] and (
        t.dtype.is_floating or t.dtype is dtypes.variant and grads[i] is not None)]
    summed = [i for i, t in enumerate(inputs) if invariant[i] and differentiable(t)]
    return carried, summed


def _reverse_body(op, graph, rewrite, carried, summed, initial_sums):
    """The body of the reverse loop, a GradientGraph of forward While `op`'s body, and its reads
    [(index of the forward op's accumulator output, the list's input in this body)].

    Its loop variables: the iteration count k (down to 0), the gradients of the `carried` loop
    variables, the sums of the gradients of the `summed` ones, then one list per forward value
    it reads (iteration k - 1's, from the list the forward loop wrote)."""
    body_fn = library_function(op, 'body')
    n = len(op.inputs)
    shapes = op.get_attr('output_shapes')
    positions = {id(p): j for j, p in enumerate(body_fn.inputs[:n])}
    reads = []

    def provide(fg, t):
        j = positions.get(id(t))
        if j is not None and _passed_on(body_fn, j):  # the same value in every iteration
            return fg.capture(op.inputs[j])
        index = _accumulator(op, rewrite, t)
        stack = fg.add_input(dtypes.variant, TensorShape([]), 'accumulator')
        reads.append((index, stack))
        return build(fg, list_ops.GET_ITEM, [stack, position],
                     {'element_dtype': t.dtype, '_element_shape': t.shape}, 'accumulator_read')

    body = GradientGraph(f'{body_fn.name}_grad_{uid()}', graph, body_fn, provide)
    k = body.add_input(dtypes.int32, TensorShape([]), 'iterations')
    carried_in = [body.add_input(op.inputs[i].dtype, shapes[i], 'gradient') for i in carried]
    sums_in = [body.add_input(s.dtype, s.shape, 'gradient_sum') for s in initial_sums]
    with body.as_default():
        position = k - 1
        output_grads = [None] * n
        for i, g in zip(carried, carried_in):
            output_grads[i] = g
        targets = [(o, g) for o, g in zip(body_fn.outputs[:n], output_grads) if g is not None]
        found = backprop(list(body_fn.operations), [o for o, _ in targets],
                         [g for _, g in targets], list(body_fn.inputs[:n]))
        new_carried = [found[i] if found[i] is not None else _zeros_like_gradient(g)
                       for i, g in zip(carried, carried_in)]
        new_sums = [add_gradients(s, found[i]) if found[i] is not None else s
                    for i, s in zip(summed, sums_in)]
        body.outputs = [identity(t) for t in [position, *new_carried, *new_sums]]
    body.outputs = body.outputs + [stack for _, stack in reads]
    return body, reads


def _reverse_cond(graph, body):
    """The condition of the reverse loop: iterations are left (k > 0)."""
    cond = FuncGraph(f'{body.name}_cond', graph, graph.current_scope)
    for t in body.inputs:
        cond.add_input(t.dtype, t.shape, 'loop_var')
    with cond.as_default():
        cond.outputs = [identity(greater(cond.inputs[0], 0))]
    return cond

not_differentiable(control.NO_OP)
