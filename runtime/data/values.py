"""What a dataset op computes: a `DatasetValue`, the value of a `variant` dataset tensor.

A DatasetValue is an immutable description of a pipeline stage (its input stages, its
function, its numbers). `iter(value)` starts one pass over it: a Python iterator of elements,
each a tuple of numpy values in flat order (runtime/data/structure.py). Nothing is copied per
pass: slices of the source arrays are views, and only batching makes new arrays. Each pass is
independent, so one dataset may be iterated by many iterators (and epochs) at once.

`cardinality` is the number of elements: INFINITE (-1), UNKNOWN (-2) or a count.
"""
import itertools

import numpy as np

from runtime.core import errors

INFINITE = -1
UNKNOWN = -2


def shape_text(shape):
    return '[' + ','.join(str(d) for d in shape) + ']'


class DatasetValue:
    """A stage of a pipeline; subclasses define `__iter__` and `cardinality`."""

    cardinality = UNKNOWN

    def __repr__(self):
        return f'<{type(self).__name__} cardinality={self.cardinality}>'


# ---- sources --------------------------------------------------------------------------------

class TensorSlices(DatasetValue):
    def __init__(self, components):
        self.components = components
        self.cardinality = len(components[0])

    def __iter__(self):
        return zip(*self.components)


class Tensors(DatasetValue):
    cardinality = 1

    def __init__(self, components):
        self.components = tuple(components)

    def __iter__(self):
        return iter((self.components,))


class Range(DatasetValue):
    def __init__(self, start, stop, step, dtype):
        if step == 0:
            raise errors.InvalidArgumentError(message='step must be a non-zero integer.')
        self.start, self.stop, self.step, self.dtype = int(start), int(stop), int(step), dtype
        self.cardinality = len(range(self.start, self.stop, self.step))

    def __iter__(self):
        scalar = self.dtype.type
        return ((scalar(i),) for i in range(self.start, self.stop, self.step))


class Generator(DatasetValue):
    """Elements a Python generator yields, checked against the declared types and shapes."""

    def __init__(self, make, flatten, converters, shapes):
        self.make, self.flatten, self.converters, self.shapes = make, flatten, converters, shapes

    def __iter__(self):
        for item in self.make():
            flat = self.flatten(item)
            if len(flat) != len(self.converters):
                raise TypeError(f'The generator yielded {item!r}, which does not match the '
                                f'structure of output_signature ({len(self.converters)} '
                                f'components).')
            values = []
            for i, (value, convert, shape) in enumerate(zip(flat, self.converters, self.shapes)):
                value = convert(value)
                if not shape.is_compatible_with(np.shape(value)):
                    raise errors.InvalidArgumentError(
                        message=f'`generator` yielded an element of shape '
                                f'{shape_text(np.shape(value))} where an element of shape '
                                f'{shape_text(shape) if shape.rank is not None else "?"} was '
                                f'expected (component {i}).')
                values.append(value)
            yield tuple(values)


class TextLines(DatasetValue):
    def __init__(self, filenames):
        self.filenames = [f.decode() if isinstance(f, bytes) else str(f) for f in filenames]

    def __iter__(self):
        for name in self.filenames:
            try:
                handle = open(name, 'rb')
            except OSError as e:
                raise errors.NotFoundError(message=f'{name}; {e.strerror}') from None
            with handle:
                for line in handle:
                    yield (line.rstrip(b'\n').rstrip(b'\r'),)


class Zip(DatasetValue):
    def __init__(self, inputs):
        self.inputs = inputs
        known = [d.cardinality for d in inputs]
        finite = [c for c in known if c >= 0]
        if finite and (min(finite) == 0 or UNKNOWN not in known):
            self.cardinality = min(finite)
        elif all(c == INFINITE for c in known):
            self.cardinality = INFINITE

    def __iter__(self):
        for parts in zip(*self.inputs):
            yield tuple(itertools.chain.from_iterable(parts))


class Concatenate(DatasetValue):
    def __init__(self, first, second):
        self.first, self.second = first, second
        a, b = first.cardinality, second.cardinality
        if INFINITE in (a, b):
            self.cardinality = INFINITE
        elif a >= 0 and b >= 0:
            self.cardinality = a + b

    def __iter__(self):
        return itertools.chain(self.first, self.second)


class SampleFrom(DatasetValue):
    """Elements drawn from `inputs` at random with `weights` (seeded per pass)."""

    def __init__(self, inputs, weights, seed, stop_on_empty):
        self.inputs, self.weights, self.seed = inputs, np.asarray(weights, np.float64), seed
        self.stop_on_empty = stop_on_empty
        self.passes = itertools.count()

    def __iter__(self):
        rng = np.random.default_rng([self.seed, next(self.passes)])
        iterators = [iter(d) for d in self.inputs]
        weights = self.weights.copy()
        while weights.sum() > 0:
            k = rng.choice(len(iterators), p=weights / weights.sum())
            try:
                yield next(iterators[k])
            except StopIteration:
                if self.stop_on_empty:
                    return
                weights[k] = 0


class ChooseFrom(DatasetValue):
    """`choose_from_datasets`: each element of `selector` (an int64 index) picks the dataset
    the next element comes from."""

    def __init__(self, selector, inputs, stop_on_empty):
        self.selector, self.inputs, self.stop_on_empty = selector, inputs, stop_on_empty

    def __iter__(self):
        iterators = [iter(d) for d in self.inputs]
        ended = [False] * len(iterators)
        for (index,) in self.selector:
            k = int(index)
            if not 0 <= k < len(iterators):
                raise errors.InvalidArgumentError(
                    message=f'Selector index out of range: {k} >= {len(iterators)}')
            if ended[k]:
                continue
            try:
                yield next(iterators[k])
            except StopIteration:
                if self.stop_on_empty:
                    return
                ended[k] = True


# ---- transformations ------------------------------------------------------------------------

class WithFunction(DatasetValue):
    """A stage running a TracedFunction (runtime/data/functions.py) on its input's elements,
    with the values the function captured."""

    def __init__(self, input_, function, captured):
        self.input, self.function, self.captured = input_, function, tuple(captured)


class Map(WithFunction):
    def __init__(self, input_, function, captured):
        super().__init__(input_, function, captured)
        self.cardinality = input_.cardinality

    def __iter__(self):
        return MapIterator(iter(self.input), self.function.run, self.captured)


class MapIterator:
    """A pass over a Map: an element whose function fails raises, and the pass goes on from
    the next element (what `ignore_errors` needs; a generator would end at the error)."""

    __slots__ = ('elements', 'run', 'captured')

    def __init__(self, elements, run, captured):
        self.elements, self.run, self.captured = elements, run, captured

    def __iter__(self):
        return self

    def __next__(self):
        return self.run(*next(self.elements), *self.captured)


class Filter(WithFunction):
    def __init__(self, input_, function, captured):
        super().__init__(input_, function, captured)
        if input_.cardinality == INFINITE:
            self.cardinality = INFINITE

    def __iter__(self):
        run, captured = self.function.run, self.captured
        for element in self.input:
            if run(*element, *captured)[0]:
                yield element


def stack(parts, index):
    """One component of a batch: the numpy stack of the elements' values (strings in an object
    array, which keeps their trailing NUL bytes)."""
    if isinstance(parts[0], bytes):
        return np.array(parts, dtype=object)
    try:
        return np.stack(parts)
    except ValueError:
        first = np.shape(parts[0])
        for k, part in enumerate(parts):
            if np.shape(part) != first:
                raise errors.InvalidArgumentError(
                    message=f'Cannot batch tensors with different shapes in component {index}. '
                            f'First element had shape {shape_text(first)} and element {k} had '
                            f'shape {shape_text(np.shape(part))}.') from None
        raise


def batch_count(cardinality, size, drop_remainder):
    if cardinality < 0:
        return cardinality
    return cardinality // size if drop_remainder else -(-cardinality // size)


class Batch(DatasetValue):
    def __init__(self, input_, size, drop_remainder):
        if size <= 0:
            raise errors.InvalidArgumentError(message='Batch size must be greater than zero.')
        self.input, self.size, self.drop_remainder = input_, size, drop_remainder
        self.cardinality = batch_count(input_.cardinality, size, drop_remainder)

    def __iter__(self):
        size, it, component = self.size, iter(self.input), self.component
        while True:
            chunk = list(itertools.islice(it, size))
            if not chunk or (len(chunk) < size and self.drop_remainder):
                return
            yield tuple(component(parts, i) for i, parts in enumerate(zip(*chunk)))

    component = staticmethod(stack)


class PaddedBatch(Batch):
    def __init__(self, input_, size, shapes, padding, drop_remainder):
        super().__init__(input_, size, drop_remainder)
        self.shapes, self.padding = shapes, padding

    def component(self, parts, index):
        """The batch of one component, each element padded to the declared shape (its
        unknown dims: the longest element's)."""
        declared = self.shapes[index]
        ranks = {np.ndim(p) for p in parts}
        if len(ranks) != 1:
            raise errors.InvalidArgumentError(
                message=f'Cannot batch tensors of different ranks in component {index}.')
        longest = np.max([np.shape(p) for p in parts], axis=0) if ranks != {0} else ()
        target = []
        for d, (want, have) in enumerate(zip(declared, longest)):
            if want is not None and have > want:
                raise errors.InvalidArgumentError(
                    message=f'Attempted to pad to a smaller size than the input element '
                            f'(component {index}, dimension {d}: {have} > {want}).')
            target.append(have if want is None else want)
        out = np.full([len(parts)] + target, self.padding[index],
                      dtype=np.asarray(parts[0]).dtype)
        for k, part in enumerate(parts):
            out[(k,) + tuple(slice(0, n) for n in np.shape(part))] = part
        return out


class Unbatch(DatasetValue):
    def __init__(self, input_):
        self.input = input_
        if input_.cardinality == INFINITE:
            self.cardinality = INFINITE

    def __iter__(self):
        for element in self.input:
            n = {len(v) for v in element}
            if len(n) > 1:
                raise errors.InvalidArgumentError(
                    message=f'Input element must have the same batch size in each component, '
                            f'got sizes {sorted(n)}.')
            yield from zip(*element)


class Shuffle(DatasetValue):
    """TensorFlow's buffer shuffle: a buffer of `size` elements, from which a random one is
    given (and replaced by the next input element). Each pass draws from its own seed: the
    same every pass without `reshuffle`, else the pass number mixed in."""

    def __init__(self, input_, size, seed, reshuffle):
        if size <= 0:
            raise errors.InvalidArgumentError(
                message='buffer_size must be greater than zero.')
        self.input, self.size, self.seed, self.reshuffle = input_, size, seed, reshuffle
        self.passes = itertools.count()
        self.cardinality = input_.cardinality

    def __iter__(self):
        rng = np.random.default_rng([self.seed, next(self.passes) if self.reshuffle else 0])
        it = iter(self.input)
        buffer = list(itertools.islice(it, self.size))
        randoms, k = rng.random(4096), 0
        for element in it:
            if k == 4096:
                randoms, k = rng.random(4096), 0
            j = int(randoms[k] * len(buffer))
            k += 1
            yield buffer[j]
            buffer[j] = element
        order = rng.permutation(len(buffer))
        for j in order:
            yield buffer[j]


class Repeat(DatasetValue):
    def __init__(self, input_, count):
        self.input, self.count = input_, count
        c = input_.cardinality
        if count < 0:
            self.cardinality = 0 if c == 0 else INFINITE
        elif c >= 0:
            self.cardinality = c * count
        else:
            self.cardinality = c

    def __iter__(self):
        epochs = itertools.count() if self.count < 0 else range(self.count)
        for _ in epochs:
            empty = True
            for element in self.input:
                empty = False
                yield element
            if empty:
                return


class Take(DatasetValue):
    def __init__(self, input_, count):
        self.input, self.count = input_, count
        c = input_.cardinality
        if count < 0:
            self.cardinality = c
        elif c == INFINITE:
            self.cardinality = count
        elif c >= 0:
            self.cardinality = min(c, count)

    def __iter__(self):
        return iter(self.input) if self.count < 0 else itertools.islice(self.input, self.count)


class Skip(DatasetValue):
    def __init__(self, input_, count):
        self.input, self.count = input_, count
        c = input_.cardinality
        if c == INFINITE:
            self.cardinality = INFINITE
        elif c >= 0:
            self.cardinality = 0 if count < 0 else max(c - count, 0)

    def __iter__(self):
        if self.count < 0:
            return iter(())
        return itertools.islice(self.input, self.count, None)


class FlatMap(WithFunction):
    """Each element mapped to a dataset by the function, whose elements follow in order."""

    def __iter__(self):
        run, captured = self.function.run, self.captured
        for element in self.input:
            yield from run(*element, *captured)[0]


class Interleave(WithFunction):
    """`cycle_length` datasets made by the function at a time, `block_length` elements each in
    turn; an exhausted one is replaced by the next input element's."""

    def __init__(self, input_, function, captured, cycle_length, block_length):
        super().__init__(input_, function, captured)
        self.cycle_length, self.block_length = cycle_length, block_length

    def __iter__(self):
        """TensorFlow's order: the cycle visits its slots in turn; an empty slot takes the
        next input element's dataset and gives its first element at once; a dataset that
        ends leaves its slot empty and the cycle moves on."""
        run, captured, cycle = self.function.run, self.captured, self.cycle_length
        inputs = iter(self.input)
        slots = [None] * cycle
        k = block = is_open = 0
        end_of_input = False
        while not end_of_input or is_open:
            current = slots[k]
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    block += 1
                    if block < self.block_length:
                        continue
                else:
                    slots[k] = None
                    is_open -= 1
            elif not end_of_input:
                element = next(inputs, None)
                if element is None:
                    end_of_input = True
                else:
                    slots[k] = iter(run(*element, *captured)[0])
                    is_open += 1
                continue
            block, k = 0, (k + 1) % cycle


class TakeWhile(WithFunction):
    def __iter__(self):
        run, captured = self.function.run, self.captured
        for element in self.input:
            if not run(*element, *captured)[0]:
                return
            yield element


class Scan(DatasetValue):
    def __init__(self, input_, initial, function, captured):
        self.input, self.initial, self.function = input_, tuple(initial), function
        self.captured = tuple(captured)
        self.cardinality = input_.cardinality

    def __iter__(self):
        run, captured, n = self.function.run, self.captured, len(self.initial)
        state = self.initial
        for element in self.input:
            out = run(*state, *element, *captured)
            state = out[:n]
            yield out[n:]


class Cache(DatasetValue):
    """In memory: the first complete pass is recorded, later passes replay it."""

    def __init__(self, input_):
        self.input, self.elements = input_, None
        self.cardinality = input_.cardinality

    def __iter__(self):
        if self.elements is not None:
            return iter(self.elements)
        return self.recording()

    def recording(self):
        seen = []
        for element in self.input:
            seen.append(element)
            yield element
        self.elements = seen


class Shard(DatasetValue):
    def __init__(self, input_, num_shards, index):
        if num_shards <= 0 or not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(
                message=f'Index must be between 0 and {num_shards - 1} (got index={index}, '
                        f'num_shards={num_shards}).')
        self.input, self.num_shards, self.index = input_, num_shards, index
        c = input_.cardinality
        self.cardinality = c if c < 0 else max(0, -(-(c - index) // num_shards))

    def __iter__(self):
        return itertools.islice(self.input, self.index, None, self.num_shards)


class Options(DatasetValue):
    """`with_options`: the same elements; the options live on the Dataset."""

    def __init__(self, input_):
        self.input = input_
        self.cardinality = input_.cardinality

    def __iter__(self):
        return iter(self.input)
