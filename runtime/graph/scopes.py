"""Scopes and grouping: `rt.control_dependencies`, `rt.init_scope`, `rt.group`, `rt.no_op`
(`rt.name_scope` is `runtime.core.context.name_scope`)."""
import contextlib

from runtime.core import context, nest
from runtime.core.tensor import SymbolicTensor
from runtime.graph.graph import FuncGraph
from runtime.ops import control
from runtime.ops.dispatch import build


def _as_op(value):
    """The Operation a control dependency on `value` waits for (None eagerly)."""
    if hasattr(value, '__tf_tensor__'):  # a Variable: its current value, read after earlier writes
        value = value.__tf_tensor__()
    if isinstance(value, SymbolicTensor):
        return value.op
    if hasattr(value, 'graph') and hasattr(value, 'opdef'):  # an Operation
        return value
    return None


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Ops created inside run after `control_inputs` (ops, tensors, Variables); None clears the
    enclosing dependencies. Eagerly ops run in order anyway, so this does nothing."""
    graph = context.current_graph()
    if graph is None:
        yield
        return
    if control_inputs is None:
        with graph.control_dependencies(None):
            yield
        return
    ops = [op for op in map(_as_op, control_inputs) if op is not None]
    with graph.control_dependencies(ops):
        yield


def no_op(name=None):
    """An op that does nothing (`NoOp`); eagerly None."""
    graph = context.current_graph()
    if graph is None:
        return None
    return build(graph, control.NO_OP, [], {}, name or 'NoOp')


def group(*inputs, name=None):
    """A NoOp that runs after every op of `inputs` (nested lists allowed); eagerly None."""
    graph = context.current_graph()
    if graph is None:
        return None
    ops = [op for op in map(_as_op, nest.flatten(list(inputs))) if op is not None]
    with graph.control_dependencies(ops):
        return build(graph, control.NO_OP, [], {}, name or 'group_deps')


@contextlib.contextmanager
def init_scope():
    """Leave the functions being traced: ops inside run eagerly, or go into the outermost
    graph when that is a plain `rt.Graph`. The name scope is kept; control dependencies are
    not."""
    graphs = context.state.graphs
    outer = graphs[0] if graphs and not isinstance(graphs[0], FuncGraph) else None
    scope = context.current_name_scope()
    saved_graphs, saved_scope = context.state.graphs, context.state.name_scope
    context.state.graphs = [outer] if outer is not None else []
    context.state.name_scope = scope
    try:
        if outer is not None:
            with outer.control_dependencies(None), outer.exact_scope(scope.rstrip('/')):
                yield
        else:
            yield
    finally:
        context.state.graphs, context.state.name_scope = saved_graphs, saved_scope
