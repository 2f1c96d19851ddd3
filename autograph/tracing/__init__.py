"""`ag.function` and its machinery: argument binding, cache keys, traced ConcreteFunctions.

`polymorphic_function` holds the public `function`, `Function` and `ConcreteFunction` (reached
as `ag.function` ...; the module is not called `autograph/function.py` because importing a
submodule named `function` would replace the package attribute `ag.function` with the module).
Its parts: `binding` (parameters and defaults), `keys` (what about a call decides which graph
runs), `describe` (signatures as users read them) and `concrete` (tracing one graph, running it).
"""
