"""`rt.cond`, `rt.switch_case` and `rt.while_loop`.

On eager or Python values they run plain Python. On symbolic tensors (or, for while_loop,
whenever a graph is being built) each branch, loop condition and loop body is traced into a
FuncGraph that goes into the graph's function library, and one If/Case/While op calls them
(made by `runtime.ops.control.build_if`, `build_case`, `build_while`). Outer tensors a branch
or body uses become extra inputs of the op.
"""
from runtime.core import dtypes, nest
from runtime.core.shapes import TensorShape, as_shape
from runtime.core.tensor import SymbolicTensor, Tensor
from runtime.graph.graph import FuncGraph, uid
from runtime.ops import control
from runtime.ops.array import identity, stop_gradient
from runtime.ops.compare import less, logical_and
from runtime.ops.convert import convert_for_write, convert_to_tensor
from runtime.ops.dispatch import graph_of


def _label(names, i, default):
    return repr(names[i]) if names is not None and i < len(names) else default


def cond(pred, true_fn=None, false_fn=None, name=None, *, names=None):
    """`true_fn()` if `pred` else `false_fn()`.

    With a symbolic `pred` both branches are traced and a StatelessIf (If when a branch has a
    stateful op) chooses at run time; both must return the same structure and dtypes.
    `names` optionally labels the top-level outputs in error messages.
    """
    if true_fn is None or false_fn is None:
        raise TypeError('rt.cond needs both true_fn and false_fn.')
    if hasattr(pred, '__tf_tensor__'):
        pred = pred.__tf_tensor__()
    if not isinstance(pred, SymbolicTensor):
        return true_fn() if pred else false_fn()
    if pred.dtype is not dtypes.bool or pred.shape.rank not in (0, None):
        raise TypeError(f'rt.cond needs a scalar bool predicate, got {pred.dtype.name} of shape '
                        f'{pred.shape}.')
    graph = graph_of([pred])
    with graph.name_scope(name or 'cond') as scope:
        then_graph, then_out = _trace_branch(true_fn, graph, f'{scope}_true_{uid()}', scope, names,
                                             'true_fn')
        else_graph, else_out = _trace_branch(false_fn, graph, f'{scope}_false_{uid()}', scope,
                                             names, 'false_fn')
        _check_branches(then_graph, then_out, else_graph, else_out, names)
        op = control.build_if(graph, pred, then_graph, else_graph, scope)
        with graph.exact_scope(scope):
            results = [identity(t) for t in op.outputs]
    if then_out is None:
        return None
    return nest.pack_sequence_as(then_out, results)


def _trace_branch(fn, graph, fname, scope, names, which):
    fg = FuncGraph(fname, graph, scope)
    with fg.as_default():
        out = fn()
        flat = [] if out is None else nest.flatten(out)
        tensors = []
        for i, value in enumerate(flat):
            if value is None:
                raise ValueError(f'rt.cond: {which} returned None for output {i} '
                                 f'({_label(names, i, "unnamed")}); every output of both branches '
                                 f'must be a tensor or a value convertible to one.')
            tensors.append(convert_to_tensor(value))
        fg.outputs = [identity(t) for t in tensors]
    graph.library[fname] = fg
    return fg, out


def _check_branches(then_graph, then_out, else_graph, else_out, names):
    if (then_out is None) != (else_out is None):
        raise ValueError('rt.cond: one branch returned None and the other returned values; '
                         'both branches must return the same structure.')
    problem = nest.structure_difference(then_out, else_out)
    if problem:
        named = _named_structure_difference(then_out, else_out, names)
        if named:   # a TypeError, as TensorFlow's AutoGraph raises
            raise TypeError(named)
        raise ValueError('rt.cond: true_fn and false_fn must return the same structure. '
                         + problem)
    top = _top_level_index(then_out)
    for i, (a, b) in enumerate(zip(then_graph.outputs, else_graph.outputs)):
        if a.dtype is not b.dtype:   # the wording of TensorFlow's AutoGraph
            label = _label(names, top[i], f'output {i}')
            raise TypeError(f'{label} has dtype {a.dtype.name} in the main branch, but dtype '
                            f'{b.dtype.name} in the else branch; both branches must give it the '
                            f'same dtype (use rt.cast).')


def _named_structure_difference(then_out, else_out, names):
    """With `names`, the variable whose structure differs between the branches, in the words
    of TensorFlow's AutoGraph; else None."""
    if names is not None and isinstance(then_out, (list, tuple)) and isinstance(
            else_out, (list, tuple)) and len(then_out) == len(else_out):
        for i, (a, b) in enumerate(zip(then_out, else_out)):
            difference = nest.structure_difference(a, b)
            if difference and i < len(names):
                return (f'{names[i]!r} must have the same nested structure in the main and else '
                        f'branches: {difference}')
    return None


def _top_level_index(structure):
    """For each leaf of `structure`, the index of the top-level element it belongs to."""
    if not isinstance(structure, (list, tuple)) or hasattr(structure, '__nest_components__'):
        return [0] * len(nest.flatten(structure))
    return [i for i, item in enumerate(structure) for _ in nest.flatten(item)]


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None, *,
               names=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`.

    `parallel_iterations` and `swap_memory` change nothing (iterations run one after another,
    in host memory); `back_prop=False` stops gradients at the loop's results.

    Eagerly this is a Python loop. In a graph it builds one StatelessWhile (While when the body
    or condition has a stateful op). A loop variable keeps its dtype, and its shape must stay
    compatible with its shape invariant (its entry shape unless `shape_invariants` relaxes it).
    `names` optionally labels the loop variables in error messages.
    """
    result = _while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, name, names)
    if back_prop:
        return result
    return nest.map_structure(
        lambda v: stop_gradient(v) if isinstance(v, Tensor) else v, result)


def _while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, name, names):
    single = not isinstance(loop_vars, (list, tuple)) or hasattr(loop_vars, '__nest_components__')
    args = (loop_vars,) if single else tuple(loop_vars)
    graph = graph_of(nest.flatten(args))
    if graph is None:
        return _eager_while(cond, body, loop_vars, args, single, maximum_iterations)
    with graph.name_scope(name or 'while') as scope:
        flat, invariants = _entry_values(args, shape_invariants, names)
        loop = _Loop(args, single, names, flat, invariants)
        if maximum_iterations is not None:  # a counter and its limit go first
            loop.count_to(maximum_iterations)
        cond_graph = loop.trace_cond(cond, graph, f'{scope}_cond_{uid()}', scope)
        body_graph = loop.trace_body(body, graph, f'{scope}_body_{uid()}', scope)
        graph.library[cond_graph.name] = cond_graph
        graph.library[body_graph.name] = body_graph
        op = control.build_while(graph, loop.flat, loop.invariants, cond_graph, body_graph, scope)
    outputs = op.outputs[loop.offset:len(loop.flat)]
    # packed like the body's result: a TensorArray comes out with the element shape its writes
    # give, as in TensorFlow (`rt.transpose(ta.stack())` knows the rank)
    return _restructure(loop_vars, _pack(loop.result, outputs, single), single)


def _entry_values(args, shape_invariants, names):
    """The loop variables' flat entry tensors and their shape invariants (checked)."""
    flat = [convert_to_tensor(v) for v in _loop_leaves(args, names)]
    invariants = _flat_invariants(args, shape_invariants, flat)
    for i, (t, shape) in enumerate(zip(flat, invariants)):
        if not _within(t.shape, shape):
            raise ValueError(f'Loop variable {_var_label(names, args, i)} enters the loop with '
                             f'shape {t.shape}, which is not compatible with its shape '
                             f'invariant {shape}.')
    return flat, invariants


class _Loop:
    """The loop variables of a While being built: the user's (`args`, flattened to `flat` with
    their shape `invariants`), after `offset` leading ones (a counter and its limit when the loop
    has `maximum_iterations`)."""

    def __init__(self, args, single, names, flat, invariants):
        self.args, self.single, self.names = args, single, names
        self.flat, self.invariants = flat, invariants
        self.offset = 0

    def count_to(self, maximum_iterations):
        counter = convert_to_tensor(0)
        self.flat = [counter, convert_to_tensor(maximum_iterations, dtypes.int32)] + self.flat
        self.invariants = [TensorShape([]), TensorShape([])] + self.invariants
        self.offset = 2

    def _function(self, fname, graph, scope):
        fg = FuncGraph(fname, graph, scope)
        for t, shape in zip(self.flat, self.invariants):
            fg.add_input(t.dtype, shape, 'loop_var')
        return fg

    def trace_cond(self, cond, graph, fname, scope):
        fg = self._function(fname, graph, scope)
        with fg.as_default():
            keep_going = convert_to_tensor(cond(*_pack(self.args, fg.inputs[self.offset:],
                                                       self.single)))
            if keep_going.dtype is not dtypes.bool or keep_going.shape.rank not in (0, None):
                raise TypeError(f'rt.while_loop: cond must return a scalar bool, got '
                                f'{keep_going.dtype.name} of shape {keep_going.shape}.')
            if self.offset:
                keep_going = logical_and(less(fg.inputs[0], fg.inputs[1]), keep_going)
            fg.outputs = [identity(keep_going)]
        return fg

    def trace_body(self, body, graph, fname, scope):
        fg = self._function(fname, graph, scope)
        args, single = self.args, self.single
        with fg.as_default():
            result = body(*_pack(args, fg.inputs[self.offset:], single))
            if not single and len(args) == 1 and not isinstance(result, (list, tuple)):
                result = (result,)
            new_flat = _check_body_result(args, result, single, self.flat[self.offset:],
                                          self.invariants[self.offset:], self.names)
            self.result = tuple((result,) if single else result)
            if self.offset:
                new_flat = [fg.inputs[0] + 1, fg.inputs[1]] + new_flat
            fg.outputs = [identity(t) for t in new_flat]
        return fg


def _restructure(loop_vars, values, single):
    """`values` (a tuple, one per loop variable) in the container type of `loop_vars`."""
    if single:
        return values[0]
    if hasattr(loop_vars, '_fields'):
        return type(loop_vars)(*values)
    return type(loop_vars)(values)


def _eager_while(cond, body, loop_vars, args, single, maximum_iterations):
    i = 0
    while (maximum_iterations is None or i < maximum_iterations) and cond(*args):
        result = body(*args)
        if single or len(args) == 1 and not isinstance(result, (list, tuple)):
            result = (result,)
        args = tuple(result)
        i += 1
    return _restructure(loop_vars, args, single)


def _loop_leaves(args, names):
    flat = nest.flatten(args)
    for i, value in enumerate(flat):
        if value is None:
            raise ValueError(f'Loop variable {_var_label(names, args, i)} is not allowed to be '
                             f'None before the loop; a loop '
                             f'variable must be a tensor or a value convertible to one.')
    return flat


def _var_label(names, args, flat_index):
    top = _top_level_index(args)
    i = top[flat_index] if flat_index < len(top) else flat_index
    if names is not None and i < len(names):
        return repr(names[i])
    return f'#{i}'


def _within(shape, invariant):
    """Whether `shape` is at least as specific as `invariant` (as TensorFlow requires of a loop
    variable's shape on entry and after each iteration): every known invariant dimension is
    known and equal in `shape`."""
    if invariant.rank is None:
        return True
    if shape.rank != invariant.rank:
        return False
    return all(b is None or a == b for a, b in zip(shape.as_list(), invariant.as_list()))


def _flat_invariants(args, shape_invariants, flat):
    if shape_invariants is None:
        return [t.shape for t in flat]
    if not isinstance(shape_invariants, (list, tuple)) or len(args) == 1 and \
            not isinstance(shape_invariants[0], (list, tuple, TensorShape)) or \
            isinstance(shape_invariants, TensorShape):
        shape_invariants = (shape_invariants,)
    out = []
    for arg, inv in zip(args, shape_invariants):
        leaves = nest.flatten(arg)
        if len(leaves) == 1:
            out.append(as_shape(inv) if inv is not None else TensorShape(None))
        else:
            out.extend(as_shape(s) for s in nest.flatten(inv))
    if len(out) != len(flat):
        raise ValueError(f'shape_invariants has {len(out)} shapes for {len(flat)} loop '
                         f'variables.')
    return out


def _pack(args, tensors, single):
    return nest.pack_sequence_as(args, list(tensors))


def _check_body_result(args, result, single, flat, invariants, names):
    structure = (result,) if single else result
    if not isinstance(structure, (list, tuple)):
        raise ValueError(f'rt.while_loop: body must return the same structure as loop_vars '
                         f'({len(args)} loop variables), got a single {type(result).__name__}.')
    problem = nest.structure_difference(tuple(args), tuple(structure))
    if problem:
        raise ValueError('rt.while_loop: body must return the same structure as loop_vars. '
                         + problem)
    out = []
    for i, (value, entry, shape) in enumerate(zip(nest.flatten(structure), flat, invariants)):
        label = _var_label(names, args, i)
        if value is None:
            raise ValueError(f'Loop variable {label} became None in the loop body; it must stay '
                             f'a tensor of dtype {entry.dtype.name}.')
        try:
            t = convert_for_write(value, entry.dtype)
        except TypeError as e:
            raise TypeError(f'Loop variable {label} enters the loop as {entry.dtype.name} but '
                            f'the body sets it to {value!r}: {e}') from None
        if t.dtype is not entry.dtype:
            raise TypeError(f'Loop variable {label} has dtype {entry.dtype.name} before the '
                            f'loop, but dtype {t.dtype.name} after one iteration; a loop '
                            f'variable must keep its dtype (use rt.cast).')
        if not _within(t.shape, shape):
            raise ValueError(
                f'Loop variable {label} enters the loop with shape {entry.shape}, but has shape '
                f'{t.shape} after one iteration. To allow the shape to vary, give it a shape '
                f'invariant such as {entry.shape.most_specific_compatible_shape(t.shape)}: '
                f'rt.while_loop(..., shape_invariants=...) or, in converted code, '
                f'ag.experimental.set_loop_options(shape_invariants=[(var, shape)]).')
        out.append(t)
    return out


def switch_case(branch_index, branch_fns, default=None, name='switch_case'):
    """`branch_fns[branch_index]()`; an index outside the branches runs `default` (if None, the
    last branch).

    `branch_fns` is a list of callables, of (index, callable) pairs, or a dict {index:
    callable}, with the indices 0..N-1. With a symbolic index every branch is traced and one
    StatelessCase (Case when a branch has a stateful op) chooses at run time; the branches must
    return the same structure and dtypes.
    """
    fns = _branch_list(branch_fns)
    if default is not None:
        fns.append(default)
    if hasattr(branch_index, '__tf_tensor__'):
        branch_index = branch_index.__tf_tensor__()
    if not isinstance(branch_index, SymbolicTensor):
        index = int(branch_index)
        return fns[index if 0 <= index < len(fns) - (default is not None) else -1]()
    if branch_index.dtype is not dtypes.int32 or branch_index.shape.rank not in (0, None):
        raise TypeError(f'rt.switch_case needs a scalar int32 branch_index, got '
                        f'{branch_index.dtype.name} of shape {branch_index.shape}.')
    graph = graph_of([branch_index])
    with graph.name_scope(name or 'switch_case') as scope:
        traced = [_trace_branch(fn, graph, f'{scope}_indexed_case_branch{k}_{uid()}', scope,
                                None, f'branch {k}') for k, fn in enumerate(fns)]
        first_graph, first_out = traced[0]
        for other_graph, other_out in traced[1:]:
            _check_branches(first_graph, first_out, other_graph, other_out, None)
        op = control.build_case(graph, branch_index, [g for g, _ in traced],
                                f'{scope}/indexed_case')
        with graph.exact_scope(scope):
            results = [identity(t) for t in op.outputs]
    if first_out is None:
        return None
    return nest.pack_sequence_as(first_out, results)


def _branch_list(branch_fns):
    """The branch callables in index order, checking the indices are 0..N-1."""
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    elif all(isinstance(item, (list, tuple)) and len(item) == 2 for item in branch_fns):
        pairs = sorted(branch_fns, key=lambda item: item[0])
    else:
        pairs = list(enumerate(branch_fns))
    if not pairs:
        raise ValueError('rt.switch_case needs at least one branch.')
    if [k for k, _ in pairs] != list(range(len(pairs))):
        raise ValueError(f'rt.switch_case: branch indices must be 0..{len(pairs) - 1}, got '
                         f'{[k for k, _ in pairs]}.')
    for k, fn in pairs:
        if not callable(fn):
            raise TypeError(f'rt.switch_case: branch {k} is not callable: {fn!r}.')
    return [fn for _, fn in pairs]
