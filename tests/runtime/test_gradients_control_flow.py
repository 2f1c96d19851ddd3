"""Gradients through control flow: converted `if`/`for`/`while` on tensors inside
`ag.function` (If and While ops, whose gradients are an If and a reverse While), `rt.cond` and
`rt.while_loop` in graphs, and Python control flow under an eager tape."""
import numpy as np

import autograph as ag
import runtime as rt


def graph_op_types(concrete):
    types = {op.type for op in concrete.graph.operations}
    for function in concrete.graph.library.values():
        types |= {op.type for op in function.operations}
    return types


def piecewise(x):
    with rt.GradientTape() as tape:
        tape.watch(x)
        if rt.reduce_sum(x) > 0:
            y = x * x * 3.0
        else:
            y = rt.exp(x)
        loss = rt.reduce_sum(y)
    return loss, tape.gradient(loss, x)


def test_a_converted_if_differentiates_each_branch():
    f = ag.function(piecewise)
    _, g = f(rt.constant([1.0, 2.0]))
    np.testing.assert_allclose(g.numpy(), [6.0, 12.0])
    _, g = f(rt.constant([-1.0, -2.0]))
    np.testing.assert_allclose(g.numpy(), np.exp([-1.0, -2.0]), rtol=1e-6)
    # the gradient is an If in the same graph, and there was one trace
    concrete = f.get_concrete_function(rt.constant([1.0, 2.0]))
    ifs = [op for op in concrete.graph.operations if op.type == 'StatelessIf']
    assert len(ifs) == 2
    assert f.experimental_get_tracing_count() == 1


def test_eagerly_the_tape_records_the_branch_python_ran():
    _, g = piecewise(rt.constant([1.0, 2.0]))
    np.testing.assert_allclose(g.numpy(), [6.0, 12.0])
    _, g = piecewise(rt.constant([-1.0, -2.0]))
    np.testing.assert_allclose(g.numpy(), np.exp([-1.0, -2.0]), rtol=1e-6)


def repeated_sine(x, n):
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in rt.range(n):
            y = rt.sin(y) * x
        loss = rt.reduce_sum(y)
    return loss, tape.gradient(loss, x)


def test_a_converted_for_loop_differentiates_through_a_reverse_while():
    f = ag.function(repeated_sine)
    x = rt.constant([0.5, 1.0])
    for n in (0, 1, 3):
        loss, g = f(x, rt.constant(n))
        eager_loss, eager_g = repeated_sine(x, n)
        np.testing.assert_allclose(loss.numpy(), eager_loss.numpy(), rtol=1e-6)
        np.testing.assert_allclose(g.numpy(), eager_g.numpy(), rtol=1e-5)
    concrete = f.get_concrete_function(x, rt.constant(3))
    whiles = [op for op in concrete.graph.operations if op.type == 'StatelessWhile']
    assert len(whiles) == 2  # the loop (run once) and the reverse loop


def test_a_while_loop_with_a_branch_inside_and_a_variable_read_in_the_body():
    w = rt.Variable(0.7)

    @ag.function
    def f(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            total = rt.constant(0.0)
            i = rt.constant(0)
            while i < 4:
                if i % 2 == 0:
                    total += x * w
                else:
                    total += rt.square(x) * w
                i += 1
        return tape.gradient(total, [x, w])

    gx, gw = f(rt.constant(1.5))
    # total = 2*x*w + 2*x^2*w
    np.testing.assert_allclose(gx.numpy(), 2 * 0.7 + 4 * 1.5 * 0.7, rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), 2 * 1.5 + 2 * 1.5 ** 2, rtol=1e-6)
    assert {'StatelessIf', 'If', 'While'} & graph_op_types(f.get_concrete_function(
        rt.constant(1.5)))


def test_rt_cond_and_while_loop_in_a_graph_have_gradients_too():
    @ag.function(autograph=False)
    def f(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = rt.cond(x > 1.0, lambda: x ** 3, lambda: -x)
            _, z = rt.while_loop(lambda i, z: i < 2, lambda i, z: (i + 1, z * y),
                                 (rt.constant(0), rt.constant(1.0)))
        return tape.gradient(z, x)  # z = y^2

    np.testing.assert_allclose(f(rt.constant(2.0)).numpy(), 6 * 2.0 ** 5, rtol=1e-6)
    np.testing.assert_allclose(f(rt.constant(0.5)).numpy(), 2 * 0.5, rtol=1e-6)


def test_a_loop_variable_the_target_does_not_depend_on_gives_none():
    @ag.function(autograph=False)
    def f(x, y):
        with rt.GradientTape() as tape:
            tape.watch([x, y])
            a, b = rt.while_loop(lambda a, b: a < 10.0, lambda a, b: (a * 2.0, b + 1.0), (x, y))
        return tape.gradient(a, [x, y], unconnected_gradients='zero')

    gx, gy = f(rt.constant(1.5), rt.constant(3.0))
    np.testing.assert_allclose(gx.numpy(), 8.0)  # 1.5 -> 12 in three doublings
    np.testing.assert_allclose(gy.numpy(), 0.0)


def test_a_tensor_array_written_in_a_converted_loop_passes_gradients():
    @ag.function
    def f(x, n):
        with rt.GradientTape() as tape:
            tape.watch(x)
            out = rt.TensorArray(rt.float32, size=n)
            h = x
            for i in rt.range(n):
                h = rt.tanh(h) * x
                out = out.write(i, h * rt.cast(i, rt.float32))
            loss = rt.reduce_sum(out.stack())
        return loss, tape.gradient(loss, x)

    def eager(x, n):
        with rt.GradientTape() as tape:
            tape.watch(x)
            total, h = 0.0, x
            for i in range(n):
                h = rt.tanh(h) * x
                total += rt.reduce_sum(h * float(i))
        return total, tape.gradient(total, x)

    x = rt.constant([0.3, -0.7])
    loss, g = f(x, rt.constant(4))
    eager_loss, eager_g = eager(x, 4)
    np.testing.assert_allclose(loss.numpy(), eager_loss.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), eager_g.numpy(), rtol=1e-5)


def test_nested_loops_a_break_and_a_second_derivative_through_a_loop():
    @ag.function
    def nested(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in rt.range(3):
                for _ in rt.range(2):
                    y = rt.sin(y) * x
        return tape.gradient(y, x)

    def nested_eager(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(6):
                y = rt.sin(y) * x
        return tape.gradient(y, x)

    x = rt.constant([0.4, 0.9])
    np.testing.assert_allclose(nested(x).numpy(), nested_eager(x).numpy(), rtol=1e-5)

    @ag.function
    def until_negative(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            total = rt.constant(0.0)
            for v in x:
                if v < 0:
                    break
                total += v * v
        return tape.gradient(total, x)

    np.testing.assert_allclose(until_negative(rt.constant([1.0, 2.0, -1.0, 3.0])).numpy(),
                               [2.0, 4.0, 0.0, 0.0])

    @ag.function
    def cube_derivatives(x):
        with rt.GradientTape() as outer:
            outer.watch(x)
            with rt.GradientTape() as inner:
                inner.watch(x)
                y = x
                for _ in rt.range(2):
                    y = y * x
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    dy, d2y = cube_derivatives(rt.constant(2.0))
    assert (float(dy), float(d2y)) == (12.0, 12.0)  # 3x^2, 6x


def test_switch_case_differentiates_the_branch_that_ran():
    w = rt.Variable(np.array([0.5, -1.5]))
    branches = [lambda x: rt.sin(x) * w, lambda x: rt.exp(x) + w * w, lambda x: x * x * x]

    def step(i, x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            loss = rt.reduce_sum(rt.switch_case(i, [lambda b=b: b(x) for b in branches]))
        return loss, tape.gradient(loss, [x, w])

    f = ag.function(step)
    x = np.array([0.3, -0.8])
    for i in (0, 1, 2, 5):  # 5 is outside the branches: the last one runs, as in TensorFlow
        loss, (gx, gw) = f(rt.constant(i), rt.constant(x))
        eager_loss, (eager_gx, eager_gw) = step(i, rt.constant(x))
        np.testing.assert_allclose(loss.numpy(), eager_loss.numpy(), rtol=1e-12)
        np.testing.assert_allclose(gx.numpy(), eager_gx.numpy(), rtol=1e-12)
        if eager_gw is None:  # the last branch does not read w: a zero gradient in the graph
            np.testing.assert_array_equal(gw.numpy(), [0.0, 0.0])
        else:
            np.testing.assert_allclose(gw.numpy(), eager_gw.numpy(), rtol=1e-12)

        def loss_at(value):
            return float(f(rt.constant(i), rt.constant(value))[0])
        numeric = [(loss_at(x + h) - loss_at(x - h)) / 2e-6 for h in np.eye(2) * 1e-6]
        np.testing.assert_allclose(gx.numpy(), numeric, rtol=1e-6)
    # one trace; the gradient is a second Case in the same graph, stateless: it reads the value
    # of w the forward branch read (an extra output of the forward Case), not w again
    assert f.experimental_get_tracing_count() == 1
    concrete = f.get_concrete_function(rt.constant(0), rt.constant(x))
    types = [op.type for op in concrete.graph.operations]
    assert (types.count('Case'), types.count('StatelessCase')) == (1, 1)


def test_second_derivative_through_switch_case():
    @ag.function(autograph=False)
    def f(i, x):
        with rt.GradientTape() as outer:
            outer.watch(x)
            with rt.GradientTape() as inner:
                inner.watch(x)
                y = rt.switch_case(i, [lambda: x * x * x, lambda: rt.sin(x)])
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    dy, d2y = f(rt.constant(0), rt.constant(2.0))
    assert (dy.numpy(), d2y.numpy()) == (12.0, 12.0)
    dy, d2y = f(rt.constant(1), rt.constant(2.0))
    np.testing.assert_allclose([dy.numpy(), d2y.numpy()], [np.cos(2.0), -np.sin(2.0)])


def test_switch_case_inside_a_converted_loop():
    def step(x, n):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = x
            for i in rt.range(n):
                y = rt.switch_case(i % 3, [lambda: rt.sin(y) * x, lambda: y * y, lambda: y + x])
        return tape.gradient(y, x)

    x = rt.constant([0.3, 0.7])
    graph_step = ag.function(step)
    for n in (0, 2, 4):
        np.testing.assert_allclose(graph_step(x, rt.constant(n)).numpy(), step(x, n).numpy(),
                                   rtol=1e-6)


# ---- the forward computation runs once; the gradient reads its values ------------------------

def test_a_converted_loop_runs_its_body_once_per_iteration_in_the_program():
    f = ag.function(repeated_sine)
    program = f.get_concrete_function(rt.constant([0.5, 1.0]), rt.constant(3)).optimized_program()
    loops = [node for node in program.nodes if node.type == 'StatelessWhile']
    assert len(loops) == 2  # the forward loop and the reverse loop, no forward re-run

    def count(programs, op_type):
        return sum(1 for p in programs for node in p.nodes if node.type == op_type) + sum(
            count(node.branches, op_type) for p in programs for node in p.nodes if node.branches)

    assert count([program], 'Sin') == 1  # the forward body; the reverse body reads saved values
    assert count([program], 'Cos') == 1  # sin's gradient, once, in the reverse body


def dropout_loop(x, n):
    with rt.GradientTape() as tape:
        tape.watch(x)
        h = x
        for _ in rt.range(n):
            h = rt.nn.dropout(h, rate=0.5)
        loss = rt.reduce_sum(h)
    return h, tape.gradient(loss, x)


def test_dropout_in_a_converted_loop_is_differentiated_with_the_masks_it_drew():
    f = ag.function(dropout_loop)
    x = rt.ones([400])
    h, g = f(x, rt.constant(3))
    # h = x * mask1 * mask2 * mask3 * 2**3, so with x = 1 the gradient is h itself
    np.testing.assert_array_equal(g.numpy(), h.numpy())
    assert set(np.unique(g.numpy())) == {0.0, 8.0}
    h2, g2 = f(x, rt.constant(3))  # a new run draws new masks, and differentiates those
    np.testing.assert_array_equal(g2.numpy(), h2.numpy())
    assert not np.array_equal(h.numpy(), h2.numpy())


def test_random_numbers_in_a_converted_if_are_differentiated_at_the_values_drawn():
    @ag.function
    def f(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            if rt.reduce_sum(x) > 0:
                y = x * rt.random.uniform([200]) + rt.nn.dropout(x, rate=0.25)
            else:
                y = x * 2.0
            loss = rt.reduce_sum(y)
        return y, tape.gradient(loss, x)

    y, g = f(rt.ones([200]))
    np.testing.assert_allclose(g.numpy(), y.numpy(), rtol=1e-6)  # y is linear in x = 1
    assert len(np.unique(g.numpy())) > 100
    y, g = f(-rt.ones([200]))
    np.testing.assert_array_equal(g.numpy(), np.full(200, 2.0))


def test_a_variable_assigned_then_read_in_a_loop_body_gives_the_gradient_of_the_values_read():
    v = rt.Variable(1.0)

    @ag.function
    def f(x):
        v.assign(1.0)
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in rt.range(3):
                v.assign_add(1.0)
                y = y * v  # reads 2, 3, 4
        return y, tape.gradient(y, x)

    y, g = f(rt.constant(0.5))
    assert (y.numpy(), g.numpy()) == (12.0, 24.0)


def test_a_forward_loop_differentiated_twice_is_rewritten_once():
    @ag.function
    def f(x):
        with rt.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x
            for _ in rt.range(4):
                y = rt.sin(y) * x
            z = y * y
        return tape.gradient(y, x), tape.gradient(z, x)

    def eager(x):
        with rt.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x
            for _ in range(4):
                y = rt.sin(y) * x
            z = y * y
        return tape.gradient(y, x), tape.gradient(z, x)

    x = rt.constant([0.3, 1.1])
    for got, want in zip(f(x), eager(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
    graph = f.get_concrete_function(x).graph
    forward, first, second = [op for op in graph.operations if op.type == 'StatelessWhile']
    # the forward loop's outputs: its loop variables, the iteration counter and one list per
    # saved value; the second gradient reads the lists the first one added
    assert len(forward.outputs) == len(forward.get_attr('T'))
    saved = {t.name for t in forward.outputs if t.dtype.name == 'variant'}
    assert saved
    for gradient in (first, second):
        assert saved == {t.name for t in gradient.inputs if t.dtype.name == 'variant'}
    assert 'StatelessWhile' in str(graph.as_graph_def())


def nested_with_a_branch(x):
    y = x
    for _ in rt.range(3):
        for _ in rt.range(2):
            if rt.reduce_sum(y) > 0.5:
                y = rt.sin(y) * x
            else:
                y = y * x + 0.1
    return y


def nested_with_a_branch_eagerly(x):
    y = x
    for _ in range(6):
        y = rt.sin(y) * x if float(rt.reduce_sum(y)) > 0.5 else y * x + 0.1
    return y


def gradient_and_its_gradient(fn, x):
    with rt.GradientTape() as outer:
        outer.watch(x)
        with rt.GradientTape() as inner:
            inner.watch(x)
            y = rt.reduce_sum(fn(x))
        dy = inner.gradient(y, x)
        s = rt.reduce_sum(dy * dy)
    return dy, outer.gradient(s, x)


def test_second_derivative_through_nested_loops_with_a_branch():
    # the outer loop saves the inner loop's saved values (lists of lists); their gradients
    # add up elementwise
    f = ag.function(lambda x: gradient_and_its_gradient(nested_with_a_branch, x))
    for value in ([0.3, 0.8], [0.1, 0.2], [-0.5, 0.2]):
        x = rt.constant(value, rt.float64)
        expected = gradient_and_its_gradient(nested_with_a_branch_eagerly, x)
        for got, want in zip(f(x), expected):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-9)


def test_a_forward_if_differentiated_twice_outputs_its_intermediates_once():
    def outputs_of_the_forward_if(calls):
        @ag.function
        def f(x):
            with rt.GradientTape(persistent=True) as tape:
                tape.watch(x)
                if rt.reduce_sum(x) > 0:
                    y = rt.exp(x) * rt.sin(x)
                else:
                    y = rt.tanh(x)
            return [tape.gradient(y, x) for _ in range(calls)]

        x = rt.constant([0.5, -0.2])
        grads = f(x)
        for g in grads:
            np.testing.assert_allclose(
                g.numpy(), np.exp(x.numpy()) * (np.sin(x.numpy()) + np.cos(x.numpy())),
                rtol=1e-6)
        graph = f.get_concrete_function(x).graph
        forward, *gradients = [op for op in graph.operations if op.type == 'StatelessIf']
        assert len(gradients) == calls
        return len(forward.outputs)

    once, twice = outputs_of_the_forward_if(1), outputs_of_the_forward_if(2)
    assert once == twice > 1  # y, then the values exp, sin and tanh's gradients read
