"""Re-rolling repeated code in the generated function: n >= 3 consecutive blocks of statements
that differ only in the names of the locals each defines and in integer constants that grow by
a fixed step (fifty layers of `relu(x @ w[i] + b[i])`, unrolled by a Python loop) become the
first block and a `for` loop over the others. numba's compile time grows with the statements it
compiles (each array op is hundreds of LLVM instructions), so fifty layers compile as two.

The function's body is parsed once with `ast`. Its *locals* are its params and the names it
assigns (targets of assignments and `for`s, `with ... as`), known from the tree whatever they
are called. Each statement reduces to its *shape*, its tree with the locals and the integer
constants left out, and its *slots*, those left out, in evaluation order; blocks are runs of
sibling statements (of the function's body, a loop's, a branch's) whose shapes repeat. A local
a block neither assigns nor reads from the block before is outside it, as a helper or `np` is.

A run qualifies when, from its second block on, every block reads the same outside names, the
previous block's locals at the same slots (read before its own are first assigned, in the
order of the slots: the loop's variables), its own locals at the same slots, and integers
`a + b*k` for the k-th block; when no local of a block but the last is read outside it and the
next block; and when it holds no `break`, `continue` or `return`. The loop's body is the last
block, so the names read after the blocks keep their meaning; the first block stays as written
before the loop when it differs (it reads an outside name where the others read the block
before's local, differently).

Statements not rolled keep their text (sliced by their lines); a loop's body is its last
block's text with its reads of the block before's locals renamed to its own and the growing
integers written as expressions of the loop's index, at the columns the tree gives them.
"""
import ast
import collections
import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

_MIN_BLOCKS = 3
_MAX_STATEMENTS = 64  # the longest block looked for
_EXITS = (ast.Break, ast.Continue, ast.Return)
# the fields of these nodes in the order Python evaluates them (others: their _fields order)
_EVALUATION_ORDER = {ast.Assign: ('value', 'targets'), ast.For: ('iter', 'target', 'body',
                                                                 'orelse'),
                     ast.NamedExpr: ('value', 'target'), ast.comprehension: ('iter', 'target',
                                                                             'ifs')}
_BODIES = ('body', 'orelse', 'finalbody')


@dataclass(slots=True)
class Slot:
    """A local (`name`, `stored`: assigned here) or an integer constant (`number`) in a
    statement, in evaluation order; `node` is where it is written."""

    node: ast.Name | ast.Constant
    name: str | None
    stored: bool = False
    number: int = 0


@dataclass(slots=True)
class Statement:
    """One statement of the body: its shape (an id: equal for equal shapes), its slots,
    whether a `break`/`continue`/`return` is in it, and the lines it spans (0-based, end
    excluded)."""

    tree: ast.stmt
    shape: int
    slots: list[Slot]
    exits: bool
    lines: range


@dataclass(slots=True)
class Loop:
    """A run of blocks re-rolled: the lines from `start` to `end` (excluded) are replaced by
    `written`, each written from the line `origins` gives (None for a loop's head)."""

    start: int
    end: int
    written: list[str]
    origins: list[int | None]


@dataclass
class Body:
    """The parsed body: its lines, the locals, how often each local is read or written in it
    now, the shapes met so far (shape -> id), the statements reduced, and the loops written
    so far."""

    lines: list[str]
    indent: int
    local_names: set[str]
    uses: collections.Counter[str] = field(default_factory=collections.Counter)
    shapes: dict[tuple[object, ...], int] = field(default_factory=dict)
    statements: dict[int, Statement] = field(default_factory=dict)  # id of a tree -> its own
    loops: list[Loop] = field(default_factory=list)


def reroll(lines: Sequence[str], params: Iterable[str] = (),
           name: Callable[[], str] | None = None) -> list[str]:
    """`lines` (of the body of a function of `params`) with each run of repeated blocks
    re-rolled: a loop over them all, or the first block as written and a loop over the others
    when the first one differs. `name()` gives each loop's index a new name (default `k0`,
    `k1`...)."""
    return rerolled(lines, params, name)[0]


def rerolled(lines: Sequence[str], params: Iterable[str] = (),
             name: Callable[[], str] | None = None) -> tuple[list[str], list[int | None]]:
    """(`reroll(lines, params, name)`, the index in `lines` of the line each line was written
    from, None for a loop's head): the body of a loop is its last block."""
    lines = list(lines)
    if name is None:
        name = map('k{}'.format, itertools.count()).__next__
    indent = min((len(line) - len(line.lstrip(' ')) for line in lines if line.strip()),
                 default=0)
    tree = ast.parse('\n'.join(line[indent:] for line in lines))
    local_names = set(params) | {node.id for node in ast.walk(tree)
                                 if isinstance(node, ast.Name) and
                                 not isinstance(node.ctx, ast.Load)}
    body = Body(lines, indent, local_names)
    statements = [_statement(body, statement) for statement in tree.body]
    body.uses.update(slot.name for statement in statements for slot in statement.slots
                     if slot.name is not None)
    _roll_in(body, tree.body, name)
    written: list[str] = []
    origins: list[int | None] = []
    loops = {loop.start: loop for loop in body.loops}
    index = 0
    while index < len(lines):
        loop = loops.get(index)
        if loop is None:
            written.append(lines[index])
            origins.append(index)
            index += 1
        else:
            written += loop.written
            origins += loop.origins
            index = loop.end
    return written, origins


def _roll_in(body: Body, trees: list[ast.stmt], name: Callable[[], str]) -> None:
    """Roll the runs of the statement list `trees`, and those of the lists inside its
    statements that are not rolled."""
    statements = [_statement(body, tree) for tree in trees]
    shapes = [s.shape for s in statements]
    i = 0
    while i < len(statements):
        run = _best_run(shapes, i)
        if run is not None:
            size, count = run
            blocks = [statements[i + k * size:i + (k + 1) * size] for k in range(count)]
            if _rolled(body, blocks, name):
                i += size * count
                continue
        for child in _children(trees[i]):
            _roll_in(body, child, name)
        i += 1


def _children(tree: ast.stmt) -> Iterator[list[ast.stmt]]:
    for attribute in _BODIES:
        child = getattr(tree, attribute, None)
        if child:
            yield child
    for handler in getattr(tree, 'handlers', ()):
        yield handler.body


def _best_run(shapes: list[int], i: int) -> tuple[int, int] | None:
    """(block size, count) of the longest run of >= _MIN_BLOCKS blocks of equal shapes
    starting at statement i, or None."""
    best = None
    for size in range(1, min(_MAX_STATEMENTS, (len(shapes) - i) // _MIN_BLOCKS) + 1):
        if shapes[i + size] != shapes[i]:
            continue
        block = shapes[i:i + size]
        count = 1
        while i + (count + 1) * size <= len(shapes) and \
                shapes[i + count * size:i + (count + 1) * size] == block:
            count += 1
        if count >= _MIN_BLOCKS and (best is None or size * count > best[0] * best[1]):
            best = (size, count)
    return best


def _statement(body: Body, tree: ast.stmt) -> Statement:
    """The Statement of `tree` (reduced once: a statement inside it is its own Statement)."""
    statement = body.statements.get(id(tree))
    if statement is None:
        shape: list[object] = []
        slots: list[Slot] = []
        exits = _reduce(body, tree, shape, slots)
        shape_id = body.shapes.setdefault(tuple(shape), len(body.shapes))
        end = tree.end_lineno if tree.end_lineno is not None else tree.lineno
        statement = body.statements[id(tree)] = Statement(
            tree, shape_id, slots, exits, range(tree.lineno - 1, end))
    return statement


def _reduce(body: Body, node: ast.AST, shape: list[object], slots: list[Slot]) -> bool:
    """Append the shape of `node` (its type, its fields; a local as 'local', an int as 'int')
    to `shape` and its locals and ints to `slots`, in evaluation order; whether a `break`,
    `continue` or `return` is in it."""
    if isinstance(node, ast.Name):
        if node.id in body.local_names:
            shape += ('local', type(node.ctx).__name__)
            slots.append(Slot(node, node.id, stored=not isinstance(node.ctx, ast.Load)))
        else:
            shape += ('name', node.id, type(node.ctx).__name__)
        return False
    if isinstance(node, ast.Constant):
        if type(node.value) is int:
            shape.append('int')
            slots.append(Slot(node, None, number=node.value))
        else:
            shape += ('constant', type(node.value).__name__, repr(node.value))
        return False
    shape.append(type(node).__name__)
    exits = isinstance(node, _EXITS)
    for attribute in _EVALUATION_ORDER.get(type(node), node._fields):
        value = getattr(node, attribute, None)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.stmt):  # reduced once, as a statement of its own
                inner = _statement(body, item)
                shape += ('statement', inner.shape)
                slots += inner.slots
                exits |= inner.exits
            elif isinstance(item, ast.AST):
                exits |= _reduce(body, item, shape, slots)
            else:
                shape.append(item)
        if isinstance(value, list):
            shape.append(len(value))
    return exits


def _defined(block: list[Statement]) -> dict[str, int]:
    """The locals a block assigns, in order of their first assignment, and its slot."""
    defined: dict[str, int] = {}
    for index, slot in enumerate(_slots(block)):
        if slot.stored and slot.name is not None:
            defined.setdefault(slot.name, index)
    return defined


def _slots(block: list[Statement]) -> Iterator[Slot]:
    for statement in block:
        yield from statement.slots


# ('L', i, '') its i-th local, ('P', i, '') the block before's, ('X', 0, name), ('N', number, '')
Kind = tuple[str, int, str]


def _classified(block: list[Statement], own: list[str], previous: list[str]) -> list[Kind]:
    """The slots of `block`: ('L', i, '') for its i-th local, ('P', i, '') for the i-th
    local of the block before, ('X', 0, name) for a local of neither, ('N', value, '') for
    an integer."""
    own_index = {name: k for k, name in enumerate(own)}
    previous_index = {name: k for k, name in enumerate(previous)}
    out: list[Kind] = []
    for slot in _slots(block):
        if slot.name is None:
            out.append(('N', slot.number, ''))
        elif slot.name in own_index:
            out.append(('L', own_index[slot.name], ''))
        elif slot.name in previous_index:
            out.append(('P', previous_index[slot.name], ''))
        else:
            out.append(('X', 0, slot.name))
    return out


def _rolled(body: Body, blocks: list[list[Statement]], name: Callable[[], str]) -> bool:
    """Whether `blocks` qualify; if so the loop replacing them is added to `body.loops`."""
    statements = [s for block in blocks for s in block]
    if any(s.exits for s in statements) or \
            any(a.lines.stop > b.lines.start for a, b in zip(statements, statements[1:])):
        return False  # (or two statements share a line)
    defined = [_defined(block) for block in blocks]
    names = [list(d) for d in defined]
    if len({len(n) for n in names}) != 1:
        return False
    classified = [_classified(blocks[k], names[k], names[k - 1] if k else [])
                  for k in range(len(blocks))]
    later = classified[1:]
    if any([kind for kind, _, _ in slots] != [kind for kind, _, _ in later[0]]
           for slots in later):
        return False
    steps = {}  # slot index -> (value in the first block, step)
    for index, (kind, _, _) in enumerate(later[0]):
        values = [slots[index][1:] for slots in later]
        if kind == 'N':  # the first block's numbers are the progression's too
            step = _progression([classified[0][index][1]] + [n for n, _ in values])
            if step is None:
                return False
            steps[index] = step
        elif len(set(values)) != 1:
            return False
    last = names[-1]
    # the previous block's locals are read before this block assigns them
    if any(kind == 'P' and defined[-1][last[value]] < index
           for index, (kind, value, _) in enumerate(later[0])):
        return False
    # no local of a block but the last is read outside it and the next one
    inside: collections.Counter[str] = collections.Counter()  # a local's reads and writes
    blocks_of = collections.defaultdict(set)  # a local -> the blocks it is in
    for k, block in enumerate(blocks):
        for slot in _slots(block):
            if slot.name is not None:
                inside[slot.name] += 1
                blocks_of[slot.name].add(k)
    kept = set(last)
    if any(local not in kept and (body.uses[local] != inside[local] or
                                  not blocks_of[local] <= {k, k + 1})
           for k, own in enumerate(names[:-1]) for local in own):
        return False
    _write(body, blocks, names, classified, steps, name())
    return True


def _write(body: Body, blocks: list[list[Statement]], names: list[list[str]],
           classified: list[list[Kind]], steps: dict[int, tuple[int, int | None]],
           counter: str) -> None:
    """Add the loop replacing `blocks` (qualified) to `body.loops`."""
    lines, last = body.lines, names[-1]
    first_line = blocks[0][0].lines.start
    base = ' ' * (body.indent + blocks[0][0].tree.col_offset)
    carried = sorted({value for kind, value, _ in classified[1] if kind == 'P'})
    initial = _initial(classified[0], classified[1])
    written: list[str] = []
    origins: list[int | None] = []
    if initial is None:  # the first block as written, the loop over the others
        first = 1
        kept_lines = range(first_line, blocks[0][-1].lines.stop)
        written += [lines[k] for k in kept_lines]
        origins += kept_lines
        starts = [(last[i], names[0][i]) for i in carried if last[i] != names[0][i]]
    else:  # the loop over all, its variables starting as the names the first block reads
        first = 0
        starts = [(last[i], initial[i]) for i in carried if last[i] != initial[i]]
    if starts:
        written.append(f'{base}{", ".join(a for a, _ in starts)}, = '
                       f'{", ".join(b for _, b in starts)},')
    written.append(f'{base}for {counter} in range({first}, {len(blocks)}):')
    origins += [None] * (len(written) - len(origins))
    # the loop's body: the last block's lines reading its own locals where they read the block
    # before's, its growing integers written from the counter
    replaced: dict[int, list[tuple[ast.expr, str]]] = collections.defaultdict(list)
    for index, (slot, (kind, value, _)) in enumerate(zip(_slots(blocks[-1]), classified[-1])):
        start, step = steps.get(index, (0, None))
        if kind == 'P':
            replaced[slot.node.lineno - 1].append((slot.node, last[value]))
        elif step is not None:
            text = counter if (start, step) == (0, 1) else f'({step} * {counter} + {start})'
            replaced[slot.node.lineno - 1].append((slot.node, text))
    body_lines = range(blocks[-1][0].lines.start, blocks[-1][-1].lines.stop)
    for k in body_lines:
        written.append('    ' + _spliced(lines[k], body.indent, replaced.get(k, [])))
        origins.append(k)
    body.loops.append(Loop(first_line, body_lines.stop, written, origins))
    # what the loop no longer reads or writes, and what its head does
    removed = blocks[1:-1] if initial is None else blocks[:-1]
    body.uses.subtract(slot.name for block in removed for slot in _slots(block) if slot.name)
    body.uses.update(name for pair in starts for name in pair)


def _spliced(line: str, indent: int, replaced: list[tuple[ast.expr, str]]) -> str:
    """`line` with each name or constant of `replaced` written as its text (the tree's columns are
    offsets into the line's UTF-8 bytes, past the body's indent)."""
    data = line.encode()
    for node, text in sorted(replaced, key=lambda item: -item[0].col_offset):
        end = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        data = data[:indent + node.col_offset] + text.encode() + data[indent + end:]
    return data.decode()


def _initial(first: list[Kind], second: list[Kind]) -> dict[int, str] | None:
    """When the first block is the others with outside names where they read the block
    before's locals: local index -> that name, else None."""
    initial: dict[int, str] = {}
    for (kind, value, name), (other_kind, other_value, other_name) in zip(first, second):
        if other_kind == 'P':
            if kind != 'X' or initial.setdefault(other_value, name) != name:
                return None
        elif kind != other_kind or kind != 'N' and (value, name) != (other_value, other_name):
            return None
    return initial


def _progression(ints: list[int]) -> tuple[int, int | None] | None:
    """(value in the first block, step) when the integers grow by one step from block to
    block (the loop counter counts the blocks from 0), (value, None) when all are equal, else
    None."""
    if len(set(ints)) == 1:
        return ints[0], None
    step = ints[1] - ints[0]
    if any(b - a != step for a, b in zip(ints, ints[1:])):
        return None
    return ints[0], step
