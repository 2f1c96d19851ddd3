"""`for x in ds:` / `for x in it:` inside ag.function: graph loops with loop-carried state,
break, continue and return (docs/datasets.md)."""
import pytest

import autograph as ag
import runtime as rt

D = rt.data.Dataset


def test_loop_over_a_dataset_with_break_and_continue():
    @ag.function
    def f(n):
        total = rt.constant(0, rt.int64)
        for x in D.range(n):
            if x % 2 == 1:
                continue
            if x > 6:
                break
            total += x
        return total
    assert int(f(rt.constant(20, rt.int64))) == 0 + 2 + 4 + 6
    assert int(f(rt.constant(3, rt.int64))) == 2
    graph = f.get_concrete_function(rt.constant(3, rt.int64)).graph
    types = [op.type for op in graph.get_operations()]
    # TensorFlow's form: the state in a scan, `break` a take_while on its flag, then a reduce
    assert types.count('ScanDataset') == types.count('TakeWhileDataset') == 1
    assert types.count('ReduceDataset') == 1 and 'While' not in types


def test_return_inside_a_dataset_loop():
    @ag.function
    def first_above(ds, limit):
        for x in ds:
            if x > limit:
                return x
        return rt.constant(-1, rt.int64)
    ds = D.range(10)
    assert int(first_above(ds, rt.constant(4, rt.int64))) == 5
    assert int(first_above(ds, rt.constant(40, rt.int64))) == -1
    # the value returned is undefined before the loop: no scan state; a while loop carries it
    graph = first_above.get_concrete_function(ds, rt.constant(4, rt.int64)).graph
    assert 'While' in [op.type for op in graph.get_operations()]


def test_loop_over_batches_of_tuples_with_state():
    @ag.function
    def train(xs, ys):
        loss = rt.constant(0.0)
        steps = 0
        for x, y in D.from_tensor_slices((xs, ys)).batch(2):
            loss += rt.reduce_sum((x - y) ** 2)
            steps += 1
        return loss, steps
    loss, steps = train(rt.constant([1.0, 2.0, 3.0]), rt.constant([0.0, 0.0, 0.0]))
    assert float(loss) == 14.0 and int(steps) == 2


def test_loop_over_an_iterator_leaves_it_after_the_last_element_seen():
    @ag.function
    def take_until(it):
        total = rt.constant(0, rt.int64)
        for x in it:
            total += x
            if total > 5:
                break
        return total, it.get_next()
    total, after = take_until(iter(D.range(10)))
    assert int(total) == 6 and int(after) == 4


def test_a_variable_first_set_in_a_dataset_loop_must_be_defined_before_it():
    @ag.function
    def last(ds):
        for x in ds:
            y = x
        return y
    with pytest.raises(ValueError, match="'y' must be defined before the loop") as info:
        last(D.range(3))
    assert 'test_dataset_loops.py' in str(info.value)


def test_a_new_element_structure_traces_again():
    traces = []

    @ag.function
    def total(ds):
        traces.append(1)
        s = rt.constant(0.0)
        for x in ds:
            s += rt.reduce_sum(rt.cast(x, rt.float32))
        return s
    assert float(total(D.range(4))) == 6.0
    assert float(total(D.range(3).batch(2))) == 3.0
    assert len(traces) == 2


def test_print_in_a_dataset_loop_body_runs_once_while_tracing(capsys):
    @ag.function
    def f():
        for x in D.range(3):
            print('body traced')
            rt.print(x)
        return 0
    f()
    out = capsys.readouterr().out
    assert out.count('body traced') == 1


def test_datasets_of_one_element_spec_share_a_graph():
    traces = []

    @ag.function
    def total(ds):
        traces.append(1)
        return ds.reduce(rt.constant(0, rt.int64), lambda s, x: s + x)
    assert int(total(D.range(4))) == 6
    assert int(total(D.range(3).map(lambda x: x + 10))) == 33
    assert len(traces) == 1
    assert 'DatasetSpec' in total.get_concrete_function(D.range(2)).pretty_printed_signature()


def test_dataset_spec_in_an_input_signature():
    @ag.function(input_signature=[rt.data.DatasetSpec(rt.TensorSpec([None], rt.float32))])
    def total(ds):
        return ds.reduce(rt.constant(0.0), lambda s, x: s + rt.reduce_sum(x))
    assert float(total(D.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]))) == 10.0
    assert float(total(D.from_tensor_slices([[1.0, 2.0, 5.0]]))) == 8.0
    with pytest.raises(TypeError, match='must be a dataset of DatasetSpec'):
        total(D.range(3))


def test_saving_a_function_holding_a_dataset_is_refused_naming_the_op(tmp_path):
    import pickle

    @ag.function(input_signature=[rt.TensorSpec([], rt.int64)])
    def f(n):
        return D.range(n).reduce(rt.constant(0, rt.int64), lambda s, x: s + x)
    with pytest.raises(ValueError, match="dataset op 'RangeDataset'"):
        ag.saved_model.save(f, str(tmp_path))
    with pytest.raises(ValueError, match='RangeDataset'):
        pickle.dumps(f)


def test_enumerate_zip_and_len_of_datasets_in_a_function():
    @ag.function
    def f():
        total = rt.constant(0, rt.int64)
        for i, x in enumerate(D.range(5, 8)):
            total += i * x
        for a, b in zip(D.range(3), D.range(10, 20)):
            total += a * b
        return total, len(D.range(4).batch(3))
    total, n = f()
    assert int(total) == 20 + 35 and int(n) == 2


def test_a_python_loop_over_a_dataset_in_a_graph_fails_instead_of_running_forever():
    @ag.do_not_convert
    def unconverted(ds):
        total = 0
        for x in ds:
            total += x
        return total

    @ag.function
    def f():
        return unconverted(D.range(3))
    with pytest.raises(RuntimeError, match='Python loop over a dataset in a graph'):
        f()


def test_nested_dataset_loops_appends_and_inner_tensor_loops():
    @ag.function
    def nested():
        total = rt.constant(0, rt.int64)
        for x in D.range(3):
            for y in D.range(x + 1):
                total += x * 10 + y
        return total
    assert int(nested()) == sum(x * 10 + y for x in range(3) for y in range(x + 1))

    @ag.function
    def appends():
        out = []
        for x in D.range(4):
            out.append(x * 2)
        return rt.stack(out)
    assert appends().numpy().tolist() == [0, 2, 4, 6]

    @ag.function
    def inner_while():
        total = rt.constant(0, rt.int64)
        for x in D.range(4):
            i = rt.constant(0, rt.int64)
            while i < x:
                total += 1
                i += 1
        return total
    assert int(inner_while()) == 6


def test_loop_state_relaxes_to_elements_of_unknown_shape_as_the_function_guide_needs():
    @ag.function
    def train(dataset):
        loss = rt.constant(0)
        for x, y in dataset:
            loss += rt.abs(y - x)
        return loss
    small = D.from_generator(lambda: [(1, 3)] * 3, (rt.int32, rt.int32))
    big = D.from_generator(lambda: [(1, 3)] * 10, (rt.int32, rt.int32))
    assert int(train(small)) == 6 and int(train(big)) == 20
    sizes = [len(c.graph.get_operations()) for c in train.concrete_functions()]
    assert len(sizes) == 1  # one graph, whatever the dataset's length


def _op_types(function, *args):
    return [op.type for op in function.get_concrete_function(*args).graph.get_operations()]


def test_a_dataset_loop_is_tensorflows_scan_and_reduce():
    def train(dataset):
        loss = rt.constant(0)
        for x, y in dataset:
            loss += rt.abs(y - x)
        return loss
    ds = D.from_tensor_slices(([1, 2, 3], [4, 6, 8]))
    staged = ag.function(train)
    assert int(staged(ds)) == int(train(ds)) == 12
    # TensorFlow's graph of the function guide's cell: 6 nodes
    assert _op_types(staged, ds) == ['Placeholder', 'Const', 'ScanDataset', 'ReduceDataset',
                                     'NoOp', 'Identity']


def test_a_dataset_loop_without_variables_carries_a_dummy_state_and_still_runs():
    v = rt.Variable(0, dtype=rt.int64)

    @ag.function
    def accumulate(ds):
        for x in ds:
            v.assign_add(x)
        return v.read_value()
    assert int(accumulate(D.range(5))) == 10
    assert int(accumulate(D.range(3))) == 13
    types = _op_types(accumulate, D.range(5))
    assert types.count('ScanDataset') == types.count('ReduceDataset') == 1


def test_python_numbers_in_a_dataset_loop_become_tensors_and_dtypes_must_stay():
    @ag.function
    def count(ds):
        n = 0
        for _ in ds:
            n = n + 1
        return n
    assert int(count(D.range(7))) == 7 and count(D.range(7)).dtype is rt.int32

    @ag.function
    def changes(ds):
        s = rt.constant(0, rt.int64)
        for x in ds:
            s = rt.cast(x, rt.float32)
        return s
    with pytest.raises(TypeError, match="'s' has dtype int64 before the loop, but dtype "
                                        "float32 after one iteration"):
        changes(D.range(3))


def test_loops_a_scan_cannot_carry_keep_the_while_loop():
    @ag.function
    def stacked(ds):
        out = rt.TensorArray(rt.int64, size=0, dynamic_size=True)
        i = 0
        for x in ds:
            out = out.write(i, x * 2)
            i += 1
        return out.stack()
    assert stacked(D.range(4)).numpy().tolist() == [0, 2, 4, 6]
    assert 'While' in _op_types(stacked, D.range(4))


def test_no_gradient_flows_through_a_dataset_loop_as_in_tensorflow():
    w = rt.Variable(2.0)

    @ag.function
    def f(ds):
        with rt.GradientTape() as tape:
            loss = rt.constant(0.0)
            for x in ds:
                loss += w * x
        return loss, tape.gradient(loss, w)
    loss, grad = f(D.from_tensor_slices([1.0, 2.0, 3.0]))
    assert float(loss) == 12.0 and grad is None  # ReduceDataset has no gradient in TF either
