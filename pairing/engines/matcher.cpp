// Maximum-weight matching in general graphs with wide integer weights, solved again from the
// previous optimum after edge weights change.
//
// The primal-dual blossom method of Edmonds in the O(n^3) form Galil describes ("Efficient
// algorithms for finding maximum matching in graphs", ACM Computing Surveys 18, 1986), the same
// stages, blossoms and four deltas as pairing/engines/blossom.py, which stays the reference
// implementation. Weights are fixed-width unsigned integers of K 64-bit words (K chosen per graph).
//
// What is added for incremental use:
//  * The matching, the duals and the blossoms survive a solve. When edges at a vertex v change, v
//    leaves its blossoms (their duals are pushed down into their vertices, so every edge stays
//    feasible), and v's dual becomes the least that keeps its edges feasible; v stays matched when
//    its matched edge is still tight. Exposed vertices with a positive dual are the roots of the
//    next solve; exposed vertices whose dual is zero need no partner (they may be reached by an
//    augmenting path but do not start one). A root whose dual reaches zero, or any S-vertex whose
//    dual does, ends an alternating path there: the path is flipped and that vertex left exposed.
//    So a change at one vertex costs a few augmentations, not a solve from scratch.
//  * A fresh graph starts from the duals max(w)/2 per vertex and a greedy matching of the edges that
//    are then tight, lowered once vertex by vertex, instead of from an empty matching.
//  * Graphs can be given by vertex classes: the weight of a pair is looked up in a class table, so
//    a graph of a million edges is built without passing each weight.
//
// All duals of exposed vertices that start a solve are made even: the alternating trees then all
// have the same parity and the slack of an edge between two S-vertices is even, so halving it
// (the third delta) stays exact.

#include "matcher.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

namespace {

constexpr int NONE = -1;
constexpr int FREE = 0;
constexpr int SLABEL = 1;
constexpr int TLABEL = 2;
constexpr int MARK = 4;

struct Adj {
  int other;  // the neighbour
  int p;      // the neighbour's endpoint of the edge (edge index = p >> 1)
};

struct Graph {
  int n;
  int K;
  // Edges: endpoints 2k and 2k + 1 of edge k; `end` gives their vertices.
  std::vector<int> end;
  std::vector<uint8_t> alive;
  std::vector<uint64_t> W;  // K words per edge: twice the weight
  std::vector<int> tight;   // the stage in which the edge was found tight
  std::vector<std::vector<Adj>> adj;
  bool adj_sorted = true;
  // Classes: the weight of a pair (h listed before lo) is table[cls[h] * ncls + cls[lo]].
  std::vector<int> cls, pos;
  int ncls = 0;
  std::vector<uint64_t> table;
  // The matching and its certificate.
  std::vector<int> mate;      // remote endpoint of the matched edge, or NONE
  std::vector<uint64_t> dual; // K words per vertex (twice its dual) and per blossom (its dual)
  std::vector<int> label, label_end, top_of, parent, base, best;
  std::vector<std::vector<int>> children, links, best_list;
  std::vector<uint8_t> has_best_list;
  std::vector<int> free_ids;
  std::vector<int> queue;
  int stage = 0;
  bool fresh = true;
  std::vector<uint8_t> pending, out;
  std::vector<int> pending_list;
  // Scratch.
  std::vector<int> to_edge;
  std::vector<uint64_t> to_slack;
  std::vector<int> touched;
  std::vector<int> leaf_buf;
  int64_t stats[4] = {0, 0, 0, 0};

  Graph(int n_, int K_) : n(n_), K(K_) {
    adj.resize(n);
    cls.assign(n, NONE);
    pos.assign(n, NONE);
    mate.assign(n, NONE);
    dual.assign(static_cast<size_t>(2) * n * K, 0);
    label.assign(2 * n, FREE);
    label_end.assign(2 * n, NONE);
    top_of.resize(n);
    for (int v = 0; v < n; ++v) top_of[v] = v;
    parent.assign(2 * n, NONE);
    base.assign(2 * n, NONE);
    for (int v = 0; v < n; ++v) base[v] = v;
    best.assign(2 * n, NONE);
    children.resize(2 * n);
    links.resize(2 * n);
    best_list.resize(2 * n);
    has_best_list.assign(2 * n, 0);
    for (int b = 2 * n - 1; b >= n; --b) free_ids.push_back(b);
    pending.assign(n, 0);
    out.assign(n, 0);
    to_edge.assign(2 * n, NONE);
    to_slack.assign(static_cast<size_t>(2) * n * K, 0);
  }
  virtual ~Graph() {}
  virtual int solve(int *mate_out) = 0;
  virtual int check() = 0;
  virtual void remove_vertex(int v) = 0;

  int edges() const { return static_cast<int>(alive.size()); }
  uint64_t *w_of(int k) { return &W[static_cast<size_t>(k) * K]; }
  uint64_t *d_of(int x) { return &dual[static_cast<size_t>(x) * K]; }

  void sort_adjacency() {
    if (adj_sorted) return;
    for (auto &list : adj)
      std::sort(list.begin(), list.end(), [](const Adj &x, const Adj &y) { return x.other < y.other; });
    adj_sorted = true;
  }

  int find_edge(int a, int b) {
    sort_adjacency();
    const auto &list = adj[a];
    auto it = std::lower_bound(list.begin(), list.end(), b, [](const Adj &x, int key) { return x.other < key; });
    if (it == list.end() || it->other != b) return NONE;
    return it->p >> 1;
  }

  int new_edge(int a, int b) {
    int k = edges();
    end.push_back(a);
    end.push_back(b);
    alive.push_back(0);
    tight.push_back(-1);
    W.resize(W.size() + K, 0);
    Adj to_b{b, 2 * k + 1}, to_a{a, 2 * k};
    if (adj_sorted) {
      auto less = [](const Adj &x, const Adj &y) { return x.other < y.other; };
      adj[a].insert(std::upper_bound(adj[a].begin(), adj[a].end(), to_b, less), to_b);
      adj[b].insert(std::upper_bound(adj[b].begin(), adj[b].end(), to_a, less), to_a);
    } else {
      adj[a].push_back(to_b);
      adj[b].push_back(to_a);
    }
    return k;
  }

  // Store twice `value` (K words) as edge k's weight; zero or too wide removes the edge.
  void store(int k, const uint64_t *value) {
    uint64_t *w = w_of(k);
    uint64_t any = 0;
    for (int i = K - 1; i >= 0; --i) {
      w[i] = (value[i] << 1) | (i ? value[i - 1] >> 63 : 0);
      any |= value[i];
    }
    alive[k] = any != 0;
    if (!any) std::memset(w, 0, sizeof(uint64_t) * K);
  }

  void kill(int k) {
    alive[k] = 0;
    std::memset(w_of(k), 0, sizeof(uint64_t) * K);
  }

  void mark(int v) {
    if (!pending[v]) {
      pending[v] = 1;
      pending_list.push_back(v);
    }
  }

  // The class weight of the pair (a, b) into `value`; false when either has no class.
  bool class_value(int a, int b, uint64_t *value) {
    if (cls[a] == NONE || cls[b] == NONE) return false;
    int h = pos[a] < pos[b] ? a : b;
    int lo = h == a ? b : a;
    std::memcpy(value, &table[(static_cast<size_t>(cls[h]) * ncls + cls[lo]) * K], sizeof(uint64_t) * K);
    return true;
  }

  void leaves(int b, std::vector<int> &outv) {
    if (b < n) {
      outv.push_back(b);
      return;
    }
    std::vector<int> stack{b};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      for (int c : children[x]) {
        if (c < n)
          outv.push_back(c);
        else
          stack.push_back(c);
      }
    }
  }

  // Label the top blossom of v S or T, reached through endpoint `via`; a T-blossom's mate becomes
  // S at once.
  void assign(int v, int lab, int via) {
    for (;;) {
      int b = top_of[v];
      label[v] = label[b] = lab;
      label_end[v] = label_end[b] = via;
      best[v] = best[b] = NONE;
      if (lab == SLABEL) {
        leaves(b, queue);
        return;
      }
      int pe = mate[base[b]];
      v = end[pe];
      lab = SLABEL;
      via = pe ^ 1;
    }
  }

  // The base of the blossom closed by an edge between S-vertices v and w, or NONE when their
  // trees differ (an augmenting path).
  int find_base(int v, int w) {
    std::vector<int> visited;
    int found = NONE;
    while (v != NONE) {
      int b = top_of[v];
      if (label[b] & MARK) {
        found = base[b];
        break;
      }
      visited.push_back(b);
      label[b] = SLABEL | MARK;
      if (label_end[b] == NONE) {
        v = NONE;
      } else {
        int t = top_of[end[label_end[b]]];
        v = end[label_end[t]];
      }
      if (w != NONE) std::swap(v, w);
    }
    for (int b : visited) label[b] = SLABEL;
    return found;
  }

  // Swap matched and unmatched edges inside blossom b on the even path from vertex v to the base.
  void rotate(int b, int v) {
    int t = v;
    while (parent[t] != b) t = parent[t];
    if (t >= n) rotate(t, v);
    auto &ch = children[b];
    auto &ln = links[b];
    int size = static_cast<int>(ch.size());
    int i = static_cast<int>(std::find(ch.begin(), ch.end(), t) - ch.begin());
    int j = i, step, trick;
    if (i & 1) {
      j -= size;
      step = 1;
      trick = 0;
    } else {
      step = -1;
      trick = 1;
    }
    auto wrap = [size](int x) { return x < 0 ? x + size : x; };
    while (j != 0) {
      j += step;
      t = ch[wrap(j)];
      int p = ln[wrap(j - trick)] ^ trick;
      if (t >= n) rotate(t, end[p]);
      j += step;
      t = ch[wrap(j)];
      if (t >= n) rotate(t, end[p ^ 1]);
      mate[end[p]] = p ^ 1;
      mate[end[p ^ 1]] = p;
    }
    std::rotate(ch.begin(), ch.begin() + i, ch.end());
    std::rotate(ln.begin(), ln.begin() + i, ln.end());
    base[b] = base[ch[0]];
  }

  // Flip the alternating path from S-vertex s up to its root; s's new mate is endpoint p (NONE:
  // s is left exposed).
  void augment_side(int s, int p) {
    for (;;) {
      int bs = top_of[s];
      if (bs >= n) rotate(bs, s);
      mate[s] = p;
      if (label_end[bs] == NONE) break;
      int bt = top_of[end[label_end[bs]]];
      s = end[label_end[bt]];
      int j = end[label_end[bt] ^ 1];
      if (bt >= n) rotate(bt, j);
      mate[j] = label_end[bt];
      p = label_end[bt] ^ 1;
    }
  }

  void augment(int k) {
    augment_side(end[2 * k], 2 * k + 1);
    augment_side(end[2 * k + 1], 2 * k);
  }

  // The tight edge from S-vertex v (its endpoint p ^ 1) to exposed w outside every tree.
  void augment_to_exposed(int v, int w, int p) {
    augment_side(v, p);
    int bw = top_of[w];
    if (bw >= n) rotate(bw, w);
    mate[w] = p ^ 1;
  }

  void release(int b) {
    parent[b] = NONE;
    children[b].clear();
    links[b].clear();
    base[b] = NONE;
    best_list[b].clear();
    has_best_list[b] = 0;
    best[b] = NONE;
    label[b] = NONE;
    label_end[b] = NONE;
    std::memset(d_of(b), 0, sizeof(uint64_t) * K);
    free_ids.push_back(b);
  }

  void unmatch(int v) {
    if (mate[v] == NONE) return;
    int w = end[mate[v]];
    mate[w] = NONE;
    mate[v] = NONE;
  }
};

template <int KW>
struct Solver final : Graph {
  Solver(int n_, int K_) : Graph(n_, K_) {}

  inline int words() const { return KW ? KW : K; }

  // r = a + b - c, exact when the result is not negative.
  inline void slack3(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c) const {
    __int128 carry = 0;
    const int k = words();
    for (int i = 0; i < k; ++i) {
      __int128 t = static_cast<__int128>(a[i]) + b[i] - static_cast<__int128>(c[i]) + carry;
      r[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
  }
  // r = a - b; false when negative.
  inline bool diff(uint64_t *r, const uint64_t *a, const uint64_t *b) const {
    __int128 carry = 0;
    const int k = words();
    for (int i = 0; i < k; ++i) {
      __int128 t = static_cast<__int128>(a[i]) - static_cast<__int128>(b[i]) + carry;
      r[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    return carry >= 0;
  }
  inline bool less(const uint64_t *a, const uint64_t *b) const {
    for (int i = words() - 1; i >= 0; --i)
      if (a[i] != b[i]) return a[i] < b[i];
    return false;
  }
  inline bool equal(const uint64_t *a, const uint64_t *b) const {
    for (int i = 0; i < words(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  inline bool zero(const uint64_t *a) const {
    uint64_t any = 0;
    for (int i = 0; i < words(); ++i) any |= a[i];
    return any == 0;
  }
  inline void copy(uint64_t *d, const uint64_t *s) const {
    for (int i = 0; i < words(); ++i) d[i] = s[i];
  }
  inline void add(uint64_t *a, const uint64_t *b) const {
    unsigned __int128 carry = 0;
    for (int i = 0; i < words(); ++i) {
      unsigned __int128 t = static_cast<unsigned __int128>(a[i]) + b[i] + carry;
      a[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
  }
  inline void sub(uint64_t *a, const uint64_t *b) const {
    __int128 carry = 0;
    for (int i = 0; i < words(); ++i) {
      __int128 t = static_cast<__int128>(a[i]) - static_cast<__int128>(b[i]) + carry;
      a[i] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
  }
  inline void add_one(uint64_t *a) const {
    for (int i = 0; i < words(); ++i)
      if (++a[i] != 0) break;
  }
  inline void sub_one(uint64_t *a) const {
    for (int i = 0; i < words(); ++i)
      if (a[i]-- != 0) break;
  }
  inline void half(uint64_t *a) const {
    const int k = words();
    for (int i = 0; i < k; ++i) a[i] = (a[i] >> 1) | (i + 1 < k ? a[i + 1] << 63 : 0);
  }
  inline void slack(uint64_t *r, int k) { slack3(r, d_of(end[2 * k]), d_of(end[2 * k + 1]), w_of(k)); }

  // ------------------------------------------------------------------ blossoms

  void shrink(int bvert, int k) {
    const int kw = words();
    int v = end[2 * k], w = end[2 * k + 1];
    int bb = top_of[bvert], bv = top_of[v], bw = top_of[w];
    int b = free_ids.back();
    free_ids.pop_back();
    base[b] = bvert;
    parent[b] = NONE;
    parent[bb] = b;
    std::vector<int> v_side, v_links;
    while (bv != bb) {
      parent[bv] = b;
      v_side.push_back(bv);
      v_links.push_back(label_end[bv]);
      bv = top_of[end[label_end[bv]]];
    }
    auto &ch = children[b];
    auto &ln = links[b];
    ch.clear();
    ln.clear();
    ch.push_back(bb);
    ch.insert(ch.end(), v_side.rbegin(), v_side.rend());
    ln.insert(ln.end(), v_links.rbegin(), v_links.rend());
    ln.push_back(2 * k);
    while (bw != bb) {
      parent[bw] = b;
      ch.push_back(bw);
      ln.push_back(label_end[bw] ^ 1);
      bw = top_of[end[label_end[bw]]];
    }
    label[b] = SLABEL;
    label_end[b] = label_end[bb];
    std::memset(d_of(b), 0, sizeof(uint64_t) * K);
    leaf_buf.clear();
    leaves(b, leaf_buf);
    for (int x : leaf_buf) {
      if (label[top_of[x]] == TLABEL) queue.push_back(x);
      top_of[x] = b;
    }
    // The new blossom's least-slack edges to each other S-blossom, from its children's lists.
    uint64_t sbuf[KW ? KW : 1];
    std::vector<uint64_t> sdyn(KW ? 0 : K);
    uint64_t *s = KW ? sbuf : sdyn.data();
    touched.clear();
    std::vector<int> candidates;
    std::vector<int> cl;
    for (int c : ch) {
      candidates.clear();
      if (has_best_list[c]) {
        candidates = best_list[c];
      } else {
        cl.clear();
        leaves(c, cl);
        for (int x : cl)
          for (const Adj &a : adj[x]) candidates.push_back(a.p >> 1);
      }
      for (int e : candidates) {
        if (!alive[e]) continue;
        int i = end[2 * e], j = end[2 * e + 1];
        if (top_of[j] == b) std::swap(i, j);
        int bj = top_of[j];
        if (bj != b && label[bj] == SLABEL) {
          slack(s, e);
          uint64_t *have = &to_slack[static_cast<size_t>(bj) * kw];
          if (to_edge[bj] == NONE) {
            touched.push_back(bj);
            to_edge[bj] = e;
            copy(have, s);
          } else if (less(s, have)) {
            to_edge[bj] = e;
            copy(have, s);
          }
        }
      }
      best_list[c].clear();
      has_best_list[c] = 0;
      best[c] = NONE;
    }
    auto &mine = best_list[b];
    mine.clear();
    best[b] = NONE;
    const uint64_t *least = nullptr;
    for (int bj : touched) {
      int e = to_edge[bj];
      mine.push_back(e);
      const uint64_t *have = &to_slack[static_cast<size_t>(bj) * kw];
      if (least == nullptr || less(have, least)) {
        least = have;
        best[b] = e;
      }
    }
    has_best_list[b] = 1;
    for (int bj : touched) to_edge[bj] = NONE;
  }

  int index_of(const std::vector<int> &ch, int x) {
    return static_cast<int>(std::find(ch.begin(), ch.end(), x) - ch.begin());
  }

  // Dissolve blossom b into its children; a T-blossom's children are relabelled along the even
  // path from the entry child to the base (mid-stage only).
  void expand(int b, bool end_of_stage) {
    std::vector<int> ch = children[b];
    std::vector<int> ln = links[b];
    std::vector<int> cl;
    for (int c : ch) {
      parent[c] = NONE;
      if (c < n) {
        top_of[c] = c;
      } else if (end_of_stage && zero(d_of(c))) {
        expand(c, end_of_stage);
      } else {
        cl.clear();
        leaves(c, cl);
        for (int x : cl) top_of[x] = c;
      }
    }
    if (!end_of_stage && label[b] == TLABEL) {
      int size = static_cast<int>(ch.size());
      auto wrap = [size](int x) { return x < 0 ? x + size : x; };
      int entry = top_of[end[label_end[b] ^ 1]];
      int j = index_of(ch, entry);
      int step, trick;
      if (j & 1) {
        j -= size;
        step = 1;
        trick = 0;
      } else {
        step = -1;
        trick = 1;
      }
      int p = label_end[b];
      while (j != 0) {
        label[end[p ^ 1]] = FREE;
        label[end[ln[wrap(j - trick)] ^ trick ^ 1]] = FREE;
        assign(end[p ^ 1], TLABEL, p);
        tight[ln[wrap(j - trick)] >> 1] = stage;
        j += step;
        p = ln[wrap(j - trick)] ^ trick;
        tight[p >> 1] = stage;
        j += step;
      }
      int c = ch[wrap(j)];
      label[end[p ^ 1]] = label[c] = TLABEL;
      label_end[end[p ^ 1]] = label_end[c] = p;
      best[c] = NONE;
      j += step;
      while (ch[wrap(j)] != entry) {
        c = ch[wrap(j)];
        if (label[c] == SLABEL) {
          j += step;
          continue;
        }
        int reached = NONE;
        cl.clear();
        leaves(c, cl);
        for (int x : cl) {
          if (label[x] != FREE) {
            reached = x;
            break;
          }
        }
        if (reached != NONE) {
          label[reached] = FREE;
          label[end[mate[base[c]]]] = FREE;
          assign(reached, TLABEL, label_end[reached]);
        }
        j += step;
      }
    }
    release(b);
  }

  // Outside a solve: dissolve top-level blossom b, its dual pushed into its vertices so that
  // every edge keeps its slack or gains.
  void dissolve(int b) {
    std::vector<int> cl;
    leaves(b, cl);
    const uint64_t *z = d_of(b);
    if (!zero(z))
      for (int x : cl) add(d_of(x), z);
    for (int c : children[b]) {
      parent[c] = NONE;
      if (c < n) {
        top_of[c] = c;
      } else {
        std::vector<int> inner;
        leaves(c, inner);
        for (int x : inner) top_of[x] = c;
      }
    }
    release(b);
  }

  // Make v a vertex of its own, exposed: its top blossom loses its mate, v becomes the base and
  // every blossom around v is dissolved.
  void free_from_blossoms(int v) {
    int B = top_of[v];
    if (B < n) return;
    unmatch(base[B]);
    rotate(B, v);
    mate[v] = NONE;
    while (top_of[v] >= n) dissolve(top_of[v]);
  }

  // An exposed vertex's dual made even (see the top of the file).
  void make_even(int v) {
    for (;;) {
      int B = top_of[v];
      if (B < n) {
        add_one(d_of(v));
        return;
      }
      if (zero(d_of(B))) {
        dissolve(B);
        continue;
      }
      std::vector<int> cl;
      leaves(B, cl);
      for (int x : cl) add_one(d_of(x));
      sub_one(d_of(B));
      return;
    }
  }

  // The least dual of trivial vertex v that keeps its edges feasible.
  void least_dual(int v, uint64_t *need, uint64_t *tmp) {
    std::memset(need, 0, sizeof(uint64_t) * words());
    for (const Adj &a : adj[v]) {
      int k = a.p >> 1;
      if (!alive[k]) continue;
      if (diff(tmp, w_of(k), d_of(a.other)) && less(need, tmp)) copy(need, tmp);
    }
  }

  void jump_start() {
    const int kw = words();
    std::vector<uint64_t> buf(2 * kw);
    uint64_t *need = buf.data(), *tmp = buf.data() + kw;
    for (int v = 0; v < n; ++v) {
      uint64_t *d = d_of(v);
      std::memset(d, 0, sizeof(uint64_t) * kw);
      for (const Adj &a : adj[v]) {
        int k = a.p >> 1;
        if (alive[k] && less(d, w_of(k))) copy(d, w_of(k));
      }
      half(d);
    }
    for (int v = 0; v < n; ++v) {
      if (mate[v] != NONE || out[v]) continue;
      least_dual(v, need, tmp);
      copy(d_of(v), need);
      for (const Adj &a : adj[v]) {
        int k = a.p >> 1;
        int w = a.other;
        if (!alive[k] || mate[w] != NONE || w == v) continue;
        slack(tmp, k);
        if (zero(tmp)) {
          mate[v] = a.p;
          mate[w] = a.p ^ 1;
          break;
        }
      }
    }
    fresh = false;
    for (int v : pending_list) pending[v] = 0;
    pending_list.clear();
  }

  void process_pending() {
    const int kw = words();
    std::vector<uint64_t> buf(2 * kw);
    uint64_t *need = buf.data(), *tmp = buf.data() + kw;
    for (int v : pending_list)
      if (top_of[v] >= n) free_from_blossoms(v);
    for (int v : pending_list) {
      pending[v] = 0;
      if (out[v]) continue;
      least_dual(v, need, tmp);
      copy(d_of(v), need);
      if (mate[v] != NONE) {
        int k = mate[v] >> 1;
        bool keep = alive[k];
        if (keep) {
          slack(tmp, k);
          keep = zero(tmp);
        }
        if (!keep) unmatch(v);
      }
    }
    pending_list.clear();
  }

  void remove_vertex(int v) override {
    if (out[v]) return;
    if (!fresh) {
      if (top_of[v] >= n)
        free_from_blossoms(v);
      else
        unmatch(v);
    }
    for (const Adj &a : adj[v]) kill(a.p >> 1);
    std::memset(d_of(v), 0, sizeof(uint64_t) * K);
    out[v] = 1;
  }

  // ------------------------------------------------------------------ the stages

  int solve(int *mate_out) override {
    sort_adjacency();
    stats[1] += 1;
    if (fresh)
      jump_start();
    else
      process_pending();
    for (int v = 0; v < n; ++v)
      if (mate[v] == NONE && !out[v] && (d_of(v)[0] & 1)) make_even(v);
    uint64_t sbuf[KW ? KW : 1], tbuf[KW ? KW : 1], dbuf[KW ? KW : 1];
    std::vector<uint64_t> dyn(KW ? 0 : 3 * K);
    uint64_t *s = KW ? sbuf : dyn.data();
    uint64_t *t = KW ? tbuf : dyn.data() + K;
    uint64_t *delta = KW ? dbuf : dyn.data() + 2 * K;
    bool any_stage = false;
    for (;;) {
      ++stage;
      for (int i = 0; i < 2 * n; ++i) {
        label[i] = FREE;
        best[i] = NONE;
      }
      for (int b = n; b < 2 * n; ++b) {
        if (has_best_list[b]) {
          best_list[b].clear();
          has_best_list[b] = 0;
        }
      }
      queue.clear();
      bool roots = false;
      for (int v = 0; v < n; ++v) {
        if (mate[v] == NONE && label[top_of[v]] == FREE && !zero(d_of(v))) {
          assign(v, SLABEL, NONE);
          roots = true;
        }
      }
      if (!roots) break;
      any_stage = true;
      stats[0] += 1;
      bool augmented = false;
      for (;;) {
        while (!queue.empty() && !augmented) {
          int v = queue.back();
          queue.pop_back();
          const uint64_t *dv = d_of(v);
          int bv = top_of[v];
          for (const Adj &a : adj[v]) {
            int k = a.p >> 1;
            if (!alive[k]) continue;
            int w = a.other;
            int bw = top_of[w];
            if (bv == bw) continue;
            bool is_tight = tight[k] == stage;
            if (!is_tight) {
              slack3(s, dv, d_of(w), w_of(k));
              if (zero(s)) {
                tight[k] = stage;
                is_tight = true;
              }
            }
            if (is_tight) {
              int lw = label[bw];
              if (lw == FREE) {
                if (mate[base[bw]] == NONE) {
                  augment_to_exposed(v, w, a.p);
                  augmented = true;
                  break;
                }
                assign(w, TLABEL, a.p ^ 1);
              } else if (lw == SLABEL) {
                int found = find_base(v, w);
                if (found != NONE) {
                  shrink(found, k);
                  bv = top_of[v];
                } else {
                  augment(k);
                  augmented = true;
                  break;
                }
              } else if (label[w] == FREE) {
                // w lies in a T-blossom and is reached for the first time.
                label[w] = TLABEL;
                label_end[w] = a.p ^ 1;
              }
            } else if (label[bw] == SLABEL) {
              int e = best[bv];
              if (e == NONE) {
                best[bv] = k;
              } else {
                slack(t, e);
                if (less(s, t)) best[bv] = k;
              }
            } else if (label[w] == FREE) {
              int e = best[w];
              if (e == NONE) {
                best[w] = k;
              } else {
                slack(t, e);
                if (less(s, t)) best[w] = k;
              }
            }
          }
        }
        if (augmented) break;
        // No tight edge left to use: change the duals by the least delta.
        int kind = 0, chosen = NONE;
        for (int v = 0; v < n; ++v) {
          if (label[top_of[v]] == SLABEL && (kind == 0 || less(d_of(v), delta))) {
            copy(delta, d_of(v));
            kind = 1;
            chosen = v;
          }
        }
        for (int v = 0; v < n; ++v) {
          int e = best[v];
          if (e != NONE && label[top_of[v]] == FREE) {
            slack(s, e);
            if (less(s, delta)) {
              copy(delta, s);
              kind = 2;
              chosen = e;
            }
          }
        }
        for (int b = 0; b < 2 * n; ++b) {
          int e = best[b];
          if (e != NONE && label[b] == SLABEL && parent[b] == NONE) {
            slack(s, e);
            half(s);
            if (less(s, delta)) {
              copy(delta, s);
              kind = 3;
              chosen = e;
            }
          }
        }
        for (int b = n; b < 2 * n; ++b) {
          if (base[b] >= 0 && parent[b] == NONE && label[b] == TLABEL && less(d_of(b), delta)) {
            copy(delta, d_of(b));
            kind = 4;
            chosen = b;
          }
        }
        if (!zero(delta)) {
          for (int v = 0; v < n; ++v) {
            int lb = label[top_of[v]];
            if (lb == SLABEL)
              sub(d_of(v), delta);
            else if (lb == TLABEL)
              add(d_of(v), delta);
          }
          for (int b = n; b < 2 * n; ++b) {
            if (base[b] >= 0 && parent[b] == NONE) {
              if (label[b] == SLABEL)
                add(d_of(b), delta);
              else if (label[b] == TLABEL)
                sub(d_of(b), delta);
            }
          }
        }
        if (kind == 1) {
          // An S-vertex reached zero: the path from it to its root is flipped, it stays exposed.
          augment_side(chosen, NONE);
          augmented = true;
          break;
        }
        if (kind == 2) {
          tight[chosen] = stage;
          int i = end[2 * chosen], j = end[2 * chosen + 1];
          if (label[top_of[i]] == FREE) std::swap(i, j);
          queue.push_back(i);
        } else if (kind == 3) {
          tight[chosen] = stage;
          queue.push_back(end[2 * chosen]);
        } else {
          expand(chosen, false);
        }
      }
      // End of stage: S-blossoms whose dual fell to zero are dissolved.
      for (int b = n; b < 2 * n; ++b) {
        if (parent[b] == NONE && base[b] >= 0 && label[b] == SLABEL && zero(d_of(b))) expand(b, true);
      }
    }
    if (!any_stage) stats[2] += 1;
    for (int v = 0; v < n; ++v) mate_out[v] = mate[v] == NONE ? NONE : end[mate[v]];
    return 0;
  }

  // ------------------------------------------------------------------ certificate

  int check() override {
    if (fresh) return 0;
    const int kw = words();
    std::vector<uint64_t> t(kw), z2(kw);
    for (int v = 0; v < n; ++v) {
      if (mate[v] == NONE) {
        if (!zero(d_of(v))) return MW_ERR_INVARIANT;
      } else {
        int w = end[mate[v]];
        if (mate[w] != (mate[v] ^ 1) || !alive[mate[v] >> 1]) return MW_ERR_INVARIANT;
      }
    }
    for (int k = 0; k < edges(); ++k) {
      if (!alive[k]) continue;
      int a = end[2 * k], b = end[2 * k + 1];
      // Blossoms holding both ends add twice their dual to the slack.
      std::vector<int> up;
      for (int x = parent[a]; x != NONE; x = parent[x]) up.push_back(x);
      copy(t.data(), d_of(a));
      add(t.data(), d_of(b));
      for (int x = parent[b]; x != NONE; x = parent[x]) {
        if (std::find(up.begin(), up.end(), x) != up.end()) {
          copy(z2.data(), d_of(x));
          add(t.data(), z2.data());
          add(t.data(), z2.data());
        }
      }
      if (!diff(t.data(), t.data(), w_of(k))) return MW_ERR_INVARIANT;
      bool matched = mate[a] == 2 * k + 1;
      if (matched && !zero(t.data())) return MW_ERR_INVARIANT;
    }
    // A blossom with a positive dual holds (size - 1) / 2 matched pairs.
    for (int b = n; b < 2 * n; ++b) {
      if (base[b] < 0 || zero(d_of(b))) continue;
      std::vector<int> cl;
      leaves(b, cl);
      int inside = 0;
      for (int x : cl) {
        if (mate[x] == NONE) continue;
        int y = end[mate[x]];
        if (std::find(cl.begin(), cl.end(), y) != cl.end()) ++inside;
      }
      if (inside / 2 != (static_cast<int>(cl.size()) - 1) / 2) return MW_ERR_INVARIANT;
    }
    return 0;
  }
};

Graph *make(int n, int words) {
  switch (words) {
    case 1: return new Solver<1>(n, 1);
    case 2: return new Solver<2>(n, 2);
    case 3: return new Solver<3>(n, 3);
    case 4: return new Solver<4>(n, 4);
    case 6: return new Solver<6>(n, 6);
    case 8: return new Solver<8>(n, 8);
    default: return new Solver<0>(n, words);
  }
}

}  // namespace

struct mw_graph {
  Graph *g;
};

extern "C" {

mw_graph *mw_new(int n, int words) {
  if (n < 0 || words < 1) return nullptr;
  try {
    mw_graph *h = new mw_graph;
    h->g = make(n, words);
    return h;
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

void mw_free(mw_graph *h) {
  if (!h) return;
  delete h->g;
  delete h;
}

int mw_set_values(mw_graph *h, int count, const int *a, const int *b, const uint64_t *values) {
  Graph &g = *h->g;
  try {
    for (int i = 0; i < count; ++i) {
      int x = a[i], y = b[i];
      if (x < 0 || y < 0 || x >= g.n || y >= g.n || x == y) return MW_ERR_VERTEX;
      if (g.out[x] || g.out[y]) continue;
      const uint64_t *value = values + static_cast<size_t>(i) * g.K;
      int k = g.find_edge(x, y);
      if (k == NONE) {
        bool any = false;
        for (int j = 0; j < g.K; ++j) any = any || value[j];
        if (!any) continue;
        k = g.new_edge(x, y);
      }
      g.store(k, value);
      if (!g.fresh) g.mark(x);
    }
  } catch (const std::bad_alloc &) {
    return MW_ERR_MEMORY;
  }
  return 0;
}

int mw_build_classes(mw_graph *h, int count, const int *vertices, const int *classes, int nclasses,
                     const uint64_t *table, int nbarred, const int *barred) {
  Graph &g = *h->g;
  if (g.edges() || g.ncls || !g.fresh) return MW_ERR_BUILT;
  try {
    for (int i = 0; i < count; ++i) {
      int v = vertices[i];
      if (v < 0 || v >= g.n || g.pos[v] != NONE) return MW_ERR_VERTEX;
      if (classes[i] < 0 || classes[i] >= nclasses) return MW_ERR_CLASS;
      g.cls[v] = classes[i];
      g.pos[v] = i;
    }
    g.ncls = nclasses;
    g.table.assign(table, table + static_cast<size_t>(nclasses) * nclasses * g.K);
    std::vector<std::vector<int>> bars(g.n);
    for (int i = 0; i < nbarred; ++i) {
      int x = barred[2 * i], y = barred[2 * i + 1];
      if (x < 0 || y < 0 || x >= g.n || y >= g.n) return MW_ERR_VERTEX;
      bars[x].push_back(y);
      bars[y].push_back(x);
    }
    size_t m = static_cast<size_t>(count) * (count > 0 ? count - 1 : 0) / 2;
    g.end.reserve(2 * m);
    g.alive.reserve(m);
    g.tight.reserve(m);
    g.W.reserve(m * g.K);
    for (int i = 0; i < count; ++i) g.adj[vertices[i]].reserve(count - 1);
    g.adj_sorted = false;
    std::vector<uint8_t> skip(g.n, 0);
    for (int i = 0; i < count; ++i) {
      int h_v = vertices[i];
      for (int y : bars[h_v]) skip[y] = 1;
      const uint64_t *row = &g.table[static_cast<size_t>(classes[i]) * nclasses * g.K];
      for (int j = i + 1; j < count; ++j) {
        int lo = vertices[j];
        if (skip[lo]) continue;
        int k = g.new_edge(h_v, lo);
        g.store(k, row + static_cast<size_t>(classes[j]) * g.K);
      }
      for (int y : bars[h_v]) skip[y] = 0;
    }
  } catch (const std::bad_alloc &) {
    return MW_ERR_MEMORY;
  }
  return 0;
}

int mw_set_deltas(mw_graph *h, int v, int count, const int *others, const int64_t *deltas) {
  Graph &g = *h->g;
  if (v < 0 || v >= g.n) return MW_ERR_VERTEX;
  if (g.out[v]) return 0;
  std::vector<uint64_t> value(g.K);
  for (int i = 0; i < count; ++i) {
    int o = others[i];
    if (o < 0 || o >= g.n || o == v) return MW_ERR_VERTEX;
    if (g.out[o]) continue;
    int k = g.find_edge(v, o);
    if (k == NONE) continue;
    if (!g.class_value(v, o, value.data())) return MW_ERR_CLASS;
    bool any = false;
    for (int j = 0; j < g.K; ++j) any = any || value[j];
    if (!any || deltas[i] == MW_REMOVE) {
      g.kill(k);
    } else {
      __int128 carry = deltas[i];
      for (int j = 0; j < g.K; ++j) {
        __int128 t = static_cast<__int128>(value[j]) + carry;
        value[j] = static_cast<uint64_t>(t);
        carry = t >> 64;
      }
      if (carry < 0)
        g.kill(k);
      else
        g.store(k, value.data());
    }
    if (!g.fresh) g.mark(v);
  }
  return 0;
}

int mw_remove_vertices(mw_graph *h, int count, const int *vertices) {
  Graph &g = *h->g;
  for (int i = 0; i < count; ++i)
    if (vertices[i] < 0 || vertices[i] >= g.n) return MW_ERR_VERTEX;
  for (int i = 0; i < count; ++i) g.remove_vertex(vertices[i]);
  return 0;
}

int mw_restore_vertices(mw_graph *h, int count, const int *vertices) {
  Graph &g = *h->g;
  for (int i = 0; i < count; ++i)
    if (vertices[i] < 0 || vertices[i] >= g.n) return MW_ERR_VERTEX;
  for (int i = 0; i < count; ++i) g.out[vertices[i]] = 0;
  std::vector<uint64_t> value(g.K);
  for (int i = 0; i < count; ++i) {
    int v = vertices[i];
    for (const Adj &a : g.adj[v]) {
      if (g.out[a.other]) continue;
      int k = a.p >> 1;
      if (!g.class_value(v, a.other, value.data())) return MW_ERR_CLASS;
      g.store(k, value.data());
    }
    if (!g.fresh) g.mark(v);
  }
  return 0;
}

int mw_solve(mw_graph *h, int *mate) {
  try {
    return h->g->solve(mate);
  } catch (const std::bad_alloc &) {
    return MW_ERR_MEMORY;
  }
}

int mw_check(mw_graph *h) { return h->g->check(); }

int64_t mw_stat(mw_graph *h, int which) {
  if (which < 0 || which >= 4) return -1;
  return h->g->stats[which];
}

}  // extern "C"
