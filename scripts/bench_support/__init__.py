"""What only the benchmarks use: the baselines play has left behind (the Endpointer
cutter, the listener's older paths), so that a benchmark can still measure play
against them in the same run."""
