"""The sources of datasets: `Dataset.from_tensor_slices`, `from_tensors`, `range`,
`from_generator`, `sample_from_datasets`, and `TextLineDataset` (`range` and `zip`, which
`Dataset.enumerate` uses, are in runtime/data/dataset.py)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor_spec import TensorSpec
from runtime.data import ops, structure
from runtime.data.dataset import Dataset, new_seed, source


def from_tensor_slices(tensors, name=None):
    """The slices of `tensors` (a tensor, array, list, or tuple/dict of them) along their first
    axis, one element each."""
    value = structure.normalize(tensors, 'Dataset.from_tensor_slices: tensors')
    spec = structure.sliced_spec(structure.spec_of(value), 'Dataset.from_tensor_slices')
    flat = structure.flatten(value)
    known = {t.shape[0] for t in flat if t.shape.rank} - {None}
    if len(known) > 1:
        raise ValueError(f'Dataset.from_tensor_slices: all components must have the same size '
                         f'in their first dimension, got {sorted(known)}.')
    return source(ops.TENSOR_SLICE, flat, {}, spec,
                   output_types_attr='Toutput_types')


def from_tensors(tensors, name=None):
    """One element: `tensors`."""
    value = structure.normalize(tensors, 'Dataset.from_tensors: tensors')
    return source(ops.TENSOR, structure.flatten(value), {}, structure.spec_of(value),
                   output_types_attr='Toutput_types')


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None, name=None):
    """The elements `generator(*args)` yields, of `output_signature` (a structure of
    rt.TensorSpec), or of the older `output_types` / `output_shapes`."""
    if not callable(generator):
        raise TypeError(f'Dataset.from_generator: generator must be callable, got '
                        f'{generator!r}.')
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError('Dataset.from_generator: give output_signature, or output_types '
                            '(and output_shapes), not both.')
        spec = output_signature
        for leaf in structure.flatten(spec):
            if not isinstance(leaf, TensorSpec):
                raise TypeError(f'Dataset.from_generator: output_signature must hold '
                                f'rt.TensorSpec, got {leaf!r}.')
    elif output_types is not None:
        types = structure.flatten(output_types)
        shapes = [None] * len(types) if output_shapes is None else \
            structure.flatten(_shapes_as_leaves(output_shapes))
        spec = structure.pack(output_types, [
            TensorSpec(TensorShape(None) if s is None else TensorShape(s), t)
            for t, s in zip(types, shapes)])
    else:
        raise TypeError('Dataset.from_generator needs output_signature (or output_types).')
    leaves = structure.flatten(spec)
    converters = [lambda v, d=s.dtype: structure.numpy_leaf(v, d) for s in leaves]
    call_args = tuple(args) if args is not None else ()

    def flatten(item):
        if isinstance(item, list) and type(spec) is tuple:
            item = tuple(item)
        if structure.is_structure(spec):
            problem = structure.structure_difference(spec, item)
            if problem:
                raise TypeError(f'`generator` yielded an element that did not match the '
                                f'expected structure: {problem}')
            return structure.flatten(item)
        return [item]

    payload = (lambda: generator(*call_args), flatten, converters, [s.shape for s in leaves])

    def generator_dataset(unused_id):
        return source(ops.GENERATOR, [], {}, spec, payload=payload)
    # As TensorFlow builds it (and prints it, `<_FlatMapDataset ...>`): a flat_map over one
    # int32 id (TensorDataset) whose function makes the GeneratorDataset, once per pass.
    return from_tensors(np.int32(0)).flat_map(generator_dataset)


def _shapes_as_leaves(shapes):
    """output_shapes with each shape (a list or TensorShape) a leaf."""
    if isinstance(shapes, dict):
        return {k: _shapes_as_leaves(v) for k, v in shapes.items()}
    if isinstance(shapes, tuple) and shapes and all(
            isinstance(s, (tuple, list, TensorShape)) or s is None for s in shapes):
        return tuple(_shapes_as_leaves(s) for s in shapes)
    return TensorShape(shapes) if shapes is not None else None


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """Elements drawn at random from `datasets`, dataset i with probability `weights[i]`."""
    datasets = list(datasets)
    if not datasets:
        raise ValueError('Dataset.sample_from_datasets needs at least one dataset.')
    spec = datasets[0].element_spec
    for d in datasets[1:]:
        spec = structure.most_specific(spec, d.element_spec, 'Dataset.sample_from_datasets')
    if weights is None:
        weights = np.full(len(datasets), 1.0 / len(datasets))
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (len(datasets),) or (weights < 0).any():
        raise errors.InvalidArgumentError(
            message=f'Dataset.sample_from_datasets: weights must be {len(datasets)} '
                    f'non-negative numbers, got {weights.tolist()}.')
    return source(ops.DIRECTED_INTERLEAVE, [weights] + [d.variant_tensor for d in datasets],
                   {'seed': new_seed() if seed is None else int(seed),
                    'stop_on_empty_dataset': bool(stop_on_empty_dataset),
                    'N': len(datasets)}, spec)


class TextLineDataset(Dataset):
    """The lines of text files (without their line ends), as scalar string elements."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        if compression_type:
            raise NotImplementedError('rt.data.TextLineDataset reads uncompressed files only.')
        names = np.array([f.encode() if isinstance(f, str) else f
                          for f in np.atleast_1d(np.asarray(filenames, dtype=object)).tolist()],
                         dtype=object)
        spec = TensorSpec([], dtypes.string)
        made = source(ops.TEXT_LINE, [names, np.array(b'', dtype=object)[()],
                                       np.int64(buffer_size or 256 * 1024)], {}, spec,
                      output_types_attr=None)
        super().__init__(made.variant_tensor, spec)
