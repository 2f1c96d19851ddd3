"""Optimization passes over a Program, run in this order before code generation.

Every pass keeps semantics: stateful nodes and their order are never touched, and every
output keeps exactly its dtype and shape.
"""
from runtime.executor.passes.cse import cse
from runtime.executor.passes.fold_constants import fold_constants
from runtime.executor.passes.fold_if import fold_if
from runtime.executor.passes.in_place import in_place
from runtime.executor.passes.loops import loops
from runtime.executor.passes.prune import prune
from runtime.executor.passes.simplify import simplify
from runtime.executor.recursion import room

PIPELINE = (prune, fold_constants, fold_if, simplify, fold_constants, cse, simplify, loops,
            prune, in_place)
UNOPTIMIZED = (prune,)  # what runs when optimizations are off (tests compare the two)


def optimize(program, pipeline=PIPELINE):
    """Run `pipeline` on the functions of control flow nodes first, then on `program` (with
    room for the recursion into nested functions, recursion.py)."""
    with room():
        return _optimize(program, pipeline)


def _optimize(program, pipeline):
    for node in program.nodes:
        for branch in node.branches:
            _optimize(branch, pipeline)
    for run_pass in pipeline:
        run_pass(program)
    return program
