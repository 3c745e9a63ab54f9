"""Build `pairing.engines._matcher` (matcher.cpp) with cffi; `setup.py` runs it at install.

`make setup` installs the project in editable mode, which compiles the module into
`pairing/engines/`. Without it the engines use the pure-Python matcher (`blossom.py`).
"""

from __future__ import annotations

from cffi import FFI

# Paths are relative to the project root, where the build runs.
SOURCE = "pairing/engines/matcher.cpp"

ffibuilder = FFI()
ffibuilder.cdef(
    """
    #define MW_ERR_VERTEX ...
    #define MW_ERR_BUILT ...
    #define MW_ERR_CLASS ...
    #define MW_ERR_MEMORY ...
    #define MW_ERR_INVARIANT ...
    #define MW_REMOVE ...
    typedef struct mw_graph mw_graph;
    mw_graph *mw_new(int n, int words);
    void mw_free(mw_graph *g);
    int mw_set_values(mw_graph *g, int count, const int *a, const int *b, const uint64_t *values);
    int mw_build_classes(mw_graph *g, int count, const int *vertices, const int *classes, int nclasses,
                         const uint64_t *table, int nbarred, const int *barred);
    int mw_set_deltas(mw_graph *g, int v, int count, const int *others, const int64_t *deltas);
    int mw_remove_vertices(mw_graph *g, int count, const int *vertices);
    int mw_restore_vertices(mw_graph *g, int count, const int *vertices);
    int mw_solve(mw_graph *g, int *mate);
    int mw_check(mw_graph *g);
    int64_t mw_stat(mw_graph *g, int which);
    """
)
ffibuilder.set_source(
    "pairing.engines._matcher",
    '#include "matcher.h"',
    sources=[SOURCE],
    include_dirs=["pairing/engines"],
    source_extension=".cpp",
    extra_compile_args=["-O2", "-std=c++17"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
