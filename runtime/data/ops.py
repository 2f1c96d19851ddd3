"""The dataset ops, with TensorFlow's op types, inputs and attrs, in the one op registry.

A dataset op's output is a scalar `variant` tensor whose value is a `DatasetValue`
(runtime/data/values.py); iterator ops work on a `resource` holding an `IteratorState`. Every op
runs through `dispatch.apply`, eagerly (the value is made now) or into a graph (the generated
code makes it when the graph runs). Ops that call a user function (MapDataset's `f`, ...) name
the traced FuncGraph in an attr (it is in the graph's library) and carry the TracedFunction
as their payload, whose `run` the value calls per element. None is differentiable.
Dataset ops are stateless (a value is an immutable description) but never constant-folded;
the iterator ops are stateful, so they run in program order.
"""
from dataclasses import dataclass

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.data import prefetch, values
from runtime.ops.registry import NO_GRADIENT, OpDef, register


def _dataset(inputs, attrs):
    return [(dtypes.variant, TensorShape([]))]


def _components(inputs, attrs):
    return list(zip(attrs['output_types'], attrs['output_shapes']))


def _dataset_op(name, bind, inputs=('input_dataset',), **fields):
    return register(name, bind_kernel=bind, infer=fields.pop('infer', _dataset), inputs=inputs,
                    outputs=fields.pop('outputs', ('handle',)), type_attrs=(), foldable=False,
                    gradient=NO_GRADIENT, **fields)


def _int(value):
    return int(np.asarray(value))


# ---- sources --------------------------------------------------------------------------------

def _slices(attrs, payload):
    def make(*components):
        lengths = {len(c) for c in components}
        if len(lengths) > 1:
            raise errors.InvalidArgumentError(
                message=f'All components of from_tensor_slices must have the same size in '
                        f'their first dimension, got {sorted(lengths)}.')
        return values.TensorSlices(components)
    return make


def _generator(attrs, payload):
    return lambda: values.Generator(*payload)


def _range(attrs, payload):
    np_dtype = attrs['output_types'][0].np_dtype
    return lambda start, stop, step: values.Range(start, stop, step, np_dtype)


def _text_lines(attrs, payload):
    return lambda filenames, compression_type, buffer_size: values.TextLines(
        np.atleast_1d(filenames).tolist())


TENSOR_SLICE = _dataset_op('TensorSliceDataset', _slices, inputs=('components',),
                           defaults={'is_files': False, 'metadata': '',
                                     'replicate_on_split': False})
TENSOR = _dataset_op('TensorDataset', lambda attrs, payload: lambda *c: values.Tensors(c),
                     inputs=('components',), defaults={'metadata': ''})
RANGE = _dataset_op('RangeDataset', _range, inputs=('start', 'stop', 'step'),
                    defaults={'metadata': '', 'replicate_on_split': False})
GENERATOR = _dataset_op('GeneratorDataset', _generator, inputs=(), stateful=True)
TEXT_LINE = _dataset_op('TextLineDataset', _text_lines,
                        inputs=('filenames', 'compression_type', 'buffer_size'),
                        defaults={'metadata': ''})
ZIP = _dataset_op('ZipDataset', lambda attrs, payload: lambda *d: values.Zip(d),
                  inputs=('input_datasets',), defaults={'metadata': ''})
CONCATENATE = _dataset_op('ConcatenateDataset',
                          lambda attrs, payload: lambda a, b: values.Concatenate(a, b),
                          inputs=('input_dataset', 'another_dataset'),
                          defaults={'metadata': ''})
DIRECTED_INTERLEAVE = _dataset_op(
    'DirectedInterleaveDataset',
    lambda attrs, payload: lambda selector, *d: values.ChooseFrom(
        selector, d, attrs['stop_on_empty_dataset']) if isinstance(
        selector, values.DatasetValue) else values.SampleFrom(
        d, selector, attrs['seed'], attrs['stop_on_empty_dataset']),
    inputs=('selector_input_dataset', 'data_input_datasets'),
    defaults={'stop_on_empty_dataset': False})


# ---- transformations with a function --------------------------------------------------------

def _with_function(make, trailing=0):
    """The bind of an op taking the input dataset, its function's captured values and then
    `trailing` inputs of its own: `make(dataset, function, captured, *trailing)`."""
    def bind(attrs, payload):
        def kernel(dataset, *rest):
            if trailing:
                return make(dataset, payload, rest[:-trailing], *rest[-trailing:])
            return make(dataset, payload, rest)
        return kernel
    return bind


_FUNCTION_DEFAULTS = {'metadata': ''}
MAP = _dataset_op('MapDataset', _with_function(values.Map),
                  inputs=('input_dataset', 'other_arguments'), function_attrs=('f',),
                  defaults={'use_inter_op_parallelism': True, 'preserve_cardinality': True,
                            'force_synchronous': False, **_FUNCTION_DEFAULTS})
PARALLEL_MAP = _dataset_op(
    'ParallelMapDatasetV2',
    _with_function(lambda d, f, captured, n: values.Map(d, f, captured), trailing=1),
    inputs=('input_dataset', 'other_arguments', 'num_parallel_calls'), function_attrs=('f',),
    defaults={'use_inter_op_parallelism': True, 'deterministic': 'default',
              'preserve_cardinality': True, 'use_unbounded_threadpool': False,
              **_FUNCTION_DEFAULTS})
FILTER = _dataset_op('FilterDataset', _with_function(values.Filter),
                     inputs=('input_dataset', 'other_arguments'), function_attrs=('predicate',),
                     defaults=_FUNCTION_DEFAULTS)
FLAT_MAP = _dataset_op('FlatMapDataset', _with_function(values.FlatMap),
                       inputs=('input_dataset', 'other_arguments'), function_attrs=('f',),
                       defaults=_FUNCTION_DEFAULTS)
INTERLEAVE = _dataset_op(
    'InterleaveDataset',
    _with_function(lambda d, f, c, cycle, block: values.Interleave(d, f, c, _int(cycle),
                                                                   _int(block)), trailing=2),
    inputs=('input_dataset', 'other_arguments', 'cycle_length', 'block_length'),
    function_attrs=('f',), defaults=_FUNCTION_DEFAULTS)
TAKE_WHILE = _dataset_op('TakeWhileDataset', _with_function(values.TakeWhile),
                         inputs=('input_dataset', 'other_arguments'),
                         function_attrs=('predicate',), defaults=_FUNCTION_DEFAULTS)


def _scan(attrs, payload):
    n = len(attrs['Tstate'])
    return lambda dataset, *rest: values.Scan(dataset, rest[:n], payload, rest[n:])


def _reduce(attrs, payload):
    n = len(attrs['Tstate'])

    def kernel(dataset, *rest):
        state, captured, run = tuple(rest[:n]), rest[n:], payload.run
        for element in dataset:
            state = run(*state, *element, *captured)
        return state
    return kernel


SCAN = _dataset_op('ScanDataset', _scan,
                   inputs=('input_dataset', 'initial_state', 'other_arguments'),
                   function_attrs=('f',),
                   defaults={'preserve_cardinality': True, 'use_default_device': True,
                             **_FUNCTION_DEFAULTS})
REDUCE = _dataset_op('ReduceDataset', _reduce,
                     inputs=('input_dataset', 'initial_state', 'other_arguments'),
                     outputs='components', infer=_components, function_attrs=('f',),
                     stateful=True,  # as TensorFlow's: it runs even when its result is unused
                     defaults={'use_inter_op_parallelism': True, **_FUNCTION_DEFAULTS})


# ---- transformations with numbers -----------------------------------------------------------

def _batch(attrs, payload):
    return lambda dataset, size, drop: vectorized_batch(dataset, _int(size), bool(drop))


def vectorized_batch(dataset, size, drop_remainder):
    """Batch(Map(x, f)) as Map(Batch(x), f) when f is element-wise (its TracedFunction says
    `batchable`): the function's generated code then runs once per batch, on whole arrays."""
    if isinstance(dataset, values.Map) and getattr(dataset.function, 'batchable', False):
        inner = values.Batch(dataset.input, size, drop_remainder)
        return values.Map(inner, dataset.function, dataset.captured)
    return values.Batch(dataset, size, drop_remainder)


def _padded_batch(attrs, payload):
    n = attrs['N']

    def kernel(dataset, size, *rest):
        shapes = [[None if d < 0 else int(d) for d in np.atleast_1d(s)] if np.ndim(s) else []
                  for s in rest[:n]]
        return values.PaddedBatch(dataset, _int(size), shapes, rest[n:2 * n], bool(rest[-1]))
    return kernel


def _shuffle(attrs, payload):
    return lambda dataset, size, seed, seed2, seed_generator: values.Shuffle(
        dataset, _int(size), (_int(seed), _int(seed2)), attrs['reshuffle_each_iteration'])


def _counted(value_class):
    return lambda attrs, payload: lambda dataset, count: value_class(dataset, _int(count))


BATCH = _dataset_op('BatchDatasetV2', _batch,
                    inputs=('input_dataset', 'batch_size', 'drop_remainder'),
                    defaults={'parallel_copy': False, 'metadata': ''})
PADDED_BATCH = _dataset_op('PaddedBatchDatasetV2', _padded_batch,
                           inputs=('input_dataset', 'batch_size', 'padded_shapes',
                                   'padding_values', 'drop_remainder'),
                           defaults={'parallel_copy': False, 'metadata': ''})
UNBATCH = _dataset_op('UnbatchDataset', lambda attrs, payload: values.Unbatch,
                      defaults={'metadata': ''})
SHUFFLE = _dataset_op('ShuffleDatasetV3', _shuffle,
                      inputs=('input_dataset', 'buffer_size', 'seed', 'seed2', 'seed_generator'),
                      defaults={'reshuffle_each_iteration': True, 'metadata': ''})
# The shuffle's seeds come from its inputs (each pass mixes in its number); TensorFlow's graph
# passes a seed generator resource too, which here holds nothing.
DUMMY_SEED_GENERATOR = register(
    'DummySeedGenerator', bind_kernel=lambda attrs, payload: lambda: None,
    infer=lambda inputs, attrs: [(dtypes.resource, TensorShape([]))], inputs=(),
    outputs=('handle',), type_attrs=(), stateful=True, gradient=NO_GRADIENT)
REPEAT = _dataset_op('RepeatDataset', _counted(values.Repeat), inputs=('input_dataset', 'count'),
                     defaults={'metadata': ''})
TAKE = _dataset_op('TakeDataset', _counted(values.Take), inputs=('input_dataset', 'count'),
                   defaults={'metadata': ''})
SKIP = _dataset_op('SkipDataset', _counted(values.Skip), inputs=('input_dataset', 'count'),
                   defaults={'metadata': ''})
SHARD = _dataset_op('ShardDataset',
                    lambda attrs, payload: lambda d, n, i: values.Shard(d, _int(n), _int(i)),
                    inputs=('input_dataset', 'num_shards', 'index'),
                    defaults={'require_non_empty': False, 'metadata': ''})
CACHE = _dataset_op('CacheDataset', lambda attrs, payload: lambda d, filename: values.Cache(d),
                    inputs=('input_dataset', 'filename'), defaults={'metadata': ''})
PREFETCH = _dataset_op('PrefetchDataset', _counted(prefetch.Prefetch),
                       inputs=('input_dataset', 'buffer_size'),
                       defaults={'slack_period': 0, 'legacy_autotune': True,
                                 'buffer_size_min': 0, 'metadata': ''})
OPTIONS = _dataset_op('OptionsDataset', lambda attrs, payload: values.Options,
                      defaults={'metadata': ''})
CARDINALITY = register('DatasetCardinality',
                       lambda dataset, cardinality_options='': np.int64(dataset.cardinality),
                       lambda inputs, attrs: [(dtypes.int64, TensorShape([]))],
                       inputs=('input_dataset',), outputs=('cardinality',), type_attrs=(),
                       defaults={'cardinality_options': ''}, foldable=False,
                       gradient=NO_GRADIENT)


# ---- iterators and optionals ----------------------------------------------------------------

class IteratorState:
    """The value of an iterator resource: the pass over a dataset it is on (None before
    MakeIterator), advanced by IteratorGetNext."""

    def __init__(self):
        self.elements = None

    def start(self, dataset):
        self.elements = iter(dataset)

    def next(self):
        """The next element (a tuple), or None past the end."""
        if self.elements is None:
            raise errors.FailedPreconditionError(
                message='GetNext() failed because the iterator has not been initialized.')
        return next(self.elements, None)

    def close(self):
        close = getattr(self.elements, 'close', None)
        if close is not None:
            close()


@dataclass(slots=True, eq=False)
class OptionalValue:
    """The value of an optional variant: an element, or None."""
    element: object


def _get_next(iterator, **attrs):
    element = iterator.next()
    if element is None:
        raise errors.OutOfRangeError(message='End of sequence')
    return element


def _get_value(optional, **attrs):
    if optional.element is None:
        raise errors.InvalidArgumentError(
            message='The optional does not have a value; check has_value() first.')
    return optional.element


def _make_iterator(dataset, iterator):
    iterator.start(dataset)


def _no_outputs(inputs, attrs):
    return []


_ITERATOR_ATTRS = dict(inputs=('iterator',), type_attrs=(), foldable=False,
                       gradient=NO_GRADIENT)
ANONYMOUS_ITERATOR = register(
    'AnonymousIteratorV3', bind_kernel=lambda attrs, payload: IteratorState,
    infer=lambda inputs, attrs: [(dtypes.resource, TensorShape([]))], inputs=(),
    outputs=('handle',), type_attrs=(), stateful=True, gradient=NO_GRADIENT)
MAKE_ITERATOR = register('MakeIterator', _make_iterator, _no_outputs,
                         inputs=('dataset', 'iterator'), outputs=(), type_attrs=(),
                         stateful=True, gradient=NO_GRADIENT)
GET_NEXT = register('IteratorGetNext', _get_next, _components, outputs='components',
                    stateful=True, **_ITERATOR_ATTRS)
GET_NEXT_AS_OPTIONAL = register(
    'IteratorGetNextAsOptional', lambda iterator, **attrs: OptionalValue(iterator.next()),
    lambda inputs, attrs: [(dtypes.variant, TensorShape([]))], outputs=('optional',),
    stateful=True, **_ITERATOR_ATTRS)
OPTIONAL_HAS_VALUE = register(
    'OptionalHasValue', lambda optional, **attrs: np.bool_(optional.element is not None),
    lambda inputs, attrs: [(dtypes.bool, TensorShape([]))], inputs=('optional',),
    outputs=('has_value',), type_attrs=(), foldable=False, gradient=NO_GRADIENT)
OPTIONAL_GET_VALUE = register('OptionalGetValue', _get_value, _components,
                              inputs=('optional',), outputs='components', type_attrs=(),
                              foldable=False, gradient=NO_GRADIENT)


# Every op above and every `dataset_op` of other modules: a graph holding one cannot be saved
# (docs/datasets.md).
DATASET_OPS = {value for value in list(globals().values()) if isinstance(value, OpDef)}


def dataset_op(name, bind, inputs=('input_dataset',), **fields):
    """A dataset op defined in another module (runtime/data/more_ops.py), as those above."""
    opdef = _dataset_op(name, bind, inputs, **fields)
    DATASET_OPS.add(opdef)
    return opdef


def components(inputs, attrs):
    """The outputs of an op returning an element: one per `output_types`."""
    return _components(inputs, attrs)


def check_saveable(graph):
    """Refuse to serialize `graph` (a function's graph, with its library) when it holds a
    dataset or iterator op: ValueError naming the op."""
    for g in [graph, *graph.library.values()]:
        for op in g.operations:
            if op.opdef in DATASET_OPS:
                raise ValueError(
                    f'Cannot save {getattr(graph, "name", "the graph")}: it holds the dataset op '
                    f'{op.name!r} ({op.type}), and input pipelines are not saved. Build the '
                    f'dataset outside the saved function and pass its elements as arguments.')
