"""Record what TensorFlow's gamma, Poisson, binomial, categorical, truncated normal and
candidate-sampling functions give into tests/runtime/fixtures/tf_random_more.json: each call's
output dtypes and shapes, the numbers where this project draws TensorFlow's own
(stateless_categorical), and the expected counts, which depend on the distribution only (a
sampler without `unique`). Run from the repository root with a Python that has TensorFlow:

    /path/to/tf-venv/bin/python -m tools.tf_random_more_fixtures
"""
import json
import os

FIXTURE = os.path.join('tests', 'runtime', 'fixtures', 'tf_random_more.json')

# (name, function, keyword arguments): each is called as rt.random.<function>(**kwargs).
CALLS = [
    ('gamma', 'gamma', {'shape': [3, 2], 'alpha': [0.5, 2.0], 'beta': 2.0, 'seed': 1}),
    ('gamma-float64', 'gamma', {'shape': [4], 'alpha': [[1.0], [3.0]], 'dtype': 'float64',
                                'seed': 2}),
    ('poisson', 'poisson', {'shape': [5], 'lam': [1.0, 4.0], 'seed': 3}),
    ('poisson-int64', 'poisson', {'shape': [2, 3], 'lam': 2.5, 'dtype': 'int64', 'seed': 3}),
    ('stateless_gamma', 'stateless_gamma', {'shape': [4, 2], 'seed': [1, 2],
                                            'alpha': [0.5, 3.0], 'beta': [1.0, 2.0]}),
    ('stateless_poisson', 'stateless_poisson', {'shape': [3, 2], 'seed': [3, 4],
                                                'lam': [1.5, 6.0]}),
    ('stateless_poisson-float', 'stateless_poisson', {'shape': [4], 'seed': [3, 4],
                                                      'lam': 2.0, 'dtype': 'float32'}),
    ('stateless_binomial', 'stateless_binomial', {'shape': [2, 3], 'seed': [5, 6],
                                                  'counts': [10.0, 20.0, 30.0],
                                                  'probs': 0.25}),
    ('stateless_categorical', 'stateless_categorical', {
        'logits': [[0.0, 1.0, -1.0], [2.0, 0.5, 0.1]], 'num_samples': 12, 'seed': [7, 17]}),
    ('stateless_categorical-int32', 'stateless_categorical', {
        'logits': [[-0.5, 0.5]], 'num_samples': 20, 'seed': [1, 99], 'dtype': 'int32'}),
    ('stateless_parameterized_truncated_normal', 'stateless_parameterized_truncated_normal', {
        'shape': [3, 2], 'seed': [1, 2], 'means': [0.0, 5.0], 'stddevs': 2.0,
        'minvals': [-1.0, 4.0], 'maxvals': [1.0, 9.0]}),
    ('uniform_candidate_sampler', 'uniform_candidate_sampler', {
        'true_classes': [[1, 2], [3, 9]], 'num_true': 2, 'num_sampled': 4, 'unique': False,
        'range_max': 10, 'seed': 1}),
    ('log_uniform_candidate_sampler', 'log_uniform_candidate_sampler', {
        'true_classes': [[0, 5]], 'num_true': 2, 'num_sampled': 6, 'unique': False,
        'range_max': 50, 'seed': 1}),
    ('learned_unigram_candidate_sampler', 'learned_unigram_candidate_sampler', {
        'true_classes': [[4]], 'num_true': 1, 'num_sampled': 3, 'unique': False,
        'range_max': 8, 'seed': 1}),
    ('fixed_unigram_candidate_sampler', 'fixed_unigram_candidate_sampler', {
        'true_classes': [[1, 2], [4, 5]], 'num_true': 2, 'num_sampled': 5, 'unique': False,
        'range_max': 7, 'distortion': 0.5, 'num_reserved_ids': 1,
        'unigrams': [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 'seed': 1}),
    ('all_candidate_sampler', 'all_candidate_sampler', {
        'true_classes': [[1, 2]], 'num_true': 2, 'num_sampled': 5, 'unique': True, 'seed': 1}),
]
# The calls whose numbers are TensorFlow's here too.
SAME_NUMBERS = ('stateless_categorical', 'stateless_categorical-int32')


def _describe(result):
    outputs = list(result) if isinstance(result, tuple) else [result]
    return [{'dtype': o.dtype.name, 'shape': list(o.shape), 'value': o.numpy().tolist()}
            for o in outputs]


def main():
    import tensorflow as tf  # deferred: optional dependency, only this recorder needs it
    tf.config.set_visible_devices([], 'GPU')
    out = {}
    for name, function, kwargs in CALLS:
        out[name] = _describe(getattr(tf.random, function)(**kwargs))
    with open(FIXTURE, 'w', encoding='utf-8') as f:
        f.write(json.dumps(out, indent=0, sort_keys=True) + '\n')
    print(f'{FIXTURE}: {len(out)} calls')


if __name__ == '__main__':
    main()
