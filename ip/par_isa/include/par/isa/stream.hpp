// Conditional stream reads and writes (docs/isa.md §6.10): the stream register file (SRF), the
// channel descriptor and the routing network of one access by N processing elements (PEs).
//
// The SRF has N banks; element a lives in bank a mod N, row a div N, so any N consecutive
// elements sit in N different banks. A channel is reached only at its head through its
// descriptor (cur, fin). One access takes a condition per PE: the compactor gives each PE whose
// condition is set its rank (how many PEs before it take an element), the barrel shifter rotates
// the bank ports by cur mod N so that rank 0 meets the bank holding the head, and PE p with rank
// r reads or writes element cur + r. PEs whose condition is clear take nothing and leave no gap.
// A GET that needs more elements than cur..fin holds fails with "empty", a PUT with "full"; a
// failed access changes nothing.
//
// The functions model the hardware (log-depth prefix network, log-depth rotator); the unit tests
// check them against the reference semantics written as plain loops, for every mask of small N.
#pragma once

#include <cstdint>
#include <vector>

namespace par::isa::stream {

struct Descriptor {
  std::uint64_t cur = 0;  // next element to read or write
  std::uint64_t fin = 0;  // one past the last element the channel may use
  std::uint64_t left() const { return fin > cur ? fin - cur : 0; }
};

enum class Status : std::uint8_t { Ok, Empty, Full };

// The stream register file: banks x rows 64-bit elements, stored by element address
// (a = row * banks + bank), so the same contents can be viewed with another bank count.
class Srf {
 public:
  Srf(int banks, std::uint64_t elements) : banks_(banks), data_(elements, 0) {}
  int banks() const { return banks_; }
  std::uint64_t capacity() const { return data_.size(); }
  std::uint64_t& cell(int bank, std::uint64_t row) { return data_[row * static_cast<std::uint64_t>(banks_) + static_cast<std::uint64_t>(bank)]; }
  std::uint64_t& element(std::uint64_t a) { return data_[a]; }
  std::uint64_t element(std::uint64_t a) const { return data_[a]; }

 private:
  int banks_;
  std::vector<std::uint64_t> data_;
};

// The routing network of N PEs and N banks, with its scratch state.
class Router {
 public:
  explicit Router(int n);
  int pes() const { return n_; }

  // Compactor: rank[p] = number of set conditions among PEs 0..p-1, through a Hillis-Steele
  // prefix network of ceil(log2 N) levels. Returns the number of set conditions.
  int compact(const std::uint8_t* cond);
  const std::vector<int>& rank() const { return rank_; }

  // Barrel shifter: after rotate(cur), port(r) is the bank that holds element cur + r (for
  // r < N) and row(b) is the row bank b supplies; the rotation goes through one stage per bit
  // of cur mod N.
  void rotate(std::uint64_t cur);
  int port(int r) const { return port_[static_cast<std::size_t>(r)]; }
  std::uint64_t row(int bank) const { return base_row_ + (bank < shift_ ? 1 : 0); }

  // One GET / PUT by the N PEs of srf (srf.banks() == N). GET writes rd[p] for every PE with
  // cond[p] set and leaves the others; PUT writes rs[p] of those PEs to the channel.
  Status get(Srf& srf, Descriptor& d, const std::uint8_t* cond, std::uint64_t* rd);
  Status put(Srf& srf, Descriptor& d, const std::uint8_t* cond, const std::uint64_t* rs);

 private:
  template <bool kPut, class Word>
  Status access(Srf& srf, Descriptor& d, const std::uint8_t* cond, Word* data);

  int n_;
  std::vector<int> rank_, scan_, port_, next_;
  std::uint64_t base_row_ = 0;
  int shift_ = 0;
};

}  // namespace par::isa::stream
