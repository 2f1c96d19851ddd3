"""`for x in ds:` and `for x in it:` over an `rt.data` Dataset or Iterator in a graph.

A loop over a dataset is lowered as TensorFlow's AutoGraph lowers it: the loop's variables are
the state of a `Dataset.scan` whose function runs the body on one element (`ScanDataset`), and a
`Dataset.reduce` keeps the last state (`ReduceDataset`). The scan's elements are (the new
state, the "keep going" flag): with `break` (or any extra test of the converters) the flag is
the extra test, evaluated before the body (the body runs in a cond on it), and a `take_while`
on it (`TakeWhileDataset`) ends the loop. A loop without variables carries a dummy int32 0, as
TensorFlow's does (a reduce needs a state). So the function guide's graph of
`for x, y in dataset: loss += ...` is TensorFlow's: ScanDataset + ReduceDataset.

Where that form cannot carry the loop (a `return` in the body, whose value is undefined before
the loop: TensorFlow raises NotImplementedError there, it works here; state that is no
dataset structure, such as TensorArrays, Python lists appended to, None; loop options), and for
every loop over an iterator (as TensorFlow's iterator loops), the lowering is one graph while
loop over an iterator (for a dataset, a new iterator made by `iter(ds)` just before the loop).
Each iteration asks the iterator for its next element as an optional
(`IteratorGetNextAsOptional`) and runs the loop body in a cond on `has_value()`, with the body's
variables as loop variables; the loop goes on while the last element existed (and the
`break`/`return` condition, the converter's extra test, holds), so an iterator shared with code
after the loop is never advanced past the last element the body saw.

Variables first set in such a loop and used after it are an error, as in TensorFlow: the loop
may run zero times (the dataset's length is not known when tracing).
"""
import runtime as rt
from autograph.operators import guards, lists, located
from autograph.operators.call import converted_call
from autograph.operators.variables import Undefined, maybe_unset
from runtime.core import context
from runtime.data import Dataset, Iterator
from runtime.data import functions as data_functions
from runtime.graph.graph import FuncGraph


def is_graph_iteration(iter_):
    """Whether a `for` over `iter_` is a dataset loop in the graph being built."""
    return isinstance(iter_, (Dataset, Iterator)) and context.current_graph() is not None


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts, if_stmt,
             while_stmt):
    """The loop, staged with control_flow's `if_stmt` and `while_stmt` (passed in: that module
    calls this one)."""
    for name, value in zip(symbol_names, get_state()):
        if isinstance(value, Undefined):
            raise located.error(ValueError, (
                f"'{name}' must be defined before the loop: it is first set in a loop over a "
                f"dataset or iterator and used after the loop (or in the next iteration), and "
                f"the loop may run zero times; give '{name}' a value before the loop"))
    if isinstance(iter_, Dataset) and _scan_state(get_state(), opts):
        _scan_reduce(iter_, extra_test, body, get_state, set_state, symbol_names)
        return
    iterator = iter(iter_) if isinstance(iter_, Dataset) else iter_
    more = [rt.constant(True)]

    def get_loop_state():
        return (more[0],) + tuple(get_state())

    def set_loop_state(values):
        more[0] = values[0]
        set_state(values[1:])

    def test():
        keep_going = more[0]
        if extra_test is not None:
            keep_going = rt.logical_and(keep_going, rt.convert_to_tensor(extra_test()))
        return keep_going

    def step():
        optional = iterator.get_next_as_optional()
        has_value = optional.has_value()
        if_stmt(has_value, lambda: body(optional.get_value()), lambda: None,
                             get_state, set_state, symbol_names, len(symbol_names))
        more[0] = has_value

    if any(not spec.shape.is_fully_defined()
           for spec in rt.nest.flatten(iterator.element_spec)):
        opts = dict(opts, shape_invariants=_relaxed_shapes(step, get_loop_state, set_loop_state,
                                                            opts))
    with iterator.after_initializer():
        while_stmt(test, step, get_loop_state, set_loop_state,
                   ('<more elements>',) + tuple(symbol_names), opts)


# Loop options only the while loop honours (shape invariants, an iteration limit, the lists the
# body appends to, which it stages)
_WHILE_OPTIONS = ('shape_invariants', 'maximum_iterations', 'appended_lists')


def _scan_state(state, opts):
    """Whether the loop variables `state` can be a scan's state: tensors and Python numbers,
    in tuples and dicts (a dataset structure), none of them a tensor that may be unset."""
    if any(opts.get(option) for option in _WHILE_OPTIONS):
        return False

    def fits(value):
        if isinstance(value, dict):
            return all(fits(v) for v in value.values())
        if isinstance(value, tuple):
            return all(fits(v) for v in value)
        if isinstance(value, rt.Tensor):
            return maybe_unset(value) is None
        return type(value) in (bool, int, float)
    return all(fits(value) for value in state)


def _scan_reduce(dataset, extra_test, body, get_state, set_state, symbol_names):
    """The loop as TensorFlow builds it: scan (+ take_while on the extra test) + reduce."""
    guards.check_no_global_writes([body], 'loop')
    initial = before = tuple(get_state())
    if initial:
        get_vars, set_vars = get_state, set_state
    else:  # a dummy state: a reduce needs one (TensorFlow's, an int32 0)
        symbol_names = ('<internal dummy>',)

        def get_vars():
            return (rt.constant(0),)

        def set_vars(values):
            del values  # the dummy state stands for no variable

        initial = get_vars()

    def one_iteration(state, element):
        set_vars(state)
        lists.traced_loop_body(body, element)
        return _checked_state(tuple(get_vars()), state, symbol_names)

    def scan_body(state, element):
        if extra_test is None:
            new = one_iteration(state, element)
            keep_going = rt.constant(True)
        else:
            set_vars(state)
            keep_going = rt.convert_to_tensor(extra_test())
            new = rt.cond(keep_going, lambda: one_iteration(state, element), lambda: state)
        return new, (new, keep_going)

    try:
        with located.user_errors():
            scanned = dataset.scan(initial, scan_body)
            if extra_test is not None:
                scanned = scanned.take_while(lambda state, keep_going: keep_going)
            final = scanned.reduce(initial, lambda state, outputs: outputs[0])
    except BaseException:
        set_state(before)
        raise
    set_vars(final)


def _checked_state(new, before, symbol_names):
    """The loop variables after one iteration, which must keep their structure and dtypes
    (TensorFlow's errors, naming the variable); Python numbers become tensors."""
    guards.check_loop_structure(symbol_names, before, new)
    checked = []
    for name, old, value in zip(symbol_names, before, new):
        for a, b in zip(rt.nest.flatten(old), rt.nest.flatten(value)):
            b = rt.convert_to_tensor(b)
            if b.dtype is not a.dtype:
                raise located.error(TypeError, (
                    f"'{name}' has dtype {a.dtype.name} before the loop, but dtype "
                    f'{b.dtype.name} after one iteration; give it its final dtype before the '
                    f'loop (e.g. with rt.cast).'))
        checked.append(value)
    return tuple(checked)


def _relaxed_shapes(step, get_state, set_state, opts):
    """The loop's shape invariants, with those of the loop variables whose shape one iteration
    changes relaxed to what covers both (as TensorFlow's dataset loops relax their state):
    elements of partly known shape (a last smaller batch, a generator's) often change them.
    The iteration is traced into a throwaway graph."""
    outer = context.current_graph()
    probe = FuncGraph('autograph_dataset_loop_probe', outer)
    probe.library = dict(outer.library)
    initial = tuple(get_state())
    try:
        with probe.as_default():
            step()
            after = tuple(get_state())
    finally:
        set_state(initial)
    pairs = list(opts.get('shape_invariants') or ())
    for before, now in zip(initial, after):
        if isinstance(before, rt.Tensor) and isinstance(now, rt.Tensor) and \
                before.shape != now.shape:
            pairs.append((before, before.shape.most_specific_compatible_shape(now.shape)))
    return pairs


def convert_dataset_function(fn):
    """The conversion runtime.data applies to the functions given to `map`, `filter`, ...:
    calls go through `converted_call`, which converts user code (and leaves library code and
    already converted code alone)."""
    def converted(*args, **kwargs):
        return converted_call(fn, args, kwargs)
    converted.__name__ = getattr(fn, '__name__', 'fn')
    return converted


data_functions.converters.append(convert_dataset_function)
