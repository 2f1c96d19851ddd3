"""In-place updates: mark the nodes whose op may take over its first input (`OpDef.in_place`)
because no one else holds that value and nothing reads it afterwards.

A TensorList write (`ta = ta.write(i, x)`) makes a new version of the list and keeps the old
version readable (runtime/ops/list_ops.py), which costs a new object and an undo record per
write. Where this pass proves the old version dead, the node is marked (`node.in_place`) and
the code generator calls the op's `in_place` kernel, which writes the list itself.

A value is *private* when only its own uses can reach it: the output of an op with
`fresh_output` (a new list from TensorListReserve), the result of a node marked here (the list
it took over, which nothing else holds), or a loop variable whose every value is private
(below). A node may take over its first input when that input is private, the node is its only
user (and reads it once) and it is not an output of the block. A While's loop variable is
private in the body when its value on entry is private and dies at the loop (which reads it
once), its value at the end of an iteration (the body's output) is private, that output is no
other output, and what reads it in the body, or reads the variable in the condition, only reads
it: no stateful or control-flow node and no list-valued result, which could hold it while the
next iteration writes it. (A write that makes a new version is not private: the old version
keeps an undo record pointing at it.)
"""
from runtime.core import dtypes
from runtime.ops.registry import PLACEHOLDER


def in_place(program):
    for node in _in_place_nodes(program, frozenset())[1]:
        node.in_place = True
    return program


def _in_place_nodes(program, private_params):
    """(the private Values of `program`, the nodes of it and of its loops that may update
    their first input in place), given that the param Values `private_params` are private."""
    private = set(private_params)
    outputs = set(program.outputs)
    marked = []
    for node in program.nodes:
        opdef = node.opdef
        if opdef is PLACEHOLDER:
            continue
        if opdef.control_flow == 'while':
            marked.extend(_loop_in_place_nodes(node, private, outputs))
        elif opdef.stateful:
            continue
        elif opdef.in_place is not None and _dies_at(node.inputs[0], node, private, outputs):
            marked.append(node)
            private.add(node.outputs[0])  # the input's list itself, which nothing else holds
        elif opdef.fresh_output:
            private.add(node.outputs[0])
    return private, marked


def _dies_at(value, node, private, outputs):
    """Whether `node` is the one reader of the private `value` (which no output holds)."""
    return value in private and len(value.users) == 1 and node in value.users and \
        node.inputs.count(value) == 1 and value not in outputs


def _loop_in_place_nodes(node, private, outputs):
    """The nodes of the While `node`'s body that may update their input in place. A loop
    variable is assumed private in the body where it may be (its value on entry private and
    dead, what reads it only reading it), and the assumption is dropped while the body's value
    for it at the end of an iteration is not private (the largest consistent set: by induction
    each iteration starts from a private value)."""
    cond, body = node.branches
    candidates = {k for k, entry in enumerate(node.inputs)
                  if entry.dtype is dtypes.variant and _dies_at(entry, node, private, outputs)
                  and body.outputs.count(body.outputs[k]) == 1 and
                  _only_read(cond.params[k].outputs[0]) and _only_read(body.outputs[k])}
    while True:
        body_private, marked = _in_place_nodes(
            body, frozenset(body.params[k].outputs[0] for k in candidates))
        kept = {k for k in candidates if body.outputs[k] in body_private and
                body.outputs[k] is not body.params[k].outputs[0]}
        if kept == candidates:
            return marked
        candidates = kept


def _only_read(value):
    """Whether every user of `value` only reads it (holds no reference to it afterwards)."""
    return all(not user.opdef.stateful and user.opdef.control_flow is None and
               all(out.dtype is not dtypes.variant for out in user.outputs)
               for user in value.users)
