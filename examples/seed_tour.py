"""The seed guide's examples, run with this project: `python3 examples/seed_tour.py`.

Each section mirrors a section of the TensorFlow guide "Introduction to graphs and
tf.function" with `rt` for `tf` and `ag` for `tf.function`/`tf.autograph`.
"""
import timeit

import autograph as ag
import runtime as rt


def section(title):
    print(f'\n=== {title} ===')


section('Graphs from Python functions')


def a_regular_function(x, y, b):
    x = rt.matmul(x, y)
    x = x + b
    return x


a_function_that_uses_a_graph = ag.function(a_regular_function)
x1 = rt.constant([[1.0, 2.0]])
y1 = rt.constant([[2.0], [3.0]])
b1 = rt.constant(4.0)
orig_value = a_regular_function(x1, y1, b1).numpy()
tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
assert (orig_value == tf_function_value).all()
print('eager and graph agree:', tf_function_value)


section('AutoGraph: Python control flow becomes graph control flow')


def simple_relu(x):
    if rt.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = ag.function(simple_relu)
print('First branch, with graph:', tf_simple_relu(rt.constant(1)).numpy())
print('Second branch, with graph:', tf_simple_relu(rt.constant(-1)).numpy())
print(ag.to_code(simple_relu))
print(tf_simple_relu.get_concrete_function(rt.constant(1)).graph.as_graph_def())


section('Polymorphism: one Function, several graphs')


@ag.function
def my_relu(x):
    return rt.maximum(0., x)


print(my_relu(rt.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(rt.constant([3., -3.])))
print(my_relu(rt.constant(-2.5)))
print(my_relu(rt.constant([-1., 1.])))
print(my_relu.pretty_printed_concrete_signatures())


section('Graph execution and eager execution')


@ag.function
def get_MSE(y_true, y_pred):
    print('Calculating MSE!')
    sq_diff = rt.pow(y_true - y_pred, 2)
    return rt.reduce_mean(sq_diff)


rt.random.set_seed(1)
y_true = rt.random.uniform([5], maxval=10, dtype=rt.int32)
y_pred = rt.random.uniform([5], maxval=10, dtype=rt.int32)
print(y_true)
print(y_pred)
for _ in range(3):
    error = get_MSE(y_true, y_pred)
rt.config.run_functions_eagerly(True)
for _ in range(3):
    error = get_MSE(y_true, y_pred)
rt.config.run_functions_eagerly(False)
print('MSE:', error)


section('Non-strict execution')


def unused_return_eager(x):
    rt.gather(x, [1])
    return x


try:
    print(unused_return_eager(rt.constant([0.0])))
except rt.errors.InvalidArgumentError as e:
    print(f'{type(e).__name__}: {e}')


@ag.function
def unused_return_graph(x):
    rt.gather(x, [1])
    return x


print(unused_return_graph(rt.constant([0.0])))


section('Seeing the speed-up')

x = rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)


def power(x, y):
    result = rt.eye(10, dtype=rt.int32)
    for _ in range(y):
        result = rt.matmul(x, result)
    return result


print('Eager execution:', timeit.timeit(lambda: power(x, 100), number=1000), 'seconds')
power_as_graph = ag.function(power)
print('Graph execution:', timeit.timeit(lambda: power_as_graph(x, 100), number=1000), 'seconds')


section('When is a Function tracing?')


@ag.function
def a_function_with_python_side_effect(x):
    print('Tracing!')
    return x * x + rt.constant(2)


print(a_function_with_python_side_effect(rt.constant(2)))
print(a_function_with_python_side_effect(rt.constant(3)))
print(a_function_with_python_side_effect(2))
print(a_function_with_python_side_effect(3))


@ag.function
def train(num_steps):
    print('Tracing train!')  # a Python value: printed while tracing only
    for _ in rt.range(num_steps):
        pass


train(num_steps=rt.constant(10))
train(num_steps=rt.constant(20))
print('traces of train:', train.experimental_get_tracing_count())
