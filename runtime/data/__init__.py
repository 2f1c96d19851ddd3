"""`rt.data`: TensorFlow's `tf.data` input pipelines (docs/datasets.md).

`rt.data.Dataset` (sources, transformations, consumers), `rt.data.TextLineDataset`,
`rt.data.DatasetSpec`, `rt.data.Iterator`, `rt.data.Options`, `rt.data.AUTOTUNE` and the
cardinality constants. Dataset ops are registered in the one op registry
(runtime/data/ops.py) with TensorFlow's op types.
"""
from runtime.data import dataset as _dataset
from runtime.data import sources as _sources
from runtime.data.dataset import Dataset
from runtime.data.iterators import Iterator, Optional
from runtime.data.options import Options
from runtime.data.prefetch import AUTOTUNE
from runtime.data.sources import TextLineDataset
from runtime.data.structure import DatasetSpec
from runtime.data.values import INFINITE as INFINITE_CARDINALITY
from runtime.data.values import UNKNOWN as UNKNOWN_CARDINALITY

Dataset.from_tensor_slices = staticmethod(_sources.from_tensor_slices)
Dataset.from_tensors = staticmethod(_sources.from_tensors)
Dataset.range = staticmethod(_dataset.range_dataset)
Dataset.from_generator = staticmethod(_sources.from_generator)
Dataset.zip = staticmethod(_dataset.zip_datasets)
Dataset.sample_from_datasets = staticmethod(_sources.sample_from_datasets)


class experimental:  # noqa: N801 - TensorFlow's namespace `tf.data.experimental`
    """The few `tf.data.experimental` names that exist here (its I/O readers do not)."""

    AUTOTUNE = AUTOTUNE
    INFINITE_CARDINALITY = INFINITE_CARDINALITY
    UNKNOWN_CARDINALITY = UNKNOWN_CARDINALITY
    sample_from_datasets = staticmethod(_sources.sample_from_datasets)
    Optional = Optional


__all__ = ['AUTOTUNE', 'Dataset', 'DatasetSpec', 'INFINITE_CARDINALITY', 'Iterator', 'Options',
           'Optional', 'TextLineDataset', 'UNKNOWN_CARDINALITY', 'experimental']
