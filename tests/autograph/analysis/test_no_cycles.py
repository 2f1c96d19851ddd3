"""A conversion leaves no reference cycles behind: its control-flow graphs are unlinked once
the analyses are done (cfg.Graph.release), so its garbage is freed by reference counting and
never waits for (or slows) the cycle collector."""
import gc
import linecache

import autograph as ag
from autograph.analysis import cfg

_SOURCE = '''
def f(x, items):
    total = 0
    while x > 0:
        x -= 1
        try:
            total += items[x]
        except IndexError:
            break
    if total > 3:
        return total
    return -total
'''


def _fresh(n):
    """A new function of `_SOURCE` (its own code object, its source in linecache)."""
    filename = f'<no cycles {n}>'
    source = '\n' * n + _SOURCE
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, 'exec'), namespace)
    return namespace['f']


def test_converting_leaves_no_cyclic_garbage():
    functions = [_fresh(n) for n in range(6)]
    ag.to_code(functions[0])
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for function in functions[1:]:
            assert ag.to_graph(function)(3, [1, 2, 3]) == 6
            ag.to_code(function)
        gc.collect()
        cyclic = [o for o in gc.garbage if isinstance(o, cfg.Node) or
                  type(o).__module__.startswith(('gast', 'autograph'))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert cyclic == []
