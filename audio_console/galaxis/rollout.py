"""Exact expected cost of a simple one-step policy, for every true placement at once.

Level 3 rates a query by what it would cost to finish if, after it, the team
followed a fixed one-step rule (a "rollout"): the expected number of queries is
computed exactly over every placement still possible, not estimated. The rule
itself: take a certain ship when there is one, stop when one placement is left
(its unfound ships cost one query each), else query the point with the best
information + weight x chance of a ship.

Every placement follows its own path through the rule's decision tree, so the
whole tree is walked level by level with numpy: a node is a history of answers,
the placements in it share one choice, and each step refines the nodes by the
chosen point's answer. Pure: no clock, no randomness.
"""
from __future__ import annotations

import numpy as np

FOUND = 5
N_CODES = 6
N_POINTS = 63
_BITS = np.uint64(1) << np.arange(N_POINTS, dtype=np.uint64)


def rollout_costs(table: np.ndarray, alive: np.ndarray, queried: np.ndarray, left: int,
                  first: np.ndarray, weight: float) -> np.ndarray:
    """Expected queries to find every ship if each point in `first` is queried now
    and the one-step rule (information + weight x chance) plays on from there.

    table: (63, N) answer codes; alive: the placements still possible; queried:
    (63,) bool, points already queried; left: ships not yet found."""
    sub = np.ascontiguousarray(table[:, alive])            # (63, n)
    n = sub.shape[1]
    k = len(first)
    member = np.tile(np.arange(n, dtype=np.int64), k)      # which placement
    branch = np.repeat(np.arange(k, dtype=np.int64), n)    # which first query
    first = np.repeat(np.asarray(first, dtype=np.int64), n)
    return branch_costs(sub, member, branch, first, np.full(k * n, left, dtype=np.int64),
                        np.full(k * n, point_mask(queried), dtype=np.uint64), k, weight) / n


def branch_costs(sub: np.ndarray, member: np.ndarray, branch: np.ndarray, first: np.ndarray,
                 lefts: np.ndarray, masks: np.ndarray, k: int, weight: float) -> np.ndarray:
    """The summed queries of k rollouts at once: rollout b runs over the placements
    (columns of `sub`) listed in `member` where `branch` == b, asks its `first`
    point, then lets the rule play on. lefts, masks: ships left and points asked
    before, per entry."""
    codes = sub[first, member].astype(np.int64)
    return _walk(sub, member, branch, branch * N_CODES + codes, lefts - (codes == FOUND),
                 masks | _BITS[first], np.ones(len(member)), k, weight)


def rule_cost(table: np.ndarray, alive: np.ndarray, queried: np.ndarray, left: int,
              weight: float) -> float:
    """Expected queries to find every ship if the one-step rule plays from here
    (over the whole table: the rule's exact average over every placement)."""
    sub = np.ascontiguousarray(table[:, alive])
    n = sub.shape[1]
    zeros = np.zeros(n, dtype=np.int64)
    masks = np.full(n, point_mask(queried), dtype=np.uint64)
    lefts = np.full(n, left, dtype=np.int64)
    return float(_walk(sub, np.arange(n, dtype=np.int64), zeros, zeros, lefts, masks,
                       np.zeros(n), 1, weight)[0] / n)


def point_mask(queried: np.ndarray) -> np.uint64:
    """(63,) bool -> one bit per point."""
    base = np.uint64(0)
    for q in np.flatnonzero(queried):
        base |= _BITS[q]
    return base


def _walk(sub, member, branch, key, lefts, masks, cost, k: int, weight: float) -> np.ndarray:
    """Play the rule on for every placement at once; the summed cost per branch.

    member: which placement (column of `sub`) each path follows; branch: which of
    the k trees it belongs to; key: its node (same key = same answers so far);
    lefts, masks, cost: ships left, points asked and queries spent on that path."""
    done_cost = np.zeros(k, dtype=np.float64)
    points = np.arange(N_POINTS, dtype=np.int64)[:, None]
    c = np.arange(sub.shape[1] + 1, dtype=np.float64)
    clog = c * np.log2(np.maximum(c, 1.0))
    while len(key):
        nodes, heads, inverse, sizes = np.unique(key, return_index=True, return_inverse=True,
                                                 return_counts=True)
        alone = sizes[inverse] == 1
        if alone.any():
            # one placement left: each unfound ship is one more query
            np.add.at(done_cost, branch[alone], cost[alone] + lefts[alone])
            keep = ~alone
            member, branch, lefts, masks, cost, key = (a[keep] for a in
                                                       (member, branch, lefts, masks, cost, key))
            if not len(key):
                break
            nodes, heads, inverse, sizes = np.unique(key, return_index=True, return_inverse=True,
                                                     return_counts=True)
        u = len(nodes)
        answers = sub[:, member]                                   # (63, m)
        flat = (inverse[None, :] * (N_POINTS * N_CODES) + points * N_CODES + answers).ravel()
        counts = np.bincount(flat, minlength=u * N_POINTS * N_CODES).reshape(u, N_POINTS, N_CODES)
        asked = ((masks[heads][:, None] >> np.arange(N_POINTS, dtype=np.uint64)) & np.uint64(1)).astype(bool)
        ships = counts[:, :, FOUND]
        size = sizes[:, None]
        certain = (ships == size) & ~asked
        n_certain = certain.sum(axis=1)
        if n_certain.any():
            # a certain ship costs one query whenever it is taken; take them all now
            cert_mask = (certain.astype(np.uint64) * _BITS[None, :]).sum(axis=1, dtype=np.uint64)
            cost += n_certain[inverse]
            lefts = lefts - n_certain[inverse]
            masks = masks | cert_mask[inverse]
        open_ = (ships > 0) & (ships < size)
        # information = log2(size) - sum(c log2 c) / size, and size is the same for the
        # whole node, so the best point maximises weight x ships - sum(c log2 c)
        value = weight * ships - clog[counts].sum(axis=2)
        value = np.where(open_, value, -np.inf)
        choice = np.argmax(value, axis=1)                          # (u,)
        chosen = choice[inverse]
        code = sub[chosen, member].astype(np.int64)
        cost += 1.0
        lefts = lefts - (code == FOUND)
        masks = masks | _BITS[chosen]
        key = inverse * N_CODES + code           # the node's id says the branch too
    return done_cost
