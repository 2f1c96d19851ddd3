"""Write tests/runtime/fixtures/tf2_variable_ops_saved_model/: a tf.Module saved by TensorFlow 2
whose functions use every variable update op TensorFlow writes for `tf.Variable` methods
(AssignVariableOp with validate_shape, AssignAddVariableOp, AssignSubVariableOp, ReadVariableOp,
ResourceGather, ResourceScatterUpdate/Add/Sub/Mul/Div/Min/Max, ResourceScatterNdUpdate/Add/Sub,
ResourceStridedSliceAssign, VarHandleOp with its attrs), and the results TensorFlow gives for a
fixed sequence of calls (expected.json), which tests/autograph/saved_model/
test_tensorflow_variable_ops.py replays. Run with a Python that has tensorflow (never a project
dependency):

    /path/to/tf-venv/bin/python tools/make_tf_variable_ops_saved_model.py
"""
import json
import os
import shutil
import sys

import numpy as np
import tensorflow as tf

# (method, argument) in call order, replayed by the test on a fresh load
CALLS = [
    ('assign', [1.0, 2.0, 3.0, 4.0]), ('assign_add', [0.5, 0.5, 0.5, 0.5]),
    ('assign_sub', [1.0, 0.0, 1.0, 0.0]), ('gather', [3, 0]), ('scatter', [1, 2]),
    ('scatter_nd', [[0], [3]]), ('slice_assign', [9.0, 8.0]),
    ('assign_no_read', [2.0, 2.0, 2.0, 2.0]),
    ('count_up', 3), ('reshape_free', [1.0, 2.0]), ('reshape_free', [1.0, 2.0, 3.0]),
]


class VariableOps(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([0.0, 0.0, 0.0, 0.0], name='v')
        self.counter = tf.Variable(0, dtype=tf.int64, name='counter')
        self.free = tf.Variable([0.0], shape=tf.TensorShape(None), name='free')

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def assign(self, x):
        return self.v.assign(x)

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def assign_add(self, x):
        self.v.assign_add(x)
        return self.v.read_value()

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def assign_sub(self, x):
        return self.v.assign_sub(x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def gather(self, i):
        return {'gather': tf.gather(self.v, i), 'sparse_read': self.v.sparse_read(i)}

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
    def scatter(self, i):
        updates = tf.IndexedSlices(tf.constant([10.0, 20.0]), i)
        self.v.scatter_update(updates)
        self.v.scatter_add(updates)
        self.v.scatter_sub(tf.IndexedSlices(tf.constant([1.0, 1.0]), i))
        self.v.scatter_mul(tf.IndexedSlices(tf.constant([2.0, 0.5]), i))
        self.v.scatter_div(tf.IndexedSlices(tf.constant([4.0, 2.0]), i))
        self.v.scatter_max(tf.IndexedSlices(tf.constant([9.0, 0.0]), i))
        self.v.scatter_min(tf.IndexedSlices(tf.constant([5.0, 100.0]), i))
        return self.v.read_value()

    @tf.function(input_signature=[tf.TensorSpec([2, 1], tf.int32)])
    def scatter_nd(self, i):
        self.v.scatter_nd_update(i, [7.0, 6.0])
        self.v.scatter_nd_add(i, [1.0, 1.0])
        self.v.scatter_nd_sub(i, [0.5, 0.5])
        return self.v.read_value()

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def slice_assign(self, x):
        self.v[1:3].assign(x)
        return self.v.read_value()

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def assign_no_read(self, x):
        self.v.assign(x, read_value=False)
        return tf.reduce_sum(self.v)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def count_up(self, n):
        for _ in tf.range(n):
            self.counter.assign_add(1)
        return self.counter.read_value()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def reshape_free(self, x):
        self.free.assign(x)  # validate_shape=False: the variable's shape is not fixed
        return self.free.read_value()


def main():
    out = os.path.join(os.path.dirname(__file__), '..', 'tests', 'runtime', 'fixtures',
                       'tf2_variable_ops_saved_model')
    shutil.rmtree(out, ignore_errors=True)
    tf.saved_model.save(VariableOps(), out)
    loaded = tf.saved_model.load(out)
    results = []
    for name, arg in CALLS:
        dtype = tf.int32 if isinstance(np.asarray(arg).flat[0].item(), int) else tf.float32
        got = getattr(loaded, name)(tf.constant(arg, dtype))
        results.append(tf.nest.map_structure(lambda t: t.numpy().tolist(), got))
    results.append({'v': loaded.v.numpy().tolist(), 'counter': int(loaded.counter.numpy()),
                    'free': loaded.free.numpy().tolist()})
    with open(os.path.join(out, 'expected.json'), 'w') as f:
        json.dump({'tensorflow': tf.__version__, 'calls': CALLS, 'results': results}, f,
                  indent=1)
        f.write('\n')
    print(f'{len(CALLS)} calls recorded', file=sys.stderr)


if __name__ == '__main__':
    main()
