"""Sampled losses, as TensorFlow builds them from other ops: `nn.nce_loss` (noise-contrastive
estimation) and `nn.sampled_softmax_loss`, over the true classes and a sample of the others.

`sampled_values` is the `(sampled_candidates, true_expected_count, sampled_expected_count)`
of a candidate sampler; without it the classes are drawn with
`rt.random.log_uniform_candidate_sampler`, as in TensorFlow.
"""
import runtime.random as random_ops
from runtime.core import dtypes
from runtime.ops.array import cast, stop_gradient
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import ones, ones_like, zeros_like
from runtime.ops.indexing import tensor_scatter_nd_update
from runtime.ops.manipulation import slice as slice_
from runtime.ops.math import log, matmul, multiply
from runtime.ops.nn import (
    embedding_lookup,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
)
from runtime.ops.nn_more import compute_accidental_hits
from runtime.ops.shaping import concat, expand_dims, reshape, shape


def _sum_rows(x):
    """The sum of each row of a matrix, as a matrix product with ones (TensorFlow's form)."""
    return reshape(matmul(x, ones(stack([shape(x)[1], 1]), x.dtype)), [-1])


def _table(weights):
    """One table of rows: a list of shards (TensorFlow's "div" partitioning) concatenated."""
    if isinstance(weights, (list, tuple)):
        return weights[0] if len(weights) == 1 else concat(list(weights), 0)
    return weights


def _sampled_values(labels, num_true, num_sampled, num_classes, seed):
    return random_ops.log_uniform_candidate_sampler(
        true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
        range_max=num_classes, seed=seed)


def compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                           num_true=1, sampled_values=None, subtract_log_q=True,
                           remove_accidental_hits=False, seed=None):
    """(logits [batch, num_true + num_sampled], their labels): the true classes' logits then
    the sampled ones', each less the log of its expected count when `subtract_log_q`; sampled
    classes that are a row's true class get a logit of -FLT_MAX with
    `remove_accidental_hits`."""
    labels = convert_to_tensor(labels)
    inputs = convert_to_tensor(inputs)
    if labels.dtype is not dtypes.int64:
        labels = cast(labels, dtypes.int64)
    labels_flat = reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = _sampled_values(labels, num_true, num_sampled, num_classes, seed)
    sampled, true_expected, sampled_expected = (stop_gradient(convert_to_tensor(s))
                                                for s in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    all_ids = concat([labels_flat, sampled], 0)
    all_w = embedding_lookup(_table(weights), all_ids)
    if all_w.dtype is not inputs.dtype:
        all_w = cast(all_w, inputs.dtype)
    n_true = shape(labels_flat)[0]
    true_w = slice_(all_w, [0, 0], stack([n_true, -1]))
    sampled_w = slice_(all_w, stack([n_true, 0]), [-1, -1])
    sampled_logits = matmul(inputs, sampled_w, transpose_b=True)
    all_b = embedding_lookup(_table(biases), all_ids)
    if all_b.dtype is not inputs.dtype:
        all_b = cast(all_b, inputs.dtype)
    true_b = slice_(all_b, [0], shape(labels_flat))
    sampled_b = slice_(all_b, shape(labels_flat), [-1])
    dim = shape(true_w)[1:2]
    row_wise_dots = multiply(expand_dims(inputs, 1),
                             reshape(true_w, concat([[-1, num_true], dim], 0)))
    dots_as_matrix = reshape(row_wise_dots, concat([[-1], dim], 0))
    true_logits = reshape(_sum_rows(dots_as_matrix), [-1, num_true])
    true_logits += reshape(true_b, [-1, num_true])
    sampled_logits += sampled_b
    if remove_accidental_hits:
        indices, ids, weights_ = compute_accidental_hits(labels, sampled, num_true=num_true)
        where = stack([indices, cast(ids, dtypes.int32)], 1)
        sampled_logits += tensor_scatter_nd_update(
            zeros_like(sampled_logits), where, cast(weights_, sampled_logits.dtype))
    if subtract_log_q:
        true_logits -= log(cast(true_expected, true_logits.dtype))
        sampled_logits -= log(cast(sampled_expected, sampled_logits.dtype))
    out_logits = concat([true_logits, sampled_logits], 1)
    out_labels = concat([ones_like(true_logits) / num_true, zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name='nce_loss'):
    """The noise-contrastive estimation loss of each example: a logistic loss telling its
    `num_true` classes (`labels` [batch, num_true]) from `num_sampled` sampled ones, over the
    class embeddings `weights` [num_classes, dim] and `biases` [num_classes]."""
    logits, targets = compute_sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits)
    return _sum_rows(sigmoid_cross_entropy_with_logits(labels=targets, logits=logits))


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         seed=None, name='sampled_softmax_loss'):
    """The softmax cross entropy of each example over its true classes and `num_sampled`
    sampled ones (sampled classes that are true ones left out by default)."""
    logits, targets = compute_sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits, seed=seed)
    return softmax_cross_entropy_with_logits(labels=stop_gradient(targets), logits=logits)
