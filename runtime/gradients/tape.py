"""`rt.GradientTape`: records the ops that run on watched tensors, eagerly or into a graph.

A tape enters `runtime.core.context.recording`, so `runtime.ops.dispatch.apply` hands it every op
that runs. It keeps the ops with an input it tracks (a watched tensor, a watched variable's
handle, or an output of an op it kept) and, on `gradient`, walks them backwards
(`runtime.gradients.backprop`). Opened while a graph is being built (inside an `ag.function`),
it records that graph's Operations, and `gradient` adds the gradient ops to the same graph.
"""
import enum

import numpy as np

from runtime.core import context, dtypes, nest
from runtime.core.tensor import EagerTensor, Tensor
from runtime.gradients.backprop import EagerOp, backprop
from runtime.ops.convert import constant, convert_to_tensor, stack
from runtime.ops.creation import ones_like, zeros, zeros_like
from runtime.ops.shaping import reshape
from runtime.ops.state import VariableStorage
from runtime.variables import Variable


class UnconnectedGradients(str, enum.Enum):
    """What `gradient` gives for a source the target does not depend on (TensorFlow's
    `tf.UnconnectedGradients`); the plain strings 'none' and 'zero' work too."""

    NONE = 'none'
    ZERO = 'zero'


_UNCONNECTED = ('none', 'zero')
_by_numpy = dtypes.NUMERIC_BY_NUMPY.get


class GradientTape:
    """Record operations for automatic differentiation (TensorFlow's `tf.GradientTape`).

    `persistent`: `gradient` may be called more than once. `watch_accessed_variables`:
    trainable Variables read inside the tape are watched automatically.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._graph = None
        self._ops = []
        self._tracked = {}  # id -> the tensor or handle, kept alive so ids stay unique
        self._watched_variables = {}  # id(variable.storage) -> variable, in order of first watch
        self._recording = None
        self._used = False

    # ---- recording ---------------------------------------------------------------------------

    def __enter__(self):
        if self._recording is not None:
            raise RuntimeError('This GradientTape is already recording; a tape cannot be '
                               'entered twice at once.')
        self._graph = context.current_graph()
        self._recording = context.recording(self)
        self._recording.__enter__()
        return self

    def __exit__(self, *exc_info):
        recording, self._recording = self._recording, None
        recording.__exit__(*exc_info)

    def record(self, opdef, inputs, attrs, outputs):
        """The dispatch hook: keep the op if an input is tracked."""
        tracked = self._tracked
        for t in inputs:
            if id(t) in tracked:
                break
        else:
            return
        if outputs is None:
            return
        if self._graph is None:
            if type(outputs) is EagerTensor:
                tracked[id(outputs)] = outputs
                self._ops.append(EagerOp(opdef, _eager_inputs(inputs), attrs, [outputs]))
                return
            if type(outputs) is not list or type(outputs[0]) is not EagerTensor:
                return  # an op of a graph being traced: that graph's tapes see it
            op = EagerOp(opdef, _eager_inputs(inputs), attrs, outputs)
        else:
            first = outputs[0] if type(outputs) is list else outputs
            op = getattr(first, 'op', first)
            if op.graph is not self._graph or not op.outputs:
                return  # an op of a branch or loop body: the If/While op carries it
        self._ops.append(op)
        for t in op.outputs:
            tracked[id(t)] = t

    def variable_accessed(self, variable):
        """Called by `Variable.read_value` before the read (watches trainable variables)."""
        if self._watch_accessed_variables and variable.trainable:
            if self._graph is None:  # `_watch_variable`, inlined: one eager read per variable use
                storage = variable.storage
                self._tracked[id(storage)] = storage
                self._watched_variables.setdefault(id(storage), variable)
            else:
                self._watch_variable(variable)

    def _handle(self, variable):
        """What this tape's graph reads `variable` through: its storage eagerly, else the
        graph's resource tensor."""
        if self._graph is None:
            return variable.storage
        return self._graph.capture_resource(variable.storage)

    def _watch_variable(self, variable):
        handle = self._handle(variable)
        self._tracked[id(handle)] = handle
        self._watched_variables.setdefault(id(variable.storage), variable)

    def watch(self, tensor):
        """Track `tensor` (a tensor, a Variable, or a nested structure of them)."""
        for t in nest.flatten(tensor):
            if isinstance(t, Variable):
                self._watch_variable(t)
            elif isinstance(t, Tensor):
                self._tracked[id(t)] = t
            else:
                raise ValueError(f'GradientTape.watch needs tensors or Variables, got {t!r}.')

    def watched_variables(self):
        return tuple(self._watched_variables.values())

    def reset(self):
        """Forget everything recorded so far (the tape keeps recording if it is open)."""
        self._ops.clear()
        self._tracked.clear()
        self._watched_variables.clear()

    def stop_recording(self):
        """A context in which the tape records nothing."""
        return _Paused(self)

    # ---- gradients ---------------------------------------------------------------------------

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients='none'):
        """d(target)/d(sources), with `sources`' nested structure (see docs/gradients.md)."""
        unconnected_gradients = _unconnected(unconnected_gradients)
        self._consume('gradient')
        flat_sources = nest.flatten(sources)
        with _Paused(self):
            # A Variable target stays itself: d(v)/d(v) is the seed, as in TensorFlow.
            targets = [t if isinstance(t, Variable) else convert_to_tensor(t)
                       for t in nest.flatten(target)]
            if output_gradients is None:
                grads = [None] * len(targets)
            else:
                grads = [None if g is None else convert_to_tensor(g)
                         for g in nest.flatten(output_gradients)]
                if len(grads) != len(targets):
                    raise ValueError(f'output_gradients has {len(grads)} tensors for '
                                     f'{len(targets)} targets; give one per target.')
            result = self._gradients(targets, grads, flat_sources, unconnected_gradients)
        self._release()
        if type(sources) is list and len(sources) == len(flat_sources) and all(
                s is f for s, f in zip(sources, flat_sources)):
            return result  # a flat list of sources (the common case): no packing to do
        return nest.pack_sequence_as(sources, result)

    def _gradients(self, targets, grads, flat_sources, unconnected):
        keys = []
        for s in flat_sources:
            if isinstance(s, Variable):
                keys.append(self._handle(s) if id(s.storage) in self._watched_variables else None)
            elif isinstance(s, Tensor):
                keys.append(s if id(s) in self._tracked else None)  # watched or recorded
            else:
                raise ValueError(f'GradientTape.gradient: sources must be tensors or Variables, '
                                 f'got {s!r}.')
        float_targets, target_grads, seeds = [], [], {}
        for t, g in zip(targets, grads):
            if not t.dtype.is_floating:
                continue
            g = g if g is not None else _ones_for(t)
            if isinstance(t, Variable) or id(t) not in self._tracked:
                # Off the tape: its only gradient is to itself as a source (as in TensorFlow,
                # watched or not).
                seed = seeds.get(id(t))
                seeds[id(t)] = g if seed is None else seed + g
                continue
            float_targets.append(t)
            target_grads.append(g)
        sources = [k for k, s in zip(keys, flat_sources)
                   if k is not None and s.dtype.is_floating]
        found = backprop(self._ops, float_targets, target_grads, sources) \
            if sources and float_targets else [None] * len(sources)
        by_source = {id(k): g for k, g in zip(sources, found)}
        result = []
        for s, k in zip(flat_sources, keys):
            g = by_source.get(id(k)) if k is not None else None
            seed = seeds.get(id(s))
            if seed is not None:
                g = seed if g is None else g + seed
            if g is None and unconnected == 'zero' and s.dtype.is_floating:
                g = zeros(s.shape, s.dtype) if isinstance(s, Variable) else zeros_like(s)
            result.append(g)
        return result

    def jacobian(self, target, sources, unconnected_gradients='none'):
        """d(target[i...])/d(source[j...]) of shape target.shape + source.shape, one gradient
        per element of `target` (for small cases)."""
        unconnected_gradients = _unconnected(unconnected_gradients)
        self._consume('jacobian')
        flat_sources = nest.flatten(sources)
        with _Paused(self):
            target = convert_to_tensor(target)
            if not target.shape.is_fully_defined():
                raise ValueError(f'GradientTape.jacobian needs a target of known shape, got '
                                 f'{target.shape}.')
            n = target.shape.num_elements()
            rows = []
            for i in range(n):
                seed = np.zeros(n, dtype=target.dtype.np_dtype)
                seed[i] = 1
                seed = convert_to_tensor(seed.reshape(target.shape.as_list()))
                rows.append(self._gradients([target], [seed], flat_sources, 'none'))
            result = []
            for j, s in enumerate(flat_sources):
                column = [row[j] for row in rows]
                if not s.dtype.is_floating or not target.dtype.is_floating or (
                        unconnected_gradients == 'none' and all(g is None for g in column)):
                    result.append(None)
                    continue
                column = stack([zeros_like(s) if g is None else g for g in column]) if n else \
                    zeros([0] + s.shape.as_list(), s.dtype)
                result.append(reshape(column, target.shape.as_list() + s.shape.as_list()))
        self._release()
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(self, target, source, unconnected_gradients='none',
                       parallel_iterations=None, experimental_use_pfor=True):
        """The jacobian of each `target[i]` with respect to `source[i]` (the rows of the batch
        independent, as TensorFlow assumes without checking): shape
        `[batch] + target.shape[1:] + source.shape[1:]`. `parallel_iterations` and
        `experimental_use_pfor` are accepted for TensorFlow's signature and change nothing."""
        unconnected_gradients = _unconnected(unconnected_gradients)
        self._consume('batch_jacobian')
        with _Paused(self):
            target = convert_to_tensor(target)
            shape, source_shape = target.shape, source.shape
            for s in (shape, source_shape):
                if s.rank is not None and s.rank < 2:
                    raise ValueError(f'Shape {s} must have rank at least 2')
            if not shape.is_fully_defined() or source_shape.rank is None \
                    or shape[0] != source_shape[0]:
                raise ValueError(f'Need first dimension of target shape ({shape}) and source '
                                 f'shape ({source_shape}) to match.')
            batch, inner = shape[0], shape[1:].num_elements()
            columns = []
            for k in range(inner):
                seed = np.zeros((batch, inner), dtype=target.dtype.np_dtype)
                seed[:, k] = 1
                seed = convert_to_tensor(seed.reshape(shape.as_list()))
                columns.append(self._gradients([target], [seed], [source], 'none')[0])
            if not source.dtype.is_floating or not target.dtype.is_floating or (
                    unconnected_gradients == 'none' and all(g is None for g in columns)):
                result = None
            else:
                columns = [zeros_like(source) if g is None else g for g in columns]
                result = reshape(stack(columns, axis=1) if inner else
                                 zeros([batch, 0] + source_shape.as_list()[1:], source.dtype),
                                 shape.as_list() + source_shape.as_list()[1:])
        self._release()
        return result

    def _release(self):
        """A non-persistent tape drops its records once used (their tensors can be freed)."""
        if not self._persistent:
            self._ops = []
            self._tracked = {}

    def _consume(self, what):
        if self._used and not self._persistent:
            raise RuntimeError(
                f'A non-persistent GradientTape can only be used to compute one set of '
                f'gradients (or jacobians); this is the second call of {what}(). Create the '
                f'tape with rt.GradientTape(persistent=True) to ask it more than once.')
        self._used = True


def _eager_inputs(inputs):
    """An eager op's inputs as tensors (numpy operands wrapped; a variable's storage kept)."""
    for t in inputs:
        if type(t) is not EagerTensor:
            return [_as_eager(t) for t in inputs]
    return list(inputs)


def _as_eager(t):
    if type(t) is EagerTensor or isinstance(t, (Tensor, VariableStorage)):
        return t
    return EagerTensor(t, _by_numpy(getattr(t, 'dtype', None)) or dtypes.of_value(t))


def _unconnected(value):
    if value not in _UNCONNECTED:
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero' (or "
                         f'rt.UnconnectedGradients.NONE/ZERO), got {value!r}.')
    return str(value.value if isinstance(value, UnconnectedGradients) else value)


def _ones_for(target):
    """The default output gradient: ones of the target's shape, a constant when the shape is
    known (so in a graph what only depends on it folds away)."""
    if type(target) is EagerTensor and context.current_graph() is None:  # the eager case
        one = target.dtype.np_dtype.type(1)
        value = target.value
        return EagerTensor(np.full(value.shape, one) if np.ndim(value) else one, target.dtype)
    if target.shape.is_fully_defined():
        return constant(np.ones(target.shape.as_list(), dtype=target.dtype.np_dtype),
                        target.dtype)
    return ones_like(target)


class _Paused:
    """Take a tape out of the recording tapes for a while (its own gradient computation is
    not recorded on it; outer tapes still record it, for higher-order gradients)."""

    def __init__(self, tape):
        self._tape = tape
        self._was_recording = False

    def __enter__(self):
        tapes = context.state.tapes
        if self._tape in tapes:
            self._was_recording = True
            tapes.remove(self._tape)
            context.adjust_tapes(-1)

    def __exit__(self, *exc_info):
        if self._was_recording:
            context.state.tapes.append(self._tape)
            context.adjust_tapes(1)

