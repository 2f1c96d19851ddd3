"""Loop simplification for While nodes.

- A loop variable the body passes through unchanged is loop-invariant: uses of the loop's
  output become uses of its input, and when that input is a constant, the constant replaces the
  variable inside the condition and the body, where simplification and folding can use it.
- A loop variable that nothing after the loop uses, and that neither the condition, a stateful
  node nor another live variable depends on, is removed (for example an iteration counter
  that only a dropped check read).
- A counted loop (`while i < limit: ...; i = i + step` with an integer `i`, an invariant or
  constant `limit` and a positive constant `step`) gets its `Counted` facts (`node.counted`),
  so the code generators write it as a Python `for` over the values `i` takes.
"""
import operator

from runtime.executor.ir import Counted, Node, Program, Value
from runtime.executor.passes.fold_constants import fold_constants
from runtime.executor.passes.prune import prune, reachable
from runtime.executor.passes.simplify import simplify


def loops(program: Program) -> Program:
    for node in program.nodes:
        if node.opdef.control_flow == 'while':
            _propagate_invariants(program, node)
    for node in reversed(program.nodes):  # a later loop dropping an input can kill an output
        if node.opdef.control_flow == 'while':  # of an earlier one (a gradient's saved values)
            _drop_dead_variables(program, node)
            node.counted = _counted_form(node)
    return program


def _counted_form(node: Node) -> Counted | None:
    """The `Counted` facts of the While `node`, or None when it does not count."""
    cond, body = node.branches
    (test_value,) = cond.outputs
    test = test_value.node
    params = {p.outputs[0]: k for k, p in enumerate(cond.params)}
    if test.opdef.operator is not operator.lt or test.inputs[0] not in params:
        return None
    k = params[test.inputs[0]]
    bound = test.inputs[1]
    limit_param, limit_constant = None, None
    if bound in params and body.outputs[params[bound]] is body.params[params[bound]].outputs[0]:
        limit_param = params[bound]
    elif bound.constant is not None:
        limit_constant = bound.constant
    else:
        return None
    if any(n is not test and n is not bound.node and n not in cond.params for n in cond.nodes):
        return None
    counter_next = body.outputs[k]
    increment = counter_next.node
    dtype = node.outputs[k].dtype
    if increment.opdef.operator is not operator.add or counter_next.index != 0 or \
            not dtype.is_integer or increment.inputs[0] is not body.params[k].outputs[0] or \
            increment.inputs[1].constant is None:
        return None
    step = increment.inputs[1].constant
    if step.ndim != 0 or step <= 0:
        return None
    uses = len(counter_next.users) + sum(v is counter_next for v in body.outputs)
    if uses != 1:
        return None
    return Counted(k, limit_param, limit_constant, step, increment)


def _propagate_invariants(program: Program, node: Node) -> None:
    cond, body = node.branches
    for k, source in enumerate(node.inputs):
        if body.outputs[k] is not body.params[k].outputs[0]:
            continue
        program.replace_all_uses_with(node.outputs[k], source)
        if source.constant is None:
            continue
        for sub in (cond, body):
            const = source.node
            copy = Node(const.op, const.opdef, const.name, [], [], dict(const.attrs), None,
                        const.origin, [(source.dtype, source.shape)])
            sub.nodes.insert(0, copy)
            sub.replace_all_uses_with(sub.params[k].outputs[0], copy.outputs[0])
    for sub in (cond, body):
        for run_pass in (fold_constants, simplify, prune):
            run_pass(sub)


def _drop_dead_variables(program: Program, node: Node) -> None:
    cond, body = node.branches
    count = len(node.inputs)
    live = {k for k, value in enumerate(node.outputs)
            if value.users or value in program.outputs}
    live |= _params_reached(cond, cond.outputs)
    while True:
        reached = live | _params_reached(body, [body.outputs[k] for k in live])
        if reached == live:
            break
        live = reached
    if len(live) == count:
        return
    keep = sorted(live)
    node.inputs = [node.inputs[k] for k in keep]
    node.outputs = [node.outputs[k] for k in keep]
    for i, value in enumerate(node.outputs):
        value.index = i
    for sub in (cond, body):
        sub.params = [sub.params[k] for k in keep]
    body.outputs = [body.outputs[k] for k in keep]
    prune(cond)
    prune(body)


def _params_reached(sub: Program, roots: list[Value]) -> set[int]:
    """Indices of `sub`'s params that the values `roots` or any stateful node of `sub`
    depend on."""
    seen = reachable(sub, [value.node for value in roots])
    return {k for k, p in enumerate(sub.params) if p in seen}
