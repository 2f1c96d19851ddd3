"""Ops that read or write state, which pass no gradient except a variable read: variables
(runtime/ops/state.py), the optimizers' updates (runtime/ops/training.py), the random
generators (runtime/ops/random.py, runtime/ops/stateless_random.py)."""
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.ops import random, state, stateless_random, training

# A read passes its gradient to the variable's handle: gradient tapes sum them per variable.
defgradient(state.READ)(lambda op, grad: [grad])


not_differentiable(state.VAR_HANDLE, state.ASSIGN, state.ASSIGN_ADD, state.ASSIGN_SUB,
                   state.SCATTER_ND_UPDATE, state.STRIDED_SLICE_ASSIGN)
not_differentiable(training.APPLY_GRADIENT_DESCENT, training.APPLY_KERAS_MOMENTUM,
                   training.APPLY_ADAM)
not_differentiable(random.UNIFORM, random.UNIFORM_INT, random.NORMAL, random.TRUNCATED_NORMAL,
                   random.SHUFFLE, random.MULTINOMIAL)
not_differentiable(stateless_random.GET_KEY_COUNTER, stateless_random.STATELESS_UNIFORM,
                   stateless_random.STATELESS_NORMAL, stateless_random.STATELESS_TRUNCATED_NORMAL,
                   stateless_random.STATELESS_UNIFORM_INT,
                   stateless_random.STATELESS_UNIFORM_FULL_INT, stateless_random.RNG_READ_AND_SKIP)
