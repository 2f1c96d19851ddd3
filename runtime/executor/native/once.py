"""numba functions compiled once per machine: the `cached` decorator of the helpers and sites that
generated code calls, and the numpy functions it calls compiled the same way.

numba compiles a numpy function's implementation (`np.empty`, `np.zeros`...) in every process,
the first time a function of that process calls it with new argument types: `np.empty`'s first
compile in a process took 100-170 ms of a graph's cold compile (the MLP forward's 435 ms, the
RNN gradient's 2.2 s), its next ones ~45 ms each; its code is not cached with the function
calling it. The generated module's `np` (`NUMPY`) is numpy's namespace with those functions
replaced by `cached` functions calling them, which numba compiles once per machine and loads
from its cache in later processes; numba links their code into the generated function as it
linked its own implementation's, so the compiled code is the same. The same holds for array
methods (`.astype`, `.copy()`, `.reshape`: generated code calls `astype`, `copied` and
helpers.py's `reshaped`) and builtins (`min`: `smaller`); a first call of each in a process
cost 35-150 ms (`np.array` of a tuple ~115, `np.stack` ~140, `np.argmax` ~145).

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
import gc
import types as pytypes

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic
from numba.np import linalg


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
            collecting = gc.isenabled()
            gc.disable()
            try:
                return super().compile(sig)
            finally:
                if collecting:
                    gc.enable()


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
def full(shape, fill_value, dtype=None):
    return np.full(shape, fill_value, dtype)


@cached
def array(values, dtype=None):
    return np.array(values, dtype)


@cached
def stack(arrays):
    return np.stack(arrays)


@cached
def argmax(a):
    return np.argmax(a)


@cached
def argmin(a):
    return np.argmin(a)


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
def smaller(a, b):
    """`min(a, b)` of two numbers, whose implementation numba compiles in every process (~35
    ms of the elementwise chain's cold compile)."""
    return a if a <= b else b


@cached
def carray(pointer, shape, dtype):
    """`numba.carray`: the array of `shape` and `dtype` at address `pointer`."""
    return numba.carray(pointer, shape, dtype)


# ---- float matrix products through BLAS: one compiled `dot` for every layout ------------------
#
# numba's `np.dot(a, b)` picks BLAS's transposition flags from its operands' layouts when it
# compiles: `a @ b.T` (C and F layouts), `a.T @ b` and `a @ b` were three variants of a helper,
# each linking its own copy of numba's BLAS glue (~370 lines of LLVM IR) into the generated
# function, which LLVM optimized and compiled to machine code again in every graph (the training
# step and the RNN gradient had all three). `dot(a, b, transpose_a, transpose_b)` takes the
# untransposed operands and the flags as values: one variant a dtype, calling the function
# numba's own `np.dot` calls (`numba_xxgemm`, SciPy's gemm) with the flags it would have
# chosen, so the products are the same.

_CHAR = ir.IntType(8)


@intrinsic
def _gemm(typingctx, transpose_a, transpose_b, m, n, k, a, lda, b, ldb, out, ldc):
    """BLAS's column-major `out = op(a) @ op(b)` (op: transposed where the flag is set) in
    `out`'s dtype; m, n, k and the leading dimensions as BLAS takes them."""
    linalg.ensure_blas()
    kind = linalg.get_blas_kind(out.dtype, 'dot')

    def codegen(context, builder, signature, args):
        flag_a, flag_b, rows, columns, inner, a_value, lda_value, b_value, ldb_value, out_value, \
            ldc_value = args
        void = cgutils.voidptr_t
        intp = context.get_value_type(types.intp)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(
            ir.IntType(32), [_CHAR, _CHAR, _CHAR, intp, intp, intp, void, void, intp, void,
                             intp, void, void, intp]), 'numba_xxgemm')

        def data(array_type, value):
            return builder.bitcast(context.make_array(array_type)(context, builder, value).data,
                                   void)

        def flag(value):
            return builder.select(value, ir.Constant(_CHAR, ord('t')),
                                  ir.Constant(_CHAR, ord('n')))

        alpha = linalg.make_constant_slot(context, builder, out.dtype, 1.0)
        beta = linalg.make_constant_slot(context, builder, out.dtype, 0.0)
        status = builder.call(function, (
            ir.Constant(_CHAR, ord(kind)), flag(flag_a), flag(flag_b), rows, columns, inner,
            builder.bitcast(alpha, void), data(signature.args[5], a_value), lda_value,
            data(signature.args[7], b_value), ldb_value, builder.bitcast(beta, void),
            data(signature.args[9], out_value), ldc_value))
        linalg.check_blas_return(context, builder, status)
        return context.get_dummy_value()

    return types.none(transpose_a, transpose_b, types.intp, types.intp, types.intp, a,
                      types.intp, b, types.intp, out, types.intp), codegen


@cached
def dot(a, b, transpose_a, transpose_b):
    """`a @ b` of float matrices, `a` and `b` transposed first where their flag is set."""
    a = np.ascontiguousarray(a)
    b = np.ascontiguousarray(b)
    rows, inner = (a.shape[1], a.shape[0]) if transpose_a else a.shape
    inner_b, columns = (b.shape[1], b.shape[0]) if transpose_b else b.shape
    if inner != inner_b:
        raise ValueError('Matrix size-incompatible')
    if inner == 0:
        return np.zeros((rows, columns), a.dtype)
    out = np.empty((rows, columns), a.dtype)
    if rows and columns:
        # row-major out is column-major out.T = op(b).T @ op(a).T: b first, as numba's np.dot
        _gemm(transpose_b, transpose_a, columns, rows, inner, b, b.shape[1], a, a.shape[1], out,
              columns)
    return out


# numba recognizes numpy's functions by their module's name (`numba.core.ir_utils.find_callname`),
# so the namespace keeps it for the functions not replaced
NUMPY = pytypes.ModuleType('numpy', 'numpy, its allocation functions compiled once per machine')
vars(NUMPY).update({name: value for name, value in vars(np).items() if not name.startswith('__')})
vars(NUMPY).update(empty=empty, zeros=zeros, ones=ones, full=full, array=array, stack=stack,
                   argmax=argmax, argmin=argmin, ascontiguousarray=ascontiguousarray)

# the array methods generated code calls, as functions (`astype(x, np.float32)`, `copied(x)`),
# its matrix product and `min`
EXPORTS = {'astype': astype, 'copied': copied, 'dot': dot, 'smaller': smaller}

