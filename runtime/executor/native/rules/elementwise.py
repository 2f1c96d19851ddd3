"""How native code writes the ops that have a native form (native/rules/forms.py, from their
`operator` and `elementwise` tags): elementwise ops on arrays of known shape become loop nests
over the output, fused into their only user's loop (a sum over all axes included: loops over
blocks of the elements computing them into buffers of the block and adding them, a loop for
each vectorizable math call, no array of the elements); a run of the same op feeding itself
(an unrolled Python loop) becomes one loop. `lower_form` is the rule of every op with a form
and no rule of its own.
"""
import functools
from typing import Any, Sequence

import numpy as np

from runtime.core.shapes import TensorShape
from runtime.executor.ir import Node, Value
from runtime.executor.native import team
from runtime.executor.native.rules import (
    RULES,
    Lowers,
    Unsupported,
    cast,
    constant_value,
    literal,
    np_name,
    spec,
)
from runtime.executor.native.rules.expr import (
    Apply,
    Buffer,
    Expr,
    Index,
    Source,
    buffers_read,
    is_element_read,
)
from runtime.executor.native.rules.forms import Form, form_of, operator_form
from runtime.ops import creation, list_ops, reduce
from runtime.ops.registry import OpDef


def lower_form(lowering: Lowers, node: Node, inputs: list[str], depth: int,
               out: str | None = None) -> list[str]:
    """The rule of an op with a native form: a loop nest for an elementwise op on arrays of
    known shape (or fused into its user's), else the form on the operands, cast."""
    form = _node_form(node)
    if form is None:
        raise Unsupported(node, 'the op has no native lowering')
    if len(node.outputs) != 1:
        raise Unsupported(node, 'the op has several outputs')
    given = {**node.opdef.defaults, **node.attrs}
    attrs = {key: literal(given[key]) for key in form.attrs}
    out = out or lowering.result(node)
    if not elementwise_loop(lowering, node, form, inputs, attrs, out, depth):
        # an operand left to be fused into this node's loop, which it does not have after all
        inputs = [lowering.materialized(ref, name, depth) for ref, name in zip(node.inputs, inputs)]
        value_spec = spec(node.outputs[0])
        same = all(ref.dtype is value_spec[0] for ref in node.inputs) and \
            form.keeps_dtype  # numba keeps the dtype of arrays of one dtype
        source = form.write(*inputs, scalar=value_spec[1].rank == 0, **attrs)
        lowering.line(depth, f'{out} = {cast(node, source, value_spec, same)}')
    return [out]


def elementwise_loop(lowering: Lowers, node: Node, form: Form, inputs: list[str],
                     attrs: dict[str, str], out: str, depth: int) -> bool:
    """An elementwise op on arrays of shapes known when tracing, as a loop nest over its
    output applying the scalar form: numba compiles that in a fraction of the time of its
    array expressions. An op whose only user is such a loop over the same shape is fused
    into it (no array in between). False when the op is not elementwise or a shape is
    unknown."""
    dtype, shape = spec(node.outputs[0])
    name = np_name(dtype)
    if name is None or node.opdef.elementwise is None or not shape.rank or \
            not shape.is_fully_defined() or \
            any(not ref.shape.is_fully_defined() or ref.shape.rank > shape.rank or
                any(size not in (1, whole) for size, whole in zip(
                    reversed(ref.shape.as_list()), reversed(shape.as_list())))
                for ref in node.inputs):
        return False

    def element(indexes: Sequence[str]) -> Expr:
        """The tree of the element at `indexes` (names of the loop's indexes)."""
        dims = shape.as_list()
        elements = []
        for ref, operand_name in zip(node.inputs, inputs):
            fused = lowering.fused.pop(ref, None)
            if fused is not None:
                elements.append(fused(indexes))
                continue
            operand = ref.shape.as_list()
            offset = len(dims) - len(operand)
            at = tuple(Source('0' if size != dims[offset + k] else indexes[offset + k])
                       for k, size in enumerate(operand))
            read = lowering.operand(operand_name)
            elements.append(Index(read, at) if at else read)
        vector = {'float32': form.float32, 'float64': form.float64}.get(name)
        if vector is not None and all(ref.dtype is dtype for ref in node.inputs):
            write = functools.partial(vector, **attrs)
            if not isinstance(indexes, Staged):
                return Apply(write, tuple(elements))
            # the operands too: a loop computing only the math call keeps its constants in
            # registers (~10% faster for the bench's chain than the arithmetic inlined)
            elements = [e if is_element_read(e) else indexes.stage(e, name) for e in elements]
            return indexes.stage(Apply(write, tuple(elements)), name)
        value = Apply(functools.partial(form.write, scalar=True, **attrs), tuple(elements),
                      form.raises)
        return Apply(functools.partial(cast, node, value_spec=(dtype, TensorShape([]))),
                     (value,))

    if fusible(lowering, node):
        lowering.fused[node.outputs[0]] = element
        return True
    if node.opdef in _FILLED:  # a new array, not a loop writing it (~0.1 s of LLVM's time)
        lowering.line(depth, f'{out} = np.{_FILLED[node.opdef]}({tuple(shape.as_list())!r}, '
                             f'np.{name})')
        return True
    lowering.loop_call(out, shape.as_list(), name, element, depth)
    return True


# elementwise ops whose arrays are filled with one value: numpy's function writing them
_FILLED = {creation.ZEROS_LIKE: 'zeros', creation.ONES_LIKE: 'ones'}


def fusible(lowering: Lowers, node: Node) -> bool:
    """Whether `node`'s value is needed only as the elements of one loop over its shape:
    an elementwise op of the same output shape, a TensorArray write of it, or a float sum
    (or mean) of all its elements."""
    users = lowering.uses.get(node.outputs[0], [])
    if len(users) != 1 or users[0][0] == 'output' or users[0][0] in lowering.chained:
        return False
    user, position = users[0]
    if user.opdef is list_ops.SET_ITEM:
        return position == 2
    if user.opdef in _SUMS:
        return position == 0 and sums_all(user) and node.outputs[0].dtype.is_floating
    return user.opdef.elementwise is not None and form_of(user.opdef) is not None and \
        user.outputs[0].shape == node.outputs[0].shape and user.inputs[position].shape == \
        node.outputs[0].shape and user.outputs[0].shape.is_fully_defined()


def emit_chain(lowering: Lowers, chain: list[Node], depth: int) -> None:
    """k nodes of one op, each feeding the next at one operand (an unrolled loop, such as
    the seed's `power`), written as a loop: one call site to compile, not k."""
    first, second = chain[0], chain[1]
    position = next(p for p, ref in enumerate(second.inputs) if ref.node is first)
    rule = RULES.get(first.opdef)
    inputs: list[Any] = [lowering.names.get(ref) for ref in first.inputs]
    (out,) = rule(lowering, first, inputs, depth) if rule else \
        lower_form(lowering, first, inputs, depth)
    inputs[position] = out
    lowering.line(depth, f'for _ in range({len(chain) - 1}):')
    if rule is None:
        lower_form(lowering, second, inputs, depth + 1, out)
    else:
        (new,) = rule(lowering, second, inputs, depth + 1)
        lowering.line(depth + 1, f'{out} = {new}')
    lowering.names[chain[-1].outputs[0]] = out


_MIN_CHAIN = 4


def chains(nodes: list[Node], uses: dict[Value, list[tuple[Any, int]]]
           ) -> dict[Node, list[Node]]:
    """id of each node in a chain -> the chain: runs of at least _MIN_CHAIN nodes written from
    one native form, with equal attrs and specs, each the only user of the one before, which
    it takes at one fixed operand, all other operands the same values."""
    chains: dict[Node, list[Node]] = {}
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


def _link(first: Node, previous: Node, node: Node,
          uses: dict[Value, list[tuple[Any, int]]]) -> int | None:
    """The operand position at which `node` continues a chain after `previous`, or None."""
    opdef = node.opdef
    if opdef is not previous.opdef or not written_natively(opdef) or \
            opdef.control_flow or len(node.outputs) != 1 or node.control or \
            [spec(v) for v in node.outputs] != [spec(v) for v in previous.outputs]:
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


_SUMS = (reduce.OPS['reduce_sum'], reduce.OPS['reduce_mean'])

# The elements of a fused sum are computed a block at a time into buffers (loops LLVM
# vectorizes), which a last loop adds up in float64 (`accumulate`: an addition LLVM may
# reorder, so it vectorizes too). Each vectorizable math call (exp_f32, sin_f64...) is a loop
# of its own over the block, writing a buffer the next loops read: loops of one function each
# hold their constants in registers (one loop for `exp(tanh(y))` ran out of AVX-512's 32 and
# reloaded them, ~35% slower). The buffers stay in the L1 or L2 cache: at most _SUM_BYTES; a
# stage writes in place the buffer of one that no later stage reads (`_shared_buffers`).
_SUM_BLOCK, _SUM_BYTES = 4096, 32 * 1024
LOOP_BLOCK = 4096  # the elements of a block of an elementwise loop shared with the helper


class Staged(list):
    """The index names of a fused sum's loop nest, and its stages: the elements of each
    vectorizable math call, written to a buffer of the block (`b0[k]`...) by a loop of its own.
    """
    def __init__(self, indexes: Sequence[str]) -> None:
        super().__init__(indexes)
        self.stages: list[tuple[Expr, str]] = []  # (each element's tree, numpy dtype name)

    def stage(self, expr: Expr, dtype_name: str) -> Buffer:
        """`expr` computed by a loop of its own; the tree reading its element."""
        self.stages.append((expr, dtype_name))
        return Buffer(len(self.stages) - 1)


def sums_all(node: Node) -> bool:
    """Whether the Sum or Mean `node` reduces its operand, of known shape and not empty, over
    all its axes."""
    axes, shape = constant_value(node.inputs[1]), node.inputs[0].shape
    rank = shape.rank
    if axes is None or not rank or not shape.is_fully_defined() or not shape.num_elements():
        return False
    return {int(a) % rank for a in np.ravel(axes)} == set(range(rank))


def fused_sum(lowering: Lowers, ref: Value, depth: int) -> str:
    """The name of a float64 local holding the sum of the elements of `ref`, which was left
    to be fused into its sum: loops over blocks of the elements compute them into buffers and
    add them (no array of the elements)."""
    element = lowering.fused.pop(ref)
    dtype, shape = spec(ref)
    dtype_name = np_name(dtype)
    assert dtype_name is not None  # a fused value has a dtype native code holds
    dims = shape.as_list()
    indexes = Staged([f'i{k}' for k in range(len(dims))])
    last_element = element(indexes)
    if last_element != Buffer(len(indexes.stages) - 1):  # the sum's operand: a buffer too
        indexes.stage(last_element, dtype_name)
    stages, names, buffers = _shared_buffers(indexes.stages)
    itemsizes = sum(np.dtype(name).itemsize for name in names)
    full = max(256, min(_SUM_BLOCK, _SUM_BYTES // itemsizes) // 64 * 64)  # whole vectors
    last, block = dims[-1], min(full, dims[-1])

    def body(exprs: list[str]) -> list[str]:
        lines = [f'    b{j} = np.empty({block}, np.{name})' for j, name in enumerate(names)]
        lines += ['    total = 0.0']
        lines += ['    ' * (k + 1) + f'for {index} in range({size}):'
                  for k, (index, size) in enumerate(zip(indexes, dims[:-1]))]
        indent = '    ' * len(dims)
        lines += [f'{indent}for block in range({-(-last // block)}):',
                  f'{indent}    start = block * {block}',
                  f'{indent}    size = smaller({block}, {last} - start)']
        for buffer, expr in zip(stages, exprs):
            lines += [f'{indent}    for k in range(size):',
                      f'{indent}        {indexes[-1]} = start + k',
                      f'{indent}        b{buffer}[k] = {expr}']
        return lines + [f'{indent}    for k in range(size):',
                        f'{indent}        total = accumulate(total, np.float64(b{stages[-1]}[k]))',
                        '    return total']

    # the shared loop's: blocks of `full` elements (or rows) claimed one by one
    head, indent, blocks = claimed(indexes, dims, full, ['        total = 0.0'])

    def claims(exprs: list[str]) -> list[str]:
        lines = list(head)
        for buffer, expr in zip(stages, exprs):
            lines += [f'{indent}for k in range(size):', f'{indent}    {indexes[-1]} = start + k',
                      f'{indent}    b{buffer}[k] = {expr}']
        return [f'    b{j} = np.empty({block}, np.{name})' for j, name in enumerate(names)] + \
            lines + [f'{indent}for k in range(size):',
                     f'{indent}    total = accumulate(total, np.float64(b{stages[-1]}[k]))',
                     '        result[block] = total']
    out = lowering.fresh('total')
    exprs = [expr for expr, _ in indexes.stages]
    if blocks < team.MIN_BLOCKS or \
            lowering.shared_site_call(out, exprs, claims, blocks, depth, buffers=buffers) is None:
        lowering.site_call(out, exprs, body, depth, buffers=buffers)
    return out


def claimed(indexes: Sequence[str], dims: Sequence[int], block: int,
            prologue: Sequence[str] = ()) -> tuple[list[str], str, int]:
    """The head of a loop nest over `dims` whose blocks are claimed one at a time (a loop
    shared with the helper thread, native/team.py): a block is `block` elements of one row
    (the last axis), or whole rows where rows are shorter. Returns (the lines, which set the
    leading `indexes` and the block's `start` and `size` on the last axis, after `prologue`
    (lines run once a block); the indent of the lines computing a block's elements; the
    number of blocks). Its indexes are unsigned: numba checks a signed index for a negative
    value at each element, which keeps LLVM from vectorizing the loads (~40% slower)."""
    last, rows = dims[-1], int(np.prod(dims[:-1], dtype=np.int64))
    if not last or not rows:
        return [], '', 0  # no elements: nothing to share
    per_row, group = -(-last // block), max(1, block // last)
    blocks = rows * per_row if group == 1 else -(-rows // group)
    lines = ['    computed = 0', '    while True:', '        block = claim(counter)',
             f'        if block >= {blocks}:', '            return computed',
             '        computed += 1', *prologue]
    if group == 1:
        indent = '        '
        lines += [f'        row = block // np.uint64({per_row})',
                  f'        start = (block - row * np.uint64({per_row})) * np.uint64({block})',
                  f'        size = smaller(np.uint64({block}), np.uint64({last}) - start)']
    else:
        indent = '            '
        lines += [f'        first = block * np.uint64({group})',
                  f'        for row in range(first, smaller(np.uint64({rows}), '
                  f'first + np.uint64({group}))):',
                  '            start = np.uint64(0)', f'            size = np.uint64({last})']
    if len(dims) > 1:
        lines.append(f'{indent}rest = row')
    for index, size in reversed(list(zip(indexes, dims[:-1]))):
        lines += [f'{indent}{index} = rest % np.uint64({size})',
                  f'{indent}rest = rest // np.uint64({size})']
    return lines, indent, blocks


def _shared_buffers(stages: list[tuple[Expr, str]]
                    ) -> tuple[list[int], list[str], dict[int, int]]:
    """The stages of a fused sum, `(tree, dtype name)` each, written into as few buffers as
    they need: a stage writes the buffer of an earlier one of its dtype that no later stage
    (nor the sum, which reads the last) reads, in place (element k is read before it is
    written). Returns (the buffer each stage writes, the buffers' dtype names, stage ->
    buffer: how the stages' reads of the buffers are rendered)."""
    last_read: dict[int, int] = {}
    for j, (expr, _) in enumerate(stages):
        for read in buffers_read(expr):
            last_read[read] = j
    last_read[len(stages) - 1] = len(stages)     # the sum's loop reads the last stage
    buffer_of: dict[int, int] = {}
    names: list[str] = []
    free: dict[str, list[int]] = {}
    for j, (_, name) in enumerate(stages):
        for i in [i for i in free.get(name, ()) if last_read.get(i, -1) <= j]:
            free[name].remove(i)
            buffer_of[j] = buffer_of[i]
            break
        else:
            buffer_of[j] = len(names)
            names.append(name)
        free.setdefault(name, []).append(j)
    return [buffer_of[j] for j in range(len(stages))], names, buffer_of


def written_natively(opdef: OpDef) -> bool:
    """Whether native code writes the op from a form or, for an op with the `operator` tag
    (MatMul, `x[i]`), a rule of its own: a run of such ops may become one loop (a chain)."""
    return form_of(opdef) is not None or opdef.operator is not None and opdef in RULES


def _node_form(node: Node) -> Form | None:
    """The Form writing `node`. An op whose run-time checks a pass has proved (a division by a
    non-zero constant) is its Python operator."""
    opdef = node.opdef
    if opdef.nonzero and not node.checks and opdef.operator is not None:
        return operator_form(opdef)
    return form_of(opdef)
