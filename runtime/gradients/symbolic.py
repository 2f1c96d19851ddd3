"""TensorFlow's gradient functions besides the tape: `rt.gradients` and `rt.hessians` (the
symbolic gradients of a graph being built), `rt.RegisterGradient` / `rt.no_gradient` (a
gradient for an op type of the registry), `rt.grad_pass_through` and `rt.recompute_grad`, and
`rt.AggregationMethod`.

`gradients(ys, xs)` walks the ops of the graph `ys` belong to (a `tf.function` being traced, a
`Graph().as_default()` block) backwards from `ys` to `xs` with the same walk as the tape
(`runtime.gradients.backprop`), adding the gradient ops to that graph.
"""
from runtime.core import context, nest
from runtime.core.tensor import SymbolicTensor, Tensor
from runtime.custom_gradient import custom_gradient
from runtime.gradients.backprop import backprop
from runtime.gradients.tape import GradientTape, UnconnectedGradients
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.registry import NO_GRADIENT, REGISTRY, UNREGISTERED_GRADIENT
from runtime.ops.shaping import reshape
from runtime.variables import Variable


class AggregationMethod:
    """How gradients that reach one tensor along several paths are summed. Every method gives
    the same sum here (one AddN per tensor); the names are TensorFlow's."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


_METHODS = (None, AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
            AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)


def _graph_source(x, graph):
    """What the graph's ops read `x` through: a Variable's resource handle, else `x`."""
    if isinstance(x, Variable):
        return graph.capture_resource(x.storage)
    if not isinstance(x, SymbolicTensor):
        raise TypeError(f'tf.gradients: xs must be tensors of the graph being built or '
                        f'Variables, got {x!r}.')
    return x


def gradients(ys, xs, grad_ys=None, name='gradients', gate_gradients=False,
              aggregation_method=None, stop_gradients=None, unconnected_gradients='none'):
    """The symbolic partial derivatives of the sum of `ys` with respect to each of `xs`, in the
    graph being built (RuntimeError eagerly: use tf.GradientTape). `grad_ys` weights each of
    `ys` (ones by default); `stop_gradients` are tensors no gradient flows through;
    `gate_gradients` and `aggregation_method` change nothing (one AddN sums every tensor's
    gradients)."""
    if context.current_graph() is None:
        raise RuntimeError('tf.gradients is not supported when eager execution is enabled. '
                           'Use tf.GradientTape instead.')
    if aggregation_method not in _METHODS:
        raise ValueError(f'Invalid aggregation_method specified {aggregation_method}.')
    unconnected = UnconnectedGradients(unconnected_gradients)
    graph = context.current_graph()
    flat_ys = [convert_to_tensor(y) for y in nest.flatten(ys)]
    flat_xs = nest.flatten(xs)
    if grad_ys is None:
        flat_grad_ys = [None] * len(flat_ys)
    else:
        flat_grad_ys = nest.flatten(grad_ys)
        if len(flat_grad_ys) != len(flat_ys):
            raise ValueError(f'Passed {len(flat_grad_ys)} grad_ys for {len(flat_ys)} ys')
    with graph.name_scope(name or 'gradients'):
        seeds = [(ones_like(y) if g is None else convert_to_tensor(g, y.dtype))
                 if y.dtype.is_floating else None for y, g in zip(flat_ys, flat_grad_ys)]
        sources = [_graph_source(x, graph) for x in flat_xs]
        stops = {id(t) for t in nest.flatten(stop_gradients or [])}
        ops = [op for op in graph.get_operations()
               if not any(id(out) in stops for out in op.outputs)]
        found = backprop(ops, flat_ys, seeds, sources)
    out = []
    for x, source, g in zip(flat_xs, sources, found):
        if g is None and unconnected is UnconnectedGradients.ZERO:
            g = zeros_like(x if not isinstance(x, Variable) else x.read_value())
        out.append(g)
    return out


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name='hessians'):
    """For each of `xs`, the matrix of second derivatives of the sum of `ys`, of shape
    `x.shape + x.shape` (in the graph being built, as `tf.gradients`; each `x` needs a fully
    defined shape: one gradient per element of the first gradient)."""
    flat_xs = nest.flatten(xs)
    firsts = gradients(ys, flat_xs, name=name, gate_gradients=gate_gradients,
                       aggregation_method=aggregation_method)
    out = []
    for x, g in zip(flat_xs, firsts):
        if g is None:
            out.append(None)
            continue
        shape = x.shape
        if not shape.is_fully_defined():
            raise ValueError(f'tf.hessians needs xs of a fully defined shape, got {shape}.')
        flat = reshape(g, [-1])
        rows = [gradients(flat[i], x, name=name, unconnected_gradients='zero')[0]
                for i in range(shape.num_elements())]
        out.append(reshape(stack(rows), shape.as_list() * 2))
    return out


class RegisterGradient:
    """`@tf.RegisterGradient('OpType')`: `fn(op, *output_grads) -> input gradients` becomes
    the gradient of the registry's op type `OpType`. As in TensorFlow, an op type that has a
    gradient already is a KeyError; an op type the registry lacks is a LookupError (register
    its OpDef in runtime.ops first)."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError('op_type must be a string')
        self._op_type = op_type

    def __call__(self, f):
        _set_gradient(self._op_type, f, 'gradient')
        return f


def no_gradient(op_type):
    """Declare that the op type `op_type` has no gradient: gradients stop at its outputs."""
    if not isinstance(op_type, str):
        raise TypeError('op_type must be a string')
    _set_gradient(op_type, NO_GRADIENT, 'no gradient')


def _set_gradient(op_type, rule, what):
    opdef = REGISTRY.get(op_type)
    if opdef is None:
        raise LookupError(f'There is no op type {op_type!r} to register a {what} for: '
                          f'register its OpDef in runtime.ops first.')
    if opdef.gradient not in (None, UNREGISTERED_GRADIENT):
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous "
                       f'registration was in the op registry.)')
    opdef.gradient = rule


def grad_pass_through(f):
    """`f` whose gradient is the identity: y = f(x) forward, dy/dx taken as 1 backward (a
    straight-through estimator: `tf.grad_pass_through(tf.round)`)."""
    @custom_gradient
    def pass_through(*args, **kwargs):
        def grad(*upstream, variables=None):
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args, **kwargs), grad
    return pass_through


def recompute_grad(f):
    """`f` whose forward activations are not kept for its gradient: the gradient runs `f`
    again under a tape (TensorFlow's memory-for-time trade). Values and gradients are `f`'s."""
    @custom_gradient
    def recomputed(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad(*upstream, variables=None):
            tensors = [a for a in nest.flatten(args) if isinstance(a, Tensor)]
            watched = tensors + list(variables or [])
            with GradientTape() as tape:
                tape.watch(watched)
                again = f(*args, **kwargs)
            found = tape.gradient(again, watched, output_gradients=list(upstream))
            by_id = {id(t): g for t, g in zip(tensors, found)}
            input_grads = [by_id.get(id(a)) for a in nest.flatten(args)]
            if variables is not None:
                return input_grads, found[len(tensors):]
            return input_grads
        return result, grad
    return recomputed
