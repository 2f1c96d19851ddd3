"""`rt.data.Options`: options a pipeline carries (`ds.with_options(options)`).

They are recorded (`ds.options()` gives them back, merged along the pipeline) and change
nothing in how elements are made: elements always come in order, as with TensorFlow's
`deterministic=True`, and threading and optimizations are the runtime's own.
"""


from dataclasses import dataclass


@dataclass(eq=False)
class ThreadingOptions:
    max_intra_op_parallelism: object = None
    private_threadpool_size: object = None


@dataclass(eq=False)
class OptimizationOptions:
    apply_default_optimizations: object = None
    filter_fusion: object = None
    filter_parallelization: object = None
    inject_prefetch: object = None
    map_and_batch_fusion: object = None
    map_and_filter_fusion: object = None
    map_fusion: object = None
    map_parallelization: object = None
    noop_elimination: object = None
    parallel_batch: object = None
    seq_interleave_prefetch: object = None
    shuffle_and_repeat_fusion: object = None


@dataclass(eq=False)
class AutotuneOptions:
    autotune_algorithm: object = None
    cpu_budget: object = None
    enabled: object = None
    initial_parallelism: object = None
    min_parallelism: object = None
    ram_budget: object = None


_GROUPS = (ThreadingOptions, OptimizationOptions, AutotuneOptions)


class Options:
    """`options.deterministic`, `options.threading`, `options.experimental_optimization`,
    `options.experimental_distribute`..."""

    def __init__(self):
        self.deterministic = None
        self.autotune = AutotuneOptions()
        self.threading = ThreadingOptions()
        self.experimental_optimization = OptimizationOptions()
        self.experimental_deterministic = None
        self.experimental_slack = False

    def merge(self, other):
        """These options with those set in `other` (not None) taking precedence."""
        merged = Options()
        for source in (self, other):
            for name, value in vars(source).items():
                if isinstance(value, _GROUPS):
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
            if isinstance(value, _GROUPS):
                value = {k: v for k, v in sorted(vars(value).items()) if v is not None}
            parts.append(f'{name}={value!r}')
        return f'Options({", ".join(parts)})'
