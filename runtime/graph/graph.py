"""Graphs: Operations and their SymbolicTensor outputs, name scopes, captures, function library.

A `Graph` is a list of Operations in creation order. Creation order is a topological order
(an op's inputs exist before it) and it is also program order, which the executor uses to run
stateful ops in the order the user wrote them. A `FuncGraph` is a graph with inputs and outputs
(a traced function, a cond branch or a loop body); outer tensors it uses become extra inputs
("captures"). All FuncGraphs built under one top-level graph share its function library.
"""
import contextlib
import itertools
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from runtime.core import context, dtypes, errors, nest
from runtime.core.devices import current_device
from runtime.core.shapes import TensorShape, as_shape
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.executor import compile_graph
from runtime.graph import dot as graph_picture
from runtime.graph.graph_def import graph_def, op_node_def
from runtime.ops.convert import to_numpy
from runtime.ops.dispatch import build
from runtime.ops.registry import CONST, PLACEHOLDER, OpDef
from runtime.ops.state import VAR_HANDLE

_uids = itertools.count(1)
# TensorFlow's node names (a GraphDef with any other name is refused by TensorFlow).
_VALID_NAME = re.compile(r'[A-Za-z0-9.][A-Za-z0-9_.\-/>]*\Z')


def check_name(name):
    """`name` if TensorFlow accepts it as a node name, else a ValueError naming it."""
    if not _VALID_NAME.match(name):
        raise ValueError(f'{name!r} is not a valid op name: TensorFlow accepts names that start '
                         f'with a letter, digit or "." and go on with letters, digits and '
                         f'"_.-/>" (no spaces, ":" or newlines). Pass another name=.')
    return name


def derived_name(name, default):
    """A name made from something else (a parameter, a variable's name): `name` when valid,
    else `default`, as TensorFlow names a placeholder for the parameter `_x`."""
    return name if _VALID_NAME.match(name) else default


def uid():
    """A process-wide counter for unique function names (`cond_true_30`)."""
    return next(_uids)


@dataclass(slots=True, eq=False, weakref_slot=True, repr=False)
class Operation:
    """A node: an op type from the registry, input tensors, attrs, and output tensors.

    `payload` holds a Python object the kernel needs but GraphDef cannot carry (a variable's
    storage, a random generator, an output stream). `origin` is the (file, line) where the user
    created the op.
    """

    graph: 'Graph'
    name: str
    opdef: OpDef
    inputs: list
    attrs: dict
    control_inputs: list
    payload: Any = None
    origin: tuple | None = None
    outputs: list = field(default_factory=list)
    device: str = ''  # the device the op asks for (`rt.device` scopes), canonical; '' for none

    @property
    def type(self):
        return self.opdef.name

    @property
    def stateful(self):
        return self.opdef.stateful

    def get_attr(self, name):
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f'Operation {self.name!r} ({self.type}) has no attr {name!r}; '
                             f'it has {sorted(self.attrs)}.') from None

    @property
    def node_def(self):
        return op_node_def(self)

    def extend(self, inputs, output_specs):
        """Rewrite this op in place (a gradient making a forward If/While output what it needs):
        append `inputs` and outputs of `output_specs` [(dtype, shape)]. The existing outputs
        stay the same tensors; returns the new ones."""
        graph = self.graph
        self.inputs.extend(graph.capture(t) if t.graph is not graph else t for t in inputs)
        start = len(self.outputs)
        new = [SymbolicTensor(self, start + i, dtype, shape)
               for i, (dtype, shape) in enumerate(output_specs)]
        self.outputs.extend(new)
        graph.plans.clear()
        return new

    def __repr__(self):
        return f"<rt.Operation '{self.name}' type={self.type}>"


def _user_frame():
    """(file, line) of the innermost caller outside the library (errors.library_paths)."""
    library = tuple(errors.library_paths)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(library):
        frame = frame.f_back
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno


class Graph:
    # A function's graph (FuncGraph) is built for a function, as TensorFlow's
    # `building_function`: its tensors are unhashable; a plain Graph's hash by identity (feeds).
    building_function = False

    def __init__(self):
        self.operations = []  # in creation order; add them with create_op
        self._by_name = {}
        self._names_in_use = {}
        self._name_stack = ''
        self._control_stack = []
        self.device_spec = None  # the innermost rt.device scope (runtime/core/devices.py)
        self.library = {}
        self.outer_graph = None
        self._captures = {}
        self.plans = {}  # executor.compile_graph's compiled callables; cleared as ops change

    # ---- building ----------------------------------------------------------------------------

    def as_default(self):
        """`with graph.as_default():` adds the ops created inside to this graph."""
        return context.building(self)

    def unique_name(self, name, mark_as_used=True):
        """TensorFlow's naming: `name` under the current scope, `_1`, `_2`, ... on repeats.
        A name TensorFlow would refuse is a ValueError naming it."""
        if self._name_stack:
            name = f'{self._name_stack}/{name}'
        check_name(name)
        key = name.lower()
        i = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self._names_in_use:
                key = f'{base}_{i}'
                i += 1
            if mark_as_used:
                self._names_in_use[key] = 1
            name = f'{name}_{i - 1}'
        return name

    @property
    def current_scope(self):
        """The name scope ops are created under now (`outer/inner`, or '')."""
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name):
        """Ops created inside are named `<scope>/...`; yields the unique scope name."""
        with self.exact_scope(self.unique_name(name) if name else '') as scope:
            yield scope

    @contextlib.contextmanager
    def exact_scope(self, scope):
        """Enter an already-unique scope name (the one an op is about to take)."""
        saved = self._name_stack
        self._name_stack = scope
        try:
            yield scope
        finally:
            self._name_stack = saved

    @contextlib.contextmanager
    def control_dependencies(self, ops):
        """Ops created inside run after `ops` (Operations or tensors); None: after nothing
        (the enclosing blocks' dependencies are cleared inside)."""
        saved = self._control_stack
        if ops is None:
            self._control_stack = []
        else:
            self._control_stack = saved + [[t.op if isinstance(t, SymbolicTensor) else t
                                            for t in ops]]
        try:
            yield
        finally:
            self._control_stack = saved

    def create_op(self, opdef, inputs, attrs, name, output_specs, payload=None):
        """Add an Operation named exactly `name` (already unique) with the given outputs."""
        inputs = [self.capture(t) if t.graph is not self else t for t in inputs]
        control = [op for ops in self._control_stack for op in ops if op.graph is self]
        op = Operation(self, name, opdef, inputs, attrs, control, payload, _user_frame(),
                       device=current_device(self))
        op.outputs = [SymbolicTensor(op, i, dtype, shape)
                      for i, (dtype, shape) in enumerate(output_specs)]
        self.operations.append(op)
        self._by_name[name] = op
        self.plans.clear()
        return op

    def capture(self, tensor):
        """An eager or outer-graph tensor used here. A plain graph embeds eager values as Const."""
        if isinstance(tensor, EagerTensor):
            found = self._captures.get(id(tensor))
            if found is None:
                const = build(self, CONST, [], {'dtype': tensor.dtype, 'value': tensor.value},
                              CONST.name)
                found = self._captures[id(tensor)] = (tensor, const)
            return found[1]
        raise ValueError(f'Tensor {tensor.name!r} belongs to another graph and cannot be used '
                         f'here; pass it as an input instead.')

    def capture_resource(self, storage):
        """The VarHandleOp of a variable's storage, created once per graph."""
        found = self._captures.get(id(storage))
        if found is None:
            # Variables may share a name (as in TensorFlow's eager mode); their resources may not.
            op_name = derived_name(storage.name, VAR_HANDLE.name)
            shared_name = self.unique_name(op_name, mark_as_used=False)
            handle = build(self, VAR_HANDLE, [], {'dtype': storage.dtype, 'shape': storage.shape,
                                                  'shared_name': shared_name},
                           op_name, payload=storage)
            found = self._captures[id(storage)] = (storage, handle)
        return found[1]

    def capture_handle(self, payload, opdef, attrs, name):
        """The node of `opdef` (no inputs) standing for the resource `payload`, such as a
        summary writer, created once per graph; a FuncGraph takes it as a resource input."""
        found = self._captures.get(id(payload))
        if found is None:
            handle = build(self, opdef, [], attrs, name, payload=payload)
            found = self._captures[id(payload)] = (payload, handle)
        return found[1]

    @contextlib.contextmanager
    def building_before(self, op):
        """Build ops in this graph that go before its op `op` in program order (the new inputs
        of an op a gradient rewrites, see `Operation.extend`)."""
        start = len(self.operations)
        with self.as_default(), self.control_dependencies(None):
            yield
        new = self.operations[start:]
        del self.operations[start:]
        at = self.operations.index(op)
        self.operations[at:at] = new
        self.plans.clear()

    # ---- inspection --------------------------------------------------------------------------

    def get_operations(self):
        return list(self.operations)

    def get_operation_by_name(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f'The graph has no operation named {name!r}.') from None

    def get_tensor_by_name(self, name):
        op_name, _, index = name.rpartition(':')
        if not op_name or not index.isdigit():
            raise ValueError(f'A tensor name looks like "op_name:0", got {name!r}.')
        op = self.get_operation_by_name(op_name)
        try:
            return op.outputs[int(index)]
        except IndexError:
            raise KeyError(f'Operation {op_name!r} has only {len(op.outputs)} outputs.') from None

    def as_graph_def(self):
        return graph_def(self)

    def to_dot(self):
        """Graphviz DOT text of this graph: op types and shapes on the nodes, If/While
        functions as nested clusters (runtime/graph_picture.py)."""
        return graph_picture.to_dot(self)

    # ---- running -----------------------------------------------------------------------------

    def run(self, fetches, feed_dict=None):
        """Run the ops `fetches` need (plus every stateful op) and return numpy values.

        `fetches` is a tensor or a nested structure of tensors; `feed_dict` maps placeholders
        (tensors or their names) to values. Only needed ops run (non-strict execution).
        """
        feed_dict = feed_dict or {}
        feeds = [self.get_tensor_by_name(k) if isinstance(k, str) else k for k in feed_dict]
        values = [v.value if isinstance(v, EagerTensor) else to_numpy(v, t.dtype)
                  for t, v in zip(feeds, feed_dict.values())]
        flat = [self.get_tensor_by_name(t) if isinstance(t, str) else t
                for t in nest.flatten(fetches)]
        run = compile_graph(self, feeds, flat)
        # Copies: a fetched value may be a constant of the plan or a variable's current value.
        return nest.pack_sequence_as(fetches, [v.copy() if type(v) is np.ndarray else v
                                               for v in run(*values)])


class FuncGraph(Graph):
    """A graph with `inputs`/`outputs`: a traced function, a cond branch or a loop body.

    Tensors from `outer_graph` (or eager tensors) that ops use are captured: each becomes a
    Placeholder input, and `captures` maps the outer value to it, in order of first use.
    """

    building_function = True

    def __init__(self, name, outer_graph=None, name_stack=''):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        if outer_graph is not None:
            self.library = outer_graph.library
        self._name_stack = name_stack
        self.inputs = []
        self.outputs = []
        self._resource_inputs = {}
        # A list while the tracer lets Variables created here be initialized in this graph
        # (from values that depend on its inputs); each such variable's storage is appended.
        self.deferred_initializers = None

    @property
    def captures(self):
        """[(outer value, placeholder)] in order of capture."""
        return list(self._captures.values())

    def add_input(self, dtype, shape, name, as_capture=False, payload=None):
        """A Placeholder input. Regular inputs are appended to `inputs`; captures are not (they
        come after the regular inputs, and callers append them) and take unscoped names."""
        attrs = {'dtype': dtype, 'shape': as_shape(shape)}
        name = derived_name(name, PLACEHOLDER.name)
        if as_capture:
            with self.exact_scope(''):
                return build(self, PLACEHOLDER, [], attrs, name, payload)
        t = build(self, PLACEHOLDER, [], attrs, name, payload)
        self.inputs.append(t)
        return t

    def _add_capture(self, value, dtype, shape, name, payload):
        """The placeholder standing for the outer `value`, recorded in `captures`."""
        placeholder = self.add_input(dtype, shape, name, as_capture=True, payload=payload)
        self._captures[id(value)] = (value, placeholder)
        return placeholder

    def capture(self, tensor):
        found = self._captures.get(id(tensor))
        if found is not None:
            return found[1]
        outer = self.outer_graph
        if outer is not None and (isinstance(tensor, EagerTensor) or tensor.graph is not outer):
            tensor = outer.capture(tensor)
            found = self._captures.get(id(tensor))
            if found is not None:
                return found[1]
        elif outer is None and isinstance(tensor, SymbolicTensor):
            raise ValueError(f'Tensor {tensor.name!r} belongs to another graph and cannot be '
                             f'used inside {self.name!r}.')
        if isinstance(tensor, SymbolicTensor):  # a variable handle keeps its storage (payload)
            return self._add_capture(tensor, tensor.dtype, tensor.shape,
                                     tensor.op.name.replace('/', '_').lower(), tensor.op.payload)
        return self._add_capture(tensor, tensor.dtype, tensor.shape, 'capture', None)

    def bind_capture(self, value, placeholder):
        """Make `placeholder` (a capture input added with `add_input(as_capture=True)`) stand
        for the outer tensor `value`, as if `value` had been captured."""
        self._captures[id(value)] = (value, placeholder)

    def add_resource_input(self, storage, name):
        """A resource input for a Variable argument: reads and writes of `storage` in this graph
        go through it, so each call may pass another variable of the same dtype and shape."""
        placeholder = self.add_input(dtypes.resource, TensorShape([]), name, payload=storage)
        self._resource_inputs[id(storage)] = placeholder
        return placeholder

    def capture_resource(self, storage):
        """A resource placeholder for a variable's storage (fed with the storage itself when the
        function runs; nested graphs capture the enclosing graph's handle)."""
        argument = self._resource_inputs.get(id(storage))
        if argument is not None:
            return argument
        if self.outer_graph is not None:
            return self.capture(self.outer_graph.capture_resource(storage))
        found = self._captures.get(id(storage))
        if found is not None:
            return found[1]
        return self._add_capture(storage, dtypes.resource, TensorShape([]), storage.name, storage)

    def capture_handle(self, payload, opdef, attrs, name):
        """A resource placeholder for `payload`, fed with it when the function runs (nested
        graphs capture the enclosing graph's)."""
        if self.outer_graph is not None:
            return self.capture(self.outer_graph.capture_handle(payload, opdef, attrs, name))
        found = self._captures.get(id(payload))
        if found is not None:
            return found[1]
        return self._add_capture(payload, dtypes.resource, TensorShape([]), name, payload)

    def is_stateful(self):
        return any(op.stateful for op in self.operations)


def get_default_graph():
    return context.current_graph()
