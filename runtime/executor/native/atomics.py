"""The numba side of sharing a loop with the helper thread (native/team.py has the protocol):
atomic operations on the mailbox's words, posting its semaphore, and the steps the generated
code calls. Imported with native/helpers.py (it imports numba); the generated code calls them
by the names in `EXPORTS`.
"""
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from runtime.executor.native.once import carray
from runtime.executor.native.team import (
    ARGS,
    COUNTER,
    HELPED,
    IDLE,
    POSTED,
    POSTING,
    RUNNING,
    SEMAPHORE,
    STATE,
)

_I64 = ir.IntType(64)
_VOID_P = ir.IntType(8).as_pointer()
_OPTIONS = {'cache': True, 'error_model': 'numpy', 'no_cpython_wrapper': True,
            'no_cfunc_wrapper': True}


def _word(context, builder, signature, args):
    """The address of `mail[index]` (args: the array, the index)."""
    array = context.make_array(signature.args[0])(context, builder, args[0])
    return builder.gep(array.data, [args[1]])


@intrinsic
def _fetch_add(typingctx, mail, index, value):
    """mail[index] += value, atomically; the old value, as an unsigned integer (indexes
    computed from it need no negative-index check, which keeps the loops vectorized)."""
    def codegen(context, builder, signature, args):
        return builder.atomic_rmw('add', _word(context, builder, signature, args), args[2],
                                  'seq_cst')
    return types.uint64(mail, types.intp, types.int64), codegen


@intrinsic
def _compare_swap(typingctx, mail, index, expected, new):
    """mail[index] = new if it is `expected` (atomically); whether it was."""
    def codegen(context, builder, signature, args):
        pair = builder.cmpxchg(_word(context, builder, signature, args), args[2], args[3],
                               'seq_cst', 'seq_cst')
        return builder.extract_value(pair, 1)
    return types.boolean(mail, types.intp, types.int64, types.int64), codegen


@intrinsic
def _load(typingctx, mail, index):
    def codegen(context, builder, signature, args):
        return builder.load_atomic(_word(context, builder, signature, args), 'seq_cst', 8)
    return types.int64(mail, types.intp), codegen


@intrinsic
def _store(typingctx, mail, index, value):
    def codegen(context, builder, signature, args):
        builder.store_atomic(args[2], _word(context, builder, signature, args), 'seq_cst', 8)
        return context.get_dummy_value()
    return types.none(mail, types.intp, types.int64), codegen


def _libc_call(builder, name, arguments, types_):
    function = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ir.IntType(32), types_), name)
    return builder.call(function, arguments)


@intrinsic
def _wake(typingctx, mail):
    """sem_post on the mailbox's semaphore (libc's, found by name when the code is loaded)."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        semaphore = builder.gep(array.data, [ir.Constant(_I64, SEMAPHORE)])
        _libc_call(builder, 'sem_post', [builder.bitcast(semaphore, _VOID_P)], [_VOID_P])
        return context.get_dummy_value()
    return types.none(mail), codegen


@intrinsic
def _yield(typingctx):
    """sched_yield(): lets the helper run if it shares this core."""
    def codegen(context, builder, signature, args):
        _libc_call(builder, 'sched_yield', [], [])
        return context.get_dummy_value()
    return types.none(), codegen


@intrinsic
def _address(typingctx, array):
    """The address of the array's first element."""
    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.ptrtoint(data, _I64)
    return types.int64(array), codegen


@intrinsic
def _pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], _VOID_P)
    return types.voidptr(types.int64), codegen


# ---- the steps the generated code calls --------------------------------------------------------

@numba.njit(**_OPTIONS)
def claim(counter):
    """The next block to compute (unsigned): blocks are claimed from counter[COUNTER]."""
    return _fetch_add(counter, COUNTER, 1)


@numba.njit(**_OPTIONS)
def counter():
    """A counter of the caller's own, where the loop is not shared."""
    return np.zeros(ARGS, np.int64)


@numba.njit(**_OPTIONS)
def begin(mail):
    """Whether the caller may post a job (the helper is idle): then the mailbox is its own."""
    return _compare_swap(mail, STATE, IDLE, POSTING)


@numba.njit(**_OPTIONS)
def give(mail, k, array):
    """Hand the helper the k-th array of the job (its address)."""
    mail[ARGS + k] = _address(array)


@numba.njit(**_OPTIONS)
def post(mail, job):
    """Post `job` (its arrays given): blocks are claimed from 0, and the helper woken."""
    _store(mail, COUNTER, 0)
    _store(mail, STATE, POSTED + job)
    _wake(mail)


@numba.njit(**_OPTIONS)
def finish(mail, job):
    """After the caller's last claim: take the job back if the helper has not taken it, else
    wait until it has computed its last block."""
    if not _compare_swap(mail, STATE, POSTED + job, IDLE):
        while _load(mail, STATE) != IDLE:
            _yield()


@numba.njit(**_OPTIONS)
def start(mail, job):
    """The helper's worker: whether it takes `job` (still posted)."""
    return _compare_swap(mail, STATE, POSTED + job, RUNNING)


@numba.njit(**_OPTIONS)
def taken(mail, k):
    """The address of the job's k-th array, as a pointer for `numba.carray`."""
    return _pointer(mail[ARGS + k])


@numba.njit(**_OPTIONS)
def done(mail, blocks):
    """The helper's worker computed `blocks` blocks and claims no more: the mailbox is idle."""
    _fetch_add(mail, HELPED, blocks)
    _store(mail, STATE, IDLE)


EXPORTS = {'claim': claim, 'counter': counter, 'begin': begin, 'give': give, 'post': post,
           'finish': finish, 'start': start, 'taken': taken, 'done': done,
           'carray': carray}
