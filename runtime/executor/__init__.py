"""The executor: compiles a graph once per (inputs, outputs) into a Python function and caches
it on the graph. Running it walks nothing and looks nothing up by name."""
from runtime.executor.codegen import compile_plan


def compile_graph(graph, inputs, outputs):
    """A cached callable (*input_values) -> tuple of the values of `outputs`."""
    key = (tuple(map(id, inputs)), tuple(map(id, outputs)))
    plan = graph._plans.get(key)
    if plan is None:
        plan = graph._plans[key] = compile_plan(graph, inputs, outputs, compile_function)
    return plan


def compile_function(func_graph):
    """The compiled plan of a library function: its inputs to its outputs."""
    return compile_graph(func_graph, func_graph.inputs, func_graph.outputs)
