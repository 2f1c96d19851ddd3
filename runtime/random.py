"""`rt.random`: seeded random tensors (in a graph, each run draws anew)."""
from runtime.ops.random import normal, set_seed, uniform

__all__ = ['normal', 'set_seed', 'uniform']
