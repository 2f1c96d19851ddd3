"""Nested structures (lists, tuples, namedtuples, dicts, and composites like TensorArray).

A composite is any object with `__nest_components__()` (a list) and
`__nest_from_components__(list)`: it flattens into its component tensors and is rebuilt around
new ones (TensorArray, datasets and iterators, autograph's staged lists; a class of your own can
join by defining both).
"""


def is_namedtuple(x):
    """A namedtuple instance (rebuilt from its fields, not from one iterable)."""
    return isinstance(x, tuple) and hasattr(type(x), '_fields')


def is_nested(seq):
    return isinstance(seq, (list, tuple, dict)) or hasattr(seq, '__nest_components__')


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x, key=sort_key)]
    if hasattr(x, '__nest_components__'):
        return x.__nest_components__()
    return list(x)


def sort_key(k):
    """The order of a dict's keys when flattened: by type name, then by text."""
    return (type(k).__name__, str(k))


# `expand_composites` (TensorFlow's): there are no composite tensors (ragged, sparse) here, so
# expanding them changes nothing; the functions accept it as TensorFlow's do.

def flatten(structure, expand_composites=False):
    """The leaves of `structure` in a deterministic order (dicts by sorted key)."""
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if is_nested(x):
        for child in _children(x):
            _flatten_into(child, out)
    else:
        out.append(x)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuild `structure` with the leaves taken in order from `flat_sequence`."""
    flat = list(flat_sequence)
    result, used = _pack(structure, flat, 0)
    if used != len(flat):
        raise ValueError(f'Structure has {used} leaves but {len(flat)} values were given.')
    return result


def _pack(structure, flat, i):
    if not is_nested(structure):
        return flat[i], i + 1
    if isinstance(structure, dict):
        keys = sorted(structure, key=sort_key)
        values = {}
        for k in keys:
            values[k], i = _pack(structure[k], flat, i)
        return type(structure)((k, values[k]) for k in structure), i
    children = []
    for child in _children(structure):
        value, i = _pack(child, flat, i)
        children.append(value)
    if hasattr(structure, '__nest_from_components__'):
        return structure.__nest_from_components__(children), i
    if is_namedtuple(structure):
        return type(structure)(*children), i
    return type(structure)(children), i


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """`func` applied to the corresponding leaves of `structures`, in the first one's structure
    (`rt.nest.map_structure(lambda x, y: x + y, a, b)`); the structures must match."""
    if not structures:
        raise ValueError('rt.nest.map_structure needs at least one structure.')
    first = structures[0]
    for other in structures[1:]:
        problem = structure_difference(first, other) if check_types else \
            ('' if len(flatten(first)) == len(flatten(other)) else
             'The two structures have different numbers of leaves.')
        if problem:
            raise ValueError(problem)
    leaves = [flatten(s) for s in structures]
    return pack_sequence_as(first, [func(*args) for args in zip(*leaves)])


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError describing the first difference if the structures differ."""
    problem = structure_difference(nest1, nest2)
    if problem:
        raise ValueError(problem)


def structure_difference(a, b, path=''):
    """A sentence describing the first difference between two structures, or '' if none."""
    if is_nested(a) != is_nested(b):
        return (f"The two structures don't have the same nested structure{_at(path)}: "
                f'{_describe(a)} vs {_describe(b)}.')
    if not is_nested(a):
        return ''
    if _kind(a) != _kind(b):
        return (f"The two structures don't have the same sequence type{_at(path)}: "
                f'{_describe(a)} vs {_describe(b)}.')
    if isinstance(a, dict) and sorted(a, key=sort_key) != sorted(b, key=sort_key):
        return f"The two dicts don't have the same keys{_at(path)}: {sorted(a)} vs {sorted(b)}."
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return (f"The two structures don't have the same number of elements{_at(path)}: "
                f'{len(ca)} vs {len(cb)}.')
    for i, (x, y) in enumerate(zip(ca, cb)):
        problem = structure_difference(x, y, f'{path}[{i}]')
        if problem:
            return problem
    return ''


def _kind(x):
    if isinstance(x, list):
        return list
    if isinstance(x, tuple) and not is_namedtuple(x):
        return tuple
    return type(x)


def _at(path):
    return f' at {path}' if path else ''


def _describe(x):
    if x is None:
        return 'None'
    text = repr(x)
    return text if len(text) < 60 else type(x).__name__
