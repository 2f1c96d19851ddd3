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
