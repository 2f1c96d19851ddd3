"""The few names whose TensorFlow signature differs from the project's own: `tf.autograph`'s
`to_code(entity, recursive=True, ...)` and `to_graph`, and `tf.autograph.trace`."""
import autograph as ag


def _check_features(experimental_optional_features):
    if experimental_optional_features not in (None, (), []):
        raise NotImplementedError('experimental_optional_features are not supported: AutoGraph '
                                  'here converts with its one set of features.')


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The converted source of `entity`, as `tf.autograph.to_code`: `ag.to_code(entity)`
    (`recursive` concerns the functions it calls, which the code shown does not include)."""
    _check_features(experimental_optional_features)
    return ag.to_code(entity)


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The converted function, as `tf.autograph.to_graph`: `ag.to_graph(entity)`, whose calls
    convert the functions it calls (`recursive=True`, the default; False is not supported)."""
    _check_features(experimental_optional_features)
    if not recursive:
        raise NotImplementedError('to_graph(recursive=False) is not supported: the converted '
                                  'function converts the functions it calls.')
    return ag.to_graph(entity)


def trace(*args):
    """Print `args` when the code runs in Python (while a function traces, the symbolic
    tensors), as `tf.autograph.trace` does."""
    print(*args)
