"""The executor: lower a graph to a Program, optimize it, generate Python code, compile it.

The compiled function is cached on the graph per (inputs, outputs); running it walks nothing
and looks nothing up by name. `optimized_program` shows what runs.
"""
from runtime.executor import passes
from runtime.executor.codegen import generate
from runtime.executor.ir import lower
from runtime.executor.passes.prune import reachable
from runtime.ops.registry import PLACEHOLDER

optimizations_enabled = True  # tests turn this off to compare against unoptimized runs


def optimized_program(graph, inputs, outputs):
    """The Program that runs for these inputs and outputs (`str()` of it is readable)."""
    program = lower(graph, inputs, outputs)
    return passes.optimize(program, passes.PIPELINE if optimizations_enabled else (passes.prune,))


def compile_graph(graph, inputs, outputs, jit_compile=False):
    """A cached callable (*input_values) -> tuple of the values of `outputs`; with
    `jit_compile`, one that compiles the graph to native code on its first call."""
    key = (tuple(map(id, inputs)), tuple(map(id, outputs)), optimizations_enabled,
           bool(jit_compile))
    plan = graph._plans.get(key)
    if plan is None:
        if jit_compile:
            from runtime.executor import native  # deferred: only jit_compile=True functions use it
            plan = native.NativePlan(lambda: optimized_program(graph, inputs, outputs),
                                     lambda: compile_graph(graph, inputs, outputs))
        else:
            plan = generate(optimized_program(graph, inputs, outputs))
        graph._plans[key] = plan
    return plan


def evaluate_constant(tensor):
    """The value of a symbolic tensor computed from constants alone (no graph input, no
    stateful op), or None. Used to lift a Variable's initializer out of a function's graph."""
    program = lower(tensor.graph, [], [tensor])
    needed = reachable(program, [program.outputs[0][0]], with_stateful=False)
    program.nodes = [node for node in program.nodes if id(node) in needed]
    if any(node.opdef.stateful or node.opdef is PLACEHOLDER for node in program.nodes):
        return None
    return generate(passes.optimize(program))()[0]
