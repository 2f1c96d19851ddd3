"""Native rules of the variable ops: a variable's value is a local, passed in when the call
starts; reads use it, writes change it, and the values written are stored back when native
code returns (native/calling.py)."""
from runtime.executor.native.rules import RULES, cast, lowers
from runtime.ops import state
from runtime.ops.state import VariableStorage


def retained(program, storages):
    """The ids of the VariableStorages (`storages`: resource Value -> its storage) that a
    kernel call may keep and use after it returns: the operands of a node whose payload is a
    function it runs later (a dataset op's, whose function runs when a later op iterates)
    and that native code has no rule for. Native code cannot hold such a variable's value as
    a local (writes through the kernel would be lost): its reads and writes call kernels on
    the variable itself."""
    out = set()
    for node in program.nodes:
        for branch in node.branches:
            out |= retained(branch, storages)
        if node.payload is not None and not isinstance(node.payload, VariableStorage) and \
                node.opdef not in RULES:
            out.update(id(storages[ref]) for ref in node.inputs if ref in storages)
    return out


@lowers(state.VAR_HANDLE)
def _var_handle(lowering, node, inputs, depth):
    """A variable of a plain graph: its value is an argument, as for a resource input."""
    return [lowering.variable(node, node.payload, node.payload)]


@lowers(state.READ)
def _read_variable(lowering, node, inputs, depth):
    out = lowering.result(node)
    lowering.line(depth, f'{out} = {inputs[0]}')
    return [out]


def _assign_variable(update):
    def lower(lowering, node, inputs, depth):
        variable, value = inputs
        storage, _ = lowering.variables[variable]
        expr = update.format(variable, value)
        spec = (node.inputs[1].dtype, storage.shape)
        lowering.line(depth, f'{variable} = {cast(node, expr, spec)}')
        lowering.assigned.add(variable)
        return []
    return lower


lowers(state.ASSIGN)(_assign_variable('{1}'))
lowers(state.ASSIGN_ADD)(_assign_variable('{0} + {1}'))
lowers(state.ASSIGN_SUB)(_assign_variable('{0} - {1}'))
