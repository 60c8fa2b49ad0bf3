// Lesson 04 on the CPU: the keys, the book's chained hash table, the check every chained table
// must pass, and std::unordered_map, the reference for the open-addressing tables. Plain C++17,
// shared by cpu.cpp, main.cu and test.cu.
//
// Every entry is a 32-bit key and a 32-bit value; the value is the key's index in the input, so a
// lookup's answer can be checked. Random keys repeat now and then, so the two kinds of table say
// what a repeat means:
//   chained tables (the book's, v0 to v3)  a multimap: every inserted entry is kept;
//   open addressing (v4, v5)               a map: each distinct key once, insert-or-assign, so a
//                                          key holds the index of its last occurrence, as
//                                          std::unordered_map::insert_or_assign in input order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "inputs.hpp"
#include "layout.hpp"

namespace lesson04 {

constexpr std::uint32_t kSourceBuckets = 1024;  // the book's bucket count
// The book's input: 100 MiB of random 32-bit words.
constexpr std::size_t kSourceKeys = (std::size_t{100} << 20) / sizeof(std::uint32_t);
constexpr std::size_t kMaxKeys = kNotFound;

// The inputs:
//   random      the book's: uniform 32-bit words (about n^2 / 2^33 of them repeat);
//   sequential  0, 1, 2, ...;
//   dups        uniform over max(1, n / 8) values: each key about 8 times;
//   equal       one random key, n times;
//   collide     i * 1024: every key in bucket 0 of the book's 1024 buckets (past 2^22 keys
//               the products wrap around and repeat).
enum class Dist { random, sequential, dups, equal, collide };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {
      {"random", "the book's 32-bit words"},
      {"sequential", "0, 1, 2, ..."},
      {"dups", "each key about 8 times"},
      {"equal", "one key"},
      {"collide",
       "multiples of 1024 (equal and collide put every key in one bucket of the book's table: slow "
       "at large n)"}};
  return names;
}

inline std::vector<std::uint32_t> make_keys(std::size_t n, Dist dist, std::uint64_t seed) {
  std::vector<std::uint32_t> keys(n);
  const std::uint64_t distinct = std::max<std::uint64_t>(1, n / 8);
  const auto equal_key = static_cast<std::uint32_t>(course::random_u64(seed, 0));
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t word = course::random_u64(seed, i);
      switch (dist) {
        case Dist::random:
          keys[i] = static_cast<std::uint32_t>(word);
          break;
        case Dist::sequential:
          keys[i] = static_cast<std::uint32_t>(i);
          break;
        case Dist::dups:
          keys[i] = static_cast<std::uint32_t>(word % distinct);
          break;
        case Dist::equal:
          keys[i] = equal_key;
          break;
        case Dist::collide:
          keys[i] = static_cast<std::uint32_t>(i * kSourceBuckets);
          break;
      }
    }
  });
  return keys;
}

// m random keys, none of which is in `present`: the queries of "find, key absent".
inline std::vector<std::uint32_t> make_absent_keys(std::size_t m,
                                                   const std::vector<std::uint32_t>& present,
                                                   std::uint64_t seed) {
  std::vector<std::uint32_t> sorted(present);
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> absent(m);
  course::parallel_for(m, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      std::uint32_t key = 0;
      for (std::uint64_t draw = 0;; ++draw) {  // fewer than 2^32 keys: some key is absent
        key = static_cast<std::uint32_t>(
            course::random_u64(seed ^ 0x9E3779B97F4A7C15ull, i + (draw << 40)));
        if (!std::binary_search(sorted.begin(), sorted.end(), key)) break;
      }
      absent[i] = key;
    }
  });
  return absent;
}

// ---- the book's chained table -------------------------------------------------------------------

// The book's CPU table: `buckets` singly linked lists, entries taken in order from a pool of
// `capacity`, each inserted at the head of its bucket's list.
class SourceTable {
 public:
  SourceTable(std::size_t buckets, std::size_t capacity)
      : heads_(buckets, nullptr), pool_(capacity) {
    if (buckets == 0 || buckets > 0xFFFFFFFFu) throw std::invalid_argument("bad bucket count");
  }
  void add(std::uint32_t key, std::uint32_t value) {
    if (used_ == pool_.size()) throw std::length_error("the table's entry pool is full");
    Entry* entry = &pool_[used_++];
    Entry*& head = heads_[bucket_of(key, static_cast<std::uint32_t>(heads_.size()))];
    *entry = Entry{key, value, head};
    head = entry;
  }
  const std::vector<Entry*>& heads() const { return heads_; }
  const std::vector<Entry>& pool() const { return pool_; }

 private:
  std::vector<Entry*> heads_;
  std::vector<Entry> pool_;
  std::size_t used_ = 0;
};

inline SourceTable build_source_table(const std::vector<std::uint32_t>& keys, std::size_t buckets) {
  SourceTable table(buckets, keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    table.add(keys[i], static_cast<std::uint32_t>(i));
  return table;
}

// What walking every chain found. A chained table is right when every one of the n entries is
// reachable, in the bucket its key hashes to, holding its own key and index, and nothing else is.
struct ChainCheck {
  std::size_t reachable = 0;  // entries found by walking the chains
  std::size_t misplaced = 0;  // in a bucket their key does not hash to
  std::size_t wrong = 0;      // a value that is no index, or the key of another index, or twice
  std::size_t broken = 0;     // chains that left the pool, or met an entry already seen (a cycle)

  bool ok(std::size_t n) const { return reachable == n && misplaced + wrong + broken == 0; }
  std::string text(std::size_t n) const {
    std::string out = course::format("%zu of %zu entries reachable", reachable, n);
    if (reachable < n) {
      out += course::format(" (%.1f%% lost)",
                            100.0 * static_cast<double>(n - reachable) / static_cast<double>(n));
    }
    if (misplaced) out += course::format(", %zu in the wrong bucket", misplaced);
    if (wrong) out += course::format(", %zu wrong or repeated", wrong);
    if (broken) out += course::format(", %zu broken chains", broken);
    return out;
  }
};

// The book's verify_table (the course's copy of the book prints it hashing the value, where its
// prose hashes the key), made exact: walks every bucket of a table whose entries lie in
// pool[0, pool_size) and checks it against the n keys that were inserted, entry i holding
// (keys[i], i).
inline ChainCheck check_chains(const std::vector<Entry*>& heads, const Entry* pool,
                               std::size_t pool_size, const std::uint32_t* keys, std::size_t n) {
  ChainCheck check;
  std::vector<unsigned char> seen(n, 0);
  std::vector<unsigned char> visited(pool_size, 0);  // an entry on two chains, or twice on one
  const auto first = reinterpret_cast<std::uintptr_t>(pool);
  const auto last = first + pool_size * sizeof(Entry);
  const auto buckets = static_cast<std::uint32_t>(heads.size());
  for (std::uint32_t b = 0; b < buckets; ++b) {
    for (const Entry* e = heads[b]; e != nullptr; e = e->next) {
      const auto address = reinterpret_cast<std::uintptr_t>(e);
      const std::size_t slot = (address - first) / sizeof(Entry);
      if (address < first || address >= last || (address - first) % sizeof(Entry) != 0 ||
          visited[slot]) {
        ++check.broken;
        break;
      }
      visited[slot] = 1;
      ++check.reachable;
      if (bucket_of(e->key, buckets) != b) ++check.misplaced;
      if (e->value >= n || keys[e->value] != e->key || seen[e->value]) {
        ++check.wrong;
      } else {
        seen[e->value] = 1;
      }
    }
  }
  return check;
}

// The book's copy_table_to_host, for a copy of a device table: every pointer into the device's
// pool becomes the same entry of the host's copy, (p - device_pool) + host_pool. A pointer that
// is not into the pool is left as it was, and check_chains reports its chain as broken.
inline void rebase(std::vector<Entry*>& heads, std::vector<Entry>& pool, const Entry* device_pool) {
  const auto first = reinterpret_cast<std::uintptr_t>(device_pool);
  const auto last = first + pool.size() * sizeof(Entry);
  auto move = [&](Entry*& p) {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    if (address >= first && address < last && (address - first) % sizeof(Entry) == 0) {
      p = pool.data() + (address - first) / sizeof(Entry);
    }
  };
  for (Entry*& head : heads)
    move(head);
  for (Entry& e : pool)
    move(e.next);
}

// A multimap's contents as a sorted list of (key, value) pairs, so that two multimaps compare
// equal when their lists do. (std::unordered_multimap's own == is quadratic in the size of a group
// of equal keys, and the tests put a million entries under one key.)
using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// What std::unordered_multimap holds after inserting (keys[i], i) for every i.
inline Pairs multimap_pairs(const std::vector<std::uint32_t>& keys) {
  std::unordered_multimap<std::uint32_t, std::uint32_t> m;
  for (std::size_t i = 0; i < keys.size(); ++i)
    m.emplace(keys[i], static_cast<std::uint32_t>(i));
  Pairs pairs(m.begin(), m.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Every (key, value) reachable from the heads, at most `limit` + 1 of them (a cycle stops there).
inline Pairs chain_pairs(const std::vector<Entry*>& heads, std::size_t limit) {
  Pairs pairs;
  for (const Entry* head : heads) {
    for (const Entry* e = head; e != nullptr && pairs.size() <= limit; e = e->next)
      pairs.emplace_back(e->key, e->value);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// ---- open addressing: one 64-bit slot per key
// ----------------------------------------------------

// ---- the map every open-addressing table must equal ---------------------------------------------

using Map = std::unordered_map<std::uint32_t, std::uint32_t>;

// std::unordered_map is timed on at most this many keys, the first ones: a build of the lesson's
// 25Mi keys takes seconds a run (a node allocated per key), and would be most of the programs'
// time. The tables compare its rate (keys a second) at this size.
constexpr std::size_t kMapTimedKeys = std::size_t{1} << 22;

// How many of n keys std::unordered_map is timed on.
inline std::size_t map_timed_keys(std::size_t n) {
  return std::min(n, kMapTimedKeys);
}

// Insert-or-assign in input order: each distinct key maps to the index of its last occurrence.
inline Map reference_map(const std::vector<std::uint32_t>& keys) {
  Map map;
  map.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    map.insert_or_assign(keys[i], static_cast<std::uint32_t>(i));
  return map;
}

// What find must answer for each query: the key's value, or kNotFound.
inline std::vector<std::uint32_t> reference_find(const Map& map,
                                                 const std::vector<std::uint32_t>& queries) {
  std::vector<std::uint32_t> out(queries.size());
  course::parallel_for(queries.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto it = map.find(queries[i]);
      out[i] = it == map.end() ? kNotFound : it->second;
    }
  });
  return out;
}

// What a copy of an open-addressing table holds, against the map it must equal.
struct SlotCheck {
  std::size_t stored = 0;  // keys in the table (slots in use, and the side word)
  std::size_t wrong = 0;   // keys the map lacks, with another value, or stored twice

  bool ok(const Map& map) const { return stored == map.size() && wrong == 0; }
  std::string text(const Map& map) const {
    return course::format("%zu keys stored of %zu distinct", stored, map.size()) +
           (wrong ? course::format(", %zu wrong or repeated", wrong) : std::string());
  }
};

// Every stored key must be in the map with its value, and no key twice: the map's values are
// distinct indices below n, so a key stored twice shows as a value seen twice.
inline SlotCheck check_slots(const std::vector<Slot>& slots, Slot empty_key_entry, const Map& map,
                             std::size_t n) {
  SlotCheck check;
  std::vector<unsigned char> seen(n, 0);
  auto visit = [&](std::uint32_t key, std::uint32_t value) {
    ++check.stored;
    const auto it = map.find(key);
    if (it == map.end() || it->second != value || value >= n || seen[value]) {
      ++check.wrong;
    } else {
      seen[value] = 1;
    }
  };
  for (Slot slot : slots) {
    if (slot != kEmptySlot) visit(key_of(slot), value_of(slot));
  }
  if (empty_key_entry != 0) visit(kEmptyKey, value_of(empty_key_entry));
  return check;
}

// Slots an open-addressing table needs for n keys at the given load factor (keys / slots).
inline std::size_t capacity_for(std::size_t n, double load_factor) {
  if (!(load_factor > 0 && load_factor <= 1))
    throw std::invalid_argument("load factor not in (0, 1]");
  const auto slots = static_cast<std::size_t>(static_cast<double>(n) / load_factor + 0.999999);
  return std::max<std::size_t>(slots, 1);
}

}  // namespace lesson04
