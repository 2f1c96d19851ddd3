"""Write the TensorFlow fixtures of tests/runtime/fixtures/ (run with a Python that has
tensorflow, never a project dependency):

    /path/to/tf-venv/bin/python tools/make_tf_fixtures.py tests/runtime/fixtures

tf_dense.pb, tf_relu_cond.pb, tf_while.pb: binary GraphDefs of small tf.functions;
tf_v1_saved_model/: a SavedModel from TensorFlow's TF1 builder (a while loop and a cond).
tf2_saved_model/: a tf.Module saved by TensorFlow 2's tf.saved_model.save: Variables (one in a
sub-module), functions with input signatures (one updating a Variable, one calling another
tf.function and branching on a tensor), two signatures; its variables are a TensorBundle.
tf2_traced_saved_model/: a tf.Module whose tf.function has no input signature, saved after
three traces (float32 scalar, int64 scalar with a Python bool argument, float32 vector), with a
list of Variables and a tuple-and-dict output.
tf2_custom_gradient_saved_model/: a tf.Module whose function passes its argument through a
tf.custom_gradient halving the gradient, saved with its gradient function (TensorFlow's default
SaveOptions(experimental_custom_gradients=True)).
Prints the values TensorFlow computes, which the tests expect.
"""
import os
import shutil
import sys

import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32),
                              tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([], tf.float32)])
def dense(x, w, b):
    return tf.maximum(tf.matmul(x, w) + b, 0.0)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def relu_cond(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def count_loop(n):
    i = tf.constant(0)
    s = tf.constant(0)
    while i < n:
        s += i * i
        i += 1
    return s


def write_graph_defs(out):
    for name, fn in [('tf_dense', dense), ('tf_relu_cond', relu_cond), ('tf_while', count_loop)]:
        graph_def = fn.get_concrete_function().graph.as_graph_def()
        with open(os.path.join(out, name + '.pb'), 'wb') as f:
            f.write(graph_def.SerializeToString())
    print(dense(tf.constant([[1., -2.], [3., 4.]]), tf.constant([[1., 2., 3.], [4., 5., 6.]]),
                tf.constant(0.5)).numpy())
    print(relu_cond(tf.constant(5)).numpy(), relu_cond(tf.constant(-5)).numpy(),
          count_loop(tf.constant(5)).numpy())


def write_v1_saved_model(out):
    tf1 = tf.compat.v1
    path = os.path.join(out, 'tf_v1_saved_model')
    shutil.rmtree(path, ignore_errors=True)
    graph = tf.Graph()
    with graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name='x')
        k = tf1.placeholder(tf.int32, [], name='k')
        _, y = tf.while_loop(lambda i, acc: i < k, lambda i, acc: (i + 1, acc * 2.0),
                             [tf.constant(0), x])
        z = tf.cond(tf.reduce_sum(y) > 0, lambda: y + 1.0, lambda: y - 1.0)
        total = tf.reduce_sum(z, axis=1, name='total')
        with tf1.Session(graph=graph) as session:
            builder = tf1.saved_model.Builder(path)
            signature = tf1.saved_model.predict_signature_def({'x': x, 'k': k},
                                                              {'z': z, 'total': total})
            builder.add_meta_graph_and_variables(session, ['serve'], signature_def_map={
                'serving_default': signature})
            builder.save()
            print(session.run([z, total], {x: [[1., -2., 3.]], k: 2}))


class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.factor = tf.Variable(2.0, name='factor')


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1., 2.], [3., 4.]], name='w')
        self.b = tf.Variable([0.5, -0.5], name='b')
        self.steps = tf.Variable(0, name='steps')
        self.scale = Scale()

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def bump(self, n):
        self.steps.assign_add(n)
        return self.steps.read_value()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def stats(self, v):
        y = self(tf.stack([v, v * 0.5], axis=1))
        if tf.reduce_sum(v) > 0:
            total = tf.reduce_sum(y) * self.scale.factor
        else:
            total = -tf.reduce_sum(v)
        return {'total': total, 'peak': tf.reduce_max(y)}


def write_v2_saved_model(out):
    path = os.path.join(out, 'tf2_saved_model')
    shutil.rmtree(path, ignore_errors=True)
    model = Affine()
    tf.saved_model.save(model, path, signatures={'serving_default': model.__call__,
                                                 'stats': model.stats})
    shutil.rmtree(os.path.join(path, 'assets'), ignore_errors=True)  # empty
    x = tf.constant([[1., -1.], [2., 0.5]])
    print(model(x).numpy())
    print({k: v.numpy() for k, v in model.stats(tf.constant([1., 2.])).items()},
          {k: v.numpy() for k, v in model.stats(tf.constant([-1., -2.])).items()})
    print(model.bump(tf.constant(3)).numpy(), model.bump(tf.constant(2)).numpy())


class Traced(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(3.0)
        self.layers = [tf.Variable(1.0), tf.Variable(2.0)]

    @tf.function
    def f(self, x, double=False):
        y = x * tf.cast(self.v, x.dtype)
        if double:
            y = y * 2
        return y, {'a': y + tf.cast(self.layers[1], x.dtype)}


def write_traced_saved_model(out):
    path = os.path.join(out, 'tf2_traced_saved_model')
    shutil.rmtree(path, ignore_errors=True)
    model = Traced()
    results = [model.f(tf.constant(1.0)), model.f(tf.constant(2, tf.int64), True),
               model.f(tf.constant([1.0, 2.0]))]
    tf.saved_model.save(model, path)
    shutil.rmtree(os.path.join(path, 'assets'), ignore_errors=True)  # empty
    print([(y.numpy(), d['a'].numpy()) for y, d in results])


@tf.custom_gradient
def half_gradient(y):
    def backward(dy):
        return dy * 0.5
    return tf.identity(y), backward


class HalfGradient(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def call_custom_grad(self, x):
        return half_gradient(x)


def write_custom_gradient_saved_model(out):
    path = os.path.join(out, 'tf2_custom_gradient_saved_model')
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(HalfGradient(), path)
    shutil.rmtree(os.path.join(path, 'assets'), ignore_errors=True)  # empty
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.saved_model.load(path).call_custom_grad(v * v)
    print(tape.gradient(y, v).numpy())


if __name__ == '__main__':
    target = sys.argv[1] if len(sys.argv) > 1 else 'tests/runtime/fixtures'
    os.makedirs(target, exist_ok=True)
    write_graph_defs(target)
    write_v1_saved_model(target)
    write_v2_saved_model(target)
    write_traced_saved_model(target)
    write_custom_gradient_saved_model(target)
