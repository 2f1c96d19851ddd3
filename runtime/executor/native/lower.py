"""Lower an optimized Program to the source of one numba-compilable function.

Every value becomes a local holding a scalar (rank 0) or a numpy array, cast back to its
TensorFlow dtype after each op (numba widens integer arithmetic to int64). An op is written
from its `OpDef.native` form, or by a lowering in `SPECIAL` below for the ops whose form
depends on their operands (reductions, slicing, TensorLists). If and While become Python
`if`/`while` with their functions inlined; a counted loop becomes `for ... in range(...)`.
A TensorList is a pair of arrays `(data, written)` allocated when it is reserved; a write
updates them in place when nothing can see the old list, else copies them first.

Anything else raises `Unsupported`, naming the node. This module does not import numba.
"""
import itertools
import re
from typing import NamedTuple

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops import (
    array,
    compare,
    convert,
    creation,
    infer,
    list_ops,
    math,
    reduce,
    registry,
    shaping,
    slicing,
    state,
)


class Unsupported(Exception):
    """A node the native backend cannot lower; `.node` is it."""

    def __init__(self, node, reason):
        super().__init__(reason)
        self.node = node
        self.reason = reason


class NativeSource(NamedTuple):
    source: str              # `def native(<params>, <constants>): ... return (<outputs>,)`
    constants: list          # array constants, passed after the params (scalars are literals)
    scalars: list            # positions of the params and storages passed as numpy scalars
    output_specs: list       # [(dtype, shape)] of the outputs
    variable_params: list    # indices of the params that are variables (fed their storage)
    storages: list           # VariableStorages of graph variables: their values follow the params
    written: list            # [(param index or storage, (dtype, shape))] of the variables
                             # written, whose final values follow the outputs


# ---- the IR as this backend reads it ---------------------------------------------------------

def _spec(value):
    """(dtype, shape) of a Value."""
    return value.dtype, value.shape


def _uses(program):
    """Each Value of `program` that is used -> [(user node, operand position)], with
    ('output', k) for the program's outputs (a Value's `users` knows no positions)."""
    uses = {}
    for node in program.nodes:
        for position, value in enumerate(node.inputs):
            uses.setdefault(value, []).append((node, position))
    for k, value in enumerate(program.outputs):
        uses.setdefault(value, []).append(('output', k))
    return uses


# ---- rendering ----------------------------------------------------------------------------------

def _literal(value):
    if isinstance(value, dtypes.DType):
        return f'np.{value.np_dtype.name}'
    if isinstance(value, (bool, int, float, str, type(None))):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return repr(tuple(value))
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return repr(value.item())
    raise TypeError(f'attr value {value!r} has no literal form')


def _np_name(dtype):
    if not (dtype.is_numeric or dtype.is_bool) or dtype.np_dtype.kind not in 'biuf' or \
            dtype.np_dtype.itemsize < 4 and dtype.np_dtype.kind == 'f':
        return None
    return dtype.np_dtype.name


def _scalar_literal(value, dtype):
    """Source for a scalar constant of `dtype` (part of the source, so a cache key)."""
    value = dtype.np_dtype.type(value)
    if dtype.is_bool:
        return repr(bool(value))
    if dtype.is_integer:
        return f'np.{dtype.np_dtype.name}({int(value)})'
    number = float(value)
    if np.isnan(number):
        text = 'np.nan'
    elif np.isinf(number):
        text = 'np.inf' if number > 0 else '-np.inf'
    else:
        text = repr(number)
    return f'np.{dtype.np_dtype.name}({text})'


def _cast(node, expr, spec, same=False):
    """`expr` converted to the dtype of `spec`: a scalar for rank 0 (numpy's scalar types,
    which numba types without compiling anything), else an array (`same`: `expr` is known to
    be an array of that dtype already)."""
    dtype, shape = spec
    name = _np_name(dtype)
    if name is None:
        raise Unsupported(node, f'its output has dtype {dtype.name}, which native code cannot '
                                f'hold')
    if shape.rank is None:
        raise Unsupported(node, 'its output has an unknown rank')
    if shape.rank == 0:
        return f'bool({expr})' if dtype.is_bool else f'np.{name}({expr})'
    if same:
        return expr
    return f'(({expr}) != 0)' if dtype.is_bool else f'({expr}).astype(np.{name})'


class _Lists:
    """TensorList values: which belong to one list (through writes, loops and conds), the
    element dtype and shape of each list, and whether its writes may update it in place."""

    def __init__(self, program):
        self.parent = {}
        self.refs = {}
        self.element_shape = {}
        self.element_dtype = {}
        self.owned = set()  # list Values that a write may update in place
        self.unconsumed = set()  # list Values that are only read
        self.growing = set()
        self._collect(program)

    def find(self, key):
        while self.parent.get(key, key) != key:
            key = self.parent[key]
        return key

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[a] = b
            for table in (self.element_shape, self.element_dtype):
                if a in table:
                    table.setdefault(b, table.pop(a))

    def describe(self, key, dtype=None, shape=None):
        root = self.find(key)
        self.parent.setdefault(root, root)
        if dtype is not None:
            self.element_dtype.setdefault(root, dtype)
        if shape is not None:
            known = self.element_shape.get(root, TensorShape(None))
            self.element_shape[root] = known.merge_with(shape)

    def _collect(self, program):
        self._link(program)
        self._ownership(program, set())

    def _ownership(self, program, owned_params):
        """Mark the list values of `program` a write may update in place: one consumer (a
        write, loop, cond or output), no read after it, and, for a param, an owned value
        outside (`owned_params`: the indices of those)."""
        order = {node: i for i, node in enumerate(program.nodes)}
        params = {p.outputs[0]: k for k, p in enumerate(program.params)}
        for key, users in _uses(program).items():
            if key not in self.parent:
                continue
            consumers = [u for u in users if u[0] == 'output' or u[0].opdef not in _READS]
            last = max((order[u[0]] for u in consumers if u[0] != 'output'),
                       default=len(program.nodes))
            late_read = any(u[0] != 'output' and u[0].opdef in _READS and order[u[0]] > last
                            for u in users)
            if len(consumers) <= 1 and not late_read and params.get(key, -1) in \
                    owned_params | ({-1} if key not in params else set()):
                self.owned.add(key)
            if not consumers:
                self.unconsumed.add(key)
        for node in program.nodes:
            control_flow = node.opdef.control_flow
            if control_flow == 'while':
                owned = {k for k, ref in enumerate(node.inputs) if ref in self.owned}
                cond, body = node.branches
                self._ownership(cond, set())  # the body gets the values the condition saw
                self._ownership(body, owned)
            elif control_flow in ('if', 'case'):
                owned = {k for k, ref in enumerate(node.inputs[1:]) if ref in self.owned}
                for branch in node.branches:
                    self._ownership(branch, owned)

    def _link(self, program):
        for node in program.nodes:
            opdef = node.opdef
            out = node.outputs[0] if node.outputs else None
            if opdef is list_ops.RESERVE:
                self.describe(out, node.attrs['element_dtype'], node.attrs['element_shape'])
            elif opdef is list_ops.SET_ITEM:
                self.union(node.inputs[0], out)
                self.describe(out, node.attrs['element_dtype'], node.inputs[2].shape)
                if node.attrs.get('dynamic_size'):
                    self.growing.add(out)
            elif opdef is list_ops.GET_ITEM:
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['_element_shape'])
            elif opdef is list_ops.STACK:
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['element_shape'])
            elif opdef is list_ops.LENGTH:
                self.describe(node.inputs[0])
            elif opdef in (list_ops.GATHER, list_ops.CONCAT):
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['element_shape'] if opdef is list_ops.GATHER else None)
            elif opdef is list_ops.SCATTER:
                self.union(node.inputs[0], out)
                self.describe(out, node.inputs[1].dtype, node.inputs[1].shape[1:]
                              if node.inputs[1].shape.rank else None)
                if node.attrs.get('dynamic_size'):
                    self.growing.add(out)
            elif opdef is list_ops.FROM_TENSOR:
                self.describe(out, node.inputs[0].dtype, node.inputs[0].shape[1:]
                              if node.inputs[0].shape.rank else None)
            elif opdef is list_ops.SPLIT:
                self.describe(out, node.inputs[0].dtype, _split_element_shape(node))
            control_flow = opdef.control_flow
            if control_flow == 'while':
                cond, body = node.branches
                for k, ref in enumerate(node.inputs):
                    if ref.dtype is dtypes.variant:
                        for other in (cond.params[k].outputs[0], body.params[k].outputs[0],
                                      body.outputs[k], node.outputs[k]):
                            self.union(ref, other)
            elif control_flow in ('if', 'case'):
                for k, ref in enumerate(node.inputs[1:]):
                    if ref.dtype is dtypes.variant:
                        for branch in node.branches:
                            self.union(ref, branch.params[k].outputs[0])
                for k, value in enumerate(node.outputs):
                    if value.dtype is dtypes.variant:
                        for branch in node.branches:
                            self.union(node.outputs[k], branch.outputs[k])
            elif opdef is registry.IDENTITY and node.inputs[0].dtype is dtypes.variant:
                self.union(node.inputs[0], out)
            for branch in node.branches:
                self._link(branch)
        self.growing = {self.find(key) for key in self.growing}

    def layout(self, node, ref):
        """(numpy dtype name, element dims) of the list that `ref` is a value of."""
        root = self.find(ref)
        if root in self.growing:
            raise Unsupported(node, 'its TensorArray has dynamic_size=True; give it a fixed size')
        shape = self.element_shape.get(root, TensorShape(None))
        dtype = self.element_dtype.get(root)
        if dtype is None or not shape.is_fully_defined() or _np_name(dtype) is None:
            raise Unsupported(node, f'its TensorArray elements have shape {shape}, not a fixed '
                                    f'one; give element_shape or write elements of one shape')
        return _np_name(dtype), shape.as_list()

    def in_place(self, ref):
        return ref in self.owned


_READS = {list_ops.GET_ITEM, list_ops.STACK, list_ops.LENGTH, list_ops.GATHER, list_ops.CONCAT}


class Lowering:
    def __init__(self, program):
        self.lines = []
        self.constants = []
        self.constant_names = []
        self._ids = itertools.count()
        self.lists = _Lists(program)
        self.uses = {}
        self.names = {}  # each Value -> the local (or constant) holding it
        self.fused = {}  # a Value computed inside its user's loop -> its element
        self.chained = set()  # the nodes of chains
        self.variables = {}  # local holding a variable's value -> its VariableStorage or param
        self.assigned = set()  # those locals that writes change
        self.scratch = set()  # arrays allocated here that only a ufunc call reads: it may overwrite

    def variable(self, node, storage, source):
        """The local holding the value of the variable `storage` (`source`: the param index
        or the storage that gives its value at each call)."""
        for name, (known, _) in self.variables.items():
            if known is storage:
                return name
        if storage is not None and not hasattr(storage, 'shape'):
            raise Unsupported(node, f'it is a resource native code cannot hold '
                                    f'({type(storage).__name__}: summaries run with the default '
                                    f'executor)')
        if storage is None or storage.shape.rank is None or _np_name(storage.dtype) is None:
            raise Unsupported(node, 'it is a variable whose dtype or rank native code cannot hold')
        name = self.fresh('r')
        self.variables[name] = (storage, source)
        return name

    def assign(self, node, expr, depth, spec=None, same=False):
        """A line computing `expr` into a new local, cast to the spec of `node`'s output (or
        `spec`; `same`: an array `expr` has its dtype already); the local, as a list of
        outputs."""
        out = self.fresh('v')
        self.line(depth, f'{out} = {_cast(node, expr, spec or _spec(node.outputs[0]), same)}')
        return [out]

    def value_names(self, ref):
        return self.names[ref]

    def fresh(self, prefix):
        return f'{prefix}{next(self._ids)}'

    def line(self, depth, text):
        self.lines.append('    ' * depth + text)

    def emit(self, program, args, depth, skip=frozenset()):
        """Emit `program` with its params bound to the names `args`; return its outputs."""
        names = self.names
        names.update((p.outputs[0], a) for p, a in zip(program.params, args))
        uses = _uses(program)
        self.uses.update(uses)
        chains = _chains(program.nodes, uses)
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
                names[node.outputs[0]] = self.constant(node)
                continue
            inputs = [names.get(ref) for ref in node.inputs]
            if opdef.control_flow in ('if', 'case'):
                outs = self.emit_branches(node, inputs, depth)
            elif opdef.control_flow == 'while':
                outs = self.emit_while(node, inputs, depth)
            else:
                lower_op = SPECIAL.get(opdef)
                if lower_op is not None:
                    outs = lower_op(self, node, inputs, depth)
                else:
                    outs = self.emit_form(node, inputs, depth)
            for i, out in enumerate(outs):
                names[node.outputs[i]] = out
        return [names.get(ref) for ref in program.outputs]

    def constant(self, node):
        value = node.attrs['value']
        dtype = node.outputs[0].dtype
        if dtype is dtypes.variant or _np_name(dtype) is None:
            raise Unsupported(node, f'it is a constant of dtype {dtype.name}')
        if np.ndim(value) == 0:
            return _scalar_literal(value, dtype)
        name = self.fresh('c')
        self.constants.append(np.ascontiguousarray(value, dtype=dtype.np_dtype))
        self.constant_names.append(name)
        return name

    def emit_form(self, node, inputs, depth, out=None):
        if native_form(node.opdef) is None:
            raise Unsupported(node, 'the op has no native lowering')
        if len(node.outputs) != 1:
            raise Unsupported(node, 'the op has several outputs')
        attrs = {key: _literal(value) for key, value in
                 {**node.opdef.defaults, **node.attrs}.items()
                 if not key.startswith('_') and '{' + key + '}' in native_form(node.opdef)}
        out = out or self.fresh('v')
        if not self.emit_elementwise(node, _node_form(node, True), inputs, attrs, out, depth):
            spec = _spec(node.outputs[0])
            form = _node_form(node, spec[1].rank == 0)
            same = all(ref.dtype is spec[0] for ref in node.inputs) and \
                not _NUMBER.search(form)  # numba keeps the dtype of arrays of one dtype
            self.line(depth, f'{out} = {_cast(node, form.format(*inputs, **attrs), spec, same)}')
        return [out]

    def emit_elementwise(self, node, form, inputs, attrs, out, depth):
        """An elementwise op on arrays of shapes known when tracing, as a loop nest over its
        output applying the scalar form: numba compiles that in a fraction of the time of its
        array expressions. An op whose only user is such a loop over the same shape is fused
        into it (no array in between). False when the op is not elementwise or a shape is
        unknown."""
        dtype, shape = _spec(node.outputs[0])
        name = _np_name(dtype)
        if name is None or not _elementwise(node.opdef) or not shape.rank or \
                not shape.is_fully_defined() or \
                any(not ref.shape.is_fully_defined() or ref.shape.rank > shape.rank or
                    any(size not in (1, whole) for size, whole in zip(
                        reversed(ref.shape.as_list()), reversed(shape.as_list())))
                    for ref in node.inputs):
            return False

        if self.ufunc_call(node, form, inputs, out, depth):
            return True

        def element(indexes):
            dims = shape.as_list()
            elements = []
            for ref, operand_name in zip(node.inputs, inputs):
                fused = self.fused.pop(ref, None)
                if fused is not None:
                    elements.append(fused(indexes))
                    continue
                operand = ref.shape.as_list()
                offset = len(dims) - len(operand)
                at = ['0' if size != dims[offset + k] else indexes[offset + k]
                      for k, size in enumerate(operand)]
                elements.append(f'{operand_name}[{", ".join(at)}]' if at else operand_name)
            return _cast(node, form.format(*elements, **attrs), (dtype, TensorShape([])))

        if self.fusible(node):
            self.fused[node.outputs[0]] = element
            return True
        self.line(depth, f'{out} = np.empty({tuple(shape.as_list())!r}, np.{name})')
        self.allocated(node, out)
        indexes = self.loop_nest(shape.as_list(), depth)
        self.line(depth + len(indexes), f'{out}[{", ".join(indexes)}] = {element(indexes)}')
        return True

    def ufunc_call(self, node, form, inputs, out, depth):
        """A transcendental function of a large float array (`_UFUNC_CALL`) calls numpy's ufunc,
        whose SIMD loop is several times faster than numba's loop calling `tanhf` or `expf`
        per element (numba vectorizes those only with Intel's SVML, which current llvmlite
        builds do not use). Its operand is computed as an array, not fused into it; its
        result fuses into its users' loop as any array does. False for other ops."""
        dtype, shape = _spec(node.outputs[0])
        if not _ufunc_operand(node) or node.inputs[0].dtype is not dtype or \
                node.inputs[0].shape != shape:
            return False
        if inputs[0] in self.scratch:
            self.line(depth, f'{out} = {inputs[0]}')  # a new array would cost its page faults
        else:
            self.line(depth, f'{out} = np.empty({tuple(shape.as_list())!r}, np.{_np_name(dtype)})')
        self.line(depth, 'with objmode():')
        self.line(depth + 1, f'{form.format(inputs[0])[:-1]}, out={out})')
        self.allocated(node, out)
        return True

    def allocated(self, node, out):
        """Note that `out`, a new array holding `node`'s value, may be overwritten by its user
        when that is its only one and a ufunc call."""
        users = self.uses.get(node.outputs[0], [])
        if len(users) == 1 and users[0][0] != 'output' and _ufunc_operand(users[0][0]):
            self.scratch.add(out)

    def loop_nest(self, dims, depth):
        indexes = [self.fresh('e') for _ in dims]
        for k, (index, size) in enumerate(zip(indexes, dims)):
            self.line(depth + k, f'for {index} in range({size}):')
        return indexes

    def fusible(self, node):
        """Whether `node`'s value is needed only as the elements of one loop over its shape:
        an elementwise op of the same output shape, or a TensorArray write of it."""
        users = self.uses.get(node.outputs[0], [])
        if len(users) != 1 or users[0][0] == 'output' or users[0][0] in self.chained:
            return False
        user, position = users[0]
        if _ufunc_operand(user):
            return False
        if user.opdef is list_ops.SET_ITEM:
            return position == 2
        return _elementwise(user.opdef) and native_form(user.opdef) is not None and \
            user.outputs[0].shape == node.outputs[0].shape and user.inputs[position].shape == \
            node.outputs[0].shape and user.outputs[0].shape.is_fully_defined()

    def emit_chain(self, chain, depth):
        """k nodes of one op, each feeding the next at one operand (an unrolled loop, such as
        the seed's `power`), written as a loop: one call site to compile, not k."""
        first, second = chain[0], chain[1]
        position = next(p for p, ref in enumerate(second.inputs) if ref.node is first)
        inputs = [self.names.get(ref) for ref in first.inputs]
        (out,) = self.emit_form(first, inputs, depth)
        inputs[position] = out
        self.line(depth, f'for _ in range({len(chain) - 1}):')
        self.emit_form(second, inputs, depth + 1, out)
        self.names[chain[-1].outputs[0]] = out

    def emit_branches(self, node, inputs, depth):
        """An If as `if`/`else`, a Case as `if`/`elif`/`else` on its index (an index out of
        range runs the last branch); the branches' params follow the predicate or index."""
        _check_depth(node, depth)
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
                self.line(depth + 1, f'{_targets(outs)} = {_targets(results)}')
            elif len(self.lines) == start:
                self.line(depth + 1, 'pass')
        return outs

    def emit_while(self, node, inputs, depth):
        _check_depth(node, depth)
        for value in node.outputs:
            if value.dtype not in (dtypes.variant, dtypes.resource):
                _cast(node, '', _spec(value))  # raises for a loop variable native code cannot hold
        # a variable passes through as the local holding its value, which its writes update
        loop_vars = [name if name in self.variables else self.fresh('w') for name in inputs]
        cond, body = node.branches
        fresh = [(var, name) for var, name in zip(loop_vars, inputs) if var != name]
        if fresh:
            self.line(depth, f'{_targets([v for v, _ in fresh])} = '
                             f'{_targets([n for _, n in fresh])}')
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
        dtype = _np_name(node.outputs[k].dtype)
        if kind == 'param':
            limit = loop_vars[limit]
        else:
            limit = _scalar_literal(limit, node.outputs[k].dtype)
        step = _scalar_literal(step, node.outputs[k].dtype)
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
            self.line(depth, f'{_targets([v for v, _ in changed])} = '
                             f'{_targets([n for _, n in changed])}')


_MIN_CHAIN = 4
_MAX_DEPTH = 40  # Python refuses code nested 100 blocks deep; loop nests need some of them


def _check_depth(node, depth):
    if depth > _MAX_DEPTH:
        raise Unsupported(node, f'its control flow is nested more than {_MAX_DEPTH} levels deep '
                                f'(a long if/elif chain on tensors); use a lookup with '
                                f'rt.gather or fewer branches')


def _chains(nodes, uses):
    """id of each node in a chain -> the chain: runs of at least _MIN_CHAIN nodes written from
    one native form, with equal attrs and specs, each the only user of the one before, which
    it takes at one fixed operand, all other operands the same values."""
    chains = {}
    i = 0
    while i < len(nodes):
        j, position = i, None
        while j + 1 < len(nodes):
            link = _link(nodes[i], nodes[j], nodes[j + 1], uses)
            if link is None or position is not None and link != position:
                break
            position = link
            j += 1
        if j + 1 - i >= _MIN_CHAIN:
            chain = nodes[i:j + 1]
            chains.update((node, chain) for node in chain)
        i = j + 1
    return chains


def _link(first, previous, node, uses):
    """The operand position at which `node` continues a chain after `previous`, or None."""
    opdef = node.opdef
    if opdef is not previous.opdef or native_form(opdef) is None or opdef in SPECIAL or \
            opdef.control_flow or len(node.outputs) != 1 or node.control or \
            [_spec(v) for v in node.outputs] != [_spec(v) for v in previous.outputs]:
        return None
    positions = [p for p, value in enumerate(node.inputs) if value.node is previous]
    if len(positions) != 1 or uses.get(previous.outputs[0]) != [(node, positions[0])]:
        return None
    try:
        if node.attrs != previous.attrs:
            return None
    except ValueError:  # attrs holding arrays
        return None
    position = positions[0]
    same = all(p == position or ref is other
               for p, (ref, other) in enumerate(zip(node.inputs, first.inputs)))
    return position if same else None


# Transcendental functions of float arrays of at least _UFUNC_MIN_SIZE elements call numpy's
# ufunc from numba (`Lowering.ufunc_call`). Entering object mode costs ~2 µs a call, but each
# block adds ~80 ms to the compile: at 16 384 float32 `tanh`s the call saves ~0.5 ms, so it
# pays back within a few hundred calls.
_UFUNC_CALL = re.compile(r'np\.(\w+)\(\{0\}\)')
_TRANSCENDENTAL = frozenset({'exp', 'log', 'sin', 'cos', 'tanh'})
_UFUNC_MIN_SIZE = 1 << 14


def _ufunc_operand(node):
    """Whether `node` is lowered as a ufunc call (its operand must be an array)."""
    form = native_form(node.opdef)
    function = form and _UFUNC_CALL.fullmatch(form)
    if not function or function.group(1) not in _TRANSCENDENTAL or len(node.outputs) != 1:
        return False
    dtype, shape = _spec(node.outputs[0])
    return dtype.is_floating and shape.is_fully_defined() and \
        shape.num_elements() >= _UFUNC_MIN_SIZE


def _elementwise(opdef):
    """Whether the op computes each output element from the same elements of its inputs
    (broadcast), which its shape inference says."""
    return opdef.infer in _ELEMENTWISE_INFERENCE or opdef in (array.CAST, compare.SELECT)


_ELEMENTWISE_INFERENCE = (infer.broadcast, infer.broadcast_bool, infer.same_as_input)


def native_form(opdef):
    """The op's expression template for native code (its native form, else its infix form),
    or None."""
    return opdef.native or opdef.infix


# Helpers that native forms call with arrays or scalars: numba compiles such a helper (an
# overload) anew in every process, so scalar code calls its scalar twin instead, compiled once
# per machine (njit(cache=True) in helpers.py).
_SCALAR_TWINS = re.compile(r'\b(floordiv|floormod|select|zeros_like|ones_like)\(')


_NUMBER = re.compile(r'(?<![\w{])\d')  # a number in a form (an int64 or float64 operand)


def _node_form(node, scalar):
    """The template writing `node` on scalars (`scalar`) or arrays. An op whose run-time
    checks a pass has proved (a division by a non-zero constant) is its infix form."""
    opdef = node.opdef
    if opdef.nonzero and not node.checks and opdef.infix:
        return opdef.infix
    form = native_form(opdef)
    return _SCALAR_TWINS.sub(r'\1_scalar(', form) if scalar else form


def _targets(names):
    return ', '.join(names) + (',' if len(names) == 1 else '')


# ---- ops lowered here: their form depends on operand values or they hold lists -------------------

def _constant_value(lowering, ref):
    node = ref.node
    return node.attrs['value'] if node.opdef is registry.CONST else None


def _reduction(function, start=None):
    """`function` is a helper reducing all elements (see helpers.py); `start`: the sum or
    product helpers take the accumulator's start, a float64 or int64 by the input's dtype."""
    def lower(lowering, node, inputs, depth):
        x = node.inputs[0]
        axes = _constant_value(lowering, node.inputs[1])
        rank = x.shape.rank
        if axes is None or rank is None:
            raise Unsupported(node, 'its axes or its input rank are not known when tracing')
        axes = {int(a) % rank for a in np.ravel(axes)} if rank else set()
        first = '' if start is None else f', {float(start) if x.dtype.is_floating else start}'
        if rank == 0 or not axes:
            expr = inputs[0]
        elif axes == set(range(rank)):
            expr = f'{function}({inputs[0]}{first})'
            if node.opdef is reduce.OPS['reduce_mean']:
                expr = f'{expr} / {inputs[0]}.size'
            if node.attrs.get('keep_dims'):
                expr = f'np.full({(1,) * rank!r}, {expr})'
        elif rank == 2 and function == 'sum_all' and not node.attrs.get('keep_dims'):
            axis = axes.pop()
            expr = f'sum_axis({inputs[0]}, {axis}{first})'
            if node.opdef is reduce.OPS['reduce_mean']:  # integer means truncate, as the cast
                expr = f'{expr} / {inputs[0]}.shape[{axis}]'
        else:
            raise Unsupported(node, 'native code reduces over all axes, or sums and averages '
                                    'a matrix over one')
        return lowering.assign(node, expr, depth)
    return lower

def _reshape(lowering, node, inputs, depth):
    shape = node.outputs[0].shape
    if not shape.is_fully_defined():
        raise Unsupported(node, 'its output shape is not known when tracing')
    expr = f'np.ascontiguousarray({inputs[0]}).reshape({tuple(shape.as_list())!r})'
    if node.inputs[0].shape.rank == 0:
        expr = inputs[0] if shape.rank == 0 else f'np.full({tuple(shape.as_list())!r}, {inputs[0]})'
    elif shape.rank == 0:
        expr = f'np.ascontiguousarray({inputs[0]}).reshape(-1)[0]'
    return lowering.assign(node, expr, depth, same=True)


def _transpose(lowering, node, inputs, depth):
    """A transposed copy, as a loop nest (numba's transpose with axes compiles for seconds)."""
    perm = _constant_value(lowering, node.inputs[1])
    rank = node.inputs[0].shape.rank
    if perm is None or rank is None:
        raise Unsupported(node, 'its permutation or input rank is not known when tracing')
    perm = [int(p) % rank for p in np.ravel(perm)] if rank else []
    x, dtype = inputs[0], _np_name(node.outputs[0].dtype)
    if dtype is None:
        raise Unsupported(node, f'its dtype {node.outputs[0].dtype.name} is not one native '
                                f'code holds')
    out = lowering.fresh('v')
    lowering.line(depth, f'{out} = np.empty(({"".join(f"{x}.shape[{p}], " for p in perm)}), '
                         f'np.{dtype})')
    indexes = [lowering.fresh('e') for _ in perm]
    for k, (index, p) in enumerate(zip(indexes, perm)):
        lowering.line(depth + k, f'for {index} in range({x}.shape[{p}]):')
    source = [indexes[perm.index(axis)] for axis in range(rank)]
    lowering.line(depth + rank, f'{out}[{", ".join(indexes)}{"," if rank == 1 else ""}] = '
                                f'{x}[{", ".join(source)}{"," if rank == 1 else ""}]')
    return [out]


def _concat(lowering, node, inputs, depth):
    axis = _constant_value(lowering, node.inputs[-1])
    rank = node.outputs[0].shape.rank
    if axis is None or rank is None:
        raise Unsupported(node, 'its axis or rank is not known when tracing')
    expr = f'np.concatenate(({", ".join(inputs[:-1])},), axis={int(axis) % rank})'
    return lowering.assign(node, expr, depth, same=True)


def _shape_of(lowering, node, inputs, depth):
    """Shape, Size and Rank of an array whose rank is known."""
    rank = node.inputs[0].shape.rank
    if rank is None:
        raise Unsupported(node, 'its input rank is not known when tracing')
    x = inputs[0]
    expr = {shaping.SHAPE: f'np.array([{"".join(f"{x}.shape[{i}], " for i in range(rank))}])'
            if rank else 'np.zeros(0, np.int64)',
            shaping.SIZE: f'{x}.size' if rank else '1',
            shaping.RANK: repr(rank)}[node.opdef]
    return lowering.assign(node, expr, depth)


def _arg_reduction(function):
    def lower(lowering, node, inputs, depth):
        axis = _constant_value(lowering, node.inputs[1])
        rank = node.inputs[0].shape.rank
        if axis is None or rank != 1:
            raise Unsupported(node, 'native code takes argmax/argmin of vectors')
        return lowering.assign(node, f"{function}({inputs[0]})", depth)
    return lower


def _fill(lowering, node, inputs, depth):
    rank = node.outputs[0].shape.rank
    if rank is None:
        raise Unsupported(node, 'its output rank is not known when tracing')
    dims = ', '.join(f'int({inputs[0]}[{i}])' for i in range(rank))
    return lowering.assign(node, f"np.full(({dims},), {inputs[1]})", depth, same=True)


def _pack(lowering, node, inputs, depth):
    if _only_indexes(lowering, node):
        return [None]  # StridedSlice reads the packed scalars directly
    axis = node.attrs.get('axis', 0)
    if all(ref.shape.rank == 0 for ref in node.inputs):
        expr = f'np.array([{", ".join(inputs)}])'
    elif axis == 0:
        expr = f'np.stack(({", ".join(inputs)},))'
    else:
        raise Unsupported(node, 'native code stacks arrays along axis 0 only')
    return lowering.assign(node, expr, depth, same=True)


def _only_indexes(lowering, node):
    users = lowering.uses.get(node.outputs[0], [])
    return bool(users) and all(user != 'output' and user.opdef is slicing.STRIDED_SLICE and
                               position > 0 for user, position in users)


def _index_items(lowering, node, ref, names):
    """Per dimension, the expression of begin/end/stride `ref` (a Const or a Pack of scalars)."""
    value = _constant_value(lowering, ref)
    if value is not None:
        return [repr(int(v)) for v in np.ravel(value)]
    producer = ref.node
    if producer.opdef is convert.PACK and all(r.shape.rank == 0 for r in producer.inputs):
        return [names(r) for r in producer.inputs]
    raise Unsupported(node, 'its begin, end and strides are not scalars known to native code')


def _strided_slice(lowering, node, inputs, depth):
    masks = {k: node.attrs.get(k, 0) for k in ('begin_mask', 'end_mask', 'ellipsis_mask',
                                                'new_axis_mask', 'shrink_axis_mask')}
    if masks['ellipsis_mask'] or masks['new_axis_mask']:
        raise Unsupported(node, 'native code slices without `...` and `None`')
    x_shape = node.inputs[0].shape
    if x_shape.rank is None:
        raise Unsupported(node, 'its input rank is not known when tracing')
    names = lowering.value_names
    begin, end, strides = (_index_items(lowering, node, ref, names) for ref in node.inputs[1:])
    items = []
    for k, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << k
        if masks['shrink_axis_mask'] & bit:
            items.append(f'check_index({b}, {inputs[0]}.shape[{k}])')
        else:
            items.append(f'{"" if masks["begin_mask"] & bit else b}:'
                         f'{"" if masks["end_mask"] & bit else e}:{s}')
    expr = f'{inputs[0]}[{", ".join(items)}{"," if len(items) == 1 else ""}]'
    return lowering.assign(node, expr, depth, same=True)


def _gather(lowering, node, inputs, depth):
    axis = _constant_value(lowering, node.inputs[2])
    if axis is None or int(axis) != 0 or node.inputs[1].shape.rank != 0:
        raise Unsupported(node, 'native code gathers one scalar index along axis 0')
    expr = f'{inputs[0]}[check_bounds({inputs[1]}, {inputs[0]}.shape[0])]'
    return lowering.assign(node, expr, depth, same=True)


def _var_handle(lowering, node, inputs, depth):
    """A variable of a plain graph: its value is an argument, as for a resource input."""
    return [lowering.variable(node, node.payload, node.payload)]


def _read_variable(lowering, node, inputs, depth):
    out = lowering.fresh('v')
    lowering.line(depth, f'{out} = {inputs[0]}')
    return [out]


def _assign_variable(update):
    def lower(lowering, node, inputs, depth):
        variable, value = inputs
        storage, _ = lowering.variables[variable]
        expr = update.format(variable, value)
        spec = (node.inputs[1].dtype, storage.shape)
        lowering.line(depth, f'{variable} = {_cast(node, expr, spec)}')
        lowering.assigned.add(variable)
        return []
    return lower


def _list_reserve(lowering, node, inputs, depth):
    dtype, dims = lowering.lists.layout(node, node.outputs[0])
    template = lowering.fresh('c')  # an empty array of the element dtype and rank
    lowering.constants.append(np.empty([0] + dims, dtype))
    lowering.constant_names.append(template)
    out = lowering.fresh('t')
    lowering.line(depth, f'{out} = list_reserve({inputs[0]}, {template})')
    return [out]


def _list_to_write(lowering, node, handle, depth):
    """The local of the list that `node` writes: `handle` itself when nothing else can see
    it, else a copy."""
    out = lowering.fresh('t')
    if lowering.lists.in_place(node.inputs[0]):
        lowering.line(depth, f'{out} = {handle}')
    else:
        lowering.line(depth, f'{out} = ({handle}[0].copy(), {handle}[1].copy())')
    return out


def _list_set(lowering, node, inputs, depth):
    handle, index, item = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    out = _list_to_write(lowering, node, handle, depth)
    fused = lowering.fused.pop(node.inputs[2], None)
    if fused is None:
        lowering.line(depth, f'list_set({out}[0], {out}[1], {index}, {item})')
        return [out]
    lowering.line(depth, f'list_check_index({out}[1], {index})')  # the item, row by row
    indexes = lowering.loop_nest(dims, depth)
    lowering.line(depth + len(dims), f'{out}[0][{", ".join([index] + indexes)}] = {fused(indexes)}')
    lowering.line(depth, f'{out}[1][{index}] = True')
    return [out]


def _list_get(lowering, node, inputs, depth):
    handle, index = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    out = lowering.fresh('v')
    expr = f'list_get({handle}[0], {handle}[1], {index})'
    if dims:
        expr += '.copy()'
    spec = (node.outputs[0].dtype, TensorShape(dims))
    lowering.line(depth, f'{out} = {_cast(node, expr, spec, same=True)}')
    return [out]


def _list_stack(lowering, node, inputs, depth):
    (handle,) = inputs
    dtype, dims = lowering.lists.layout(node, node.inputs[0])
    out = lowering.fresh('v')
    lowering.line(depth, f'list_check_written({handle}[1])')
    # no copy when nothing writes the list afterwards
    expr = f'{handle}[0]' if node.inputs[0] in lowering.lists.unconsumed else \
        f'{handle}[0].copy()'
    lowering.line(depth, f'{out} = {expr}')
    return [out]


def _list_length(lowering, node, inputs, depth):
    out = lowering.fresh('v')
    lowering.line(depth, f'{out} = np.int32(len({inputs[0]}[1]))')
    return [out]


def _list_from_tensor(lowering, node, inputs, depth):
    """TensorArray.unstack: the rows of a tensor (copied: writes may update the list)."""
    lowering.lists.layout(node, node.outputs[0])
    tensor = inputs[0]
    out = lowering.fresh('t')
    lowering.line(depth, f'{out} = (np.ascontiguousarray({tensor}).copy(), '
                         f'np.ones({tensor}.shape[0], np.bool_))')
    return [out]


def _split_element_shape(node):
    """The element shape of TensorListSplit's list when its lengths are one constant, else
    None (then the list's readers tell it)."""
    lengths, shape = node.inputs[2].constant, node.inputs[0].shape
    if lengths is None or not np.size(lengths) or len(set(np.ravel(lengths).tolist())) != 1 \
            or not shape.rank:
        return None
    return TensorShape([int(np.ravel(lengths)[0])]).concatenate(shape[1:])


def _list_split(lowering, node, inputs, depth):
    """TensorListSplit into pieces of one length (the elements' first dim): the tensor
    reshaped, after checking the lengths."""
    tensor, _, lengths = inputs
    _, dims = lowering.lists.layout(node, node.outputs[0])
    if not dims:
        raise Unsupported(node, 'its pieces have no rows')
    out = lowering.fresh('t')
    lowering.line(depth, f'{out} = (list_split({tensor}, {lengths}, {dims[0]}), '
                         f'np.ones({tensor}.shape[0] // {dims[0]}, np.bool_))')
    return [out]


def _list_gather(lowering, node, inputs, depth):
    handle, indices = inputs
    lowering.lists.layout(node, node.inputs[0])
    if node.inputs[1].shape.rank != 1:
        raise Unsupported(node, 'native code gathers a vector of indices')
    return lowering.assign(node, f'list_gather({handle}[0], {handle}[1], {indices})', depth,
                           same=True)


def _list_scatter(lowering, node, inputs, depth):
    handle, tensor, indices = inputs
    lowering.lists.layout(node, node.inputs[0])
    if node.inputs[2].shape.rank != 1:
        raise Unsupported(node, 'native code scatters with a vector of indices')
    out = _list_to_write(lowering, node, handle, depth)
    lowering.line(depth, f'list_scatter({out}[0], {out}[1], {indices}, {tensor})')
    return [out]


def _list_concat(lowering, node, inputs, depth):
    """TensorArray.concat of elements of one shape: the data with its first two axes merged,
    and the elements' lengths."""
    (handle,) = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    if not dims:
        raise Unsupported(node, 'its TensorArray elements are scalars, which concat cannot join')
    lowering.line(depth, f'list_check_written({handle}[1])')
    rows = f'{handle}[0].shape[0] * {dims[0]}'
    tensor = lowering.assign(node, f'{handle}[0].copy().reshape(({rows}, '
                                   f'{"".join(f"{d}, " for d in dims[1:])}))', depth, same=True)
    lengths = lowering.assign(node, f'np.full({handle}[1].shape[0], {dims[0]}, np.int64)', depth,
                              _spec(node.outputs[1]))
    return tensor + lengths


def _scalar_index(lowering, node, inputs, depth):
    """x[i] for a scalar i (StridedSlice's rewrite): negative i counts from the end, and an
    i out of range raises."""
    x, index = inputs
    if not node.inputs[0].shape.rank:
        raise Unsupported(node, 'its input rank is not known when tracing')
    return lowering.assign(node, f'{x}[check_index({index}, {x}.shape[0])]', depth, same=True)


def _batch_matmul(lowering, node, inputs, depth):
    """BatchMatMulV2 with batch dims known when tracing, each operand's either the output's
    or all 1 (broadcast): a loop of matrix products."""
    out_shape = node.outputs[0].shape
    if out_shape.rank is None or not out_shape[:-2].is_fully_defined() or \
            any(ref.shape.rank is None for ref in node.inputs):
        raise Unsupported(node, 'its batch dims are not known when tracing')
    batch = out_shape[:-2].as_list()
    total = int(np.prod(batch))
    operands = []
    for ref, name in zip(node.inputs, inputs):
        dims = ref.shape[:-2]
        own = [1] * (len(batch) - dims.rank) + dims.as_list() if dims.is_fully_defined() else None
        if own is None or own not in (batch, [1] * len(batch)):
            raise Unsupported(node, 'native code broadcasts whole batches only (each operand '
                                    'has the batch dims of the result, or none)')
        rows = 1 if own != batch else total
        operands.append(f'np.ascontiguousarray({name}).reshape(({rows}, '
                        f'{name}.shape[{ref.shape.rank - 2}], {name}.shape[{ref.shape.rank - 1}]))')
    product = lowering.fresh('v')
    attrs = {**node.opdef.defaults, **node.attrs}
    lowering.line(depth, f'{product} = batch_matmul({operands[0]}, {operands[1]}, '
                         f'{bool(attrs["adj_x"])}, {bool(attrs["adj_y"])})')
    dims = ''.join(f'{d}, ' for d in batch)
    return lowering.assign(node, f'{product}.reshape(({dims}{product}.shape[1], '
                                 f'{product}.shape[2]))', depth, same=True)


SPECIAL = {
    **{opdef: _reduction(function, start) for opdef, function, start in (
        (reduce.OPS['reduce_sum'], 'sum_all', 0), (reduce.OPS['reduce_mean'], 'sum_all', 0),
        (reduce.OPS['reduce_prod'], 'prod_all', 1), (reduce.OPS['reduce_max'], 'max_all', None),
        (reduce.OPS['reduce_min'], 'min_all', None), (reduce.OPS['reduce_any'], 'any_all', None),
        (reduce.OPS['reduce_all'], 'all_all', None))},
    shaping.RESHAPE: _reshape,
    shaping.EXPAND_DIMS: _reshape,
    shaping.SQUEEZE: _reshape,
    shaping.TRANSPOSE: _transpose,
    shaping.CONCAT: _concat,
    shaping.SHAPE: _shape_of,
    shaping.SIZE: _shape_of,
    shaping.RANK: _shape_of,
    reduce.ARGMAX: _arg_reduction('np.argmax'),
    reduce.ARGMIN: _arg_reduction('np.argmin'),
    creation.FILL: _fill,
    convert.PACK: _pack,
    slicing.STRIDED_SLICE: _strided_slice,
    slicing.GATHER: _gather,
    state.VAR_HANDLE: _var_handle,
    state.READ: _read_variable,
    state.ASSIGN: _assign_variable('{1}'),
    state.ASSIGN_ADD: _assign_variable('{0} + {1}'),
    state.ASSIGN_SUB: _assign_variable('{0} - {1}'),
    list_ops.RESERVE: _list_reserve,
    list_ops.SET_ITEM: _list_set,
    list_ops.GET_ITEM: _list_get,
    list_ops.STACK: _list_stack,
    list_ops.FROM_TENSOR: _list_from_tensor,
    list_ops.SPLIT: _list_split,
    list_ops.GATHER: _list_gather,
    list_ops.SCATTER: _list_scatter,
    list_ops.CONCAT: _list_concat,
    slicing.SCALAR_INDEX: _scalar_index,
    math.BATCH_MATMUL: _batch_matmul,
    list_ops.LENGTH: _list_length,
}


def lowerable(opdef):
    """Whether native code can hold `opdef` (for some operands)."""
    return opdef in SPECIAL or native_form(opdef) is not None or opdef.control_flow is not None \
        or opdef in (registry.CONST, registry.PLACEHOLDER)


def lower(program):
    """The NativeSource of `program` (already optimized); raises Unsupported."""
    lowering = Lowering(program)
    params = [f'p{i}' for i in range(len(program.params))]
    args = []
    for index, (name, node) in enumerate(zip(params, program.params)):
        dtype, shape = _spec(node.outputs[0])
        if dtype is dtypes.resource:
            args.append(lowering.variable(node, node.payload, index))
            continue
        if _np_name(dtype) is None:
            raise Unsupported(node, f'it is an input of dtype {dtype.name}')
        args.append(name)
    results = lowering.emit(program, args, 1)
    for ref, result in zip(program.outputs, results):
        if ref.dtype is dtypes.variant or result is None:
            raise Unsupported(ref.node, 'its value is a TensorArray returned from the function; '
                                      'return .stack() instead')
    # a variable's value is an argument (its param, or one after the params for a graph
    # variable); the values of the variables written are returned after the outputs
    inputs = list(params)
    prologue = []
    storages = []
    for name, (storage, source) in lowering.variables.items():
        if isinstance(source, int):
            argument = params[source]
        else:
            argument = f's{len(storages)}'
            storages.append(source)
            inputs.append(argument)
        prologue.append(f'    {name} = '
                        f'{_cast(None, argument, (storage.dtype, storage.shape), same=True)}')
    written = [(name, storage, source) for name, (storage, source) in lowering.variables.items()
               if name in lowering.assigned]
    returned = results + [name for name, _, _ in written]
    header = f'def native({", ".join(inputs + lowering.constant_names)}):'
    source = '\n'.join([header] + prologue + lowering.lines +
                       [f'    return ({"".join(r + ", " for r in returned)})']) + '\n'
    # numba gets rank-0 arguments as numpy scalars (typed without compiling any cast)
    ranks = [node.outputs[0].shape.rank if node.outputs[0].dtype is not dtypes.resource else
             lowering.variables[args[k]][0].shape.rank for k, node in enumerate(program.params)]
    ranks += [storage.shape.rank for storage in storages]
    return NativeSource(source, lowering.constants,
                        [k for k, rank in enumerate(ranks) if rank == 0],
                        [_spec(ref) for ref in program.outputs],
                        [source for _, source in lowering.variables.values()
                         if isinstance(source, int)],
                        storages, [(source, (storage.dtype, storage.shape))
                         for _, storage, source in written])
