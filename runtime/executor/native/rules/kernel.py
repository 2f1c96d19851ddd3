"""The rule of last resort: a node native code has no form for calls its numpy kernel (the
default executor's) from the compiled code, so every graph compiles.

Each such node calls a small function of the generated module (a *site*; the nodes whose
operands and results have the same types share one), compiled with the rest, whose `objmode`
block calls `call_kernel(k, ...)` (native/calling.py): the k-th
`KernelCall` of the plan converts the operands (arrays are passed without a copy, scalars
become numpy scalars of their dtype, boxed values come out of the call's store), runs the
kernel and returns its results as native code holds them. A variable operand is passed as a
storage holding the variable's current value, and what the kernel stores there becomes the
variable's new value. A region native code cannot write (control flow nested too deep, or
whose predicate is boxed) runs as the default executor's plans of its functions, called the
same way. (A site is a function of its own because numba 0.68 miscompiles an `objmode`
block that follows a loop holding another one.)
"""
import functools
from dataclasses import dataclass

import numpy as np

from runtime.core import dtypes
from runtime.executor import codegen
from runtime.executor.native.rules import Site, Unsupported, np_name
from runtime.ops import registry
from runtime.ops.registry import check_nonzero
from runtime.ops.state import VariableStorage

BOX, SCALAR, ARRAY, CELL = 'box', 'scalar', 'array', 'cell'


@dataclass(slots=True, eq=False)
class Operand:
    """How a site passes one operand or result: `kind` (BOX, SCALAR, ARRAY or CELL, a
    variable) and the numpy dtype of scalars, arrays and variables' values (None for boxes)."""

    kind: str
    dtype: object = None
    shape: object = None
    variable_dtype: object = None  # a variable's DType (CELL)

    def to_python(self, value, store):
        """The value a kernel takes, from the value native code passed."""
        if self.kind == BOX:
            return store[value]
        if self.kind == SCALAR:
            return self.dtype.type(value)
        if self.kind == CELL:
            return VariableStorage(self.dtype.type(value) if self.shape.rank == 0 else value,
                                   self.variable_dtype, self.shape, 'native')
        return value

    def to_native(self, value, store):
        """The value native code holds, from a kernel's result."""
        if self.kind == BOX:
            store.append(value)
            return len(store) - 1
        if self.kind == CELL:
            value = value.value
            if self.shape.rank == 0:
                return self.dtype.type(value)
        elif self.kind == SCALAR:
            return self.dtype.type(value)
        return np.ascontiguousarray(value, dtype=self.dtype)

    def numba_type(self):
        """The type an `objmode` block declares for it."""
        if self.kind == BOX:
            return 'int64'
        base = 'boolean' if self.dtype == np.bool_ else self.dtype.name
        rank = self.shape.rank
        if rank == 0:
            return base
        return f'{base}[{", ".join([":"] * (rank - 1) + ["::1"])}]'


@dataclass(slots=True, eq=False)
class KernelCall:
    """One site's call: `function(*operands)` gives one result (`single`) or a tuple, of which
    those at `returned` go back to native code, then the values of the CELL operands."""

    node: object
    function: object
    single: bool
    inputs: list
    outputs: list  # Operand of each result, or None for one nothing reads
    stateful: bool
    checks: tuple = ()

    def __call__(self, store, *args):
        values = [operand.to_python(arg, store) for operand, arg in zip(self.inputs, args)]
        try:
            for i in self.checks:
                check_nonzero(values[i])
            result = self.function(*values)
        except Exception as error:
            codegen.raise_for_node(error, self.node)
        results = (result,) if self.single else () if not self.outputs else tuple(result)
        native = [operand.to_native(value, store)
                  for operand, value in zip(self.outputs, results) if operand is not None]
        native += [operand.to_native(value, store) for operand, value in
                   zip(self.inputs, values) if operand.kind == CELL]
        return tuple(native)


def operand(lowering, value):
    """The Operand of a Value as native code holds it."""
    if lowering.is_boxed(value):
        return Operand(BOX)
    if value.dtype is dtypes.resource:
        storage, _ = lowering.variables[lowering.names[value]]
        return Operand(CELL, storage.dtype.np_dtype, storage.shape, storage.dtype)
    if np_name(value.dtype) is None or value.dtype is dtypes.variant:
        raise Unsupported(value.node, f'native code cannot hold its {value.dtype.name} value')
    if value.shape.rank == 0:
        return Operand(SCALAR, value.dtype.np_dtype, value.shape)
    return Operand(ARRAY, value.dtype.np_dtype, value.shape)


def kernel_function(node):
    """(callable(*input values) -> result(s), single) running `node` as the default executor
    does; raises Unsupported when the op has no kernel."""
    opdef = node.opdef
    if opdef is registry.CONST:
        value = node.attrs['value']
        return (lambda: value), True
    single = len(node.outputs) == 1 and not isinstance(opdef.outputs, str)
    if opdef.control_flow is not None:
        return _region(node), False
    if opdef.bind_kernel is not None:
        return opdef.bind_kernel(node.attrs, node.payload), single
    if opdef.kernel is None:
        raise Unsupported(node, 'the op has neither a native form nor a kernel to call')
    attrs = opdef.kernel_attrs(node.attrs)
    return (functools.partial(opdef.kernel, **attrs) if attrs else opdef.kernel), single


def _region(node):
    """The control-flow node as Python calling the default executor's plans of its functions."""
    plans = [codegen.generate(branch) for branch in node.branches]
    kind = node.opdef.control_flow
    if kind == 'if':
        then, otherwise = plans
        return lambda predicate, *args: (then if predicate else otherwise)(*args)
    if kind == 'case':
        last = len(plans) - 1
        return lambda index, *args: plans[index if 0 <= index < last else last](*args)
    cond, body = plans

    def loop(*args):
        while cond(*args)[0]:
            args = body(*args)
        return args
    return loop


def call(lowering, node, inputs, depth):
    """The rule calling `node`'s kernel: a site function and the line calling it."""
    if any(ref.dtype is dtypes.variant and not lowering.is_boxed(ref)
           for ref in list(node.inputs) + node.outputs):
        raise AssertionError(f'{node.name}: the list analysis (native/lists.py) left a '
                             f'TensorList native that a kernel call reads or makes')
    function, single = kernel_function(node)
    operands = [operand(lowering, ref) for ref in node.inputs]
    results = [operand(lowering, value) if lowering.uses.get(value) else None
               for value in node.outputs]
    args = [lowering.materialized(ref, name, depth) for ref, name in zip(node.inputs, inputs)]
    site = KernelCall(node, function, single, operands, results,
                      node.opdef.stateful or node.opdef.control_flow is not None,
                      tuple(node.checks))
    k = len(lowering.kernels)
    lowering.kernels.append(site)
    params = [f'a{i}' for i in range(len(args))]
    cells = [args[i] for i, operand_ in enumerate(operands) if operand_.kind == CELL]
    declared = [(f'o{i}', result) for i, result in enumerate(results) if result is not None]
    declared += [(f'o{len(results) + j}', operands[i]) for j, i in
                 enumerate(i for i, operand_ in enumerate(operands) if operand_.kind == CELL)]
    returned = [name for name, _ in declared]
    types = ', '.join(f'{name}={operand_.numba_type()!r}' for name, operand_ in declared)
    body = [f'    with objmode({types}):',
            f'        results = call_kernel(k, {"".join(p + ", " for p in params)})']
    body += [f'        {name} = results[{j}]' for j, name in enumerate(returned)]
    if returned:
        body.append(f'    return {", ".join(returned)}')
    text = '\n'.join([f'({", ".join(["k"] + params)}):'] + body)
    site_name = lowering.loops.get(text)  # sites of one signature are one function
    if site_name is None:
        site_name = lowering.loops[text] = lowering.function_name('kernel')
        lowering.sites.append(Site(site_name, f'def {site_name}{text}\n\n',
                                   inlinable=False))
    names = [lowering.result(node) if result is not None else None for result in results]
    targets = [name for name in names if name is not None] + cells
    lowering.call_line(depth, ', '.join(targets), site_name, [str(k)] + args)
    lowering.assigned.update(cells)
    return names
