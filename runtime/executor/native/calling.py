"""The calling convention of a native function: one plan, read when compiling, by the Python
wrapper that calls it, and by the kernels it calls back.

`native(p0, ..., storage, ..., const, ...)` takes the plan's params in order (a variable's param
as its storage's value, a boxed one as its index in the call's store), then the values of the
graph variables it uses, then its array constants (arguments named by the lowering). Rank-0
arguments are numpy scalars (numba types them without compiling a cast). It returns the
outputs, then the final values of the variables it wrote, which the wrapper stores back (in a
tuple; one value as it is).

A call's *frame* (`enter`/`leave`, one per thread and nesting) holds the kernel calls of the
function (`call_kernel(k, ...)` runs the k-th from an `objmode` block) and the store of the
Python objects native code cannot hold, which it passes around as int64 indexes.
"""
import threading
from dataclasses import dataclass, field

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape

PARAM, VARIABLE, BOXED = 'param', 'variable', 'boxed'


@dataclass(slots=True)
class Parameter:
    """A param of the plan: how its value is passed (PARAM as it is, VARIABLE as the value of
    the storage it is, BOXED as an index into the store), and whether as a numpy scalar."""

    kind: str
    scalar: bool


@dataclass(slots=True)
class Convention:
    params: dict = field(default_factory=dict)  # param index -> Parameter
    storages: list = field(default_factory=list)  # VariableStorages of graph variables
    storage_names: list = field(default_factory=list)  # the argument of each in native code
    constants: list = field(default_factory=list)  # [(name, array)]
    outputs: list = field(default_factory=list)  # [(dtype, shape, boxed)]
    writes: list = field(default_factory=list)  # [(param index or storage, dtype, shape)]
    kernels: list = field(default_factory=list)  # kernel.KernelCall by site index
    shares: bool = False  # a loop shared with the helper thread: the function runs nogil

    def param(self, index, boxed, scalar):
        """The name of param `index` in the native code."""
        self.params[index] = Parameter(BOXED if boxed else PARAM, scalar and not boxed)
        return f'p{index}'

    def variable(self, source, storage, name):
        """The argument giving a variable's value: its param (`source` an index) or a graph
        variable's storage, the argument `name` (None for a param)."""
        scalar = storage.shape.rank == 0
        if isinstance(source, int):
            self.params[source] = Parameter(VARIABLE, scalar)
            return f'p{source}'
        self.storages.append(source)
        self.storage_names.append(name)
        return name

    def output(self, dtype, shape, boxed):
        self.outputs.append((dtype, shape, boxed))

    def written(self, source, storage):
        self.writes.append((source, storage.dtype, storage.shape))

    def constant(self, name, value):
        self.constants.append((name, value))

    def parameter_names(self):
        return ([f'p{i}' for i in sorted(self.params)] +
                self.storage_names +
                [name for name, _ in self.constants])

    @property
    def framed(self):
        """Whether a call needs a frame (it calls kernels or holds boxed values)."""
        return bool(self.kernels) or any(p.kind == BOXED for p in self.params.values())

    @property
    def reruns(self):
        """Whether a failed call may run again with the default executor to report its error
        (not when a kernel it called has side effects, which would happen twice)."""
        return not any(call.stateful for call in self.kernels)

    def example_arguments(self, values):
        """Arguments for `values` (the plan's inputs) of the types a call passes, to compile;
        None when a variable has no value yet (the default executor reports that)."""
        if any(self.params[i].kind == VARIABLE and value.value is None
               for i, value in enumerate(values)) or \
                any(storage.value is None for storage in self.storages):
            return None
        args = []
        for index, value in enumerate(values):
            parameter = self.params[index]
            if parameter.kind == BOXED:
                args.append(0)
                continue
            value = value.value if parameter.kind == VARIABLE else value
            args.append(value[()] if parameter.scalar else value)
        args += [storage.value[()] if storage.shape.rank == 0 else storage.value
                 for storage in self.storages]
        return args + [value for _, value in self.constants]

    @property
    def recordable(self):
        """Whether `record()` holds all of it: it passes no graph variable (their storages are
        this process's objects) and calls no kernel (a kernel call holds this process's op)."""
        return not self.storages and not self.kernels

    def record(self, shared=()):
        """The convention as plain data (see `recordable`), for the on-disk cache's index:
        array constants by value, as they are before any call writes one, except those in
        `shared` (arrays every plan of the process passes, the helper thread's mailbox), which
        are recorded by their position there."""
        def constant(value):
            for k, array in enumerate(shared):
                if value is array:
                    return ('shared', k)
            return ('array', value)
        return {'params': [(index, p.kind, p.scalar) for index, p in sorted(self.params.items())],
                'constants': [(name, *constant(value)) for name, value in self.constants],
                'outputs': [(dtype.name, shape.dims, boxed)
                            for dtype, shape, boxed in self.outputs],
                'writes': [(source, dtype.name, shape.dims)
                           for source, dtype, shape in self.writes],
                'shares': self.shares}

    @classmethod
    def from_record(cls, record, shared=()):
        """The convention `record()` gave (its `shared` arrays those of this process)."""
        return cls(params={index: Parameter(kind, scalar)
                           for index, kind, scalar in record['params']},
                   constants=[(name, shared[value] if how == 'shared' else value)
                              for name, how, value in record['constants']],
                   outputs=[(dtypes.as_dtype(dtype), TensorShape(dims), boxed)
                            for dtype, dims, boxed in record['outputs']],
                   writes=[(source, dtypes.as_dtype(dtype), TensorShape(dims))
                           for source, dtype, dims in record['writes']],
                   shares=record['shares'])

    def wrapper(self, function, default_plan, bound=(), result=None):
        """A Python function (*plan inputs) -> outputs calling `function` by this convention:
        variables' values in, written values stored back, outputs given their numpy scalar
        types, boxed values in and out of the frame's store.

        `bound` fixes the values of the first params (a traced function's captures): the
        wrapper then takes the others. `result` = (kind, tag), for a plan of one output, makes
        it return a `kind` (a class of `value` and `dtype` slots and an `__init__` setting
        them, such as EagerTensor) of the output and `tag` instead of a 1-tuple: a caller's
        result tensor, made without a call of its own."""
        arity = len(self.params)
        params = [f'p{i}' for i in range(arity)]
        # With no array argument but constants, the types of a call's arguments are those it
        # was compiled for (the cache key fixes the dtypes), so the call goes straight to the
        # compiled variant's entry point, which unboxes a numpy scalar or a 0-d array alike,
        # without numba's dispatcher typing each argument first.
        direct = len(function.overloads) == 1 and all(
            parameter.scalar or parameter.kind == BOXED for parameter in self.params.values()) \
            and all(storage.shape.rank == 0 for storage in self.storages)
        namespace = {'native': next(iter(function.overloads.values())).entry_point if direct
                     else function, 'failed': failed, 'default_plan': default_plan,
                     'enter': enter, 'leave': leave, 'kernels': self.kernels}
        namespace.update(zip(params, bound))  # bound params are the module's names
        scalar = '' if direct else '[()]'  # numba's dispatcher types a 0-d array as an array
        arguments = []
        for i, p in enumerate(params):
            parameter = self.params[i]
            argument = {PARAM: p, VARIABLE: f'{p}.value', BOXED: f'frame.box({p})'}[
                parameter.kind]
            arguments.append(argument + scalar if parameter.scalar else argument)
        for k, storage in enumerate(self.storages):
            namespace[f's{k}'] = storage
            arguments.append(f's{k}.value{scalar}' if storage.shape.rank == 0 else f's{k}.value')
        for name, constant in self.constants:
            namespace[name] = constant
            arguments.append(name)
        stores = []  # statements putting rank-0 results into their buffers
        # the generated function returns one value as it is, more in a tuple
        single = len(self.outputs) + len(self.writes) == 1
        outs = [_converted(namespace, stores, 'r' if single else f'r[{k}]', dtype, shape, boxed)
                for k, (dtype, shape, boxed) in enumerate(self.outputs)]
        write_back = []
        for k, (source, dtype, shape) in enumerate(self.writes):
            target = f'p{source}' if isinstance(source, int) else \
                f's{self.storages.index(source)}'
            value = _converted(namespace, stores, 'r' if single else f'r[{len(outs) + k}]',
                               dtype, shape, False)
            write_back.append(f'    {target}.value = {value}\n')
        framed = self.framed
        call = f'r = native({", ".join(arguments)})'
        body = (f'    frame = enter(kernels)\n'
                f'    try:\n'
                f'        {call}\n' if framed else f'    try:\n        {call}\n')
        body += (f'    except Exception as e:\n'
                 f'        return failed(e, default_plan, '
                 f'({"".join(p + ", " for p in params)}), {self.reruns}'
                 f'{", frame" if framed else ""})\n')
        if framed:
            body += '    finally:\n        leave(frame)\n'
        if result is None:
            returned = f'({"".join(o + ", " for o in outs)})'
        else:
            if len(outs) != 1:
                raise ValueError(f'result= needs a plan of one output, not {len(outs)}')
            namespace['new'], namespace['kind'], namespace['tag'] = object.__new__, *result
            # `kind(output, tag)` without the Python frame of its `__init__`
            write_back.append(f'    made = new(kind)\n    made.value = {outs[0]}\n'
                              f'    made.dtype = tag\n')
            returned = 'made'
        source = (f'def run({", ".join(params[len(bound):])}):\n' + body + ''.join(stores) +
                  ''.join(write_back) + f'    return {returned}\n')
        exec(compile(source, '<rt native call>', 'exec'), namespace)
        return namespace['run']


def argument_types(args):
    """What decides the types numba gives `args` (`example_arguments`' values), found without
    numba: equal for two lists of arguments only if numba types them alike."""
    types = []
    for arg in args:
        if isinstance(arg, np.ndarray):
            flags = arg.flags
            types.append(('array', arg.dtype.str, arg.ndim, flags.c_contiguous,
                          flags.f_contiguous, flags.writeable, flags.aligned))
        else:  # a numpy scalar or a store index
            types.append((type(arg).__name__,))
    return tuple(types)


def _converted(namespace, stores, expr, dtype, shape, boxed):
    """`expr` as the value the default executor gives: a boxed value from the store, a numpy
    scalar of the dtype when its rank is 0 (numba returns Python numbers), else as it is.

    A numpy scalar is read from a 0-d buffer the number was stored into (`stores` gets the
    statement): `buffer[()]` makes one about three times faster than `np.float32(x)` parses its
    argument. Each result has its own buffer, written and read with no call in between, which
    another thread cannot come between (it would need the GIL, which a Python thread gives up
    only at calls and jumps); float64's type is a Python float's subclass, made as fast."""
    if boxed:
        return f'frame.store[{expr}]'
    if shape.rank != 0:
        return expr
    np_dtype = dtype.np_dtype
    if np_dtype == np.float64:
        namespace['to_float64'] = np.float64
        return f'to_float64({expr})'
    name = f'o{len(stores)}'
    namespace[name] = np.zeros((), np_dtype)
    stores.append(f'    {name}[()] = {expr}\n')
    return f'{name}[()]'


def failed(error, default_plan, values, rerun, frame=None):
    """Native code raised. A kernel's error names its node already (`frame.raised`); for
    another (an integer division by zero, an index out of range) the default executor runs the
    graph again and raises the same error naming the op, unless that would repeat a side
    effect."""
    if frame is not None and error is frame.raised:
        raise error
    if not rerun:
        raise errors.InvalidArgumentError(None, None, str(error)) from error
    default_plan()(*values)
    raise errors.InvalidArgumentError(
        None, None, f'native code failed where the default executor does not: {error}') from error


# ---- the frames of calls ---------------------------------------------------------------------

class Frame:
    """One call's kernel table and store of boxed values."""

    __slots__ = ('kernels', 'store', 'previous', 'raised')

    def __init__(self, kernels, previous):
        self.kernels = kernels
        self.store = []
        self.previous = previous
        self.raised = None  # the error a kernel call raised

    def box(self, value):
        """The index of `value` in the store."""
        self.store.append(value)
        return len(self.store) - 1


_local = threading.local()


def enter(kernels):
    frame = _local.frame = Frame(kernels, getattr(_local, 'frame', None))
    return frame


def leave(frame):
    _local.frame = frame.previous


def call_kernel(k, *args):
    """Run kernel call `k` of the current call on `args` (from an `objmode` block)."""
    frame = _local.frame
    try:
        return frame.kernels[k](frame.store, *args)
    except Exception as error:
        frame.raised = error
        raise
