"""If and While: their branches and bodies are functions in the graph's library.

Their kernels are compiled per node: they run the compiled plans of those functions.
"""
from runtime.ops.registry import register


def _compile_if(op, compile_function):
    library = op.graph.library
    then_fn = compile_function(library[op.attrs['then_branch'].name])
    else_fn = compile_function(library[op.attrs['else_branch'].name])

    def if_kernel(cond, *args):
        return then_fn(*args) if cond else else_fn(*args)
    return if_kernel


def _compile_while(op, compile_function):
    library = op.graph.library
    cond_fn = compile_function(library[op.attrs['cond'].name])
    body_fn = compile_function(library[op.attrs['body'].name])

    def while_kernel(*args):
        while cond_fn(*args)[0]:
            args = body_fn(*args)
        return args
    return while_kernel


def _if(name, stateful):
    return register(name, None, None, inputs=('cond', 'input'), outputs='output',
                    type_attrs=(('Tcond', 0),), stateful=stateful, compile_kernel=_compile_if,
                    defaults={'_lower_using_switch_merge': True})


def _while(name, stateful):
    return register(name, None, None, inputs=('input',), outputs='output', type_attrs=(),
                    stateful=stateful, compile_kernel=_compile_while,
                    defaults={'parallel_iterations': 10, '_lower_using_switch_merge': True})


IF = _if('If', True)
STATELESS_IF = _if('StatelessIf', False)
WHILE = _while('While', True)
STATELESS_WHILE = _while('StatelessWhile', False)
