"""`for x in ds:` and `for x in it:` over an `rt.data` Dataset or Iterator in a graph.

The lowering: one graph while loop over an iterator (for a dataset, a new iterator made by
`iter(ds)` just before the loop). Each iteration asks the iterator for its next element as an
optional (`IteratorGetNextAsOptional`) and runs the loop body in a cond on `has_value()`, with
the body's variables as loop variables; the loop goes on while the last element existed (and
the `break`/`return` condition, the converter's extra test, holds).

Why one while loop, rather than TensorFlow's `scan`/`reduce` + `take_while` for datasets: the
same code serves datasets and iterators; `break`, `continue` and `return` are the converters'
flags, tested by the while loop before the next element is fetched, so an iterator shared with
code after the loop is never advanced past the last element the body saw (a dataset lowered
through `take_while` would read one more); and the loop state, the "must be defined before the
loop" check and the shapes of loop variables follow the rules of every other graph loop
(control_flow.while_stmt), which the executor then runs as a Python `while` calling the
iterator ops.

Variables first set in such a loop and used after it are an error, as in TensorFlow: the loop
may run zero times (the dataset's length is not known when tracing).
"""
import runtime as rt
from autograph.operators import located
from autograph.operators.call import converted_call
from autograph.operators.variables import Undefined
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
