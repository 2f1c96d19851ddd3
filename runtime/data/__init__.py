"""`rt.data`: TensorFlow's `tf.data` input pipelines (docs/datasets.md).

`rt.data.Dataset` (sources, transformations, consumers), `rt.data.TextLineDataset`,
`rt.data.TFRecordDataset`, `rt.data.FixedLengthRecordDataset`, `rt.data.DatasetSpec`,
`rt.data.IteratorSpec`, `rt.data.Iterator`, `rt.data.Options`, `rt.data.AUTOTUNE`, the
cardinality constants and `rt.data.experimental` (runtime/data/experimental.py). Dataset ops
are registered in the one op registry (runtime/data/ops.py, runtime/data/more_ops.py) with
TensorFlow's op types.
"""
from runtime.data import dataset as _dataset
from runtime.data import experimental
from runtime.data import readers as _readers
from runtime.data import sources as _sources
from runtime.data.dataset import Dataset
from runtime.data.iterators import Iterator, NumpyIterator, Optional
from runtime.data.options import Options, ThreadingOptions
from runtime.data.prefetch import AUTOTUNE
from runtime.data.readers import FixedLengthRecordDataset, TFRecordDataset
from runtime.data.sources import TextLineDataset
from runtime.data.structure import DatasetSpec, IteratorSpec
from runtime.data.values import INFINITE as INFINITE_CARDINALITY
from runtime.data.values import UNKNOWN as UNKNOWN_CARDINALITY

Dataset.from_tensor_slices = staticmethod(_sources.from_tensor_slices)
Dataset.from_tensors = staticmethod(_sources.from_tensors)
Dataset.range = staticmethod(_dataset.range_dataset)
Dataset.from_generator = staticmethod(_sources.from_generator)
Dataset.zip = staticmethod(_dataset.zip_datasets)
Dataset.sample_from_datasets = staticmethod(_sources.sample_from_datasets)
Dataset.choose_from_datasets = staticmethod(_dataset.choose_from_datasets)
Dataset.counter = staticmethod(experimental.Counter)
Dataset.from_list = staticmethod(experimental.from_list)
Dataset.random = staticmethod(_readers.random_dataset)


__all__ = ['AUTOTUNE', 'Dataset', 'DatasetSpec', 'FixedLengthRecordDataset',
           'INFINITE_CARDINALITY', 'Iterator', 'IteratorSpec', 'NumpyIterator', 'Options',
           'Optional', 'TFRecordDataset', 'TextLineDataset', 'ThreadingOptions',
           'UNKNOWN_CARDINALITY', 'experimental']
