"""Loop simplification for While nodes.

- A loop variable the body passes through unchanged is loop-invariant: uses of the loop's
  output become uses of its input, and when that input is a constant, the constant replaces the
  variable inside the condition and the body, where simplification and folding can use it.
- A loop variable that nothing after the loop uses, and that neither the condition, a stateful
  node nor another live variable depends on, is removed (for example an iteration counter
  that only a dropped check read).
- A counted loop (`while i < limit: ...; i = i + step` with an integer `i`, an invariant or
  constant `limit` and a positive constant `step`) is marked with attr `_counted`, so the code
  generator writes it as a Python `for` over the values `i` takes.
"""
from runtime.executor.ir import Node
from runtime.executor.passes.fold_constants import fold_constants
from runtime.executor.passes.prune import prune, reachable
from runtime.executor.passes.simplify import simplify
from runtime.ops.registry import CONST


def loops(program):
    subst = {}
    for node in program.nodes:
        node.inputs = [subst.get((id(n), i), (n, i)) for n, i in node.inputs]
        if node.opdef.control_flow == 'while':
            _propagate_invariants(node, subst)
    program.substitute(subst)
    used = {(id(n), i) for node in program.nodes for n, i in node.inputs}
    used.update((id(n), i) for n, i in program.outputs)
    for node in program.nodes:
        if node.opdef.control_flow == 'while':
            _drop_dead_variables(program, node, used)
            counted = _counted_form(node)
            if counted is not None:
                node.attrs['_counted'] = counted
    return program


def _counted_form(node):
    """(index of the counter, limit, step, increment node) of a counted loop, or None.

    `limit` is ('param', j) for an invariant loop variable j, or ('const', value)."""
    cond, body = node.branches
    (test, _), = cond.outputs
    params = {id(p): k for k, p in enumerate(cond.params)}
    if test.opdef.infix != '{0} < {1}' or test.inputs[0][1] != 0 or \
            id(test.inputs[0][0]) not in params:
        return None
    k = params[id(test.inputs[0][0])]
    bound = test.inputs[1][0]
    if id(bound) in params and body.outputs[params[id(bound)]] == \
            (body.params[params[id(bound)]], 0):
        limit = ('param', params[id(bound)])
    elif bound.opdef is CONST:
        limit = ('const', bound.attrs['value'])
    else:
        return None
    if any(n is not test and n is not bound and id(n) not in params for n in cond.nodes):
        return None
    increment, index = body.outputs[k]
    dtype = node.specs[k][0]
    if increment.opdef.infix != '{0} + {1}' or index != 0 or not dtype.is_integer or \
            increment.inputs[0] != (body.params[k], 0) or increment.inputs[1][0].opdef is not CONST:
        return None
    step = increment.inputs[1][0].attrs['value']
    if step.ndim != 0 or step <= 0:
        return None
    uses = sum(ref[0] is increment for n in body.nodes for ref in n.inputs)
    uses += sum(ref[0] is increment for ref in body.outputs)
    return (k, limit, step, increment) if uses == 1 else None


def _propagate_invariants(node, subst):
    cond, body = node.branches
    for k, (source, index) in enumerate(node.inputs):
        if body.outputs[k] != (body.params[k], 0):
            continue
        subst[(id(node), k)] = (source, index)
        if source.opdef is not CONST:
            continue
        for sub in (cond, body):
            const = Node(source.op, source.opdef, source.name, [], [], dict(source.attrs), None,
                         source.origin, list(source.specs))
            sub.nodes.insert(0, const)
            uses = {(id(sub.params[k]), 0): (const, 0)}
            sub.substitute(uses)
    for sub in (cond, body):
        for run_pass in (fold_constants, simplify, prune):
            run_pass(sub)


def _drop_dead_variables(program, node, used):
    cond, body = node.branches
    count = len(node.inputs)
    live = {k for k in range(count) if (id(node), k) in used}
    live |= _params_reached(cond, cond.outputs)
    while True:
        reached = live | _params_reached(body, [body.outputs[k] for k in live])
        if reached == live:
            break
        live = reached
    if len(live) == count:
        return
    keep = sorted(live)
    new_index = {k: i for i, k in enumerate(keep)}
    node.inputs = [node.inputs[k] for k in keep]
    node.specs = [node.specs[k] for k in keep]
    cond.params = [cond.params[k] for k in keep]
    body.params = [body.params[k] for k in keep]
    body.outputs = [body.outputs[k] for k in keep]
    for user in program.nodes:
        user.inputs = [(n, new_index[i]) if n is node else (n, i) for n, i in user.inputs]
    program.outputs = [(n, new_index[i]) if n is node else (n, i) for n, i in program.outputs]
    prune(cond)
    prune(body)


def _params_reached(sub, roots):
    """Indices of `sub`'s params that `roots` or any stateful node of `sub` depend on."""
    seen = reachable(sub, [node for node, _ in roots])
    return {k for k, p in enumerate(sub.params) if id(p) in seen}
