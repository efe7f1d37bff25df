// Damaging awave files the way disks and copies do, for the integrity tests: bytes of a
// snapshot's raw data overwritten in place (found through HDF5's chunk index), a step entry or
// a parameter changed, random runs of bytes anywhere.
#pragma once

#include "io/integrity.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace awave_test {

// Overwrites `bytes` at `offset` of the file.
inline void overwrite(const std::string& path, std::uint64_t offset, const std::vector<char>& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  f.seekp(std::streamoff(offset));
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

inline std::uint64_t file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return std::uint64_t(f.tellg());
}

// The file address of the chunk holding element (slot, 0, 0, 0) of a PointData array, or of the
// time-series dataset at `array` where it is a path ("/awave_checkpoints/u").
inline std::uint64_t slot_address(const std::string& path, const std::string& array, std::int64_t slot) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const std::string dataset = array.rfind('/', 0) == 0 ? array : "/VTKHDF/PointData/" + array;
  const hid_t ds = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
  const hsize_t coord[4] = {hsize_t(slot), 0, 0, 0};
  unsigned mask = 0;
  haddr_t addr = HADDR_UNDEF;
  hsize_t size = 0;
  const herr_t status = H5Dget_chunk_info_by_coord(ds, coord, &mask, &addr, &size);
  H5Dclose(ds);
  H5Fclose(file);
  if (status < 0 || addr == HADDR_UNDEF) throw std::runtime_error("no chunk for slot " + std::to_string(slot));
  return std::uint64_t(addr);
}

// Flips every bit of `n` bytes of a snapshot's raw data, `into` bytes into its chunk.
inline void damage_slot(const std::string& path, const std::string& array, std::int64_t slot, std::uint64_t into,
                        std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  const std::uint64_t at = slot_address(path, array, slot) + into;
  in.seekg(std::streamoff(at));
  std::vector<char> bytes(n);
  in.read(bytes.data(), std::streamsize(n));
  for (char& b : bytes) b = char(~b);
  in.close();
  overwrite(path, at, bytes);
}

// Sets entry n of a Steps array (e.g. "Values" or "PointDataOffsets/u") through HDF5.
inline void set_steps_entry(const std::string& path, const std::string& array, hsize_t n, std::int64_t value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t ds = H5Dopen2(file, ("/VTKHDF/Steps/" + array).c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(ds);
  const hsize_t one = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &n, nullptr, &one, nullptr);
  const hid_t mem = H5Screate_simple(1, &one, nullptr);
  H5Dwrite(ds, H5T_NATIVE_INT64, mem, space, H5P_DEFAULT, &value);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(ds);
  H5Fclose(file);
}

// Sets the /wave_params dt attribute (a parameter a restart takes from the file).
inline void set_dt(const std::string& path, double dt) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t group = H5Gopen2(file, "/wave_params", H5P_DEFAULT);
  const hid_t attr = H5Aopen(group, "dt", H5P_DEFAULT);
  H5Awrite(attr, H5T_NATIVE_DOUBLE, &dt);
  H5Aclose(attr);
  H5Gclose(group);
  H5Fclose(file);
}

// Attribute `name` of group `group` written as the given values, in the attribute's own type (HDF5 converts).
template <class T>
inline void set_attribute(const std::string& path, const std::string& group, const std::string& name,
                          const std::vector<T>& values, hid_t memory_type) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t g = H5Gopen2(file, group.c_str(), H5P_DEFAULT);
  const hid_t attr = H5Aopen(g, name.c_str(), H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, memory_type, values.data()) >= 0;
  H5Aclose(attr);
  H5Gclose(g);
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot set " + group + " " + name + " in " + path);
}
inline void set_int_attribute(const std::string& path, const std::string& group, const std::string& name, int value) {
  set_attribute<int>(path, group, name, {value}, H5T_NATIVE_INT);
}
// NSteps alone, as one damaged attribute.
inline void set_nsteps(const std::string& path, std::int64_t nsteps) {
  set_attribute<std::int64_t>(path, "/VTKHDF/Steps", "NSteps", {nsteps}, H5T_NATIVE_INT64);
}
// /awave_integrity committed as given: {snapshots, checkpoints, crc}.
inline void set_committed_raw(const std::string& path, const std::vector<std::int64_t>& values) {
  set_attribute<std::int64_t>(path, "/awave_integrity", "committed", values, H5T_NATIVE_INT64);
}

// Adds `delta` to one value of a static PointData array ("sos" or "damp", [1][nz][ny][nx]) at
// (i, j, k), through HDF5: the stored checksums stay as written, as after a flipped bit on disk.
inline void add_to_static_value(const std::string& path, const std::string& array, hsize_t i, hsize_t j, hsize_t k,
                                double delta) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t ds = H5Dopen2(file, ("/VTKHDF/PointData/" + array).c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(ds);
  const hsize_t at[4] = {0, k, j, i}, one[4] = {1, 1, 1, 1};
  H5Sselect_hyperslab(space, H5S_SELECT_SET, at, nullptr, one, nullptr);
  const hid_t mem = H5Screate_simple(1, one, nullptr);
  double value = 0;
  const bool done = H5Dread(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &value) >= 0 &&
                    (value += delta, H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &value) >= 0);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(ds);
  if (H5Fclose(file) < 0 || !done) throw std::runtime_error("cannot damage " + array + " in " + path);
}

// The checksummed record rewritten as the writer writes it (io/integrity.hpp, scheme 2): `snapshots` committed
// (-1: as it says now), the checkpoints as it says, `complete`, the file's checkpoint period.
inline void set_committed_record(const std::string& path, std::int64_t snapshots, int complete) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t integrity = H5Gopen2(file, "/awave_integrity", H5P_DEFAULT);
  const hid_t committed = H5Aopen(integrity, "committed", H5P_DEFAULT);
  std::int64_t counts[3] = {};
  bool written = H5Aread(committed, H5T_NATIVE_INT64, counts) >= 0;
  if (snapshots >= 0) counts[0] = snapshots;
  int period = 0;  // the checkpoints' period, where the file keeps them apart
  if (H5Lexists(file, "/awave_checkpoints", H5P_DEFAULT) > 0) {
    const hid_t group = H5Gopen2(file, "/awave_checkpoints", H5P_DEFAULT);
    const hid_t attr = H5Aopen(group, "period", H5P_DEFAULT);
    written = written && H5Aread(attr, H5T_NATIVE_INT, &period) >= 0;
    H5Aclose(attr);
    H5Gclose(group);
  }
  counts[2] = std::int64_t(awave::committed_record(counts[0], counts[1], complete, period));
  written = written && H5Awrite(committed, H5T_NATIVE_INT64, counts) >= 0;
  H5Aclose(committed);
  H5Gclose(integrity);
  if (H5Fclose(file) < 0 || !written) throw std::runtime_error("cannot set the committed record of " + path);
}

// What a kill inside a snapshot's commit flush can leave (VtkHdfWriter::append): the NSteps
// attribute and the Steps array `array` (e.g. "Values") resized to `length`, each as given, and
// /wave_params complete 0, as in a killed run's file.
inline void set_interrupted_commit(const std::string& path, std::int64_t nsteps, const std::string& array,
                                   hsize_t length) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t steps = H5Gopen2(file, "/VTKHDF/Steps", H5P_DEFAULT);
  const hid_t count = H5Aopen(steps, "NSteps", H5P_DEFAULT);
  const hid_t ds = H5Dopen2(steps, array.c_str(), H5P_DEFAULT);
  const hid_t params = H5Gopen2(file, "/wave_params", H5P_DEFAULT);
  const hid_t complete = H5Aopen(params, "complete", H5P_DEFAULT);
  const int no = 0;
  const bool written = H5Awrite(count, H5T_NATIVE_INT64, &nsteps) >= 0 && H5Dset_extent(ds, &length) >= 0 &&
                       H5Awrite(complete, H5T_NATIVE_INT, &no) >= 0;
  H5Aclose(complete);
  H5Gclose(params);
  H5Dclose(ds);
  H5Aclose(count);
  H5Gclose(steps);
  if (H5Fclose(file) < 0 || !written) throw std::runtime_error("cannot plant an interrupted commit in " + path);
  set_committed_record(path, -1, 0);  // a killed run's file was never marked complete
}

// What a kill between two commits leaves: every count (NSteps, each Steps array, the checksummed count) at
// `snapshots`, the checkpoints' as they were, and /wave_params complete 0.
inline void set_committed_snapshots(const std::string& path, std::int64_t snapshots) {
  set_interrupted_commit(path, snapshots, "Values", hsize_t(snapshots));
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  bool written = true;
  for (const char* name : {"u", "u_prev", "sos", "damp"}) {
    const std::string array = std::string("/VTKHDF/Steps/PointDataOffsets/") + name;
    if (H5Lexists(file, array.c_str(), H5P_DEFAULT) <= 0) continue;
    const hid_t ds = H5Dopen2(file, array.c_str(), H5P_DEFAULT);
    const hsize_t length = hsize_t(snapshots);
    written = written && H5Dset_extent(ds, &length) >= 0;
    H5Dclose(ds);
  }
  if (H5Fclose(file) < 0 || !written) throw std::runtime_error("cannot set the committed snapshots of " + path);
  set_committed_record(path, snapshots, 0);
}

// The blocks [start_a, start_a + count) of dataset a_path and [start_b, start_b + count) of b_path (one stored
// type) exchanged, bytes as stored, in an open file: false where HDF5 failed.
inline bool exchange_blocks(hid_t file, const std::string& a_path, std::vector<hsize_t> start_a,
                            const std::string& b_path, std::vector<hsize_t> start_b, const std::vector<hsize_t>& count) {
  const hid_t a = H5Dopen2(file, a_path.c_str(), H5P_DEFAULT), b = H5Dopen2(file, b_path.c_str(), H5P_DEFAULT);
  const hid_t sa = H5Dget_space(a), sb = H5Dget_space(b), type = H5Dget_type(a);
  const int rank = int(count.size());
  const hid_t mem = H5Screate_simple(rank, count.data(), nullptr);
  std::size_t n = H5Tget_size(type);
  for (hsize_t c : count) n *= std::size_t(c);
  std::vector<unsigned char> va(n), vb(n);
  H5Sselect_hyperslab(sa, H5S_SELECT_SET, start_a.data(), nullptr, count.data(), nullptr);
  H5Sselect_hyperslab(sb, H5S_SELECT_SET, start_b.data(), nullptr, count.data(), nullptr);
  const bool ok = H5Dread(a, type, mem, sa, H5P_DEFAULT, va.data()) >= 0 &&
                  H5Dread(b, type, mem, sb, H5P_DEFAULT, vb.data()) >= 0 &&
                  H5Dwrite(a, type, mem, sa, H5P_DEFAULT, vb.data()) >= 0 &&
                  H5Dwrite(b, type, mem, sb, H5P_DEFAULT, va.data()) >= 0;
  H5Sclose(mem);
  H5Tclose(type);
  H5Sclose(sb);
  H5Sclose(sa);
  H5Dclose(b);
  H5Dclose(a);
  return ok;
}

// The extent of dataset `path_in_file` of an open file.
inline std::vector<hsize_t> extent_of(hid_t file, const std::string& path_in_file) {
  const hid_t ds = H5Dopen2(file, path_in_file.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(ds);
  std::vector<hsize_t> dims(std::size_t(std::max(H5Sget_simple_extent_ndims(space), 1)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  H5Dclose(ds);
  return dims;
}

// Slots a and b of dataset `path_in_file` swapped (its first dimension), as swapping their chunk pointers in its
// index does: each slot's bytes intact, in the other's place.
inline void swap_slots(const std::string& path, const std::string& path_in_file, hsize_t a, hsize_t b) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  std::vector<hsize_t> count = extent_of(file, path_in_file), at_a(count.size(), 0), at_b(count.size(), 0);
  count[0] = 1;
  at_a[0] = a;
  at_b[0] = b;
  const bool ok = exchange_blocks(file, path_in_file, at_a, path_in_file, at_b, count);
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot swap slots of " + path_in_file + " in " + path);
}

// u and u_prev of snapshot slot `slot` exchanged, their plane checksums with them ([slot][fields][nx]).
inline void swap_fields(const std::string& path, hsize_t slot) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const std::vector<hsize_t> d = extent_of(file, "/VTKHDF/PointData/u");
  const bool ok =
      exchange_blocks(file, "/VTKHDF/PointData/u", {slot, 0, 0, 0}, "/VTKHDF/PointData/u_prev", {slot, 0, 0, 0},
                      {1, d[1], d[2], d[3]}) &&
      exchange_blocks(file, "/awave_integrity/planes", {slot, 0, 0}, "/awave_integrity/planes", {slot, 1, 0},
                      {1, 1, d[3]});
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot swap u and u_prev in " + path);
}

// A 1-D int64 array of the file replaced by one of `n` values in one chunk never written (nothing on disk): an array
// that claims n values of a sparse file.
inline void replace_with_unwritten_array(const std::string& path, const std::string& array, hsize_t n) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  bool ok = H5Ldelete(file, array.c_str(), H5P_DEFAULT) >= 0;
  const hsize_t max = H5S_UNLIMITED;
  const hid_t space = H5Screate_simple(1, &n, &max);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  ok = ok && H5Pset_chunk(create, 1, &n) >= 0 && H5Pset_alloc_time(create, H5D_ALLOC_TIME_INCR) >= 0;
  const hid_t ds = H5Dcreate2(file, array.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, create, H5P_DEFAULT);
  ok = ok && ds >= 0;
  H5Dclose(ds);
  H5Pclose(create);
  H5Sclose(space);
  if (H5Fclose(file) < 0 || !ok) throw std::runtime_error("cannot replace " + array + " in " + path);
}

// One random damage of the kinds a flaky copy makes: 1, 4 or 32 random bytes overwritten, a
// run of 8-4096 bytes zeroed, or a run of 8-512 bytes of noise, at a random offset.
inline std::string random_damage(const std::string& path, std::mt19937_64& rng) {
  const std::uint64_t size = file_size(path);
  const int kind = int(rng() % 5);
  std::size_t n = kind == 0 ? 1 : kind == 1 ? 4 : kind == 2 ? 32 : kind == 3 ? 8 + rng() % 4089 : 8 + rng() % 505;
  n = std::size_t(std::min<std::uint64_t>(n, size));
  const std::uint64_t at = rng() % (size - n + 1);
  std::vector<char> bytes(n, 0);
  if (kind != 3)
    for (char& b : bytes) b = char(rng());
  overwrite(path, at, bytes);
  return std::to_string(n) + (kind == 3 ? " zero bytes at " : " random bytes at ") + std::to_string(at);
}

}  // namespace awave_test
