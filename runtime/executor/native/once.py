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

**Unlinked helpers** (`cached(linked=False)`: matrix products, reductions, gathers, reshapes,
loops over whole arrays returning new ones, where a call costs nothing next to the work; and
the generated module's sites). numba links the code of every function a function calls into
its module, and LLVM optimizes and generates that code again there: a cached helper's code was
compiled again in every graph calling it, about a fifth of a training step's cold compile. A
call of an unlinked helper calls the machine code its dispatcher already has, by its symbol,
which the JIT resolves when it loads the caller. So a caller's code can be loaded only after
the helpers it calls: each function cached by a `Dispatcher` stores the helpers it calls
(`(module, name, argument types)`) with its code, and loading it loads them first (from their
own cache). Helpers allocating arrays that the caller's loops then write (a TensorList's) stay
linked: inlined, LLVM knows the new array aliases nothing the loop reads, and vectorizes it.

This reaches into numba's compiler where it has no public hook (its target context's table of
implementations, its cache's `reduce`/`rebuild`); numba's version is part of the key of the
on-disk cache of generated code, and tests/runtime/executor/test_native_once.py checks the
behaviour.
"""
import sys
import types as pytypes

import numba
import numpy as np
from numba import types
from numba.core.base import OverloadSelector
from numba.core.compiler_lock import global_compiler_lock
from numba.core.imputils import user_function
from numba.core.registry import CPUDispatcher

# the symbol of each compiled variant of an unlinked helper in this process:
# (module, qualified name, argument types), which loads it
_unlinked = {}


class Dispatcher(CPUDispatcher):
    """numba's dispatcher, typing a call from compiled code by its arguments' types without
    their constant values (one compiled variant serves every constant of a type), whose cached
    code records the unlinked helpers it calls. `linked=False`: an unlinked helper."""

    linked = True
    cache_pending = False  # caching is on, its on-disk cache to open at the first compile

    def get_call_template(self, args, kws):
        return super().get_call_template(
            tuple(types.unliteral(t) for t in args),
            {name: types.unliteral(t) for name, t in kws.items()})

    def add_overload(self, cres):
        super().add_overload(cres)
        if self.linked or cres.objectmode:
            return
        # calls from compiled code call this variant's symbol, without its library to link
        selector = OverloadSelector()
        selector.append(user_function(cres.fndesc, ()), cres.fndesc.argtypes)
        self.targetctx._defns[cres.entry_point] = selector
        _unlinked[cres.fndesc.mangled_name] = (self.py_func.__module__,
                                               self.py_func.__qualname__, cres.signature.args)

    def compile(self, sig):
        with global_compiler_lock:
            if self.cache_pending:  # opened here, not when defined: a process uses few helpers
                self.cache_pending = False
                self.enable_caching()
            return super().compile(sig)

    def enable_caching(self):
        super().enable_caching()
        impl = self._cache._impl
        reduce, rebuild = impl.reduce, impl.rebuild

        def rebuild_after_callees(context, payload):
            # a payload that cannot load (a helper gone): None, which numba takes for a miss
            try:
                callees, code = payload
                _load(callees)
            except Exception:  # any failure: compile instead of loading
                return None
            return rebuild(context, code)
        impl.reduce = lambda cres: (_callees(cres.library), reduce(cres))
        impl.rebuild = rebuild_after_callees


def _callees(library):
    """The unlinked helpers (module, name, argument types) that `library`'s code calls."""
    return tuple(_unlinked[f.name] for f in library._final_module.functions
                 if f.is_declaration and f.name in _unlinked)


def _load(callees):
    """Compile (load from the cache) the helpers of `_callees`, before code calling them."""
    for module, name, args in callees:
        __import__(module)
        getattr(sys.modules[module], name).compile(args)


def cached(function=None, linked=True, cache=True, **options):
    """`numba.njit(cache=cache, **options)` as a `Dispatcher` (also `@cached(**options)`)."""
    if function is None:
        return lambda f: cached(f, linked, cache, **options)
    dispatcher = Dispatcher(function, targetoptions={'nopython': True, **options})
    if not linked:
        dispatcher.linked = False
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
def carray(pointer, shape, dtype):
    """`numba.carray`: the array of `shape` and `dtype` at address `pointer`."""
    return numba.carray(pointer, shape, dtype)


# numba recognizes numpy's functions by their module's name (`numba.core.ir_utils.find_callname`),
# so the namespace keeps it for the functions not replaced
NUMPY = pytypes.ModuleType('numpy', 'numpy, its allocation functions compiled once per machine')
vars(NUMPY).update({name: value for name, value in vars(np).items() if not name.startswith('__')})
vars(NUMPY).update(empty=empty, zeros=zeros, ones=ones, ascontiguousarray=ascontiguousarray)

