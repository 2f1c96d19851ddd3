"""If and While: their branches, condition and body are functions in the graph's library.

They have no numpy kernel: the executor lowers them to a Python `if`/`while` around the
compiled code of those functions (runtime/executor/codegen.py).
"""
from runtime.ops.registry import register


def _if(name, stateful):
    return register(name, inputs=('cond', 'input'), outputs='output', type_attrs=(('Tcond', 0),),
                    stateful=stateful, control_flow='if',
                    defaults={'_lower_using_switch_merge': True})


def _while(name, stateful):
    return register(name, inputs=('input',), outputs='output', type_attrs=(), stateful=stateful,
                    control_flow='while',
                    defaults={'parallel_iterations': 10, '_lower_using_switch_merge': True})


IF = _if('If', True)
STATELESS_IF = _if('StatelessIf', False)
WHILE = _while('While', True)
STATELESS_WHILE = _while('StatelessWhile', False)
