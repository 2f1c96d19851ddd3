"""`rt.data.Options`: options a pipeline carries (`ds.with_options(options)`).

They are recorded (`ds.options()` gives them back, merged along the pipeline) and change
nothing in how elements are made: elements always come in order, as with TensorFlow's
`deterministic=True`, and threading and optimizations are the runtime's own.
"""


class ThreadingOptions:
    def __init__(self):
        self.max_intra_op_parallelism = None
        self.private_threadpool_size = None


class OptimizationOptions:
    def __init__(self):
        self.apply_default_optimizations = None
        self.map_parallelization = None


class Options:
    """`options.deterministic`, `options.threading`, `options.experimental_optimization`,
    `options.experimental_distribute`..."""

    def __init__(self):
        self.deterministic = None
        self.autotune = None
        self.threading = ThreadingOptions()
        self.experimental_optimization = OptimizationOptions()
        self.experimental_deterministic = None
        self.experimental_slack = False

    def merge(self, other):
        """These options with those set in `other` (not None) taking precedence."""
        merged = Options()
        for source in (self, other):
            for name, value in vars(source).items():
                if isinstance(value, (ThreadingOptions, OptimizationOptions)):
                    target = getattr(merged, name)
                    for key, item in vars(value).items():
                        if item is not None:
                            setattr(target, key, item)
                elif value is not None:
                    setattr(merged, name, value)
        return merged

    def __eq__(self, other):
        return isinstance(other, Options) and repr(self) == repr(other)

    def __repr__(self):
        parts = []
        for name, value in sorted(vars(self).items()):
            if isinstance(value, (ThreadingOptions, OptimizationOptions)):
                value = {k: v for k, v in sorted(vars(value).items()) if v is not None}
            parts.append(f'{name}={value!r}')
        return f'Options({", ".join(parts)})'
