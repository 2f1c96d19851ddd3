"""Developer tools: benchmarks, fuzzers and TensorFlow fixture recorders."""
