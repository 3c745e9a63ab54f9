/* Maximum-weight matching with wide integer weights, solved again after weights change.
 *
 * The C interface of matcher.cpp, compiled by matcher_build.py (cffi) into pairing.engines._matcher.
 * Weights are non-negative integers of `words` 64-bit words each, least significant word first.
 * Every function returns 0 on success, a negative code on bad input (see MW_ERR_*).
 */
#ifndef CLUBAVOND_MATCHER_H
#define CLUBAVOND_MATCHER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MW_ERR_VERTEX -1   /* a vertex number out of range, or an edge from a vertex to itself */
#define MW_ERR_BUILT -2    /* classes given twice, or to a graph that already has edges */
#define MW_ERR_CLASS -3    /* a class number out of range, or a vertex without a class */
#define MW_ERR_MEMORY -4   /* out of memory */
#define MW_ERR_INVARIANT -5 /* mw_check: the duals do not prove the matching optimal */

typedef struct mw_graph mw_graph;

mw_graph *mw_new(int n, int words);
void mw_free(mw_graph *g);

/* Set edge weights (adding missing edges); a zero weight removes the edge from the matching. The
 * next solve starts again from the dual of each edge's first vertex a[i]. */
int mw_set_values(mw_graph *g, int count, const int *a, const int *b, const uint64_t *values);

/* Every pair of `vertices` (listed higher player first) not in `barred` becomes an edge weighing
 * table[class of the earlier * nclasses + class of the later]; pairs in `barred` are no edges. */
int mw_build_classes(mw_graph *g, int count, const int *vertices, const int *classes, int nclasses,
                     const uint64_t *table, int nbarred, const int *barred);

/* The edges from `v` to `others`: each its class weight plus `deltas[i]`; no edge where that class
 * weight is zero, the sum is not positive, or the delta is MW_REMOVE. */
#define MW_REMOVE INT64_MIN
int mw_set_deltas(mw_graph *g, int v, int count, const int *others, const int64_t *deltas);

/* Take vertices out of the graph (every edge at them removed), or put them back with their class
 * weights towards every vertex that is not out. */
int mw_remove_vertices(mw_graph *g, int count, const int *vertices);
int mw_restore_vertices(mw_graph *g, int count, const int *vertices);

/* A maximum-weight matching of the current weights: mate[v] is v's partner or -1. */
int mw_solve(mw_graph *g, int *mate);

/* Verify the certificate of optimality (feasible duals, tight matched edges, exposed vertices at
 * zero); for the tests. */
int mw_check(mw_graph *g);

/* Counters since creation: stages run, and solves that needed none. */
int64_t mw_stat(mw_graph *g, int which);

#ifdef __cplusplus
}
#endif

#endif
