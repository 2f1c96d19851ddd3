"""Converted plain-Python code against the original: stdlib-like functions run on
Python values, once as written and once as `ag.to_graph` converts them. The ratio is converted
time / original time; the goal is <= 2 (the stdlib tests' median, tools/stdlib_diff.py)."""
import autograph as ag


def heap_sort(values):
    """A binary heap, pushed and popped with heapq's sift loops written out."""
    heap = []
    for value in values:
        heap.append(value)
        position = len(heap) - 1
        while position > 0:
            parent = (position - 1) >> 1
            if heap[parent] <= heap[position]:
                break
            heap[parent], heap[position] = heap[position], heap[parent]
            position = parent
    result = []
    while heap:
        last = heap.pop()
        if not heap:
            result.append(last)
            break
        result.append(heap[0])
        heap[0] = last
        position, size = 0, len(heap)
        while True:
            child = 2 * position + 1
            if child >= size:
                break
            if child + 1 < size and heap[child + 1] < heap[child]:
                child += 1
            if heap[position] <= heap[child]:
                break
            heap[position], heap[child] = heap[child], heap[position]
            position = child
    return result


def parse_sum(text):
    """A tokenizer loop: integers, names and operators, evaluated left to right."""
    total, sign, number, names = 0, 1, None, {}
    index = 0
    while index < len(text):
        char = text[index]
        if char.isdigit():
            number = (number or 0) * 10 + ord(char) - 48
        else:
            if number is not None:
                total += sign * number
                number = None
            if char == '-':
                sign = -1
            elif char == '+':
                sign = 1
            elif char.isalpha():
                names[char] = names.get(char, 0) + 1
            elif char in ' \t\n':
                pass
            else:
                raise ValueError(f'unexpected {char!r} at {index}')
        index += 1
    if number is not None:
        total += sign * number
    return total, sorted(names.items())


def walk(node, depth=0):
    """A recursive walk over nested lists and dicts: (leaves, sum of leaves, deepest level)."""
    if isinstance(node, dict):
        node = list(node.values())
    if isinstance(node, list):
        leaves, total, deepest = 0, 0, depth
        for child in node:
            child_leaves, child_total, child_deepest = walk(child, depth + 1)
            leaves += child_leaves
            total += child_total
            deepest = max(deepest, child_deepest)
        return leaves, total, deepest
    return 1, node, depth


def nested(levels, width):
    if levels == 0:
        return levels + width
    return [nested(levels - 1, width) if k % 2 else {'k': nested(levels - 1, width)}
            for k in range(width)]


CASES = [
    ('heap', heap_sort, lambda: ([(k * 7919) % 1009 for k in range(300)],)),
    ('parser loop', parse_sum, lambda: (' + '.join(f'{k} - x{k % 7}' for k in range(60)),)),
    ('recursive walk', walk, lambda: (nested(5, 4),)),
]


def measure_python(paired, n, rep):
    """Rows (figure, converted s, original s, target) for each case; the converted function
    must give the original's result."""
    rows = []
    for name, function, arguments in CASES:
        args = arguments()
        converted = _as_in_a_converted_module(function)
        if converted(*args) != function(*args):
            raise AssertionError(f'converted {name} differs from the original')
        ours, original, _ = paired(lambda: converted(*args), lambda: function(*args), n(200), rep)
        rows.append((f'converted plain Python: {name} / original', ours, original, '<= 2.0'))
    return rows


def _as_in_a_converted_module(function):
    """`ag.to_graph(function)`, run with its module's global name bound to the conversion, as in
    a module converted by `autograph convert`: the walk's recursive calls run converted too
    (eagerly, converted code calls the original of a function it was not given converted)."""
    converted, namespace, name = ag.to_graph(function), function.__globals__, function.__name__

    def run(*args):
        namespace[name] = converted
        try:
            return converted(*args)
        finally:
            namespace[name] = function
    return run
