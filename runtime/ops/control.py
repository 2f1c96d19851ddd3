"""If, While and Case: their branches, condition and body are functions in the graph's library;
NoOp.

They have no numpy kernel: the executor lowers them to a Python `if`/`while` (Case: an
`if`/`elif` chain on the index) around the compiled code of those functions
(runtime/executor/codegen.py). Their gradients: runtime/gradients/rules/control_flow.py.
"""
from runtime.ops.registry import register


def _if(name, stateful):
    return register(name, inputs=('cond', 'input'), outputs='output', type_attrs=(('Tcond', 0),),
                    stateful=stateful, control_flow='if',
                    function_attrs=('then_branch', 'else_branch'),
                    defaults={'_lower_using_switch_merge': True})


def _while(name, stateful):
    return register(name, inputs=('input',), outputs='output', type_attrs=(), stateful=stateful,
                    control_flow='while', function_attrs=('cond', 'body'),
                    defaults={'parallel_iterations': 10, '_lower_using_switch_merge': True})


IF = _if('If', True)
STATELESS_IF = _if('StatelessIf', False)
WHILE = _while('While', True)
STATELESS_WHILE = _while('StatelessWhile', False)


def _case(name, stateful):
    return register(name, inputs=('branch_index', 'input'), outputs='output', type_attrs=(),
                    stateful=stateful, control_flow='case', function_attrs=('branches',),
                    defaults={'_lower_using_switch_merge': True})


# Case: `branches` is a list of library functions; an index outside [0, N) runs the last one.
CASE = _case('Case', True)
STATELESS_CASE = _case('StatelessCase', False)
NO_OP = register('NoOp', lambda: None, lambda inputs, attrs: [], inputs=(), outputs=(),
                 type_attrs=())
