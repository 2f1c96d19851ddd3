"""The candidate samplers of `rt.random` (and `rt.nn`): `num_sampled` class ids drawn from a
fixed distribution over [0, range_max), with the expected count of each true and sampled class
in such a draw (TensorFlow's ops UniformCandidateSampler, LogUniformCandidateSampler,
LearnedUnigramCandidateSampler, FixedUnigramCandidateSampler, AllCandidateSampler).

As TensorFlow's: with `unique`, ids are drawn until `num_sampled` distinct ones came, and an id
of probability p has expected count 1 - (1 - p)^tries; otherwise p * num_sampled. The ids are
drawn by numpy from the op's Philox stream (the same seeds give the same ids, not
TensorFlow's). LearnedUnigramCandidateSampler draws uniformly, as TensorFlow's op does (its
sampler learns from updates that the op never makes).
"""
from typing import Any, NamedTuple

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.io import gfile
from runtime.ops.convert import convert_to_tensor
from runtime.ops.random import PhiloxStream, run_seeded
from runtime.ops.random_more import numpy_generator
from runtime.ops.registry import register


def _probabilities(kind, attrs):
    """p(id) for every id in [0, range_max) of the `kind` of distribution."""
    n = int(attrs['range_max'])
    ids = np.arange(n, dtype=np.float64)
    if kind in ('uniform', 'learned'):
        return np.full(n, 1.0 / n)
    if kind == 'log_uniform':
        return (np.log(ids + 2) - np.log(ids + 1)) / np.log(n + 1.0)
    weights = np.zeros(n)
    unigrams = list(attrs.get('unigrams') or ())
    if attrs.get('vocab_file'):
        with gfile.GFile(attrs['vocab_file']) as f:
            unigrams = [float(line.strip().split(',')[-1]) for line in f if line.strip()]
    reserved = int(attrs.get('num_reserved_ids', 0))
    counts = np.asarray(unigrams, np.float64) ** float(attrs.get('distortion', 1.0))
    if reserved + len(counts) != n:
        raise errors.InvalidArgumentError(
            message=f'range_max must be the number of reserved ids plus the number of unigrams: '
                    f'{n} != {reserved} + {len(counts)}')
    weights[reserved:] = counts
    shards, shard = int(attrs.get('num_shards', 1)), int(attrs.get('shard', 0))
    weights[np.arange(n) % shards != shard] = 0.0
    return weights / weights.sum()


def _expected(p, num_sampled, tries, unique):
    if not unique:
        return p * num_sampled
    return -np.expm1(tries * np.log1p(-np.minimum(p, 1.0)))


def _sampler_bind(kind):
    return lambda attrs, stream: _bind(kind, attrs, stream)


def _bind(kind, attrs, stream):
    if stream is None:
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))
    num_sampled, unique = int(attrs['num_sampled']), bool(attrs['unique'])

    def kernel(true_classes):
        true_classes = np.asarray(true_classes, np.int64)
        if kind == 'all':
            sampled = np.arange(num_sampled, dtype=np.int64)
            return (sampled, np.ones(true_classes.shape, np.float32),
                    np.ones(num_sampled, np.float32))
        p = _probabilities(kind, attrs)
        if unique and num_sampled > np.count_nonzero(p):
            raise errors.InvalidArgumentError(
                message=f'Sampler used with unique=True needs range_max >= num_sampled '
                        f'({np.count_nonzero(p)} < {num_sampled})')
        rng = numpy_generator(*stream.reserve(max(num_sampled, 1)))
        cdf = np.cumsum(p)
        if not unique:
            sampled = np.searchsorted(cdf, rng.uniform(size=num_sampled) * cdf[-1], 'right')
            tries = num_sampled
        else:
            chosen: dict[int, None] = {}
            tries = 0
            while len(chosen) < num_sampled:
                batch = np.searchsorted(cdf, rng.uniform(size=num_sampled) * cdf[-1], 'right')
                for value in batch.tolist():
                    tries += 1
                    chosen.setdefault(value)
                    if len(chosen) == num_sampled:
                        break
            sampled = np.fromiter(chosen, np.int64, num_sampled)
        sampled = np.minimum(sampled, len(p) - 1).astype(np.int64)
        in_range = (true_classes >= 0) & (true_classes < len(p))
        p_true = np.where(in_range, p[np.clip(true_classes, 0, len(p) - 1)], 0.0)
        return (sampled, _expected(p_true, num_sampled, tries, unique).astype(np.float32),
                _expected(p[sampled], num_sampled, tries, unique).astype(np.float32))
    return kernel


def _sampler_infer(inputs, attrs):
    n = int(attrs['num_sampled'])
    return [(dtypes.int64, TensorShape([n])), (dtypes.float32, inputs[0].shape),
            (dtypes.float32, TensorShape([n]))]


_SAMPLER = dict(inputs=('true_classes',), type_attrs=(),
                outputs=('sampled_candidates', 'true_expected_count',
                         'sampled_expected_count'),
                stateful=True)
_SEEDS = {'seed': 0, 'seed2': 0}


def _sampler_op(name, kind, **defaults):
    return register(name, None, _sampler_infer, defaults={**_SEEDS, **defaults},
                    bind_kernel=_sampler_bind(kind), **_SAMPLER)


UNIFORM_CANDIDATE_SAMPLER = _sampler_op('UniformCandidateSampler', 'uniform')
LOG_UNIFORM_CANDIDATE_SAMPLER = _sampler_op('LogUniformCandidateSampler', 'log_uniform')
LEARNED_UNIGRAM_CANDIDATE_SAMPLER = _sampler_op('LearnedUnigramCandidateSampler', 'learned')
FIXED_UNIGRAM_CANDIDATE_SAMPLER = _sampler_op(
    'FixedUnigramCandidateSampler', 'fixed', vocab_file='', distortion=1.0, num_reserved_ids=0,
    num_shards=1, shard=0, unigrams=[])
ALL_CANDIDATE_SAMPLER = _sampler_op('AllCandidateSampler', 'all')


def _result_type(op_name):
    return NamedTuple(op_name, [('sampled_candidates', Any), ('true_expected_count', Any),
                                ('sampled_expected_count', Any)])


_RESULTS = {op.name: _result_type(op.name) for op in (
    UNIFORM_CANDIDATE_SAMPLER, LOG_UNIFORM_CANDIDATE_SAMPLER, LEARNED_UNIGRAM_CANDIDATE_SAMPLER,
    FIXED_UNIGRAM_CANDIDATE_SAMPLER, ALL_CANDIDATE_SAMPLER)}


def _sample(opdef, true_classes, num_true, num_sampled, unique, seed, name, **attrs):
    true_classes = convert_to_tensor(true_classes, dtypes.int64)
    if true_classes.shape.rank not in (2, None):
        raise ValueError(f'true_classes must be a matrix [batch, num_true], got shape '
                         f'{true_classes.shape}.')
    attrs = {'num_true': int(num_true), 'num_sampled': int(num_sampled),
             'unique': bool(unique), **attrs}
    outputs = run_seeded(opdef, [true_classes], attrs, seed, name)
    return _RESULTS[opdef.name](*outputs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """`num_sampled` ids drawn uniformly from [0, range_max), with expected counts."""
    return _sample(UNIFORM_CANDIDATE_SAMPLER, true_classes, num_true, num_sampled, unique, seed,
                   name, range_max=int(range_max))


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """`num_sampled` ids from the log-uniform (Zipfian) distribution over [0, range_max):
    p(id) = log((id + 2) / (id + 1)) / log(range_max + 1)."""
    return _sample(LOG_UNIFORM_CANDIDATE_SAMPLER, true_classes, num_true, num_sampled, unique,
                   seed, name, range_max=int(range_max))


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """`num_sampled` ids from [0, range_max), uniformly as TensorFlow's op draws them."""
    return _sample(LEARNED_UNIGRAM_CANDIDATE_SAMPLER, true_classes, num_true, num_sampled,
                   unique, seed, name, range_max=int(range_max))


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file='', distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=[], seed=None, name=None):  # noqa: B006
    """`num_sampled` ids drawn with probabilities proportional to `unigrams` (or the last
    comma-separated field of each line of `vocab_file`) raised to `distortion`; the first
    `num_reserved_ids` ids and the ids of other shards are never drawn."""
    return _sample(FIXED_UNIGRAM_CANDIDATE_SAMPLER, true_classes, num_true, num_sampled, unique,
                   seed, name, range_max=int(range_max), vocab_file=vocab_file,
                   distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                   num_shards=int(num_shards), shard=int(shard),
                   unigrams=[float(u) for u in unigrams])


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """The ids 0 .. num_sampled - 1, each with expected count 1."""
    return _sample(ALL_CANDIDATE_SAMPLER, true_classes, num_true, num_sampled, unique, seed,
                   name)
