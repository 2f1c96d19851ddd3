"""Developer tools: benchmarks, fixture recorders and the op conformance database
(`tools.opinfo`), importable by the tests."""
