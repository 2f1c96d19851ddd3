"""`if_stmt`, `while_stmt`, `for_stmt` and `if_exp`: Python control flow on Python values, graph
control flow (`rt.cond`, `rt.while_loop`) when the condition or the iterable is a symbolic tensor.

The state of a construct (the variables it modifies) is read and written with the
`get_state`/`set_state` functions the compiler generates; see docs/protocol.md.
"""
import runtime as rt
from runtime import context
from runtime.graph import FuncGraph
from runtime.tensor import is_symbolic

from autograph.operators import guards, located, tensor_iteration
from autograph.operators.variables import Undefined, UndefinedReturnValue

_UNSET = (Undefined, UndefinedReturnValue, type(None))
_probes = []   # graphs of first iterations being traced (see _initialize_from_first_iteration)


def if_exp(cond, if_true, if_false, expr_repr):
    if is_symbolic(cond):
        with located.user_errors():
            return rt.cond(cond, if_true, if_false, names=(expr_repr,))
    return if_true() if cond else if_false()


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if is_symbolic(cond):
        _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    elif cond:
        body()
    else:
        orelse()


def _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    guards.check_no_global_writes((body, orelse), '`if` statement')
    initial = get_state()
    if _probes:
        _probe_if(body, orelse, get_state, set_state, initial, nouts)
        return
    outputs = {}

    def branch(block, which, other):
        def traced():
            set_state(initial)
            block()
            values = get_state()[:nouts]
            outputs[which] = values
            for name, value in zip(symbol_names, values):
                if isinstance(value, Undefined):
                    raise located.error(
                        ValueError, f"'{name}' must also be initialized in the {which} branch")
            if other in outputs:
                _check_returns(outputs['if'], outputs['else'], initial, symbol_names)
            # A value the branch left unset travels as a dummy; _check_returns makes sure the
            # other branch left it unset too.
            return tuple(False if v is i and isinstance(v, _UNSET) else v
                         for v, i in zip(values, initial))
        return traced

    with located.user_errors():
        results = rt.cond(cond, branch(body, 'if', 'else'), branch(orelse, 'else', 'if'),
                          names=symbol_names[:nouts])
    final = []
    for index, result in enumerate(results or ()):
        in_if, in_else = outputs['if'][index], outputs['else'][index]
        same_python_value = (not isinstance(in_if, rt.Tensor) and type(in_if) is type(in_else)
                             and (in_if is in_else or _equal_scalars(in_if, in_else)))
        final.append(in_if if same_python_value else result)
    set_state(tuple(final) + tuple(initial[nouts:]))


def _probe_if(body, orelse, get_state, set_state, initial, nouts):
    """While tracing a first iteration only types matter, and a loop variable may still be
    unset (e.g. the return value before the `return` in the loop ran): each branch runs in a
    throwaway graph and each output takes the type of the branch that sets it."""
    outputs = []
    for block in (body, orelse):
        with FuncGraph('autograph_probe_branch', _probes[-1]).as_default():
            set_state(initial)
            block()
            outputs.append(get_state()[:nouts])
    merged = []
    for in_if, in_else in zip(*outputs):
        value = in_else if isinstance(in_if, _UNSET) or not isinstance(in_if, rt.Tensor) and \
            isinstance(in_else, rt.Tensor) else in_if
        if isinstance(value, rt.Tensor):
            value = _probes[-1].add_input(value.dtype, value.shape, 'probe')
        merged.append(value)
    set_state(tuple(merged) + tuple(initial[nouts:]))


def _equal_scalars(a, b):
    return isinstance(a, (bool, int, float, str)) and a == b


def _check_returns(in_if, in_else, initial, symbol_names):
    """A value left unset in one branch must be unset in the other too."""
    for name, a, b, start in zip(symbol_names, in_if, in_else, initial):
        for mine, theirs, which in ((a, b, 'if'), (b, a, 'else')):
            if mine is start and isinstance(mine, _UNSET) and theirs is not start:
                if isinstance(mine, UndefinedReturnValue):
                    raise located.error(ValueError, (
                        f'a `return` in one branch of an `if` on a tensor needs a `return` in '
                        f'the {which} branch too (the other branch sets the return value)'))
                raise located.error(ValueError, (
                    f"'{name}' is set in one branch of an `if` on a tensor but is "
                    f"{mine!r} in the {which} branch; both branches must give it a tensor"))


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    condition = test()
    if is_symbolic(condition):
        _graph_loop(test, body, get_state, set_state, symbol_names, opts)
        return
    while condition:
        body()
        condition = test()
        _check_still_python(condition, 'while')


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    sequence = tensor_iteration.as_sequence(iter_)
    if sequence is not None:
        _graph_for(sequence, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    iterator = iter(iter_)
    while True:
        if extra_test is not None:
            keep_going = extra_test()
            _check_still_python(keep_going, 'for')
            if not keep_going:
                break
        try:
            item = next(iterator)
        except StopIteration:
            break
        body(item)


def _check_still_python(condition, loop):
    if is_symbolic(condition):
        raise located.error(NotImplementedError, (
            f'this `{loop}` loop runs in Python (its {"iterable" if loop == "for" else "condition"} '
            f'was a Python value) but its condition, or its `break`/`return` condition, became a '
            f'tensor inside the loop. Make the loop a graph loop: iterate over a tensor '
            f'(e.g. rt.range(n)) or start the condition as a tensor.'))


def _graph_for(sequence, extra_test, body, get_state, set_state, symbol_names, opts):
    with located.user_errors():
        size = sequence.size()
    index = [rt.constant(0, size.dtype)]  # int64 for a range beyond int32

    def get_loop_state():
        return (index[0],) + tuple(get_state())

    def set_loop_state(values):
        index[0] = values[0]
        set_state(values[1:])

    def test():
        more = index[0] < size
        if extra_test is not None:
            more = rt.logical_and(more, rt.convert_to_tensor(extra_test()))
        return more

    def step():
        k = index[0]
        body(sequence.at(k))
        index[0] = k + 1

    _graph_loop(test, step, get_loop_state, set_loop_state,
                ('<iteration index>',) + tuple(symbol_names), opts)


def _graph_loop(test, body, get_state, set_state, symbol_names, opts):
    """Stages the loop as one rt.while_loop; the loop variables are the construct's state."""
    guards.check_no_global_writes([body], 'loop')
    initial = list(get_state())
    unset = [i for i, v in enumerate(initial) if isinstance(v, (Undefined, UndefinedReturnValue))]
    invariants = _shape_invariants(opts.get('shape_invariants'), initial)
    must_iterate = [symbol_names[i] for i in unset if isinstance(initial[i], Undefined)]
    if unset:
        _initialize_from_first_iteration(test, body, get_state, set_state, symbol_names,
                                         initial, unset, invariants)
    set_state(initial)
    iterations = [rt.constant(0)]

    def loop_vars():
        return [iterations[0]] + list(get_state())

    def restore(values):
        iterations[0] = values[0]
        set_state(tuple(values[1:]))

    def loop_test(*values):
        restore(values)
        return test()

    def loop_body(*values):
        restore(values)
        body()
        return [iterations[0] + 1] + list(get_state())

    shape_invariants = None
    if any(s is not None for s in invariants):
        shape_invariants = [rt.TensorShape([])] + [
            s if s is not None else _shape_of(v) for s, v in zip(invariants, initial)]
    with located.user_errors():
        final = rt.while_loop(loop_test, loop_body, loop_vars(), shape_invariants=shape_invariants,
                              maximum_iterations=opts.get('maximum_iterations'),
                              names=('<iterations>',) + tuple(symbol_names))
    restore(final)
    for name in must_iterate:
        rt.debugging.Assert(final[0] > 0, [located.message(
            f"loop must iterate at least once to initialize '{name}'")])


def _shape_invariants(pairs, initial):
    """The user's `(value, shape)` pairs, as one shape (or None) per state value."""
    invariants = [None] * len(initial)
    for value, shape in pairs or ():
        for i, current in enumerate(initial):
            if current is value:
                invariants[i] = rt.TensorShape(shape)
    return invariants


def _shape_of(value):
    return rt.convert_to_tensor(value).shape


def _initialize_from_first_iteration(test, body, get_state, set_state, symbol_names, initial,
                                     unset, invariants):
    """Gives the loop variables that are unset before the loop a placeholder value of the type
    one iteration gives them, learnt by tracing that iteration into a throwaway graph."""
    outer = context.current_graph()
    probe = FuncGraph('autograph_first_iteration', outer)
    probe.library = dict(outer.library)
    _probes.append(probe)
    try:
        with probe.as_default():
            set_state(initial)
            test()
            body()
            after_one = get_state()
            types = {i: _shape_and_dtype(after_one[i], symbol_names[i]) for i in unset}
    finally:
        _probes.pop()
    for i, (shape, dtype) in types.items():
        initial[i] = rt.zeros([d if d is not None else 0 for d in shape.as_list()], dtype=dtype)
        if not shape.is_fully_defined():
            invariants[i] = shape


def _shape_and_dtype(value, name):
    if not isinstance(value, (Undefined, UndefinedReturnValue, type(None))):
        try:
            tensor = rt.convert_to_tensor(value)
        except (TypeError, ValueError):
            tensor = None
        if tensor is not None and tensor.shape.rank is not None:
            return tensor.shape, tensor.dtype
    raise located.error(ValueError, (
        f"'{name}' must be defined before the loop: it is used after the loop (or in the next "
        f'iteration), and its type cannot be inferred from one iteration ({value!r})'))