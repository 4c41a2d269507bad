/* Fewest expected queries to find every Galaxis ship from a set of placements.

   Built by exact.py with the system C compiler and called through ctypes. Same
   semantics as endgame.ExactSolver: every query counts, the ones that find ships
   too; a certain ship is taken at once; a query is any point not yet queried that
   may be a ship (and, with `buoys`, also a known-empty point whose answer still
   varies).

   A position is a set S of placements with its certain ships already taken; its
   value V(S) is the expected number of queries still needed (V = 0 for one
   placement: the parent counts the ships it makes certain). Depth-first branch and
   bound ("fail-high" cut-offs passed down to the children), candidate queries
   tried best-first by a one-step estimate, a memo keyed by a 128-bit hash of the
   placement subset, and a lower bound from counting the leaves of the decision tree that
   make few empty queries (see count_bound). Deterministic: no clock, no randomness; the memo is
   cleared for every call. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NP 63
#define NC 6
#define FOUND 5
#define EPS 1e-10

typedef struct {
    uint64_t h1, h2;
    double value;
    uint32_t gen;
    int8_t exact;  /* 1: value is V(S); 0: a lower bound */
    int8_t best;
} Entry;

typedef struct {
    const uint8_t *codes; /* n x 64: the answer codes of each placement */
    const uint64_t *ships;
    const uint64_t *k1, *k2; /* per-placement hash keys */
    int32_t *arena;
    int64_t arena_top, arena_size;
    Entry *memo;
    uint64_t memo_mask;
    uint32_t gen;
    double *lb; /* lazily filled lower bounds: [u][d][n] */
    int n_root;
    int buoys;
    int64_t nodes, budget;
    int aborted;
} Ctx;

static Entry *g_memo = NULL;
static uint64_t g_memo_mask = 0;
static uint32_t g_gen = 0;
/* The one-step estimate's overhead per answer, base + slope x log2(placements):
   endgame.OVERHEAD_BASE and OVERHEAD_SLOPE, handed in by exact_init. */
static double g_overhead_base = 0.0, g_overhead_slope = 0.0;

static inline uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A lower bound on the expected number of queries from n placements with u ships
   left, when no query has more than d answers that are not "found".
   Each placement ends at its own leaf of the decision tree, and two leaves differ
   in the answers on their paths. A path finds the u ships (u "found" answers, a
   certain ship taken counts as one; the last answer is always "found", since the
   placement is known once its last ship is) and makes e empty queries. A node has
   one "found" child, and an empty query at most min(d, w + 1) answers with w ships
   unfound: its beams that meet found ships count already, and each unfound ship
   adds at most one beam. So L(w, e), the most leaves with e empty queries and w
   ships to find, obeys L(w, e) = L(w-1, e) + min(d, w+1) L(w, e-1), L(0, 0) = 1,
   L(0, e > 0) = 0; the least mean e puts the n placements on the cheapest leaves. */
static double count_bound(int n, int u, int d) {
    if (n <= 1) return 0.0;
    double leaves[5] = {1.0, 0.0, 0.0, 0.0, 0.0}; /* L(w, e) for the current e */
    for (int w = 1; w <= u; w++) leaves[w] = 1.0;  /* e = 0: one path of finds */
    double left = n, total = 0.0;
    for (int e = 0; left > 0 && e < 64; e++) {
        if (e > 0) {
            leaves[0] = 0.0;
            for (int w = 1; w <= u; w++) {
                int branch = w + 1 < d ? w + 1 : d;
                leaves[w] = leaves[w - 1] + branch * leaves[w];
            }
        }
        double take = leaves[u] < left ? leaves[u] : left;
        total += take * e;
        left -= take;
    }
    return u + total / n;
}

static inline double lower_bound(Ctx *cx, int n, int u, int d) {
    if (n <= 1) return 0.0;
    double *slot = &cx->lb[((size_t)u * 6 + d) * (cx->n_root + 1) + n];
    if (*slot < 0) *slot = count_bound(n, u, d);
    return *slot;
}

static inline Entry *memo_find(Ctx *cx, uint64_t h1, uint64_t h2) {
    Entry *e = &cx->memo[h1 & cx->memo_mask];
    if (e->gen == cx->gen && e->h1 == h1 && e->h2 == h2) return e;
    return NULL;
}

static inline void memo_store(Ctx *cx, uint64_t h1, uint64_t h2, double value, int exact, int best) {
    Entry *e = &cx->memo[h1 & cx->memo_mask];
    /* keep an exact value of the same set rather than a bound */
    if (e->gen == cx->gen && e->h1 == h1 && e->h2 == h2 && e->exact && !exact) return;
    e->h1 = h1; e->h2 = h2; e->value = value; e->gen = cx->gen;
    e->exact = (int8_t)exact; e->best = (int8_t)best;
}

/* V(S) if it is below beta (then *exact = 1), else a lower bound >= beta. */
static double solve(Ctx *cx, const int32_t *idx, int m, uint64_t certain, uint64_t h1, uint64_t h2,
                    double beta, int *exact, int *best_point) {
    *best_point = -1;
    if (m <= 1) { *exact = 1; return 0.0; }
    Entry *e = memo_find(cx, h1, h2);
    if (e) {
        if (e->exact) { *exact = 1; *best_point = e->best; return e->value; }
        if (e->value >= beta - EPS) { *exact = 0; return e->value; }
    }
    if (++cx->nodes > cx->budget) { cx->aborted = 1; *exact = 0; return INFINITY; }

    int32_t cnt[NP][NC];
    uint64_t andm[NP][NC], hs1[NP][NC], hs2[NP][NC];
    memset(cnt, 0, sizeof cnt);
    memset(andm, 0xff, sizeof andm);
    memset(hs1, 0, sizeof hs1);
    memset(hs2, 0, sizeof hs2);
    for (int i = 0; i < m; i++) {
        int32_t j = idx[i];
        const uint8_t *row = cx->codes + (size_t)j * 64;
        uint64_t s = cx->ships[j], a = cx->k1[j], b = cx->k2[j];
        for (int p = 0; p < NP; p++) {
            int c = row[p];
            cnt[p][c]++;
            andm[p][c] &= s;
            hs1[p][c] += a;
            hs2[p][c] += b;
        }
    }
    int u = 4 - __builtin_popcountll(certain);
    /* candidates and the most answers (other than found) any of them has */
    int cand[NP], nc = 0, d = 1;
    for (int p = 0; p < NP; p++) {
        int ships = cnt[p][FOUND];
        if (ships == m) continue;                  /* found or certain: taken */
        if (ships == 0) {
            if (!cx->buoys) continue;
            int varies = 0;
            for (int c = 0; c < FOUND; c++) if (cnt[p][c] && cnt[p][c] < m) varies = 1;
            if (!varies) continue;                 /* its answer is known already */
        }
        int k = 0;
        for (int c = 0; c < FOUND; c++) k += cnt[p][c] > 0;
        if (k > d) d = k;
        cand[nc++] = p;
    }
    /* each candidate's lower bound and one-step estimate */
    double bound[NP], est[NP];
    double child_lb[NP][NC];
    for (int t = 0; t < nc; t++) {
        int p = cand[t];
        double b = 1.0, es = 1.0;
        for (int c = 0; c < NC; c++) {
            int nch = cnt[p][c];
            if (!nch) continue;
            int k = __builtin_popcountll(andm[p][c] & ~certain) - (c == FOUND);
            int uc = u - k - (c == FOUND);
            double lb = 0.0;
            if (nch > 1) {
                lb = lower_bound(cx, nch, uc, d);
                Entry *ce = memo_find(cx, hs1[p][c], hs2[p][c]);
                if (ce && ce->value > lb) lb = ce->value;
            }
            child_lb[p][c] = lb;
            double share = (double)nch / m;
            b += share * (k + lb);
            es += share * (k + uc + (nch > 1 ? g_overhead_base + g_overhead_slope * log2((double)nch) : 0.0));
        }
        bound[p] = b;
        est[p] = es;
    }
    /* best first by the estimate (stable: ties in board order) */
    for (int a = 1; a < nc; a++) {
        int p = cand[a], b = a - 1;
        while (b >= 0 && est[cand[b]] > est[p]) { cand[b + 1] = cand[b]; b--; }
        cand[b + 1] = p;
    }
    double best = beta, lbmin = INFINITY;
    int found = 0, bp = -1;
    for (int t = 0; t < nc; t++) {
        int p = cand[t];
        double cost = bound[p];
        if (cost >= best - EPS) { if (cost < lbmin) lbmin = cost; continue; }
        /* split S by p's answer into the arena */
        int64_t base = cx->arena_top;
        if (base + m > cx->arena_size) { cx->aborted = 1; *exact = 0; return INFINITY; }
        int32_t *part = cx->arena + base;
        int start[NC + 1];
        start[0] = 0;
        for (int c = 0; c < NC; c++) start[c + 1] = start[c] + cnt[p][c];
        int fill[NC];
        memcpy(fill, start, sizeof fill);
        for (int i = 0; i < m; i++) {
            int32_t j = idx[i];
            part[fill[cx->codes[(size_t)j * 64 + p]]++] = j;
        }
        cx->arena_top = base + m;
        int complete = 1;
        for (int c = 0; c < NC; c++) {
            int nch = cnt[p][c];
            /* two placements: any query tells them apart, V = u + 1/2, which is
               also their lower bound, so it is counted already */
            if (nch <= 2) continue;
            double share = (double)nch / m;
            double lb = child_lb[p][c];
            double child_beta = lb + (best - cost) / share + EPS;
            int ex, bq;
            double v = solve(cx, part + start[c], nch, andm[p][c], hs1[p][c], hs2[p][c],
                             child_beta, &ex, &bq);
            if (cx->aborted) { cx->arena_top = base; *exact = 0; return INFINITY; }
            cost += share * (v - lb);
            if (!ex || cost >= best - EPS) { complete = 0; break; }
        }
        cx->arena_top = base;
        if (complete && cost < best - EPS) { best = cost; bp = p; found = 1; }
        else if (cost < lbmin) lbmin = cost;
    }
    if (found) {
        memo_store(cx, h1, h2, best, 1, bp);
        *exact = 1; *best_point = bp;
        return best;
    }
    if (lbmin < beta) lbmin = beta;  /* every candidate was cut at beta or above */
    memo_store(cx, h1, h2, lbmin, 0, -1);
    *exact = 0;
    return lbmin;
}

/* Set up the memo (2^log2_size entries), once per process, and the estimate. */
int exact_init(int log2_size, double overhead_base, double overhead_slope) {
    g_overhead_base = overhead_base;
    g_overhead_slope = overhead_slope;
    if (g_memo) return 0;
    g_memo_mask = ((uint64_t)1 << log2_size) - 1;
    g_memo = calloc(g_memo_mask + 1, sizeof(Entry));
    return g_memo ? 0 : -1;
}

/* The best query and its expected cost for the placements `alive` (n indices
   into the answer table `table`, 63 rows of `total` codes). `queried`: mask of the
   points already queried. Returns the cost, or -1 when the node budget ran out
   (then *best = -1). out_nodes: nodes expanded. */
double exact_solve(const int8_t *table, int64_t total, const int32_t *alive, int n,
                   uint64_t queried, int buoys, int64_t budget, int *best, int64_t *out_nodes) {
    *best = -1;
    *out_nodes = 0;
    if (!g_memo && exact_init(20, g_overhead_base, g_overhead_slope) != 0) return -1.0;
    if (n <= 0) return -1.0;
    uint8_t *codes = malloc((size_t)n * 64);
    uint64_t *ships = malloc(sizeof(uint64_t) * n * 3);
    int32_t *idx = malloc(sizeof(int32_t) * n);
    int64_t arena_size = (int64_t)n * 64 + 64;
    int32_t *arena = malloc(sizeof(int32_t) * arena_size);
    double *lb = malloc(sizeof(double) * 5 * 6 * (size_t)(n + 1));
    if (!codes || !ships || !idx || !arena || !lb) {
        free(codes); free(ships); free(idx); free(arena); free(lb);
        return -1.0;
    }
    uint64_t *k1 = ships + n, *k2 = ships + 2 * (size_t)n;
    uint64_t certain = ~(uint64_t)0, h1 = 0, h2 = 0;
    for (int i = 0; i < n; i++) {
        uint64_t s = 0;
        for (int p = 0; p < NP; p++) {
            uint8_t c = (uint8_t)table[(size_t)p * total + alive[i]];
            codes[(size_t)i * 64 + p] = c;
            if (c == FOUND) s |= (uint64_t)1 << p;
        }
        codes[(size_t)i * 64 + 63] = 0;
        ships[i] = s;
        certain &= s;
        k1[i] = splitmix((uint64_t)alive[i] * 2 + 1);
        k2[i] = splitmix((uint64_t)alive[i] * 2 + 2 + 0x5bd1e995ULL);
        h1 += k1[i];
        h2 += k2[i];
        idx[i] = i;
    }
    for (size_t i = 0; i < 5 * 6 * (size_t)(n + 1); i++) lb[i] = -1.0;
    if (++g_gen == 0) { memset(g_memo, 0, sizeof(Entry) * (g_memo_mask + 1)); g_gen = 1; }
    Ctx cx = {codes, ships, k1, k2, arena, 0, arena_size, g_memo, g_memo_mask, g_gen, lb, n,
              buoys, 0, budget > 0 ? budget : INT64_MAX, 0};
    double result = -1.0;
    uint64_t pending = certain & ~queried;
    int ex, bp;
    double v = solve(&cx, idx, n, certain, h1, h2, INFINITY, &ex, &bp);
    if (!cx.aborted && ex) {
        if (pending) {
            *best = __builtin_ctzll(pending);
            result = __builtin_popcountll(pending) + v;
        } else {
            *best = bp;
            result = v;
        }
    }
    *out_nodes = cx.nodes;
    free(codes); free(ships); free(idx); free(arena); free(lb);
    return result;
}
