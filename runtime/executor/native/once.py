"""numba functions compiled once per machine: the `cached` decorator of the helpers and sites that
generated code calls, and the numpy functions it calls compiled the same way.

numba compiles a numpy function's implementation (`np.empty`, `np.zeros`...) in every process,
the first time a function of that process calls it with new argument types: `np.empty`'s first
compile in a process took 100-170 ms of a graph's cold compile (the MLP forward's 435 ms, the
RNN gradient's 2.2 s), its next ones ~45 ms each; its code is not cached with the function
calling it. The generated module's `np` (`NUMPY`) is numpy's namespace with those functions
replaced by `cached` functions calling them, which numba compiles once per machine and loads
from its cache in later processes; numba links their code into the generated function as it
linked its own implementation's, so the compiled code is the same.

`cached` functions also compile one variant for all the constants of a type: numba types a
constant argument of a call from compiled code as a literal (`0`, a shape `(512,)`), and a
dispatcher compiled a variant for each value (the RNN gradient's `reshaped(x, (512,))` and
`(1024,)`: 363 and 76 ms, once per machine but again for every new shape).

Every helper is *linked*: numba compiles its code into each function calling it, as its own
implementations of numpy's functions are. Calling a helper's machine code by its symbol
instead would skip that work, but numba names a function's symbol with a counter of the
process that compiled it, so code loaded from the cache in another process may call a symbol
that process named otherwise. tests/runtime/executor/test_native_once.py checks the
behaviour.
"""
import types as pytypes

import numba
import numpy as np
from numba import types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher


class Dispatcher(CPUDispatcher):
    """numba's dispatcher, typing a call from compiled code by its arguments' types without
    their constant values (one compiled variant serves every constant of a type)."""

    cache_pending = False  # caching is on, its on-disk cache to open at the first compile

    def get_call_template(self, args, kws):
        return super().get_call_template(
            tuple(types.unliteral(t) for t in args),
            {name: types.unliteral(t) for name, t in kws.items()})

    def compile(self, sig):
        with global_compiler_lock:
            if self.cache_pending:  # opened here, not when defined: a process uses few helpers
                self.cache_pending = False
                self.enable_caching()
            return super().compile(sig)


def cached(function=None, cache=True, **options):
    """`numba.njit(cache=cache, **options)` as a `Dispatcher` (also `@cached(**options)`)."""
    if function is None:
        return lambda f: cached(f, cache, **options)
    dispatcher = Dispatcher(function, targetoptions={'nopython': True, **options})
    dispatcher.cache_pending = cache
    return dispatcher


@cached
def empty(shape, dtype):
    return np.empty(shape, dtype)


@cached
def zeros(shape, dtype):
    return np.zeros(shape, dtype)


@cached
def ones(shape, dtype):
    return np.ones(shape, dtype)


@cached
def ascontiguousarray(a):
    return np.ascontiguousarray(a)


@cached
def astype(a, dtype):
    """`a.astype(dtype)`, which numba also compiles in every process (the training step's
    `(sum_axis(...)).astype(np.float32)`: ~70 ms of its cold compile)."""
    return a.astype(dtype)


@cached
def copied(a):
    """`a.copy()` (the RNN gradient's copies of its lists: ~150 ms of its cold compile)."""
    return a.copy()


@cached
def carray(pointer, shape, dtype):
    """`numba.carray`: the array of `shape` and `dtype` at address `pointer`."""
    return numba.carray(pointer, shape, dtype)


# numba recognizes numpy's functions by their module's name (`numba.core.ir_utils.find_callname`),
# so the namespace keeps it for the functions not replaced
NUMPY = pytypes.ModuleType('numpy', 'numpy, its allocation functions compiled once per machine')
vars(NUMPY).update({name: value for name, value in vars(np).items() if not name.startswith('__')})
vars(NUMPY).update(empty=empty, zeros=zeros, ones=ones, ascontiguousarray=ascontiguousarray)

# the array methods generated code calls, as functions (`astype(x, np.float32)`, `copied(x)`)
EXPORTS = {'astype': astype, 'copied': copied}

