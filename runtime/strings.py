"""`rt.strings`: elementwise string ops, and the splits and decodings of a scalar string. String
tensors give `bytes` from `.numpy()`."""
from runtime.ops.string_split import (
                                 bytes_split,
                                 split,
                                 unicode_decode,
                                 unicode_decode_with_offsets,
                                 unicode_encode,
                                 unicode_split,
)
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

__all__ = ['as_string', 'bytes_split', 'format', 'join', 'length', 'lower', 'reduce_join',
           'regex_full_match', 'regex_replace', 'split', 'strip', 'substr', 'to_number',
           'unicode_decode', 'unicode_decode_with_offsets', 'unicode_encode', 'unicode_split',
           'upper']
