//! burrow benchmarks (being built; see issue 2).
