"""docs/runtime.md lists every registered op, and only those."""
import os
import re

from runtime.ops.registry import REGISTRY

DOC = os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'runtime.md')


def test_the_op_table_names_every_registered_op():
    text = open(DOC, encoding='utf-8').read()
    table = text[text.index('| function | op type |'):text.index('Stateful ops (never pruned')]
    named = set()
    for line in table.splitlines()[2:]:
        if not line.startswith('|'):
            continue
        named |= set(re.findall(r'`([A-Z][A-Za-z0-9]*)`', line.split('|')[2]))
    assert named == set(REGISTRY)


REFERENCE = os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'reference.md')


def _name_table_rows(begin, end):
    text = open(REFERENCE, encoding='utf-8').read()
    block = text[text.index(begin):text.index(end)]
    return [[cell.strip() for cell in line.strip('|').split('|')]
            for line in block.splitlines()[3:] if line.startswith('| `')]


def _resolve(dotted):
    import runtime as rt
    obj = rt
    for part in dotted.split('.')[1:]:
        obj = getattr(obj, part)
    return obj


def test_the_math_half_of_the_name_table_agrees_with_the_registry():
    from runtime.ops.registry import NO_GRADIENT, UNREGISTERED_GRADIENT
    rows = _name_table_rows('<!-- math-like half', '<!-- math-like half: end -->')
    assert len(rows) > 80
    for tf_names, rt_names, op_types, gradient in rows:
        functions = [_resolve(n) for n in re.findall(r'`(rt\.[\w.]+)`', rt_names)]
        assert functions and all(f is functions[0] for f in functions), rt_names
        assert callable(functions[0])
        types = re.findall(r'`([A-Z]\w*)`', op_types)
        assert all(t in REGISTRY for t in types), op_types
        assert gradient in ('yes', 'no'), gradient
        if len(types) == 1:  # one op: its registry entry says whether gradients pass
            declared = REGISTRY[types[0]].gradient
            assert declared is not None, f'{types[0]} declares no gradient'
            assert (gradient == 'yes') == (
                declared not in (NO_GRADIENT, UNREGISTERED_GRADIENT)), rt_names


def test_the_checkpoint_block_of_the_name_table_names_real_things():
    text = open(REFERENCE, encoding='utf-8').read()
    block = text[text.index('<!-- checkpoints block'):text.index('## TensorFlow surface: math')]
    rows = [line for line in block.splitlines() if line.startswith('| `')]
    assert len(rows) >= 8
    for row in rows:
        names = re.findall(r'`(rt\.[\w.]+)`', row.split('|')[2])
        assert names, row
        for name in names:
            if not name.startswith('rt.Tensor'):
                assert _resolve(name) is not None, name
