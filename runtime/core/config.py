"""Global switches: `rt.config.run_functions_eagerly`."""

_run_functions_eagerly = False


def run_functions_eagerly(run_eagerly):
    """When True, every `ag.function` call runs its Python function directly (no graph)."""
    global _run_functions_eagerly
    _run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    return _run_functions_eagerly
