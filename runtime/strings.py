"""`rt.strings`: elementwise string ops. String tensors give `bytes` from `.numpy()`."""
from runtime.ops.strings import (
                                 as_string,
                                 format,
                                 join,
                                 length,
                                 lower,
                                 reduce_join,
                                 regex_full_match,
                                 regex_replace,
                                 strip,
                                 substr,
                                 to_number,
                                 upper,
)

__all__ = ['as_string', 'format', 'join', 'length', 'lower', 'reduce_join', 'regex_full_match',
           'regex_replace', 'strip', 'substr', 'to_number', 'upper']
