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
from runtime.ops.strings_more import (
                                 ngrams,
                                 to_hash_bucket,
                                 to_hash_bucket_fast,
                                 to_hash_bucket_strong,
                                 unicode_split_with_offsets,
                                 unicode_transcode,
                                 unsorted_segment_join,
)

__all__ = ['as_string', 'bytes_split', 'format', 'join', 'length', 'lower', 'ngrams',
           'reduce_join', 'regex_full_match', 'regex_replace', 'split', 'strip', 'substr',
           'to_hash_bucket', 'to_hash_bucket_fast',
           'to_hash_bucket_strong', 'to_number', 'unicode_decode',
           'unicode_decode_with_offsets', 'unicode_encode', 'unicode_split',
           'unicode_split_with_offsets', 'unicode_transcode', 'unsorted_segment_join', 'upper']
