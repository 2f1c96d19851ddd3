"""The segment products of `rt.math`: `segment_prod` (op `SegmentProd`, sorted ids) and
`unsorted_segment_prod` (op `UnsortedSegmentProd`); a segment with no rows is 1, as in
TensorFlow. Their gradients are in runtime/gradients/rules/special.py."""
import numpy as np

from runtime.core import errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.registry import NUMBERS, register
from runtime.ops.scan import segment_ids_tensor


def _product(data, ids, n):
    data = np.asarray(data)
    out = np.ones((n,) + data.shape[ids.ndim:], dtype=data.dtype)
    keep = ids >= 0  # negative ids are dropped, as in TensorFlow
    np.multiply.at(out, ids[keep], data[keep])
    return out


def _segment_prod_kernel(data, segment_ids):
    ids = np.asarray(segment_ids)
    if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
        raise errors.InvalidArgumentError(message=f'segment ids must be sorted and '
                                                  f'non-negative, got {ids}')
    return _product(data, ids, int(ids[-1]) + 1 if ids.size else 0)


def _unsorted_segment_prod_kernel(data, segment_ids, num_segments):
    ids = np.asarray(segment_ids)
    n = int(num_segments)
    if np.any(ids >= n):
        raise errors.InvalidArgumentError(message=f'segment ids must be < num_segments={n}, '
                                                  f'got {ids}')
    return _product(data, ids, n)


def _rows(inputs, rows):
    data, ids = inputs[0], inputs[1]
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    return [(data.dtype, TensorShape([rows] + data.shape.as_list()[ids.shape.rank:]))]


def _unsorted_infer(inputs, attrs):
    known = constant_value(inputs[2])
    return _rows(inputs, None if known is None else int(known))


SEGMENT_PROD = register('SegmentProd', _segment_prod_kernel,
                        lambda inputs, attrs: _rows(inputs, None),
                        inputs=('data', 'segment_ids'), outputs=('output',),
                        type_attrs=(('T', 0), ('Tindices', 1)), dtypes=NUMBERS)
UNSORTED_SEGMENT_PROD = register(
    'UnsortedSegmentProd', _unsorted_segment_prod_kernel, _unsorted_infer,
    inputs=('data', 'segment_ids', 'num_segments'), outputs=('output',),
    type_attrs=(('T', 0), ('Tindices', 1), ('Tnumsegments', 2)), dtypes=NUMBERS)


def segment_prod(data, segment_ids, name=None):
    """Products of the rows of `data` that share a (sorted) segment id (op `SegmentProd`)."""
    return apply(SEGMENT_PROD, [convert_to_tensor(data), segment_ids_tensor(segment_ids)],
                 name=name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """Products of the rows of `data` that share a segment id (op `UnsortedSegmentProd`): row
    `i` is the product of the rows `j` with `segment_ids[j] == i`, 1 where there are none."""
    if not isinstance(num_segments, Tensor):
        num_segments = np.int32(num_segments)
    return apply(UNSORTED_SEGMENT_PROD, [convert_to_tensor(data), segment_ids_tensor(segment_ids),
                                         num_segments], name=name)
