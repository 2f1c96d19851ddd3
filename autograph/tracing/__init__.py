"""The machinery behind `ag.function`: argument binding, cache keys, traced ConcreteFunctions.

`autograph.function` holds the public `Function`; these modules are its parts:
`binding` (parameters and defaults), `keys` (what about a call decides which graph runs),
`describe` (signatures as users read them) and `concrete` (tracing one graph and running it).
"""
