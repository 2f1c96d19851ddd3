"""Batch inference over a cluster: a SavedModel's signature applied to the blocks of a Dask
array, the model loaded once per worker process.

`predict(client, export_dir, array)` reads the directory on the client (a SavedModel written
by `ag.saved_model.save` or by TensorFlow's `tf.saved_model.save`), broadcasts its files to
every worker once (`client.scatter`), and maps each row block of `array` through the signature.
Each worker unpacks and loads the model the first time one of its tasks needs it and keeps it
(keyed by the files' digest and the signature), so a worker running many blocks loads once.
"""
import threading

import numpy as np

from autograph.distribute.cluster import Shipped, dask_array
from autograph.saved_model import load

_loaded = {}  # (digest, signature) -> (input name, output name, signature), per process
_load_lock = threading.Lock()


def serving_function(export_dir, signature='serving_default', output=None):
    """(input name, output name, the restored signature) of a SavedModel: the signature takes
    one input and `output` names the result to keep (None: its only output)."""
    signatures = load(export_dir).signatures
    if signature not in signatures:
        raise ValueError(f'The SavedModel at {export_dir} has no signature {signature!r}; it '
                         f'has {sorted(signatures)}.')
    fn = signatures[signature]
    inputs = fn.structured_input_signature[1]
    if len(inputs) != 1:
        raise ValueError(f'Batch inference feeds one input; signature {signature!r} takes '
                         f'{sorted(inputs)}.')
    outputs = fn.structured_outputs
    if output is None:
        if len(outputs) != 1:
            raise ValueError(f'Signature {signature!r} has outputs {sorted(outputs)}: name the '
                             f'one to keep with output=...')
        output = next(iter(outputs))
    elif output not in outputs:
        raise ValueError(f'Signature {signature!r} has no output {output!r}; it has '
                         f'{sorted(outputs)}.')
    return next(iter(inputs)), output, fn


def _worker_function(shipped, signature, output):
    key = (shipped.digest, signature, output)
    with _load_lock:
        found = _loaded.get(key)
        if found is None:
            with shipped.unpacked() as directory:
                found = _loaded[key] = serving_function(directory, signature, output)
    return found


def predict_block(block, shipped, signature, output):
    """The signature on one block (a numpy array): what each Dask task runs."""
    input_name, output_name, fn = _worker_function(shipped, signature, output)
    return fn(**{input_name: block})[output_name].numpy()


def loads_in_this_process():
    """How many models this process loaded for batch inference (one per model and
    signature)."""
    return len(_loaded)


def predict(client, export_dir, array, signature='serving_default', output=None):
    """A Dask array: `signature` of the SavedModel at `export_dir` applied to the row blocks of
    `array` (a Dask array, or a numpy array cut into blocks of 10000 rows). The signature's
    input and output are batched along their first dimension; their other dimensions must be
    known."""
    da = dask_array()
    if not isinstance(array, da.Array):
        array = da.from_array(np.asarray(array), chunks=(10000,) + np.shape(array)[1:])
    _, output_name, fn = serving_function(export_dir, signature, output)
    spec = fn.structured_outputs[output_name]
    inner = spec.shape.as_list()[1:] if spec.shape.rank else None
    if inner is None or None in inner:
        raise ValueError(f'Batch inference needs the output {output_name!r} of signature '
                         f'{signature!r} batched along its first dimension with the others '
                         f'known; it is {spec}.')
    if array.ndim > 1:
        array = array.rechunk({axis: -1 for axis in range(1, array.ndim)})
    shipped = client.scatter(Shipped.of(export_dir), broadcast=True, hash=False)
    return array.map_blocks(predict_block, shipped, signature, output_name,
                            dtype=spec.dtype.np_dtype,
                            chunks=(array.chunks[0],) + tuple((d,) for d in inner),
                            drop_axis=list(range(1, array.ndim)) if not inner and
                            array.ndim > 1 else None,
                            new_axis=None if array.ndim > 1 or not inner
                            else list(range(1, 1 + len(inner))))
