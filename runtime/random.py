"""`rt.random`: seeded random tensors (in a graph, each run draws anew), stateless random
numbers fixed by a seed, and `Generator`, whose state is an `rt.Variable`. The stateless ops
and Generator draw TensorFlow's numbers bit for bit (runtime/ops/philox.py)."""
from runtime.generator import (
    Generator,
    create_rng_state,
    get_global_generator,
    set_global_generator,
)
from runtime.ops.candidate_sampling import (
    all_candidate_sampler,
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from runtime.ops.random import (
    categorical,
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from runtime.ops.random_more import (
    gamma,
    poisson,
    stateless_binomial,
    stateless_categorical,
    stateless_gamma,
    stateless_parameterized_truncated_normal,
    stateless_poisson,
)
from runtime.ops.stateless_random import (
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)
from runtime.random_seeds import Algorithm, fold_in, split

__all__ = ['Algorithm', 'fold_in', 'split', 'Generator', 'categorical', 'create_rng_state',
           'get_global_generator', 'normal',
           'set_global_generator', 'set_seed', 'shuffle', 'stateless_normal',
           'stateless_truncated_normal', 'stateless_uniform', 'truncated_normal', 'uniform']
__all__ += ['gamma', 'poisson', 'stateless_binomial', 'stateless_categorical', 'stateless_gamma',
            'stateless_parameterized_truncated_normal', 'stateless_poisson']
__all__ += ['all_candidate_sampler', 'fixed_unigram_candidate_sampler',
            'learned_unigram_candidate_sampler', 'log_uniform_candidate_sampler',
            'uniform_candidate_sampler']
