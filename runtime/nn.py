"""`rt.nn`: activations, softmax, cross entropies, bias_add, l2_loss, dropout, moments,
convolutions and pooling, batch normalization.

The same function objects as `rt.math`'s and the top-level ones where TensorFlow has several
names for one op (`rt.nn.sigmoid is rt.math.sigmoid is rt.sigmoid`).
"""
from runtime.ops.conv import avg_pool2d, conv2d, max_pool2d
from runtime.ops.conv3d import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from runtime.ops.elementwise import softplus
from runtime.ops.fractional_pool import fractional_avg_pool, fractional_max_pool
from runtime.ops.math import relu, sigmoid, tanh
from runtime.ops.nn import (
                            bias_add,
                            dropout,
                            elu,
                            embedding_lookup,
                            gelu,
                            l2_loss,
                            leaky_relu,
                            log_softmax,
                            relu6,
                            selu,
                            sigmoid_cross_entropy_with_logits,
                            silu,
                            softmax,
                            softmax_cross_entropy_with_logits,
                            softsign,
                            sparse_softmax_cross_entropy_with_logits,
                            swish,
)
from runtime.ops.nn_composites import (
                            avg_pool,
                            avg_pool1d,
                            batch_norm_with_global_normalization,
                            batch_normalization,
                            conv1d,
                            conv1d_transpose,
                            conv2d_transpose,
                            conv_transpose,
                            convolution,
                            crelu,
                            depth_to_space,
                            depthwise_conv2d,
                            local_response_normalization,
                            log_poisson_loss,
                            lrn,
                            max_pool,
                            max_pool1d,
                            normalize_moments,
                            pool,
                            separable_conv2d,
                            space_to_depth,
                            sufficient_statistics,
                            weighted_cross_entropy_with_logits,
                            weighted_moments,
)
from runtime.ops.nn_dilated import atrous_conv2d, atrous_conv2d_transpose, with_space_to_batch
from runtime.ops.nn_more import (
                            collapse_repeated,
                            compute_accidental_hits,
                            depthwise_conv2d_backprop_filter,
                            depthwise_conv2d_backprop_input,
                            dilation2d,
                            erosion2d,
                            isotonic_regression,
                            max_pool_with_argmax,
)
from runtime.ops.nn_sampled import nce_loss, sampled_softmax_loss
from runtime.ops.scan import in_top_k, top_k
from runtime.ops.space_batch import space_to_batch
from runtime.ops.stats import l2_normalize, moments

__all__ = [
    'atrous_conv2d', 'atrous_conv2d_transpose', 'avg_pool3d', 'conv3d', 'conv3d_transpose',
    'max_pool3d', 'collapse_repeated', 'compute_accidental_hits',
    'depthwise_conv2d_backprop_filter', 'depthwise_conv2d_backprop_input', 'dilation2d',
    'erosion2d', 'isotonic_regression', 'max_pool_with_argmax', 'space_to_batch',
    'with_space_to_batch', 'nce_loss', 'sampled_softmax_loss', 'fractional_avg_pool',
    'fractional_max_pool',
    'avg_pool1d', 'batch_norm_with_global_normalization', 'batch_normalization', 'conv1d',
    'conv1d_transpose', 'conv2d_transpose', 'conv_transpose', 'convolution', 'crelu',
    'depth_to_space', 'depthwise_conv2d', 'local_response_normalization', 'log_poisson_loss',
    'lrn', 'max_pool1d', 'normalize_moments', 'pool', 'separable_conv2d', 'space_to_depth',
    'sufficient_statistics', 'weighted_cross_entropy_with_logits', 'weighted_moments',
    'avg_pool', 'avg_pool2d', 'bias_add', 'conv2d', 'dropout', 'elu', 'embedding_lookup', 'gelu',
    'in_top_k', 'l2_loss', 'l2_normalize', 'leaky_relu', 'log_softmax', 'max_pool', 'max_pool2d',
    'moments', 'relu', 'relu6', 'selu', 'sigmoid',
    'sigmoid_cross_entropy_with_logits', 'silu', 'softmax', 'softmax_cross_entropy_with_logits',
    'softplus', 'softsign', 'sparse_softmax_cross_entropy_with_logits', 'swish', 'tanh', 'top_k',
]
