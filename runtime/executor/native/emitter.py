"""The native backend's emitter: an optimized Program as the source of one function numba
compiles in nopython mode.

Every value becomes a local holding a scalar (rank 0) or a numpy array, cast back to its
TensorFlow dtype after each op (numba widens integer arithmetic to int64). `Lowering` is the
numba backend of the walk both backends share (runtime/executor/emit.py): If and Case become
`if`/`elif`/`else` and While `while` (a counted loop `for j in range(...)`) with their
functions inlined; every other node goes to its rule (native/rules/, registered with
`@lowers`) or, for an op with a form (native/rules/forms.py, from its OpDef's tags), to
`elementwise.lower_form`. A node no rule writes (no rule, operands the rule has no form for,
values native code cannot hold, control flow nested too deep) calls its numpy kernel from the
compiled code (native/rules/kernel.py), so every graph compiles. Values native code cannot
hold (strings, unknown ranks, TensorArrays of no fixed element shape or of dynamic size) are
*boxed*: an int64 index into the call's store of Python objects, which only kernel calls read
(which TensorLists are boxed, the list analysis settles before lowering starts:
`Lists.settle_boxing`). Elementwise loops are written from element expressions kept as trees
(native/rules/expr.py) until their function is written.

Locals are named by the lowering's `Namespace` after what they hold, as the numpy backend's
are: an op's value after the op's type (`mat_mul`, `relu_3`), a constant `const`, a loop's
index `i`; never a name the module takes from outside (`np`, the helpers' EXPORTS, the params
`p0`...), nor a function the generated function calls (`loop_0`, `kernel_1`), which the
namespace names too (the helper thread's `worker_<job>`, which it does not call, keep their
names: cache.py reads the job from them).

`lower(program)` returns the source and its `calling.Convention`. This module does not import
numba (`lower` reads the names of the helpers, which does).
"""
import ast
import collections
import hashlib

import numpy as np

from runtime.core import dtypes
from runtime.executor import emit
from runtime.executor.native import calling, team
from runtime.executor.native.lists import Lists, refine_shapes, uses_of, writes_inline
from runtime.executor.native.reroll import rerolled
from runtime.executor.native.rules import (
    RULES,
    Site,
    Unsupported,
    cast,
    elementwise,
    holds,
    kernel,
    np_name,
    scalar_literal,
    spec,
)
from runtime.executor.native.rules import array as array_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import lists as list_rules  # (also registers its rules)
from runtime.executor.native.rules import nn as nn_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import reduce as reduce_rules  # noqa: F401 (registers rules)
from runtime.executor.native.rules import state as state_rules  # (also registers its rules)
from runtime.executor.native.rules.expr import Read, Rendering, Source, may_raise, reads
from runtime.executor.native.rules.forms import form_of
from runtime.ops import registry
from runtime.ops.state import VariableStorage

# the globals of the generated module but the helpers' (native/cache.py's header) and its function
MODULE_NAMES = ('np', 'EXPORTS', 'native')


class Lowering(emit.Emitter):
    """The numba backend of the walk (runtime/executor/emit.py), and the state of one
    lowering: the lines written, the names of values, constants, variables, kernel calls, and
    the elementwise fusion in progress."""

    def __init__(self, program, reserved=()):
        """`reserved`: the names of the generated module's globals (MODULE_NAMES, the
        helpers') and the function's params."""
        super().__init__(reserved)
        self.constants = []  # [(name, array)]: array constants, arguments after the params
        self.locals = set()  # the names of the locals and arguments (`fresh`, the params)
        self.lists = Lists(program)
        storages = {}  # resource Value -> its VariableStorage, where known
        refine_shapes(self.lists, program, storages)
        self.lists.settle_boxing(program, holds)  # which lists kernel calls need boxed
        self.retained = state_rules.retained(program, storages)
        self.uses = {}
        self.fused = {}  # a Value computed inside its user's loop -> its element
        self.chained = set()  # the nodes of chains
        self.variables = {}  # local holding a variable's value -> its VariableStorage or param
        self.assigned = set()  # those locals that writes change
        self.kernels = []  # kernel.KernelCall of each kernel call site, by index
        self.sites = []  # the Site of each function of the module: loops, kernel calls
        self.line_calls = {}  # the index in `lines` of a line calling one -> its name
        self.loops = {}  # the text of a loop or kernel-call function -> its name
        self.shares = False  # whether a loop is shared with the helper thread (native/team.py)
        self._team = None  # the argument holding team.MAIL
        self._rooms = None  # (argument name, {list root: slot}) of the dynamic lists' rooms

    # ---- what rules call ----------------------------------------------------------------------

    def fresh(self, stem):
        """A new local named after `stem` (`i`, `i_1`...)."""
        name = self.namespace.create_name(stem)
        self.locals.add(name)
        return name

    def result(self, node):
        """A new local for a value of `node`, named after its op's type (`mat_mul_2`): the
        names in the source are the same for graphs of the same ops, which share their
        compiled code (native/cache.py)."""
        return self.fresh(node.opdef.name)

    def operand(self, name):
        """The tree reading the value named `name` (a local, or a scalar constant's literal)."""
        return Read(name) if name in self.locals else Source(name)

    def assign(self, node, expr, depth, value_spec=None, same=False):
        """A line computing `expr` into a new local, cast to the spec of `node`'s output (or
        `value_spec`; `same`: an array `expr` has its dtype already); the local, as a list of
        outputs."""
        out = self.result(node)
        self.line(depth, f'{out} = {cast(node, expr, value_spec or spec(node.outputs[0]), same)}')
        return [out]

    def array_constant(self, value, stem='const'):
        """The name (from `stem`) of an argument holding the array `value`."""
        name = self.fresh(stem)
        self.constants.append((name, value))
        return name

    def room(self, ref):
        """(argument, slot): where the room of the dynamic-size list of `ref` is kept across
        calls, the most elements it held in an earlier call; a reservation starts with that
        much room, so only a first call grows the list (a While gradient's accumulators)."""
        if self._rooms is None:
            self._rooms = (self.array_constant(np.zeros(len(self.lists.growing), np.int64),
                                               'rooms'), {})
        name, slots = self._rooms
        return name, slots.setdefault(self.lists.root(ref), len(slots))

    def variable(self, node, storage, source):
        """The local holding the value of the variable `storage` (`source`: the param index
        or the storage that gives its value at each call)."""
        for name, (known, _) in self.variables.items():
            if known is storage:
                return name
        if not self.holds(storage):
            raise Unsupported(node, 'it is a resource native code cannot hold as a variable')
        name = self.fresh('variable')
        self.variables[name] = (storage, source)
        return name

    def holds(self, storage):
        """Whether native code holds the value of the resource `storage` as a local: a
        variable of a dtype and rank it holds that no kernel call keeps (`state.retained`)."""
        return holds_variable(storage) and id(storage) not in self.retained

    def loop_nest(self, dims, depth):
        indexes = [self.fresh('i') for _ in dims]
        for k, (index, size) in enumerate(zip(indexes, dims)):
            self.line(depth + k, f'for {index} in range({size}):')
        return indexes

    def loop_call(self, out, dims, dtype_name, element, depth):
        """`out = loop_k(operands)`: a new array of `dims` whose elements are `element(indexes)`
        (a tree, native/rules/expr.py), as a loop nest in a function of the generated module
        that every loop of the same text calls. LLVM spends ~0.1 s optimizing each loop nest,
        so fifty layers of `relu(x @ w + b)` compile one loop, not fifty. A loop of many
        blocks (`elementwise.claimed`) is shared with the helper thread."""
        indexes = [f'i{k}' for k in range(len(dims))]

        def body(exprs):
            lines = [f'    out = np.empty({tuple(dims)!r}, np.{dtype_name})']
            lines += ['    ' * (k + 1) + f'for {index} in range({size}):'
                      for k, (index, size) in enumerate(zip(indexes, dims))]
            return lines + ['    ' * (len(dims) + 1) + f'out[{", ".join(indexes)}] = {exprs[0]}',
                            '    return out']
        head, indent, blocks = elementwise.claimed(indexes, dims, elementwise.LOOP_BLOCK)

        def claims(exprs):
            return head + [f'{indent}for k in range(size):',
                           f'{indent}    {indexes[-1]} = start + k',
                           f'{indent}    result[{", ".join(indexes)}] = {exprs[0]}']
        exprs = [element(indexes)]
        result = (dims, dtype_name)
        if blocks < team.MIN_BLOCKS or \
                self.shared_site_call(out, exprs, claims, blocks, depth, result) is None:
            self.site_call(out, exprs, body, depth)

    def site_call(self, out, exprs, body, depth, buffers=None):
        """`out = loop_k(operands)`, `loop_k` a function of the generated module whose lines are
        `body(sources)`, the sources of the trees `exprs` with the locals they read renamed to
        the function's parameters (`buffers`: how their stages' buffers are renamed); every
        call of the same text calls one function."""
        operands = reads(exprs)
        rendering = Rendering({name: f'a{k}' for k, name in enumerate(operands)}, buffers or {})
        text = '\n'.join(body([expr.render(rendering) for expr in exprs]))
        name, _ = self._define(', '.join(rendering.names.values()), text)
        self.call_line(depth, out, name, operands)

    def call_line(self, depth, targets, function, args):
        """The line `targets = function(args)` calling a function of the generated module
        (`targets`: '' for none), recorded in `line_calls`: `lower` counts each function's calls
        after re-rolling (`inlined`)."""
        call = f'{function}({", ".join(args)})'
        self.line(depth, f'{targets} = {call}' if targets else call)
        self.line_calls[len(self.lines) - 1] = function

    def function_name(self, stem):
        """A new name of a function of the generated module: `loop_3`, `kernel_4`."""
        return self.namespace.create_name(f'{stem}_{len(self.loops)}')

    def _define(self, params, text):
        """(name, whether new) of the loop function of the generated module with these params
        and body `text`: one function for every site of the same text."""
        key = (params, text)
        name = self.loops.get(key)
        if name is not None:
            return name, False
        name = self.loops[key] = self.function_name('loop')
        self.sites.append(Site(name, f'def {name}({params}):\n{text}\n\n'))
        return name, True

    def shared_site_call(self, out, exprs, claims, blocks, depth, result=None, buffers=None):
        """`out = loop_m(operands, team)`, computed in `blocks` blocks that the calling thread
        shares with the helper (native/team.py): a float64 sum, or with `result` (its dims and
        dtype name) a new array. `claims(sources)` are the lines of `loop_k(operands, result,
        counter)` (`sources`: of the trees `exprs`, renamed as for `site_call`), which claims
        blocks from `counter` until none is left, writes each block's sum to
        `result[block]` (or its elements to `result`) and returns how many it computed;
        `loop_m` posts the job to the helper when it is idle and every operand is a
        C-contiguous array, runs `loop_k` (alone, with a counter of its own, otherwise), then
        adds the partial sums in block order; `worker_<job>` is the helper's entry. None (and
        nothing written) when an operand is not an array of known shape or the loop may raise
        (the helper could not stop the caller's loop, nor the caller wait for the helper's)."""
        operands = reads(exprs)
        values = {name: value for value, name in self.names.items()}
        known = [values.get(name) for name in operands]
        if len(operands) + 1 > team.MAX_ARGS or may_raise(exprs) or \
                any(v is None or not v.shape.rank or not v.shape.is_fully_defined() or
                    np_name(v.dtype) is None for v in known):
            return None
        rendering = Rendering({name: f'a{k}' for k, name in enumerate(operands)}, buffers or {})
        params = ', '.join(rendering.names.values())
        text = '\n'.join(claims([expr.render(rendering) for expr in exprs]))
        claim, _ = self._define(f'{params}, result, counter', text)
        dims, dtype_name = result or ((blocks,), 'float64')
        # the worker reads the job's arrays (the operands, then the result) by their addresses
        arrays = ', '.join(
            [f'carray(taken(team, {k}), {tuple(v.shape.as_list())!r}, np.{np_name(v.dtype)})'
             for k, v in enumerate(known)] +
            [f'carray(taken(team, {len(known)}), {tuple(dims)!r}, np.{dtype_name})'])
        # the job's id: what its worker computes (any worker of the same text serves it)
        job = int(hashlib.sha256(f'{params}\n{text}\n{arrays}'.encode()).hexdigest()[:12], 16)
        checks = ''.join(f'{p}.flags.c_contiguous and ' for p in rendering.names.values())
        given = ''.join(f'        give(team, {k}, {p})\n'
                        for k, p in enumerate(rendering.names.values()))
        # one call of the claiming loop, a site the worker calls too
        shared = (f'    result = np.empty({tuple(dims)!r}, np.{dtype_name})\n'
                  f'    shared = {checks}begin(team)\n'
                  f'    if shared:\n{given}'
                  f'        give(team, {len(operands)}, result)\n'
                  f'        post(team, {job})\n'
                  f'    {claim}({params}, result, team if shared else counter())\n'
                  f'    if shared:\n'
                  f'        finish(team, {job})\n')
        shared += '    return result' if result else (f'    total = 0.0\n'
                                                       f'    for block in range({blocks}):\n'
                                                       f'        total += result[block]\n'
                                                       f'    return total')
        name, new = self._define(f'{params}, team', shared)
        if new:
            self.sites.append(Site(f'worker_{job:x}',
                                   f'def worker_{job:x}(team, job):\n'
                                   f'    if start(team, job):\n'
                                   f'        done(team, {claim}({arrays}, team))\n\n',
                                   is_site=False))
        if self._team is None:
            self._team = self.array_constant(team.MAIL, 'mail')
        self.shares = True
        self.call_line(depth, out, name, operands + [self._team])
        return out

    def is_boxed(self, value):
        """Whether `value` is held as an index into the call's store of Python objects: a
        value of a dtype or rank native code cannot hold, a TensorList the analysis boxed, a
        resource that is no variable native code holds (a summary writer's)."""
        if value.dtype is dtypes.variant:
            return self.lists.is_boxed(value)
        if value.dtype is dtypes.resource:
            name = self.names.get(value)
            return name not in self.variables if name is not None else \
                not self.holds(value.node.payload)
        return not holds(value)

    def materialized(self, ref, name, depth):
        """The name of an array holding `ref`, computed now if it was to be fused into a loop
        that is not written after all."""
        element = self.fused.pop(ref, None)
        if element is None:
            return name
        dtype, shape = spec(ref)
        out = self.result(ref.node)
        self.line(depth, f'{out} = np.empty({tuple(shape.as_list())!r}, np.{np_name(dtype)})')
        indexes = self.loop_nest(shape.as_list(), depth)
        self.line(depth + len(indexes),
                  f'{out}[{", ".join(indexes)}] = {element(indexes).render()}')
        return out

    # ---- the hooks of the walk ----------------------------------------------------------------

    def plan(self, program, skip):
        """The chains of the block (elementwise.chains); its uses join the lowering's."""
        uses = uses_of(program)
        self.uses.update(uses)
        chains = elementwise.chains(program.nodes, uses)
        self.chained.update(chains)
        return chains

    def unfed(self, node):
        raise Unsupported(node, 'it is a placeholder that is not fed')

    def emit_op(self, node, inputs, depth, chains, targets):
        chain = chains.get(node)
        if chain is None:
            return self.emit_node(node, inputs, depth)
        if chain[0] is node:
            self.emit_chain(chain, depth)
        return None  # the chain names its last value

    def inlines(self, node, depth):
        """Control flow is inlined within Python's limits (`has_room`: its blocks one level
        deeper, a loop inside fewer than `emit.MAX_LOOPS`), with a predicate or index native
        code holds and no value boxed on one side of it only; else the node calls its kernel."""
        return writes_inline(node, holds, depth, self.loop_nesting)

    def result_names(self, node, targets):
        if node.opdef.control_flow == 'while':
            return None  # the loop variables
        return [self.result(node) for _ in node.outputs]

    def loop_variables(self, node, inputs):
        # a variable passes through as the local holding its value, which its writes update
        return [name if name in self.variables else self.fresh('loop_var') for name in inputs]

    def loop_entry(self, node, k, name):
        return list_rules.loop_entry(self, node, k, name)

    def loop_results(self, node, loop_vars, outs, depth):
        return list(loop_vars[:len(node.outputs)])

    def counted_bound(self, node, name, value, dtype):
        return scalar_literal(value, dtype)

    def counted_head(self, node, counter, start, limit, step, depth):
        """`for j in range(start, limit, step)`, the counter cast to its dtype in the body."""
        j = self.fresh('j')
        self.line(depth, f'for {j} in range({start}, {limit}, {step}):')
        self.line(depth + 1, f'{counter} = np.{self.counter_dtype(node)}({j})')

    def counted_end(self, node, counter, start, limit, step, depth):
        self.line(depth, f'{counter} = np.{self.counter_dtype(node)}(counted_end({start}, '
                         f'{limit}, {step}))')

    @staticmethod
    def counter_dtype(node):
        return np_name(node.outputs[node.counted.counter].dtype)

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
        if node.opdef.control_flow is not None:  # one the walk does not inline
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
    # deferred: optional dependency numba (helpers imports it; numba compiles what is lowered)
    from runtime.executor.native import helpers
    params = [f'p{index}' for index in range(len(program.params))]  # (calling.Convention's)
    lowering = Lowering(program, {*MODULE_NAMES, *helpers.EXPORTS, *params})
    convention = calling.Convention()
    args = []
    for index, node in enumerate(program.params):
        value = node.outputs[0]
        if value.dtype is dtypes.resource and lowering.holds(node.payload):
            args.append(lowering.variable(node, node.payload, index))
        else:  # a TensorList fed from outside is the runtime's (boxed)
            args.append(convention.param(index, lowering.is_boxed(value), value.shape.rank == 0))
            lowering.locals.add(args[-1])
    results, _ = lowering.emit(program, args, 1)
    for ref, result in zip(program.outputs, results):
        if result is None:
            raise Unsupported(ref.node, 'its value is not computed by native code')
        convention.output(ref.dtype, ref.shape, lowering.is_boxed(ref))
    # a variable's value is an argument (its param, or one after the params for a graph
    # variable); the values of the variables written are returned after the outputs
    prologue = []
    for name, (storage, source) in lowering.variables.items():
        graph_variable = not isinstance(source, int)  # an argument after the params
        argument = convention.variable(
            source, storage, lowering.namespace.create_name('storage') if graph_variable else None)
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
    convention.shares = lowering.shares
    header = f'def native({", ".join(convention.parameter_names())}):'
    # one value is returned as it is (no tuple to build and index at each call), more in a tuple
    body = prologue + lowering.lines + [
        f'    return {returned[0]}' if len(returned) == 1 else
        f'    return ({"".join(r + ", " for r in returned)})']
    calls = {len(prologue) + index: name for index, name in lowering.line_calls.items()}
    body, origins = rerolled(body, convention.parameter_names(),
                             lambda: lowering.namespace.create_name('repeat')) \
        if rolled else (body, range(len(body)))
    called = collections.Counter(calls[k] for k in origins if k in calls)
    sites = {site.name: site for site in lowering.sites}
    written = set()  # the loop nests written where they are called
    lines = []
    for line, origin in zip(body, origins):
        site = sites.get(calls.get(origin, ''))
        text = None if site is None or not site.inlinable or called[site.name] != 1 else \
            written_at(line, site.text, lowering.namespace.create_name)
        if text is None:
            lines.append(line)
        else:
            lines += text
            written.add(site.name)
    source = '\n'.join(inlined([site for site in lowering.sites if site.name not in written],
                               called) + [header] + lines) + '\n'
    return source, convention


def written_at(line, text, fresh):
    """The lines of the function `text` (a site's) written where `line` calls it (its params
    the call's arguments, its locals renamed by `fresh`, its return an assignment to the
    call's targets), or None when it does not take that form (an argument that is no name, a
    param assigned, a return before the end). numba types and lowers the loop with the
    caller: ~15 ms less a loop nest than inlining a function (`inline_site`)."""
    call = ast.parse(line.strip()).body[0]
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    value = call.value if isinstance(call, (ast.Assign, ast.Expr)) else None
    *statements, last = function.body
    if not isinstance(value, ast.Call) or not all(isinstance(a, ast.Name) for a in value.args) \
            or any(isinstance(node, ast.Return) for s in statements for node in ast.walk(s)):
        return None
    renames = {param.arg: arg.id for param, arg in zip(function.args.args, value.args)}
    names = [node for node in ast.walk(function) if isinstance(node, ast.Name)]
    if any(isinstance(node.ctx, ast.Store) and node.id in renames for node in names):
        return None
    for node in names:
        if node.id not in renames and isinstance(node.ctx, ast.Store):
            renames[node.id] = fresh(node.id)
    for node in names:
        node.id = renames.get(node.id, node.id)
    if isinstance(last, ast.Return):
        if isinstance(call, ast.Assign) and last.value is not None:
            statements.append(ast.Assign(call.targets, last.value, lineno=0))
    else:
        statements.append(last)
    indent = line[:len(line) - len(line.lstrip())]
    return [indent + text_line for statement in statements
            for text_line in ast.unparse(statement).split('\n')]


def inlined(sites, called):
    """The source of `sites`, each loop nest that the generated function calls once
    (`called`: function name -> its calls there) inlined by numba where it is called
    (`inline_site`): compiled with its caller rather than once alone and again when linked."""
    out = []
    for site in sites:
        if not site.is_site:
            out.append(site.text)
        elif site.inlinable and called.get(site.name) == 1:
            out.append(f'@inline_site\n{site.text}')
        else:
            out.append(f'@site\n{site.text}')
    return out
