// Two awave files compared (awave -compare A B): the same grid and parameters, then every
// snapshot both hold (matched by step), field by field, every checkpoint both hold, and sos and
// damp, bit for bit. Any process count, complete or .partial, double or single precision. A
// run that stores more than another (a longer run, a .partial, a restart's file, which starts
// at its restart step) is compared at the steps both hold, and the answer says which.
#pragma once

#include "io/integrity.hpp"

#include <optional>
#include <string>

namespace awave {

struct Comparison {
  enum class Outcome { identical, differ, incomparable, failed };  // failed: a run-time failure (I/O, memory)
  Outcome outcome = Outcome::incomparable;
  std::string line;  // one line: what was compared, the first difference and the count, or why not
};

// Verifies both files (check_integrity) and compares them. Never throws for a bad file: an
// unreadable, damaged or unverifiable file, or two files of different grids, dx, dt, sponge
// layers, precision or fields, or with no step in common, is Outcome::incomparable.
Comparison compare_files(const std::string& path_a, const std::string& path_b);

// The first damage an integrity report names, in -verify's words ("snapshot 5 of 6 is DAMAGED:
// u x-plane 19 does not match its checksum (step 24)", "DAMAGED: sos x-plane 0 ..."), or nothing.
std::optional<std::string> first_damage(const IntegrityReport& report);

}  // namespace awave
