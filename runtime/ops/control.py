"""If, While and Case: their branches, condition and body are functions in the graph's library;
NoOp. `build_if`, `build_case` and `build_while` make every If, Case and While op: rt.cond,
rt.switch_case, rt.while_loop (runtime/control_flow.py) and their gradients
(runtime/gradients/rules/control_flow.py).

They have no numpy kernel: the executor lowers them to a Python `if`/`while` (Case: an
`if`/`elif` chain on the index) around the compiled code of those functions
(runtime/executor/codegen.py).
"""
from runtime.graph.graph_def import FunctionRef
from runtime.ops.dispatch import add_operation
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


# ---- the builders ------------------------------------------------------------------------------

def align_captures(functions):
    """The union of the outer tensors `functions` (FuncGraphs) capture, in order; each function
    gets an input for each (the extra inputs of the op calling them)."""
    outer = []
    seen = set()
    for g in functions:
        for value, _ in g.captures:
            if id(value) not in seen:
                seen.add(id(value))
                outer.append(value)
    for g in functions:
        g.inputs = g.inputs + [g.capture(v) for v in outer]
    return outer


def build_if(graph, pred, then_branch, else_branch, name):
    """An If (StatelessIf when neither branch has a stateful op) in `graph`, named exactly
    `name`, running library function `then_branch` or `else_branch` (FuncGraphs with the same
    output dtypes) as the scalar bool `pred` says; the tensors they capture become its inputs.
    Returns the Operation, recorded on the active tapes."""
    return _branches(graph, pred, [then_branch, else_branch], name, IF, STATELESS_IF,
                     {'then_branch': FunctionRef(then_branch.name),
                      'else_branch': FunctionRef(else_branch.name)})


def build_case(graph, index, branches, name):
    """A Case (StatelessCase when no branch has a stateful op) in `graph`, named exactly `name`,
    running `branches[index]` (FuncGraphs with the same output dtypes; an index outside them
    runs the last) for the scalar int32 `index`; as `build_if` otherwise."""
    return _branches(graph, index, branches, name, CASE, STATELESS_CASE,
                     {'branches': [FunctionRef(g.name) for g in branches]})


def _branches(graph, selector, functions, name, stateful_opdef, stateless_opdef, function_attrs):
    outer = align_captures(functions)
    types = [t.dtype for t in functions[0].outputs]
    shapes = []
    for outputs in zip(*(g.outputs for g in functions)):
        shape = outputs[0].shape
        for t in outputs[1:]:
            shape = shape.most_specific_compatible_shape(t.shape)
        shapes.append(shape)
    opdef = stateful_opdef if any(g.is_stateful() for g in functions) else stateless_opdef
    attrs = {'Tin': [t.dtype for t in outer], 'Tout': types, **function_attrs,
             'output_shapes': shapes}
    return add_operation(graph, opdef, [selector] + outer, attrs, name, list(zip(types, shapes)))


def build_while(graph, loop_vars, shapes, cond, body, name):
    """A While (StatelessWhile when `cond` and `body` have no stateful op) in `graph`, named
    exactly `name`: while `cond(*vars)`, `vars = body(*vars)`, from the tensors `loop_vars`
    with the shape invariants `shapes` (`cond` and `body` are FuncGraphs with an input per loop
    variable, `body` an output per loop variable). The tensors they capture become extra loop
    variables the body passes on unchanged. Returns the Operation, recorded on the active
    tapes."""
    count = len(body.inputs)
    outer = align_captures([cond, body])
    body.outputs = body.outputs + body.inputs[count:]
    inputs = list(loop_vars) + outer
    types = [t.dtype for t in inputs]
    shapes = list(shapes) + [t.shape for t in outer]
    opdef = WHILE if cond.is_stateful() or body.is_stateful() else STATELESS_WHILE
    attrs = {'T': types, 'cond': FunctionRef(cond.name), 'body': FunctionRef(body.name),
             'output_shapes': shapes}
    return add_operation(graph, opdef, inputs, attrs, name, list(zip(types, shapes)))

