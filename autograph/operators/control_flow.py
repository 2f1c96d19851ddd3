"""`if_stmt`, `while_stmt`, `for_stmt` and `if_exp`: Python control flow on Python values, graph
control flow (`rt.cond`, `rt.while_loop`) when the condition or the iterable is a symbolic tensor.

The state of a construct (the variables it modifies) is read and written with the
`get_state`/`set_state` functions the compiler generates; see docs/protocol.md.
"""

from typing import Any

import runtime as rt
from autograph.operators import (
    datasets,
    guards,
    lists,
    located,
    loop_types,
    protocol,
    recording,
    tensor_iteration,
)
from autograph.operators.function_scope import staged_frames
from autograph.operators.variables import (
    Undefined,
    UndefinedReturnValue,
    fresh_return_values,
    mark_maybe_unset,
    maybe_unset,
)
from runtime.core import context
from runtime.core.tensor import SymbolicTensor, is_symbolic
from runtime.graph.graph import FuncGraph

_UNSET = (Undefined, UndefinedReturnValue, type(None))
# graphs of first iterations being traced (see _initialize_from_first_iteration)
_probes: list[Any] = []


def if_exp(cond: Any, if_true: protocol.Thunk, if_false: protocol.Thunk, expr_repr: str) -> Any:
    if is_symbolic(cond):
        with recording.staging('ifexp'), located.user_errors():
            return rt.cond(cond, if_true, if_false, names=(expr_repr,))
    return if_true() if cond else if_false()


# The iterables a `for` loop runs over in Python without asking anything else (the fast path)
_PYTHON_ITERABLES = tensor_iteration.PYTHON_ITERABLES


def if_stmt(cond: Any, body: protocol.Block, orelse: protocol.Block,
            get_state: protocol.GetState, set_state: protocol.SetState,
            symbol_names: protocol.SymbolNames, nouts: int,
            compiler_flags: protocol.SymbolNames = ()) -> None:
    """`compiler_flags`: the outputs that are the compiler's own flags (`do_return`, `break_`):
    staged, one that both branches set to the same Python value keeps it. A user variable
    becomes the `rt.cond`'s tensor, as in TensorFlow (an `assert` on it is an Assert op)."""
    if isinstance(cond, SymbolicTensor):   # is_symbolic, inline: the Python path is the hot one
        _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, compiler_flags)
    elif cond:
        body()
    else:
        orelse()


def _graph_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, compiler_flags):
    guards.check_no_global_writes((body, orelse), '`if` statement')
    initial = fresh_return_values(get_state, set_state)
    with recording.staging('if'), staged_frames(), _restored_on_error(set_state, initial):
        _staged_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, initial,
                   compiler_flags)


class _restored_on_error:
    """Puts the construct's variables back as they were when tracing it fails, so that code
    that runs while the error propagates (a `finally` block, an `except` at trace time) sees
    values of the function's graph, not of an abandoned branch or loop body."""

    def __init__(self, set_state, initial):
        self.set_state, self.initial = set_state, tuple(initial)

    def __enter__(self):
        return self

    def __exit__(self, cls, exception, traceback):
        if cls is not None:
            self.set_state(self.initial)
        return False


def _staged_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, initial,
               compiler_flags=()):
    if _probes:
        _probe_if(body, orelse, get_state, set_state, initial, nouts)
        return
    # outputs that may stand for an unset variable carry their "is set" flag out of the cond:
    # those that do so before the `if`, and those a branch leaves so (a variable first set in
    # a tensor loop inside the branch), found while tracing: index -> message
    flagged = {i: maybe_unset(v)[1] for i, v in enumerate(initial[:nouts])
               if isinstance(v, rt.Tensor) and maybe_unset(v) is not None}
    initial = list(initial)
    while True:
        try:
            _trace_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, initial,
                      flagged, compiler_flags)
            return
        except _Retrace as retrace:
            # trace again, knowing the return value's type, new flags or lists to stage
            for i, element in retrace.lists.items():
                initial[i] = lists.stage(initial[i], symbol_names[i], *element)


def _stage_appended_in_branch(values, initial, lengths):
    """A Python list that a branch appended to (the compiler's `list_append`, as in a loop
    whose `continue` became an `if`) is staged as a TensorArray, as a tensor loop does, and the
    `if` traced again; the branch's appends are taken back from the shared list first. So is
    one that a tensor loop in the branch staged (the other branch then starts from the same
    StagedList, empty or holding the list's elements)."""
    staged = {}
    for i, length in lengths.items():
        value = values[i]
        if isinstance(value, lists.StagedList):
            staged[i] = value.array.dtype, value.array.element_shape
        elif value is initial[i] and len(value) != length:
            element = loop_types.element_type(value[length]) if len(value) > length else None
            del value[length:]
            if element is not None:
                staged[i] = element
    if staged:
        raise _Retrace(staged)


class _Retrace(Exception):
    """Tracing a tensor `if` learnt what it needed to know before its first branch: the type
    of the function's return value (the `else` branch returned, the `if` branch did not), or
    that a branch leaves a variable that may be unset, or appends to a Python list (`lists`:
    index -> element type of the lists to stage)."""

    def __init__(self, staged_lists=None):
        super().__init__()
        self.lists = staged_lists or {}


def _fill_return_values(values, initial, other, symbol_names):
    """`values` with a placeholder of the right type for each return value this branch left
    unset while the other branch sets it (every path of the function returns, so the code after
    the `if` runs only where this branch ran, and some later `return` replaces the placeholder).

    The type is learnt from the first `return` traced and kept on the function's
    UndefinedReturnValue, so each `if` of a trace is traced twice at most once (when its `if`
    branch, traced first, met an unknown type; _Retrace)."""
    values = list(values)
    retrace = False
    for i, (value, start) in enumerate(zip(values, initial)):
        if not (isinstance(start, UndefinedReturnValue) and start.every_path_returns):
            continue
        if value is not start:
            if start.return_type is None:
                start.return_type = loop_types.types_of(value, symbol_names[i])
            retrace = retrace or (other is not None and other[i] is start)
        elif start.return_type is not None:
            values[i] = loop_types.zeros_like(start.return_type)
    if retrace:
        raise _Retrace()
    return tuple(values)


def _trace_if(cond, body, orelse, get_state, set_state, symbol_names, nouts, initial,
              flagged, compiler_flags):
    outputs = {}
    lengths = {i: len(v) for i, v in enumerate(initial[:nouts]) if type(v) is list}

    def branch(block, which, other):
        def traced():
            set_state(tuple(initial))
            block()
            _stage_appended_in_branch(get_state(), initial, lengths)
            values = _fill_return_values(get_state()[:nouts], initial, outputs.get(other),
                                         symbol_names)
            outputs[which] = values
            for i, value in enumerate(values):
                unset = maybe_unset(value) if isinstance(value, rt.Tensor) else None
                if unset is not None and i not in flagged:
                    flagged[i] = unset[1]
                    raise _Retrace()
            for name, value in zip(symbol_names, values):
                if isinstance(value, Undefined):
                    raise located.error(
                        ValueError, f"'{name}' must also be initialized in the {which} branch")
            if other in outputs:
                _check_returns(outputs['if'], outputs['else'], initial, symbol_names)
            # A value the branch left unset travels as a dummy; _check_returns makes sure the
            # other branch left it unset too.
            flags = []
            for i in flagged:
                unset = maybe_unset(values[i]) if isinstance(values[i], rt.Tensor) else None
                flags.append(unset[0] if unset is not None else rt.constant(True))
            return tuple(False if v is i and isinstance(v, _UNSET) else v
                         for v, i in zip(values, initial)) + tuple(flags)
        return traced

    with located.user_errors():
        results = rt.cond(cond, branch(body, 'if', 'else'), branch(orelse, 'else', 'if'),
                          names=tuple(symbol_names[:nouts]) + tuple(
                              f'<{symbol_names[i]} is set>' for i in flagged))
    if flagged:
        results, flags = results[:nouts], results[nouts:]
        for (i, message), flag in zip(flagged.items(), flags):
            mark_maybe_unset(results[i], flag, message)
    final = []
    for index, result in enumerate(results or ()):
        in_if, in_else = outputs['if'][index], outputs['else'][index]
        same_python_value = (not isinstance(in_if, rt.Tensor) and type(in_if) is type(in_else)
                             and (in_if is in_else or _equal_scalars(in_if, in_else))
                             and (symbol_names[index] in compiler_flags
                                  or not isinstance(in_if, (bool, int, float))))
        final.append(in_if if same_python_value else result)
    set_state(tuple(final) + tuple(initial[nouts:]))


def probing():
    """Whether a first iteration or branch is traced into a throwaway graph, for types."""
    return bool(_probes)


def _probe_if(body, orelse, get_state, set_state, initial, nouts):
    """While tracing a first iteration only types matter, and a loop variable may still be
    unset (e.g. the return value before the `return` in the loop ran): each branch runs in a
    throwaway graph and each output takes the type of the branch that sets it."""
    outputs = []
    graph = context.current_graph()
    for block in (body, orelse):
        with FuncGraph('autograph_probe_branch', graph).as_default():
            set_state(initial)
            block()
            outputs.append(get_state()[:nouts])
    graph = _probes[-1]
    merged = [_probe_merge(in_if, in_else, graph) for in_if, in_else in zip(*outputs)]
    set_state(tuple(merged) + tuple(initial[nouts:]))


def _probe_merge(in_if, in_else, graph):
    """The value after a probed `if`: a placeholder of the type the branches give it."""
    if isinstance(in_if, _UNSET):
        in_if = in_else
    elif isinstance(in_else, _UNSET):
        in_else = in_if
    if isinstance(in_if, tuple) and isinstance(in_else, tuple) and len(in_if) == len(in_else):
        values = [_probe_merge(a, b, graph) for a, b in zip(in_if, in_else)]
        return type(in_if)(*values) if hasattr(in_if, '_fields') else tuple(values)
    if isinstance(in_if, dict) and isinstance(in_else, dict) and in_if.keys() == in_else.keys():
        return {k: _probe_merge(in_if[k], in_else[k], graph) for k in in_if}
    staged = next((v for v in (in_if, in_else) if isinstance(v, lists.StagedList)), None)
    if staged is not None:      # a list an inner tensor loop staged: a placeholder of its kind
        handle, = rt.nest.flatten(staged)
        return rt.nest.pack_sequence_as(staged, [graph.add_input(handle.dtype, handle.shape,
                                                                 'probe')])
    if isinstance(in_if, list):
        return in_if            # a Python list appended to in the branches (the same object)
    value = in_else if not isinstance(in_if, rt.Tensor) and isinstance(in_else, rt.Tensor) \
        else in_if
    if not isinstance(value, rt.Tensor) and not isinstance(value, _UNSET) and not (
            in_if is in_else or _equal_scalars(in_if, in_else)):
        try:
            value = rt.convert_to_tensor(value)   # two Python values: the cond gives a tensor
        except (TypeError, ValueError):
            return value
    if isinstance(value, rt.Tensor):
        return graph.add_input(value.dtype, value.shape, 'probe')
    return value


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


# The plain Python form of a converted statement runs unless these say it is staged (their
# cases are exactly those in which if_stmt/while_stmt and for_stmt stage the statement).
is_staged = SymbolicTensor.__instancecheck__   # a C-level isinstance(value, SymbolicTensor)


def is_staged_iterable(iter_: Any) -> bool:
    """Whether for_stmt stages a loop over `iter_`: a symbolic tensor, a tensor sequence
    (rt.range, enumerate/zip over tensors), a dataset or iterator in a graph."""
    if type(iter_) in _PYTHON_ITERABLES:
        return False
    return (datasets.is_graph_iteration(iter_)
            or tensor_iteration.as_sequence(iter_) is not None)


def refuse_staged_test(condition: Any, loop: str) -> None:
    """The plain form of a `while` (or the `break`/`return` test of a `for`) whose test became
    a tensor after the loop started in Python: the error of while_stmt/for_stmt."""
    _check_still_python(condition, loop)


def while_stmt(test: protocol.Test, body: protocol.Block, get_state: protocol.GetState,
               set_state: protocol.SetState, symbol_names: protocol.SymbolNames,
               opts: dict[str, Any], condition: Any = None) -> None:
    """`condition`: the value of the first test, when the compiler's plain form already ran it
    (it is then a symbolic tensor); None to run `test()` first."""
    if condition is None:
        condition = test()
    if isinstance(condition, SymbolicTensor):
        _graph_loop(test, body, get_state, set_state, symbol_names, opts, 'while')
        return
    while condition:
        body()
        condition = test()
        if isinstance(condition, SymbolicTensor):
            _check_still_python(condition, 'while')


def for_stmt(iter_: Any, extra_test: protocol.Test | None, body: protocol.LoopBody,
             get_state: protocol.GetState, set_state: protocol.SetState,
             symbol_names: protocol.SymbolNames, opts: dict[str, Any]) -> None:
    if extra_test is None and type(iter_) in _PYTHON_ITERABLES:
        for item in iter_:
            body(item)
        return
    if datasets.is_graph_iteration(iter_):  # over an rt.data Dataset or Iterator
        with recording.staging('for'):
            datasets.for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names,
                              opts, if_stmt, while_stmt)
        return
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
            f'the condition of this `{loop}` loop started as non-Tensor, then changed to '
            f'Tensor: the loop runs in Python '
            f'(its {"iterable" if loop == "for" else "condition"} '
            f'was a Python value) but its condition, or its `break`/`return` condition, became a '
            f'tensor inside the loop. Make the loop a graph loop: iterate over a tensor '
            f'(e.g. rt.range(n)) or start the condition as a tensor.')) from None


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
                ('<iteration index>',) + tuple(symbol_names), opts, 'for')


def _graph_loop(test, body, get_state, set_state, symbol_names, opts, kind):
    """Stages the `kind` loop as one rt.while_loop; the loop variables are the construct's
    state."""
    guards.check_no_global_writes([body], 'loop')
    with recording.staging(kind), staged_frames(), _restored_on_error(
            set_state, fresh_return_values(get_state, set_state)):
        _staged_loop(test, body, get_state, set_state, symbol_names, opts)


def _staged_loop(test, body, get_state, set_state, symbol_names, opts):
    initial = list(get_state())
    _stage_appended_lists(test, body, set_state, get_state, symbol_names, initial,
                          opts.get('appended_lists', ()))
    # None before the loop counts as unset, as in TensorFlow: one iteration gives the type
    unset = [i for i, v in enumerate(initial) if isinstance(v, _UNSET)]
    invariants = loop_types.shape_invariants(opts.get('shape_invariants'), initial)
    newly_unset = {i: initial[i] is None for i in unset
                   if isinstance(initial[i], (Undefined, type(None)))}
    if unset:
        _initialize_from_first_iteration(test, body, get_state, set_state, symbol_names,
                                         initial, unset, invariants)
    # A flag per variable that may be unset: False before the loop for those unbound before it;
    # True once an iteration assigns it (see variables.maybe_unset).
    flagged = {}
    for i, value in enumerate(initial):
        if i in newly_unset and isinstance(value, rt.Tensor):
            flagged[i] = (rt.constant(False), located.message(
                f"loop must iterate at least once to initialize '{symbol_names[i]}' (and reach "
                f"its assignment): " + (f"'{symbol_names[i]}' is None before the loop"
                                        if newly_unset[i] else
                                        f"local variable '{symbol_names[i]}' is used before it "
                                        f"is assigned a value")))
        elif isinstance(value, rt.Tensor) and maybe_unset(value) is not None:
            flagged[i] = maybe_unset(value)
    flagged_indices = list(flagged)
    set_state(initial)
    iterations = [rt.constant(0)]
    flags = [flagged[i][0] for i in flagged_indices]
    nstate = len(initial)

    def loop_vars():
        return [iterations[0]] + list(get_state()) + list(flags)

    def restore(values):
        iterations[0] = values[0]
        state = tuple(values[1:1 + nstate])
        for i, flag in zip(flagged_indices, values[1 + nstate:]):
            mark_maybe_unset(state[i], flag, flagged[i][1])
        set_state(state)

    def loop_test(*values):
        restore(values)
        return test()

    def loop_body(*values):
        restore(values)
        lists.traced_loop_body(body)
        state = list(get_state())
        guards.check_loop_structure(symbol_names, initial, state)
        new_flags = []
        for i in flagged_indices:
            unset = maybe_unset(state[i]) if isinstance(state[i], rt.Tensor) else None
            new_flags.append(unset[0] if unset is not None else rt.constant(True))
        return [iterations[0] + 1] + state + new_flags

    shape_invariants = None
    if any(s is not None for s in invariants):
        shape_invariants = [rt.TensorShape([])] + [
            s if s is not None else loop_types.shape_of(v) for s, v in zip(invariants, initial)] + [
            rt.TensorShape([])] * len(flags)
    with located.user_errors():
        final = rt.while_loop(loop_test, loop_body, loop_vars(), shape_invariants=shape_invariants,
                              maximum_iterations=opts.get('maximum_iterations'),
                              names=('<iterations>',) + tuple(symbol_names) + tuple(
                                  f'<{symbol_names[i]} is set>' for i in flagged_indices))
    restore(final)


def _stage_appended_lists(test, body, set_state, get_state, symbol_names, initial, names):
    """Replaces in `initial` the Python lists the loop only appends to (`names`) by
    StagedLists; the element type is the first element's, or, for an empty list, that of the
    first value one iteration appends (traced into a throwaway graph)."""
    indices = [symbol_names.index(n) for n in names
               if n in symbol_names and type(initial[symbol_names.index(n)]) is list]
    if not indices:
        return
    elements = {}   # index -> (dtype, shape) of its elements
    for i in indices:
        if initial[i]:
            elements[i] = loop_types.element_type(initial[i][0])
    empty = [i for i in indices if i not in elements]
    if empty:
        outer = context.current_graph()
        probe = FuncGraph('autograph_first_appends', outer)
        probe.library = dict(outer.library)
        trial = list(initial)
        for i in empty:
            trial[i] = []
        _probes.append(probe)
        try:
            with probe.as_default():
                set_state(tuple(trial))
                test()
                lists.traced_loop_body(body)
                after_one = get_state()
        finally:
            _probes.pop()
        for i in empty:
            appended = after_one[i]
            if isinstance(appended, lists.StagedList):   # appended to by an inner tensor loop
                elements[i] = appended.array.dtype, appended.array.element_shape
            elif isinstance(appended, list) and appended:
                elements[i] = loop_types.element_type(appended[0])
    for i, element in elements.items():
        if element is not None:
            initial[i] = lists.stage(initial[i], symbol_names[i], *element)


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
            lists.traced_loop_body(body)
            after_one = get_state()
            types = {i: loop_types.types_of(after_one[i], symbol_names[i]) for i in unset}
    finally:
        _probes.pop()
    for i, structure in types.items():
        initial[i] = loop_types.zeros_like(structure)
        shapes = [t.shape for t in loop_types.flat_types(structure)]
        if isinstance(structure, loop_types.ShapeDtype) and not shapes[0].is_fully_defined():
            invariants[i] = shapes[0]
        elif any(not s.is_fully_defined() for s in shapes):
            raise located.error(ValueError, (
                f"'{symbol_names[i]}' must be defined before the loop: it is used after the "
                f'loop (or in the next iteration), and its parts do not have a fixed shape'))
