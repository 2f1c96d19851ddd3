"""Float matrix products of native code through BLAS: one compiled `dot` for every layout.

numba's `np.dot(a, b)` picks BLAS's transposition flags from its operands' layouts when it
compiles: `a @ b.T` (C and F layouts), `a.T @ b` and `a @ b` were three variants of a helper,
each linking its own copy of numba's BLAS glue (~370 lines of LLVM IR) into the generated
function, which LLVM optimized and compiled to machine code again in every graph (the training
step and the RNN gradient had all three). `dot(a, b, transpose_a, transpose_b)` takes the
untransposed operands and the flags as values: one variant a dtype, calling the function numba's
own `np.dot` calls (`numba_xxgemm`, SciPy's gemm) with the flags it would have chosen, so the
products are the same.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np import linalg

from runtime.executor.native.once import cached

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


EXPORTS = {'dot': dot}
