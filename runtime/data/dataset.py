"""`rt.data.Dataset`: TensorFlow's `tf.data.Dataset`, its transformations and consumers.

A Dataset is a scalar `variant` tensor (`variant_tensor`, the output of a dataset op) and the
`element_spec` of its elements. Every method adds one dataset op through `dispatch.apply`:
eagerly the op makes the DatasetValue now; while a graph is being built (inside `ag.function`)
it is a graph node, so a dataset built in a function is part of its graph, and one captured
from outside is an input of it. The sources are in runtime/data/sources.py.
"""
import os
import re

import numpy as np

from runtime.core import context, dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import functions, iterators, more_ops, ops, structure
from runtime.data.options import Options
from runtime.data.prefetch import AUTOTUNE
from runtime.data.values import INFINITE, UNKNOWN
from runtime.ops.array import cast
from runtime.ops.compare import less, less_equal, logical_and, where
from runtime.ops.dispatch import apply
from runtime.ops.reduce import reduce_min
from runtime.ops.slicing import gather


def located_apply(opdef, inputs, attrs, payload=None):
    """`apply`, with an op's failure naming the user's line (eagerly the op runs now: a
    `batch(0)` fails where the user wrote it)."""
    try:
        return apply(opdef, inputs, attrs, payload=payload)
    except errors.OpError as e:
        location = errors.caller_location()
        if location is not None:
            e.message = f'{e} (at {location[0]}:{location[1]})'
            e.args = (e.message,)
        raise


def int64(value, what):
    """A Python or tensor count as an int64 operand."""
    if isinstance(value, EagerTensor) or not hasattr(value, 'op'):
        try:
            return np.int64(np.asarray(value.value if isinstance(value, EagerTensor) else value))
        except (TypeError, ValueError):
            raise TypeError(f'{what} must be an integer, got {value!r}.') from None
    return value


def new_seed():
    return int(np.random.SeedSequence().entropy % (2 ** 63))


class Dataset:
    """A sequence of elements (a tensor, or a nested tuple/dict of tensors) read as a pipeline:
    `rt.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(32)`."""

    def __init__(self, variant_tensor, element_spec, options=None, op_type=None):
        self.variant_tensor = variant_tensor
        self._element_spec = element_spec
        self._options = options
        self._op_type = op_type  # the op that made it, for repr (`<_MapDataset ...>`)

    # ---- the op behind each method ------------------------------------------------------------

    def _derived(self, opdef, inputs, attrs, element_spec=None, payload=None):
        spec = self._element_spec if element_spec is None else element_spec
        attrs = {**attrs, **iterators.component_attrs(spec)}
        variant = located_apply(opdef, [self.variant_tensor] + list(inputs), attrs, payload)
        return Dataset(variant, spec, self._options, opdef.name)

    def _with_function(self, opdef, fn, attr, extra_inputs=(), extra_attrs=None, spec=None):
        captured = fn.captured_inputs
        attrs = {attr: fn.ref, 'Targuments': [_dtype_of(v) for v in captured],
                 **(extra_attrs or {})}
        return self._derived(opdef, list(captured) + list(extra_inputs), attrs, spec, fn)

    @property
    def element_spec(self):
        return self._element_spec

    # ---- transformations ----------------------------------------------------------------------

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        fn = functions.TracedFunction(map_func, [self._element_spec], 'Dataset.map')
        fn.batchable = functions.elementwise(fn)
        if num_parallel_calls is None:
            return self._with_function(ops.MAP, fn, 'f', spec=fn.output_spec, extra_attrs={
                'use_inter_op_parallelism': True, 'preserve_cardinality': True})
        deterministic = 'default' if deterministic is None else \
            ('true' if deterministic else 'false')
        return self._with_function(
            ops.PARALLEL_MAP, fn, 'f', [int64(num_parallel_calls, 'num_parallel_calls')],
            {'deterministic': deterministic, 'preserve_cardinality': True}, fn.output_spec)

    def filter(self, predicate, name=None):
        fn = functions.TracedFunction(predicate, [self._element_spec], 'Dataset.filter')
        fn.single_output('Dataset.filter', dtypes.bool)
        return self._with_function(ops.FILTER, fn, 'predicate')

    def take_while(self, predicate, name=None):
        fn = functions.TracedFunction(predicate, [self._element_spec], 'Dataset.take_while')
        fn.single_output('Dataset.take_while', dtypes.bool)
        return self._with_function(ops.TAKE_WHILE, fn, 'predicate')

    def flat_map(self, map_func, name=None):
        fn = functions.TracedFunction(map_func, [self._element_spec], 'Dataset.flat_map',
                                      returns='dataset')
        return self._with_function(ops.FLAT_MAP, fn, 'f', spec=fn.output_spec)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        fn = functions.TracedFunction(map_func, [self._element_spec], 'Dataset.interleave',
                                      returns='dataset')
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1  # TensorFlow's AUTOTUNE: the number of cores
        block_length = 1 if block_length is None else block_length
        return self._with_function(
            ops.INTERLEAVE, fn, 'f', [int64(cycle_length, 'cycle_length'),
                                      int64(block_length, 'block_length')], spec=fn.output_spec)

    def scan(self, initial_state, scan_func, name=None):
        state = structure.normalize(initial_state, 'Dataset.scan: initial_state')
        fn = self._state_function(scan_func, structure.spec_of(state), 'Dataset.scan',
                                  pairs=True)
        flat_state = structure.flatten(state)
        captured = fn.captured_inputs
        spec = structure.spec_of(fn.output[1])
        attrs = {'f': fn.ref, 'Tstate': [t.dtype for t in flat_state],
                 'Targuments': [_dtype_of(v) for v in captured], 'preserve_cardinality': True,
                 **iterators.component_attrs(spec)}
        variant = located_apply(ops.SCAN, [self.variant_tensor] + flat_state + list(captured),
                                attrs, fn)
        return Dataset(variant, spec, self._options, ops.SCAN.name)

    def _state_function(self, func, state_spec, what, pairs):
        """`func(state, element)` traced; its new state must keep the initial state's structure
        and dtypes (shapes that change are relaxed, and the function traced again)."""
        def call(f, state, element):
            return f(state, element)

        for _ in range(2):
            fn = functions.TracedFunction(func, [state_spec, self._element_spec], what, call)
            out = fn.output
            if pairs:
                if not isinstance(out, tuple) or len(out) != 2:
                    raise TypeError(f'The function given to {what} must return a pair '
                                    f'(new_state, output_element), got {out!r}.')
                out = out[0]
            new_spec = structure.spec_of(out)
            problem = structure.structure_difference(state_spec, new_spec)
            if problem:
                raise TypeError(f'The function given to {what} must return a new state of the '
                                f'structure of the initial state. {problem}')
            relaxed = []
            for old, new in zip(structure.flatten(state_spec), structure.flatten(new_spec)):
                if old.dtype is not new.dtype:
                    raise TypeError(f'The function given to {what} returned a state of dtype '
                                    f'{new.dtype.name} where the initial state has '
                                    f'{old.dtype.name}; use rt.cast.')
                relaxed.append(TensorSpec(old.shape.most_specific_compatible_shape(new.shape),
                                          old.dtype))
            relaxed_spec = structure.pack(state_spec, relaxed)
            if relaxed_spec == state_spec or structure.flatten(relaxed_spec) == \
                    structure.flatten(state_spec):
                return fn
            state_spec = relaxed_spec
        return fn

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        size = int64(batch_size, 'batch_size')
        static = int(size) if isinstance(size, np.integer) and drop_remainder is True else None
        spec = structure.batched_spec(self._element_spec, static)
        return self._derived(ops.BATCH, [size, np.bool_(drop_remainder)],
                             {'parallel_copy': False}, spec)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        specs = structure.flatten(self._element_spec)
        if padded_shapes is None:
            shapes = [s.shape for s in specs]
            if any(shape.rank is None for shape in shapes):
                raise ValueError('Dataset.padded_batch: padded_shapes must be given when a '
                                 'component has an unknown rank.')
        else:
            shapes = _per_component(padded_shapes, self._element_spec, 'padded_shapes',
                                    TensorShape)
        for spec, shape in zip(specs, shapes):
            if spec.shape.rank is not None and shape.rank != spec.shape.rank:
                raise ValueError(f'Dataset.padded_batch: the padded shape {shape} is not '
                                 f'compatible with the component shape {spec.shape}.')
        if padding_values is None:
            pads = [np.asarray(b'' if s.dtype is dtypes.string else 0, s.dtype.np_dtype)[()]
                    for s in specs]
        else:
            pads = [np.asarray(v.value if isinstance(v, EagerTensor) else v,
                               s.dtype.np_dtype)[()]
                    for v, s in zip(_per_component(padding_values, self._element_spec,
                                                   'padding_values', lambda v: v), specs)]
        size = int64(batch_size, 'batch_size')
        static = int(size) if isinstance(size, np.integer) and drop_remainder is True else None
        spec = structure.pack(self._element_spec, [
            TensorSpec([static] + shape.as_list(), s.dtype) for s, shape in zip(specs, shapes)])
        vectors = [np.array([-1 if d is None else d for d in shape.as_list()], np.int64)
                   for shape in shapes]
        return self._derived(ops.PADDED_BATCH, [size] + vectors + pads + [
            np.bool_(drop_remainder)], {'N': len(specs), 'parallel_copy': False,
                                        'Toutput_types': [s.dtype for s in specs]}, spec)

    def unbatch(self, name=None):
        spec = structure.map_leaves(_unbatched, self._element_spec)
        return self._derived(ops.UNBATCH, [], {}, spec)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        seed, seed2 = (new_seed(), new_seed()) if seed is None else (int(seed), 0)
        generator = apply(ops.DUMMY_SEED_GENERATOR, [])
        return self._derived(ops.SHUFFLE, [int64(buffer_size, 'buffer_size'), np.int64(seed),
                                           np.int64(seed2), generator],
                             {'reshuffle_each_iteration': reshuffle})

    def repeat(self, count=None, name=None):
        return self._derived(ops.REPEAT, [int64(-1 if count is None else count, 'count')], {})

    def take(self, count, name=None):
        return self._derived(ops.TAKE, [int64(count, 'count')], {})

    def skip(self, count, name=None):
        return self._derived(ops.SKIP, [int64(count, 'count')], {})

    def shard(self, num_shards, index, name=None):
        return self._derived(ops.SHARD, [int64(num_shards, 'num_shards'),
                                         int64(index, 'index')], {'require_non_empty': False})

    def cache(self, filename='', name=None):
        if filename:
            raise NotImplementedError('Dataset.cache(filename): only the in-memory cache '
                                      '(no filename) is provided.')
        return self._derived(ops.CACHE, [np.array(b'', dtype=object)[()]], {})

    def prefetch(self, buffer_size, name=None):
        return self._derived(ops.PREFETCH, [int64(buffer_size, 'buffer_size')], {})

    def enumerate(self, start=0, name=None):
        return zip_datasets((range_dataset(start, np.iinfo(np.int64).max), self))

    def concatenate(self, dataset, name=None):
        spec = structure.most_specific(self._element_spec, dataset.element_spec,
                                       'Dataset.concatenate')
        return self._derived(ops.CONCATENATE, [dataset.variant_tensor], {}, spec)

    def apply(self, transformation_func):
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError(f'Dataset.apply: the transformation must return a Dataset, got '
                            f'{result!r}.')
        return result

    def with_options(self, options, name=None):
        if not isinstance(options, Options):
            raise TypeError(f'Dataset.with_options needs an rt.data.Options, got {options!r}.')
        merged = options if self._options is None else self._options.merge(options)
        out = self._derived(ops.OPTIONS, [], {'serialized_options': repr(merged)})
        out._options = merged
        return out

    def options(self):
        return self._options if self._options is not None else Options()

    # ---- consumers ----------------------------------------------------------------------------

    def reduce(self, initial_state, reduce_func, name=None):
        state = structure.normalize(initial_state, 'Dataset.reduce: initial_state')
        fn = self._state_function(reduce_func, structure.spec_of(state), 'Dataset.reduce',
                                  pairs=False)
        captured = fn.captured_inputs
        flat_state = structure.flatten(state)
        out_spec = structure.spec_of(fn.output)
        attrs = {'f': fn.ref, 'Tstate': [t.dtype for t in flat_state],
                 'Targuments': [_dtype_of(v) for v in captured],
                 **iterators.component_attrs(out_spec)}
        flat = located_apply(ops.REDUCE, [self.variant_tensor] + flat_state + list(captured),
                             attrs, fn)
        return structure.pack(fn.output, flat)

    def __iter__(self):
        return iterators.Iterator(self)

    def as_numpy_iterator(self):
        if not _is_eager(self.variant_tensor):
            raise RuntimeError('Dataset.as_numpy_iterator() is only supported in eager mode; '
                               'in a function iterate the dataset itself.')
        return iterators.NumpyIterator(self)

    def cardinality(self):
        return apply(ops.CARDINALITY, [self.variant_tensor])

    def assert_cardinality(self, expected_cardinality, name=None):
        """This dataset, of cardinality `expected_cardinality`: iterating it fails with
        FailedPreconditionError when it has another number of elements."""
        return self._derived(more_ops.ASSERT_CARDINALITY,
                             [int64(expected_cardinality, 'expected_cardinality')], {})

    def ignore_errors(self, log_warning=False, name=None):
        """This dataset without the elements whose making fails (an op's error: a record
        that does not parse, a failed check in a map function)."""
        return self._derived(more_ops.IGNORE_ERRORS, [], {'log_warning': bool(log_warning)})

    def unique(self, name=None):
        """The first occurrence of each element (int32, int64 or string elements)."""
        spec = self._element_spec
        if getattr(spec, 'dtype', None) not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError('Dataset.unique() only supports datasets with 1 component of '
                            'type tf.int32, tf.int64 or tf.string.')
        return self._derived(more_ops.UNIQUE, [], {})

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        """Elements grouped by `key_func(element)` (an int64 scalar); each group of
        `window_size` (or `window_size_func(key)`) elements goes as a dataset to
        `reduce_func(key, window)`, whose elements are this dataset's (op
        GroupByWindowDataset)."""
        if (window_size is None) == (window_size_func is None):
            raise ValueError('Either the `window_size` argument or the `window_size_func` '
                             'argument must be specified.')
        if window_size_func is None:
            size = int64(window_size, 'window_size')

            def window_size_func(unused_key):
                return size
        spec = self._element_spec
        key_fn = functions.TracedFunction(key_func, [spec], 'Dataset.group_by_window')
        key_fn.single_output('Dataset.group_by_window key_func', dtypes.int64)
        key_spec = TensorSpec([], dtypes.int64)
        size_fn = functions.TracedFunction(window_size_func, [key_spec],
                                           'Dataset.group_by_window')
        size_fn.single_output('Dataset.group_by_window window_size_func', dtypes.int64)
        reduce_fn = functions.TracedFunction(
            reduce_func, [key_spec, TensorSpec([], dtypes.variant)], 'Dataset.group_by_window',
            call=lambda f, key, variant: f(key, Dataset(variant, spec)), returns='dataset')
        fns = (key_fn, reduce_fn, size_fn)
        captured = [v for f in fns for v in f.captured_inputs]
        attrs = {'key_func': key_fn.ref, 'reduce_func': reduce_fn.ref,
                 'window_size_func': size_fn.ref,
                 'Tkey_func_other_arguments': [_dtype_of(v) for v in key_fn.captured_inputs],
                 'Treduce_func_other_arguments': [_dtype_of(v) for v in
                                                  reduce_fn.captured_inputs],
                 'Twindow_size_func_other_arguments': [_dtype_of(v) for v in
                                                       size_fn.captured_inputs]}
        return self._derived(more_ops.GROUP_BY_WINDOW, captured, attrs,
                             reduce_fn.output_spec, fns)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        """Elements put in buckets by `element_length_func(element)` between
        `bucket_boundaries`, each bucket batched (padded) by its size of
        `bucket_batch_sizes`, as TensorFlow builds it on group_by_window."""
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError(f'`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + '
                             f'1` but `len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and '
                             f'`len(bucket_boundaries)={len(bucket_boundaries)}`.')
        if pad_to_bucket_boundary:
            raise NotImplementedError('bucket_by_sequence_length(pad_to_bucket_boundary=True) '
                                      'is not provided: pad_to_bucket_boundary=False pads each '
                                      'batch to its longest element.')
        batch_sizes = np.asarray(bucket_batch_sizes, np.int64)
        low = np.array([np.iinfo(np.int32).min] + list(bucket_boundaries), np.int64)
        high = np.array(list(bucket_boundaries) + [np.iinfo(np.int32).max], np.int64)

        def bucket_id(*args):
            length = cast(element_length_func(*args), dtypes.int64)
            return reduce_min(where(logical_and(less_equal(low, length), less(length, high))))

        def window_size(bucket):
            return gather(batch_sizes, bucket)

        def batches(bucket, window):
            size = window_size(bucket)
            if no_padding:
                return window.batch(size, drop_remainder=drop_remainder)
            return window.padded_batch(size, padded_shapes, padding_values,
                                       drop_remainder=drop_remainder)
        return self.group_by_window(bucket_id, batches, window_size_func=window_size)

    def get_single_element(self, name=None):
        """The one element of this dataset; InvalidArgumentError when it has none or more
        (op DatasetToSingleElement)."""
        flat = located_apply(more_ops.SINGLE_ELEMENT, [self.variant_tensor],
                             iterators.component_attrs(self._element_spec))
        return structure.pack(self._element_spec, flat)

    def __len__(self):
        if not _is_eager(self.variant_tensor):
            raise TypeError('Dataset only supports len() in eager mode; use '
                            'Dataset.cardinality() instead.')
        n = int(self.cardinality())
        if n == INFINITE:
            raise TypeError('The dataset is infinite.')
        if n == UNKNOWN:
            raise TypeError('The dataset length is unknown.')
        return n

    def __bool__(self):
        return True

    def __nest_components__(self):
        return [self.variant_tensor]

    def __nest_from_components__(self, components):
        return Dataset(components[0], self._element_spec, self._options, self._op_type)

    def __repr__(self):
        """As TensorFlow's: `<_BatchDataset element_spec=TensorSpec(...)>`."""
        op_type = self._op_type or getattr(getattr(self.variant_tensor, 'op', None), 'type',
                                           'Dataset')
        return f'<_{re.sub(r"V[0-9]$", "", op_type)} element_spec={self._element_spec!r}>'


def _is_eager(tensor):
    return type(tensor) is EagerTensor and context.current_graph() is None


def _dtype_of(value):
    dtype = getattr(value, 'dtype', None)
    return dtype if isinstance(dtype, dtypes.DType) else dtypes.resource


def _unbatched(spec):
    if spec.shape.rank == 0:
        raise ValueError('Dataset.unbatch: cannot unbatch an input with scalar components.')
    return TensorSpec(TensorShape(None) if spec.shape.rank is None else spec.shape[1:],
                      spec.dtype)


def _per_component(value, element_spec, what, convert):
    """`value` given per component (the element's structure) or once for all of them."""
    leaves = structure.flatten(element_spec)
    if structure.is_structure(element_spec) and structure.is_structure(value):
        problem = structure.structure_difference(element_spec, value)
        if problem:
            raise ValueError(f'Dataset.padded_batch: {what} must have the structure of the '
                             f'elements. {problem}')
        return [convert(v) for v in structure.flatten(value)]
    if structure.is_structure(element_spec):
        return [convert(value) for _ in leaves]
    return [convert(value)]


def source(opdef, inputs, attrs, spec, payload=None, output_types_attr='output_types'):
    """A Dataset of `spec` made by the source op `opdef` (its component attrs named
    `output_types_attr` and `output_shapes`; None: the op has none)."""
    if output_types_attr is not None:
        component = iterators.component_attrs(spec)
        attrs = {**attrs, output_types_attr: component['output_types'],
                 'output_shapes': component['output_shapes']}
    return Dataset(located_apply(opdef, list(inputs), attrs, payload), spec, None, opdef.name)


def range_dataset(*args, output_type=dtypes.int64, name=None):
    """`range(stop)`, `range(start, stop[, step])` as Python's range, int64 elements."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f'Dataset.range takes 1 to 3 arguments (stop, or start, stop[, step]), '
                        f'got {len(args)}.')
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
    dtype = dtypes.as_dtype(output_type)
    spec = TensorSpec([], dtype)
    return source(ops.RANGE, [int64(start, 'start'), int64(stop, 'stop'),
                               int64(step, 'step')], {}, spec)


def zip_datasets(datasets, name=None):
    """Elements of the datasets side by side, in `datasets`' (tuple or dict) structure, until
    the shortest ends."""
    flat = structure.flatten(datasets)
    for d in flat:
        if not isinstance(d, Dataset):
            raise TypeError(f'Dataset.zip needs datasets (in a tuple or dict), got {d!r}.')
    spec = structure.pack(datasets, [d.element_spec for d in flat])
    return source(ops.ZIP, [d.variant_tensor for d in flat], {'N': len(flat)}, spec)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """The elements of `datasets` in the order `choice_dataset` (int64 scalars, indices into
    `datasets`) picks them; a pick of an exhausted dataset is skipped, or ends the result with
    `stop_on_empty_dataset=True` (op DirectedInterleaveDataset)."""
    datasets = list(datasets)
    if not datasets:
        raise ValueError('Invalid `datasets`. `datasets` should not be empty.')
    spec = choice_dataset.element_spec
    if getattr(spec, 'dtype', None) is not dtypes.int64 or spec.shape.rank not in (0, None):
        raise TypeError(f'Invalid `choice_dataset`. Elements of `choice_dataset` must be '
                        f'scalar of `tf.int64` dtype, but found {spec}.')
    element_spec = datasets[0].element_spec
    for d in datasets[1:]:
        element_spec = structure.most_specific(element_spec, d.element_spec,
                                               'Dataset.choose_from_datasets')
    return source(ops.DIRECTED_INTERLEAVE, [choice_dataset.variant_tensor] +
                  [d.variant_tensor for d in datasets],
                  {'seed': 0, 'stop_on_empty_dataset': bool(stop_on_empty_dataset),
                   'N': len(datasets)}, element_spec)
