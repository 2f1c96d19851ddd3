"""The executor: lower a graph to a Program, optimize it, generate Python code, compile it.

The compiled function is cached on the graph per (inputs, outputs, pipeline); running it walks
nothing and looks nothing up by name. `optimized_program` shows what runs.
"""
from runtime.executor import passes
from runtime.executor.codegen import generate
from runtime.executor.ir import lower
from runtime.executor.passes.prune import reachable
from runtime.ops.registry import PLACEHOLDER


def optimized_program(graph, inputs, outputs, pipeline=passes.PIPELINE):
    """The Program that runs for these inputs and outputs (`str()` of it is readable).
    `pipeline` is the sequence of passes (`passes.UNOPTIMIZED` only prunes)."""
    return passes.optimize(lower(graph, inputs, outputs), pipeline)


def compile_graph(graph, inputs, outputs, jit_compile=False, pipeline=passes.PIPELINE):
    """A cached callable (*input_values) -> tuple of the values of `outputs`; with
    `jit_compile`, one that compiles the graph to native code on its first call."""
    if not jit_compile:
        return default_plan(graph, inputs, outputs, pipeline)
    key = (tuple(map(id, inputs)), tuple(map(id, outputs)), pipeline, True)
    plan = graph.plans.get(key)
    if plan is None:
        # deferred: start-up cost (the native backend; only jit_compile=True functions use it)
        from runtime.executor import native
        plan = graph.plans[key] = native.NativePlan(
            graph, lambda: lower(graph, inputs, outputs),
            lambda program: passes.optimize(program, pipeline), pipeline,
            lambda: default_plan(graph, inputs, outputs, pipeline))
    return plan


def default_plan(graph, inputs, outputs, pipeline=passes.PIPELINE):
    """The default executor's cached plan of the graph (a native plan's fallback too)."""
    key = (tuple(map(id, inputs)), tuple(map(id, outputs)), pipeline, False)
    plan = graph.plans.get(key)
    if plan is None:
        plan = graph.plans[key] = generate(optimized_program(graph, inputs, outputs, pipeline))
    return plan


def evaluate_constant(tensor):
    """The value of a symbolic tensor computed from constants alone (no graph input, no
    stateful op but random draws, `OpDef.liftable`), or None. Used to lift a Variable's
    initializer out of a function's graph."""
    program = lower(tensor.graph, [], [tensor])
    needed = reachable(program, [program.outputs[0].node], with_stateful=False)
    program.retain(needed.__contains__)
    if any(node.opdef.stateful and not node.opdef.liftable or node.opdef is PLACEHOLDER
           for node in program.nodes):
        return None
    return generate(passes.optimize(program))()[0]
