"""Measuring tools for the benchmark scripts and their tests, kept out of the
product: the compiled Galaxis exact solver (exact.py, exact_solver.c) and the
harnesses that play whole games without a console (galaxis_boards.py,
arkade_selfplay.py). Play never imports this package and never needs a C compiler."""
