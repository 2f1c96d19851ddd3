"""The native backend's emitter: an optimized Program as the source of one function numba
compiles in nopython mode.

Every value becomes a local holding a scalar (rank 0) or a numpy array, cast back to its
TensorFlow dtype after each op (numba widens integer arithmetic to int64). `Lowering.emit`
walks the program: If and Case become `if`/`elif`/`else` and While `while` (a counted loop
`for j in range(...)`) with their functions inlined; every other node goes to its rule
(native/rules/, registered with `@lowers`) or, for an op with a native form, to
`elementwise.lower_form`. A node no rule writes (no rule, operands the rule has no form for,
values native code cannot hold, control flow nested too deep) calls its numpy kernel from the
compiled code (native/rules/kernel.py), so every graph compiles. Values native code cannot
hold (strings, unknown ranks, TensorArrays of no fixed element shape or of dynamic size) are
*boxed*: an int64 index into the call's store of Python objects, which only kernel calls read.

`lower(program)` returns the source and its `calling.Convention`. This module does not import
numba.
"""
import itertools
import re

import numpy as np

from runtime.core import dtypes
from runtime.executor.native import calling
from runtime.executor.native.lists import Lists, refine_shapes, uses_of
from runtime.executor.native.reroll import reroll
from runtime.executor.native.rules import (
    RULES,
    Restart,
    Unsupported,
    cast,
    elementwise,
    holds,
    kernel,
    np_name,
    scalar_literal,
    spec,
    targets,
)
from runtime.executor.native.rules import array as array_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import lists as list_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import nn as nn_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import reduce as reduce_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import state as state_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules.forms import form_of
from runtime.ops import registry
from runtime.ops.state import VariableStorage

MAX_DEPTH = 40  # Python refuses code nested 100 blocks deep; loop nests need some of them
_OPERAND = re.compile(r'\b[vpwrctsj]\d+\b')  # the names of locals and arguments (`fresh`)


class Lowering:
    """The state of one lowering: the lines written, the names of values, constants, variables,
    kernel calls, and the elementwise fusion in progress."""

    def __init__(self, program, boxed_lists=frozenset()):
        self.lines = []
        self.constants = []  # [(name, array)]: array constants, arguments after the params
        self._ids = itertools.count()
        self.lists = Lists(program, boxed_lists)
        refine_shapes(self.lists, program)
        self.uses = {}
        self.names = {}  # each Value -> the local (or constant) holding it
        self.fused = {}  # a Value computed inside its user's loop -> its element
        self.chained = set()  # the nodes of chains
        self.variables = {}  # local holding a variable's value -> its VariableStorage or param
        self.assigned = set()  # those locals that writes change
        self.scratch = set()  # arrays allocated here that only a ufunc call reads: it may overwrite
        self.kernels = []  # kernel.KernelCall of each kernel call site, by index
        self.sites = []  # the source of the functions those sites are, and of loops
        self.loops = {}  # the text of a loop or kernel-call function -> its name

    # ---- what rules call ----------------------------------------------------------------------

    def fresh(self, prefix):
        return f'{prefix}{next(self._ids)}'

    def line(self, depth, text):
        self.lines.append('    ' * depth + text)

    def assign(self, node, expr, depth, value_spec=None, same=False):
        """A line computing `expr` into a new local, cast to the spec of `node`'s output (or
        `value_spec`; `same`: an array `expr` has its dtype already); the local, as a list of
        outputs."""
        out = self.fresh('v')
        self.line(depth, f'{out} = {cast(node, expr, value_spec or spec(node.outputs[0]), same)}')
        return [out]

    def array_constant(self, value):
        """The name of an argument holding the array `value`."""
        name = self.fresh('c')
        self.constants.append((name, value))
        return name

    def variable(self, node, storage, source):
        """The local holding the value of the variable `storage` (`source`: the param index
        or the storage that gives its value at each call)."""
        for name, (known, _) in self.variables.items():
            if known is storage:
                return name
        if not holds_variable(storage):
            raise Unsupported(node, 'it is a resource native code cannot hold as a variable')
        name = self.fresh('r')
        self.variables[name] = (storage, source)
        return name

    def loop_nest(self, dims, depth):
        indexes = [self.fresh('e') for _ in dims]
        for k, (index, size) in enumerate(zip(indexes, dims)):
            self.line(depth + k, f'for {index} in range({size}):')
        return indexes

    def loop_call(self, out, dims, dtype_name, element, depth):
        """`out = loop_k(operands)`: a new array of `dims` whose elements are `element(indexes)`,
        as a loop nest in a function of the generated module that every loop of the same text
        calls. LLVM spends ~0.1 s optimizing each loop nest, so fifty layers of `relu(x @ w +
        b)` compile one loop, not fifty."""
        indexes = [f'i{k}' for k in range(len(dims))]
        expr = element(indexes)
        operands = list(dict.fromkeys(_OPERAND.findall(expr)))
        renamed = {name: f'a{k}' for k, name in enumerate(operands)}
        lines = [f'    out = np.empty({tuple(dims)!r}, np.{dtype_name})']
        lines += ['    ' * (k + 1) + f'for {index} in range({size}):'
                  for k, (index, size) in enumerate(zip(indexes, dims))]
        lines += ['    ' * (len(dims) + 1) + f'out[{", ".join(indexes)}] = ' +
                  _OPERAND.sub(lambda m: renamed[m.group()], expr), '    return out']
        text = '\n'.join(lines)
        name = self.loops.get(text)
        if name is None:
            name = self.loops[text] = f'loop_{len(self.loops)}'
            self.sites.append(f'@site\ndef {name}({", ".join(renamed.values())}):\n{text}\n\n')
        self.line(depth, f'{out} = {name}({", ".join(operands)})')

    def is_boxed(self, value):
        """Whether `value` is held as an index into the call's store of Python objects: a
        value of a dtype or rank native code cannot hold, a TensorList the analysis boxed, a
        resource that is no variable native code holds (a summary writer's)."""
        if value.dtype is dtypes.variant:
            return self.lists.is_boxed(value)
        if value.dtype is dtypes.resource:
            name = self.names.get(value)
            return name not in self.variables if name is not None else \
                not holds_variable(value.node.payload)
        return not holds(value)

    def materialized(self, ref, name, depth):
        """The name of an array holding `ref`, computed now if it was to be fused into a loop
        that is not written after all."""
        element = self.fused.pop(ref, None)
        if element is None:
            return name
        dtype, shape = spec(ref)
        out = self.fresh('v')
        self.line(depth, f'{out} = np.empty({tuple(shape.as_list())!r}, np.{np_name(dtype)})')
        indexes = self.loop_nest(shape.as_list(), depth)
        self.line(depth + len(indexes), f'{out}[{", ".join(indexes)}] = {element(indexes)}')
        return out

    # ---- the walk -----------------------------------------------------------------------------

    def emit(self, program, args, depth, skip=frozenset()):
        """Emit `program` with its params bound to the names `args`; return its outputs."""
        names = self.names
        names.update((p.outputs[0], a) for p, a in zip(program.params, args))
        uses = uses_of(program)
        self.uses.update(uses)
        chains = elementwise.chains(program.nodes, uses)
        self.chained.update(chains)
        for node in program.nodes:
            if node in skip:
                continue
            chain = chains.get(node)
            if chain is not None:
                if chain[0] is node:
                    self.emit_chain(chain, depth)
                continue
            opdef = node.opdef
            if opdef is registry.PLACEHOLDER:
                if node.outputs[0] not in names:
                    raise Unsupported(node, 'it is a placeholder that is not fed')
                continue
            if opdef is registry.CONST:
                names[node.outputs[0]] = self.constant(node, depth)
                continue
            outs = self.emit_node(node, [names.get(ref) for ref in node.inputs], depth)
            names.update(zip(node.outputs, outs))
        return [names.get(ref) for ref in program.outputs]

    def emit_chain(self, chain, depth):
        """A chain as one loop (elementwise.emit_chain), or node by node when one of them has
        no native form for its operands."""
        mark = (len(self.lines), dict(self.fused), len(self.constants))
        try:
            elementwise.emit_chain(self, chain, depth)
        except Unsupported:
            del self.lines[mark[0]:], self.constants[mark[2]:]
            self.fused = mark[1]
            for node in chain:
                outs = self.emit_node(node, [self.names.get(ref) for ref in node.inputs], depth)
                self.names.update(zip(node.outputs, outs))

    def emit_node(self, node, inputs, depth):
        """The names of `node`'s outputs, written by its rule where it has one that serves,
        else by a call of its kernel."""
        control_flow = node.opdef.control_flow
        if control_flow is not None:
            if depth <= MAX_DEPTH and (control_flow == 'while' or
                                       not self.is_boxed(node.inputs[0])):
                if control_flow == 'while':
                    return self.emit_while(node, inputs, depth)
                return self.emit_branches(node, inputs, depth)
            return kernel.call(self, node, inputs, depth)
        rule = RULES.get(node.opdef)
        if rule is None and form_of(node.opdef) is not None:
            rule = elementwise.lower_form
        if rule is not None and not any(self.is_boxed(v) for v in node.inputs + node.outputs):
            mark = (len(self.lines), dict(self.fused), len(self.constants))
            try:
                return rule(self, node, inputs, depth)
            except Unsupported:
                del self.lines[mark[0]:], self.constants[mark[2]:]
                self.fused = mark[1]
        return kernel.call(self, node, inputs, depth)

    def constant(self, node, depth):
        value = node.attrs['value']
        dtype = node.outputs[0].dtype
        if self.is_boxed(node.outputs[0]) or dtype is dtypes.variant:
            (name,) = kernel.call(self, node, [], depth)
            return name
        if np.ndim(value) == 0:
            return scalar_literal(value, dtype)
        return self.array_constant(np.ascontiguousarray(value, dtype=dtype.np_dtype))

    def emit_branches(self, node, inputs, depth):
        """An If as `if`/`else`, a Case as `if`/`elif`/`else` on its index (an index out of
        range runs the last branch); the branches' params follow the predicate or index."""
        outs = [self.fresh('v') for _ in node.outputs]
        test = inputs[0]
        if node.opdef.control_flow == 'if':
            headers = [f'if {test}:', 'else:']
        else:
            headers = [f'{"el" if k else ""}if {test} == {k}:'
                       for k in range(len(node.branches) - 1)] + ['else:']
            headers[0] = headers[0] if len(headers) > 1 else 'if True:'
        for branch, header in zip(node.branches, headers):
            self.line(depth, header)
            start = len(self.lines)
            results = self.emit(branch, inputs[1:], depth + 1)
            if outs:
                self.line(depth + 1, f'{targets(outs)} = {targets(results)}')
            elif len(self.lines) == start:
                self.line(depth + 1, 'pass')
        return outs

    def emit_while(self, node, inputs, depth):
        # a variable passes through as the local holding its value, which its writes update
        loop_vars = [name if name in self.variables else self.fresh('w') for name in inputs]
        cond, body = node.branches
        fresh = [(var, list_rules.loop_entry(self, node, k, name))
                 for k, (var, name) in enumerate(zip(loop_vars, inputs)) if var != name]
        if fresh:
            self.line(depth, f'{targets([v for v, _ in fresh])} = '
                             f'{targets([n for _, n in fresh])}')
        counted = node.attrs.get('_counted')
        if counted is not None:
            self.emit_counted(node, loop_vars, counted, depth)
            return list(loop_vars[:len(node.outputs)])
        self.line(depth, 'while True:')
        (keep_going,) = self.emit(cond, loop_vars, depth + 1)
        self.line(depth + 1, f'if not {keep_going}:')
        self.line(depth + 2, 'break')
        results = self.emit(body, loop_vars, depth + 1)
        self.assign_changed(loop_vars, results, depth + 1, skip=None)
        return list(loop_vars[:len(node.outputs)])

    def emit_counted(self, node, loop_vars, counted, depth):
        """`for j in range(start, limit, step)`, the counter cast to its dtype in the body."""
        k, (kind, limit), step, increment = counted
        dtype = np_name(node.outputs[k].dtype)
        if kind == 'param':
            limit = loop_vars[limit]
        else:
            limit = scalar_literal(limit, node.outputs[k].dtype)
        step = scalar_literal(step, node.outputs[k].dtype)
        start, j = self.fresh('s'), self.fresh('j')
        counter = loop_vars[k]
        self.line(depth, f'{start} = {counter}')
        self.line(depth, f'for {j} in range({start}, {limit}, {step}):')
        self.line(depth + 1, f'{counter} = np.{dtype}({j})')
        results = self.emit(node.branches[1], loop_vars, depth + 1, skip={increment})
        self.assign_changed(loop_vars, results, depth + 1, skip=k)
        self.line(depth, f'{counter} = np.{dtype}(counted_end({start}, {limit}, {step}))')

    def assign_changed(self, loop_vars, results, depth, skip):
        changed = [(var, new) for i, (var, new) in enumerate(zip(loop_vars, results))
                   if i != skip and var != new]
        if changed:
            self.line(depth, f'{targets([v for v, _ in changed])} = '
                             f'{targets([n for _, n in changed])}')


def holds_variable(storage):
    """Whether native code holds the value of the resource `storage` as a local: a variable's
    storage of a dtype and rank it holds (not a summary writer, a table...)."""
    return isinstance(storage, VariableStorage) and storage.shape.rank is not None and \
        np_name(storage.dtype) is not None


def coverage(opdef):
    """How `jit_compile=True` runs `opdef`: 'native' (a rule or a native form: natively for the
    operands it has a form for, else by its kernel), 'kernel' (its numpy kernel, called from
    the compiled code), or None (neither: a graph holding it does not compile)."""
    if opdef in RULES or form_of(opdef) is not None or \
            opdef.control_flow is not None or opdef in (registry.CONST, registry.PLACEHOLDER):
        return 'native'
    if opdef.kernel is not None or opdef.bind_kernel is not None:
        return 'kernel'
    return None


def lower(program, rolled=True):
    """(source, calling.Convention) of `program` (already optimized); raises Unsupported for a
    node that has neither a native form nor a kernel. `rolled`: repeated blocks of the source
    re-rolled into loops (native/reroll.py)."""
    boxed = set()
    while True:
        try:
            return _lower(program, boxed, rolled)
        except Restart as restart:
            if restart.values <= boxed:
                raise AssertionError('lowering restarted without boxing a new list') from None
            boxed |= restart.values


def _lower(program, boxed_lists, rolled):
    lowering = Lowering(program, boxed_lists)
    convention = calling.Convention()
    args = []
    for index, node in enumerate(program.params):
        value = node.outputs[0]
        if value.dtype is dtypes.resource and holds_variable(node.payload):
            args.append(lowering.variable(node, node.payload, index))
        elif value.dtype is dtypes.variant and not lowering.is_boxed(value):
            raise Restart({value})  # a TensorList fed from outside is the runtime's
        else:
            args.append(convention.param(index, lowering.is_boxed(value), value.shape.rank == 0))
    results = lowering.emit(program, args, 1)
    native_lists = {ref for ref in program.outputs
                    if ref.dtype is dtypes.variant and not lowering.is_boxed(ref)}
    if native_lists:
        raise Restart(native_lists)  # a TensorArray returned: the caller gets a TensorList
    for ref, result in zip(program.outputs, results):
        if result is None:
            raise Unsupported(ref.node, 'its value is not computed by native code')
        convention.output(ref.dtype, ref.shape, lowering.is_boxed(ref))
    # a variable's value is an argument (its param, or one after the params for a graph
    # variable); the values of the variables written are returned after the outputs
    prologue = []
    for name, (storage, source) in lowering.variables.items():
        argument = convention.variable(source, storage)
        prologue.append(f'    {name} = '
                        f'{cast(None, argument, (storage.dtype, storage.shape), same=True)}')
    returned = list(results)
    for name, (storage, source) in lowering.variables.items():
        if name in lowering.assigned:
            convention.written(source, storage)
            returned.append(name)
    for name, value in lowering.constants:
        convention.constant(name, value)
    convention.kernels = lowering.kernels
    header = f'def native({", ".join(convention.parameter_names())}):'
    body = prologue + lowering.lines + [f'    return ({"".join(r + ", " for r in returned)})']
    body = reroll(body) if rolled else body
    source = '\n'.join(inlined(lowering.sites, body) + [header] + body) + '\n'
    return source, convention


def inlined(sites, body):
    """`sites` with each loop nest that `body` calls once inlined by numba where it is called
    (`inline_site`): compiled with its caller rather than once alone and again when linked."""
    text = '\n'.join(body)
    out = []
    for site in sites:
        name = re.match(r'@site\ndef (loop_\d+)\(', site)
        if name and len(re.findall(rf'\b{name.group(1)}\(', text)) == 1:
            site = '@inline_site' + site[len('@site'):]
        out.append(site)
    return out
