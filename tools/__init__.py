"""Developer tools: benchmarks, fuzzers, TensorFlow fixture recorders and the op conformance
database (`tools.opinfo`), importable by the tests as `tools.X`."""
