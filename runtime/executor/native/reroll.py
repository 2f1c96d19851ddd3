"""Re-rolling repeated code in the generated function: n >= 3 consecutive blocks of lines that
differ only in the names of the locals each defines and in integer literals that grow by a
fixed step (fifty layers of `relu(x @ w[i] + b[i])`, unrolled by a Python loop) become the
first block and a `for` loop over the others. numba's compile time grows with the lines it
compiles (each array op is hundreds of LLVM instructions), so fifty layers compile as two.

A block qualifies when, from its second occurrence on, every block reads the same outside
names, the previous block's locals at the same places (read before its own are defined: the
loop's variables), its own locals at the same places, and integers `a + b*k` for the k-th
block; when no local of a block but the last is read after the next block; and when it holds
no `break`, `continue` or `return`. The loop's body is the last block, so the names read
after the blocks keep their meaning. This module works on source lines only.
"""
import re

_TOKEN = re.compile(r'\b[vpwrctsjeq]\d+\b|(?<![\w.])\d+(?:\.\d*)?(?:[eE][-+]?\d+)?(?![\w.])')
_TARGETS = re.compile(r'\s*((?:[vpwrctsjeq]\d+\s*,\s*)*[vpwrctsjeq]\d+)\s*,?\s*=(?!=)')
_FOR = re.compile(r'\s*for ([vpwrctsjeq]\d+) in ')
_EXITS = re.compile(r'^\s*(break|continue|return)\b')
_MIN_BLOCKS = 3
_MAX_LINES = 64  # the longest block looked for


def reroll(lines):
    """`lines` (of one function body) with each run of repeated blocks re-rolled: a loop over
    them all, or the first block as written and a loop over the others when the first one
    differs (it reads a local where the others read their loop variable)."""
    return rerolled(lines)[0]


def rerolled(lines):
    """(`reroll(lines)`, the index in `lines` of the line each line was written from, None
    for a loop's head): the body of a loop is its last block."""
    lines = list(lines)
    origins = list(range(len(lines)))
    templates = [_TOKEN.sub('\0', line) for line in lines]
    counters = 0
    i = 0
    while i < len(lines):
        found = _best_run(lines, templates, i)
        if found is None:
            i += 1
            continue
        size, count = found
        blocks = [lines[i + k * size:i + (k + 1) * size] for k in range(count)]
        rest = lines[:i] + lines[i + count * size:]
        rolled = _rolled(blocks, rest, f'q{counters}')
        if rolled is None:
            i += 1
            continue
        written, kept_first = rolled
        counters += 1
        heads = len(written) - size * (1 + kept_first)
        origins[i:i + count * size] = (origins[i:i + size] if kept_first else []) + \
            [None] * heads + origins[i + (count - 1) * size:i + count * size]
        lines[i:i + count * size] = written
        templates[i:i + count * size] = [_TOKEN.sub('\0', line) for line in written]
        i += len(written)
    return lines, origins


def _depth(line):
    return len(line) - len(line.lstrip(' '))


def _best_run(lines, templates, i):
    """(block size, count) of the longest run of >= _MIN_BLOCKS blocks of equal templates
    starting at line i, or None."""
    base = _depth(lines[i])
    best = None
    for size in range(1, min(_MAX_LINES, (len(lines) - i) // _MIN_BLOCKS) + 1):
        if templates[i + size] != templates[i] or _depth(lines[i + size]) != base:
            continue
        block = templates[i:i + size]
        if any(_depth(line) < base for line in lines[i:i + size]):
            break  # the block would leave the statement it starts in
        count = 1
        while i + (count + 1) * size <= len(lines) and \
                templates[i + count * size:i + (count + 1) * size] == block:
            count += 1
        end = i + count * size
        if end < len(lines) and _depth(lines[end]) > base:
            count -= 1  # the last block's statement goes on past it
        if count >= _MIN_BLOCKS and (best is None or size * count > best[0] * best[1]):
            best = (size, count)
    return best


def _defined(block):
    """The locals a block assigns, in order of their first assignment, and the line of it."""
    defined = {}
    for index, line in enumerate(block):
        match = _TARGETS.match(line) or _FOR.match(line)
        if match:
            for name in re.findall(r'[vpwrctsjeq]\d+', match.group(1)):
                defined.setdefault(name, index)
    return defined


def _classify(block, own, previous):
    """The tokens of each line of `block`: ('L', i) for its i-th local, ('P', i) for the i-th
    local of the block before, ('X', name) for another name, ('N', text) for a number."""
    own_index = {name: k for k, name in enumerate(own)}
    previous_index = {name: k for k, name in enumerate(previous)}
    out = []
    for line in block:
        tokens = []
        for token in _TOKEN.findall(line):
            if token[0].isdigit():
                tokens.append(('N', token))
            elif token in own_index:
                tokens.append(('L', own_index[token]))
            elif token in previous_index:
                tokens.append(('P', previous_index[token]))
            else:
                tokens.append(('X', token))
        out.append(tokens)
    return out


def _rolled(blocks, rest, counter):
    """(the lines replacing `blocks`, whether the first block is kept before the loop over
    the others), or None when they do not qualify."""
    if any(_EXITS.match(line) for block in blocks for line in block):
        return None
    defined = [_defined(block) for block in blocks]
    names = [list(d) for d in defined]
    if len({len(n) for n in names}) != 1:
        return None
    classified = [_classify(blocks[k], names[k], names[k - 1] if k else [])
                  for k in range(len(blocks))]
    later = classified[1:]
    shape = [[kind if kind != 'N' else 'N' for kind, _ in line] for line in later[0]]
    numbers = []  # per number token of the body: its text in each later block
    for tokens in later:
        if [[kind for kind, _ in line] for line in tokens] != shape:
            return None
    for line_index, line in enumerate(later[0]):
        for token_index, (kind, value) in enumerate(line):
            values = [tokens[line_index][token_index][1] for tokens in later]
            if kind == 'N':  # the first block's numbers are the progression's too
                numbers.append([classified[0][line_index][token_index][1]] + values)
            elif len(set(values)) != 1:
                return None
    steps = [_progression(values) for values in numbers]
    if any(step is None for step in steps):
        return None
    last = names[-1]
    first_def = defined[-1]
    # the previous block's locals are read before this block assigns them
    for line_index, line in enumerate(later[0]):
        for kind, value in line:
            if kind == 'P' and first_def[last[value]] < line_index:
                return None
    # no local of a block but the last is read outside it and the next one
    outside = {token for line in rest for token in _TOKEN.findall(line)}
    blocks_of = {}  # each name -> the blocks it appears in
    for k, block in enumerate(blocks):
        for line in block:
            for token in _TOKEN.findall(line):
                blocks_of.setdefault(token, set()).add(k)
    kept = set(last)
    for k, own in enumerate(names[:-1]):
        if any(name not in kept and (name in outside or not blocks_of[name] <= {k, k + 1})
               for name in own):
            return None
    body = []
    numbers_left = iter(steps)
    for line, tokens in zip(blocks[-1], later[-1]):
        values = iter(tokens)

        def token_text(match):
            kind, value = next(values)
            if kind in ('L', 'P'):
                return last[value]
            if kind == 'X':
                return value
            start, step = next(numbers_left)
            if step is None:
                return start
            return counter if (start, step) == (0, 1) else f'({step} * {counter} + {start})'
        body.append('    ' + _TOKEN.sub(token_text, line))
    base = ' ' * _depth(blocks[0][0])
    carried = sorted({value for line in later[0] for kind, value in line if kind == 'P'})
    initial = _initial(classified[0], later[0])
    if initial is None:  # the first block as written, the loop over the others
        written, first = list(blocks[0]), 1
        starts = [(last[i], names[0][i]) for i in carried if last[i] != names[0][i]]
    else:  # the loop over all, its variables starting as the names the first block reads
        written, first = [], 0
        starts = [(last[i], initial[i]) for i in carried if last[i] != initial[i]]
    if starts:
        written.append(f'{base}{", ".join(a for a, _ in starts)}, = '
                       f'{", ".join(b for _, b in starts)},')
    written.append(f'{base}for {counter} in range({first}, {len(blocks)}):')
    return written + body, first == 1


def _initial(first, second):
    """When the first block is the others with outside names where they read the block
    before's locals: local index -> that name, else None."""
    initial = {}
    for line, other in zip(first, second):
        for (kind, value), (other_kind, other_value) in zip(line, other):
            if other_kind == 'P':
                if kind != 'X' or initial.setdefault(other_value, value) != value:
                    return None
            elif kind != other_kind or kind != 'N' and value != other_value:
                return None
    return initial


def _progression(values):
    """(value in the first block, step) when the texts are integers growing by one step
    from block to block (the loop counter counts the blocks from 0), (text, None) when all
    are equal, else None."""
    if len(set(values)) == 1:
        return values[0], None
    if any(not v.isdigit() for v in values):
        return None
    ints = [int(v) for v in values]
    step = ints[1] - ints[0]
    if any(b - a != step for a, b in zip(ints, ints[1:])):
        return None
    return ints[0], step
