#include "io/vtkhdf.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include "io/integrity.hpp"
#include "parallel/process_group.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <limits>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace awave {
namespace {

// The deepest description on HDF5's error stack ("... errno = 28, error message = 'No space
// left on device'"), which says why, where the API function's own message says only what.
std::string hdf5_cause() {
  std::string cause;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        if (e->desc && *e->desc) *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &cause);
  H5Eclear2(H5E_DEFAULT);
  // A system call's failure comes as "..., errno = 28, error message = 'No space left on
  // device', buf = ...": keep the message. Anything else: its first line.
  const std::string key = "error message = '";
  if (const auto at = cause.find(key); at != std::string::npos) {
    const auto end = cause.find('\'', at + key.size());
    return cause.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
  }
  return cause.substr(0, cause.find('\n'));
}

[[noreturn]] void fail(const std::string& what) {
  const std::string cause = hdf5_cause();
  throw std::runtime_error("HDF5: " + what + (cause.empty() ? "" : ": " + cause));
}

hid_t check(hid_t id, const char* what) {
  if (id < 0) fail(what);
  return id;
}
void check(herr_t status, const char* what) {
  if (status < 0) fail(what);
}

// RAII for HDF5 identifiers; the close function depends on the kind of object.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(check(id, what)), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  hid_t release() { return std::exchange(id_, -1); }  // the identifier, no longer closed here

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

Handle make_space(std::initializer_list<hsize_t> dims, std::initializer_list<hsize_t> maxdims = {}) {
  std::vector<hsize_t> d(dims), m(maxdims);
  return Handle(H5Screate_simple(int(d.size()), d.data(), m.empty() ? nullptr : m.data()), H5Sclose,
                "create dataspace");
}

template <class T>
hid_t native_type();
template <>
hid_t native_type<double>() {
  return H5T_NATIVE_DOUBLE;
}
template <>
hid_t native_type<float>() {
  return H5T_NATIVE_FLOAT;
}
template <>
hid_t native_type<int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
hid_t native_type<int>() {
  return H5T_NATIVE_INT;
}
template <>
hid_t native_type<std::uint32_t>() {
  return H5T_NATIVE_UINT32;
}

template <class T>
void write_attribute(hid_t obj, const char* name, const std::vector<T>& values) {
  Handle space = make_space({values.size()});
  Handle attr(H5Acreate2(obj, name, native_type<T>(), space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, native_type<T>(), values.data()), name);
}

template <class T>
void write_scalar_attribute(hid_t obj, const char* name, T value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create scalar dataspace");
  Handle attr(H5Acreate2(obj, name, native_type<T>(), space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, native_type<T>(), &value), name);
}

// The string type of awave's attributes: VTK 9.3's reader rejects a variable-length string
// here; a fixed-length ASCII one opens.
Handle fixed_string_type(std::size_t size) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
  check(H5Tset_size(type, size), "set string size");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), "set string padding");
  check(H5Tset_cset(type, H5T_CSET_ASCII), "set string charset");
  return type;
}

void write_string_attribute(hid_t obj, const char* name, const std::string& value) {
  Handle type = fixed_string_type(value.size());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create scalar dataspace");
  Handle attr(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, type, value.data()), name);
}

// k-planes per slab of a slot: whole planes of the global grid, the same on every process, which
// write (collectively) slab by slab. At least 16 (the transpose's tile: each column of the padded
// field is then read 16 values at a time; 4-plane slabs made the transpose the writer's longest
// part, 10.7 s of a 21 s run on the H100, results/h100-2026-11-25/output-layouts-8b2d9ca) and about
// 4 Mi values (32 MiB of doubles), at most 32 Mi values, so staging stays small.
hsize_t planes_per_slab(const WaveParams& global) {
  const hsize_t plane = hsize_t(global.nx()) * hsize_t(global.ny());
  const hsize_t wanted = std::max<hsize_t>(16, (hsize_t(1) << 22) / plane);
  return std::max<hsize_t>(1, std::min({hsize_t(global.nz()), wanted, (hsize_t(1) << 25) / plane}));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A time array's chunks: one slab of whole k-planes (planes_per_slab), so that each write of a
// slab fills whole chunks, one contiguous write each (HDF5 then neither gathers nor splits it).
// Planes too large for one chunk (HDF5 caps a chunk at 4 GiB) are split, largest axis first.
std::vector<hsize_t> chunk_dims(const WaveParams& p) {
  std::vector<hsize_t> c{1, planes_per_slab(p), hsize_t(p.ny()), hsize_t(p.nx())};
  auto bytes = [&c] { return c[1] * c[2] * c[3] * sizeof(double); };
  while (bytes() > (hsize_t(1) << 30)) {
    auto largest = std::max_element(c.begin() + 1, c.end());
    *largest = (*largest + 1) / 2;
  }
  return c;
}

// Crash safety (see VtkHdfWriter): every dataset's file space is allocated when the file is
// created, so appending a snapshot allocates nothing and changes only small object headers in
// place. No fill values are written: the unwritten slots of a long run cost no disk until
// written. No chunk cache either: raw data reaches the file when H5Dwrite returns, before
// the metadata that makes it visible.
hid_t preallocated_dataset_plist(int rank, const hsize_t* chunk) {
  const hid_t plist = check(H5Pcreate(H5P_DATASET_CREATE), "create property list");
  check(H5Pset_chunk(plist, rank, chunk), "set chunk");
  check(H5Pset_alloc_time(plist, H5D_ALLOC_TIME_EARLY), "set allocation time");
  check(H5Pset_fill_time(plist, H5D_FILL_TIME_NEVER), "set fill time");
  return plist;
}

hid_t uncached_access_plist() {
  const hid_t plist = check(H5Pcreate(H5P_DATASET_ACCESS), "create property list");
  check(H5Pset_chunk_cache(plist, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT), "set chunk cache");
  return plist;
}

// [slots][nz][ny][nx], all slots allocated (extendible in t, as docs/model.md says, but never
// extended by awave: a file with fewer snapshots than slots is an interrupted run's).
hid_t create_time_array(hid_t point_data, const char* name, const WaveParams& p, hsize_t slots, hid_t type) {
  Handle space = make_space({slots, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())},
                            {H5S_UNLIMITED, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())});
  const std::vector<hsize_t> chunk = chunk_dims(p);
  Handle create(preallocated_dataset_plist(4, chunk.data()), H5Pclose, "dataset creation");
  Handle access(uncached_access_plist(), H5Pclose, "dataset access");
  return check(H5Dcreate2(point_data, name, type, space, H5P_DEFAULT, create, access), name);
}

// One entry per snapshot (VTK 9.3 needs their length to equal NSteps), in one chunk of
// `slots` entries, allocated at the first append: later appends only extend the dataspace.
hid_t create_steps_array(hid_t group, const char* name, hsize_t slots) {
  Handle space = make_space({0}, {H5S_UNLIMITED});
  Handle create(preallocated_dataset_plist(1, &slots), H5Pclose, "dataset creation");
  Handle access(uncached_access_plist(), H5Pclose, "dataset access");
  return check(H5Dcreate2(group, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, create, access), name);
}

std::map<std::string, std::string> hints_in_effect;  // the last output file's (mpi_io_hints_in_effect)

#if defined(H5_HAVE_PARALLEL)
// The collective-buffering hints ROMIO applies to `file` (MPI_File_get_info: what it took of awave's
// MPI_Info, ROMIO_HINTS and its defaults), kept for -json.
void record_mpi_io_hints(hid_t file, hid_t fapl) {
  void* handle = nullptr;
  MPI_Info info = MPI_INFO_NULL;
  if (H5Fget_vfd_handle(file, fapl, &handle) < 0 || !handle ||
      MPI_File_get_info(*static_cast<MPI_File*>(handle), &info) != MPI_SUCCESS)
    return;
  hints_in_effect.clear();
  for (const char* key : {"cb_nodes", "cb_config_list", "cb_buffer_size", "romio_cb_write", "romio_ds_write"}) {
    char value[MPI_MAX_INFO_VAL + 1] = {};
    int found = 0;
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &found) == MPI_SUCCESS && found) hints_in_effect[key] = value;
  }
  MPI_Info_free(&info);
}
#endif

// What one process writes: planes [i0, i0 + ni) of the file's x extent (all of it for a single
// process), with which transfer properties (collective for parallel HDF5), and whether it is
// the process that writes the small Steps entries.
struct Part {
  hsize_t i0 = 0, ni = 0;
  hid_t dxpl = H5P_DEFAULT;
  bool root = true;
  int pi0 = 1;  // the padded plane of the first of them in this process's fields (Slab::own_padded_plane0)
};

void extend_steps_array(hid_t ds, hsize_t n, int64_t value, const Part& part) {  // n: entries before this one
  const hsize_t new_n = n + 1, one = 1;
  check(H5Dset_extent(ds, &new_n), "extend a Steps array");
  Handle space(H5Dget_space(ds), H5Sclose, "get dataspace");
  Handle mem = make_space({1});
  if (part.root) {
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, &n, nullptr, &one, nullptr), "select");
  } else {  // the other processes take part in the collective write with nothing
    check(H5Sselect_none(space), "select");
    check(H5Sselect_none(mem), "select");
  }
  check(H5Dwrite(ds, H5T_NATIVE_INT64, mem, space, part.dxpl, &value), "write a Steps entry");
}

// Interior (pi0 + i - 1, j, k0 + k) of a padded field <-> slab[(k*ny + j)*ni + i], i < ni, k < nk:
// the file has x fastest, the padded field z fastest, so this transposes i and k for each j.
// In tiles, so that both sides stay in cache (the point-by-point gather went through memory
// at a stride of a whole i plane per value). pi0 is the padded plane of slab column 0.
// Values are converted to the slab's type on the way to the file (double to float: rounded to
// nearest, as a GPU converts them).
template <bool ToFile, class SlabValue, class FieldValue>
void transpose_planes(SlabValue* slab, FieldValue* field, const PaddedGeometry& g, int pi0, int ni, int k0, int nk) {
  constexpr int kTile = 16;
  const std::size_t plane = std::size_t(ni) * g.ny;
  // On threads when the build has OpenMP: the writer thread's transposes are most of its
  // time, and a GPU run leaves the host's cores idle.
#pragma omp parallel for schedule(static)
  for (int j = 0; j < g.ny; ++j)
    for (int i0 = 0; i0 < ni; i0 += kTile)
      for (int kt = 0; kt < nk; kt += kTile)
        for (int i = i0; i < std::min(i0 + kTile, ni); ++i) {
          FieldValue* column = field + g.index(pi0 + i, j + 1, k0 + 1);
          SlabValue* row = slab + std::size_t(j) * ni + i;
          for (int k = kt; k < std::min(kt + kTile, nk); ++k) {
            if constexpr (ToFile)
              row[k * plane] = SlabValue(column[k]);
            else
              column[k] = FieldValue(row[k * plane]);
          }
        }
}

// Writes this process's part of slot t of a [t][nz][ny][nx] dataset of Value, in slabs of whole
// k-planes; fill(slab, k0, nk) puts values [k][j][i - i0] into a staging slab. The next slab is
// filled (on OpenMP threads) while HDF5 writes this one, so a snapshot takes about the longer of
// the two, not their sum. Adds the time in fill and in HDF5 to `parts` where given (they overlap).
template <class Value, class Fill>
void write_part_of_slot(hid_t ds, const WaveParams& global, const Part& part, hsize_t t, Fill fill,
                        VtkHdfWriter::Parts* parts = nullptr) {
  const hsize_t ny = global.ny(), nz = global.nz(), planes = planes_per_slab(global);
  std::vector<Value> slabs[2] = {std::vector<Value>(planes * ny * part.ni), std::vector<Value>(planes * ny * part.ni)};
  double fill_seconds = 0;
  auto fill_slab = [&](int which, hsize_t k0) {
    const auto start = std::chrono::steady_clock::now();
    fill(slabs[which].data(), int(k0), int(std::min(planes, nz - k0)));
    fill_seconds += seconds_since(start);
  };
  Handle file_space(H5Dget_space(ds), H5Sclose, "get dataspace");
  fill_slab(0, 0);
  int current = 0;
  for (hsize_t k0 = 0; k0 < nz; k0 += planes, current = 1 - current) {
    const hsize_t nk = std::min(planes, nz - k0);
    std::future<void> next;
    if (k0 + planes < nz) next = std::async(std::launch::async, fill_slab, 1 - current, k0 + planes);
    const auto start_write = std::chrono::steady_clock::now();
    const hsize_t start[4] = {t, k0, 0, part.i0}, count[4] = {1, nk, ny, part.ni};
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select slab");
    Handle mem = make_space({1, nk, ny, part.ni});
    const herr_t status = H5Dwrite(ds, native_type<Value>(), mem, file_space, part.dxpl, slabs[current].data());
    if (parts) parts->hdf5_write += seconds_since(start_write);
    if (next.valid()) next.get();  // before a failure unwinds: the fill uses the slabs
    check(status, "write u");
  }
  if (parts) parts->transpose += fill_seconds;
}

// A static [1][nz][ny][nx] array; value_at(i, j, k) with i local to this process's part.
template <class ValueAt>
void write_static_array(hid_t point_data, const char* name, const WaveParams& global, const Part& part,
                        ValueAt value_at) {
  Handle space = make_space({1, hsize_t(global.nz()), hsize_t(global.ny()), hsize_t(global.nx())});
  Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset creation");
  check(H5Pset_fill_time(create, H5D_FILL_TIME_NEVER), "set fill time");
  Handle ds(H5Dcreate2(point_data, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, create, H5P_DEFAULT), H5Dclose, name);
  const int ny = global.ny();
  write_part_of_slot<double>(ds, global, part, 0, [&](double* slab, int k0, int nk) {
    for (int k = 0; k < nk; ++k)
      for (int j = 0; j < ny; ++j)
        for (hsize_t i = 0; i < part.ni; ++i)
          slab[(std::size_t(k) * ny + j) * part.ni + i] = value_at(int(i), j, k0 + k);
  });
}

// Writes this process's x-planes of checksums row `row` of a [..][2][nx] uint32 dataset:
// start = {row, field, i0} (a 3-D dataset) or {field, i0} (2-D).
void write_checksums(hid_t ds, std::vector<hsize_t> start, const std::vector<std::uint32_t>& sums, const Part& part) {
  Handle space(H5Dget_space(ds), H5Sclose, "get dataspace");
  std::vector<hsize_t> count(start.size(), 1);
  count.back() = part.ni;
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), "select");
  Handle mem = make_space({part.ni});
  check(H5Dwrite(ds, H5T_NATIVE_UINT32, mem, space, part.dxpl, sums.data()), "write checksums");
}

// One uint32 at index n of a 1-D dataset, written by the root process (collectively).
void write_record(hid_t ds, hsize_t n, std::uint32_t value, const Part& part) {
  Handle space(H5Dget_space(ds), H5Sclose, "get dataspace");
  Handle mem = make_space({1});
  const hsize_t one = 1;
  if (part.root) {
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, &n, nullptr, &one, nullptr), "select");
  } else {
    check(H5Sselect_none(space), "select");
    check(H5Sselect_none(mem), "select");
  }
  check(H5Dwrite(ds, H5T_NATIVE_UINT32, mem, space, part.dxpl, &value), "write a snapshot record");
}

// The checksums of static array `field`'s planes (sos 0, damp 1): value_at(i, j, k), i local.
template <class ValueAt>
std::vector<std::uint32_t> static_plane_checksums(const Part& part, int field, int ny, int nz, ValueAt value_at) {
  std::vector<std::uint32_t> sums(part.ni);
  const PaddedGeometry one{1, ny, nz};
  std::vector<double> plane(one.size());
  const std::size_t plane_bytes = std::size_t(ny) * std::size_t(nz) * sizeof(double);
  for (hsize_t i = 0; i < part.ni; ++i) {
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) plane[one.index(1, j + 1, k + 1)] = value_at(int(i), j, k);
    sums[i] = plane_checksum<double>(plane.data(), one, 1) ^
              plane_binding(kChecksumScheme, ChecksumSeries::statics, field, 0, int(part.i0 + i), plane_bytes);
  }
  return sums;
}

const char* const kTimeArrays[] = {"u", "u_prev"};

}  // namespace

std::string integrity_scheme_text(bool single_precision) {
  return fmt::format("crc32 (zlib) of each x-plane's int64 {{scheme, series, field, slot, plane}} then its interior "
                     "values (j rows, k fastest, {} LE); records: crc32 of {{scheme, series, entry}}, time, slots and "
                     "/wave_params; committed: counts and their crc32",
                     single_precision ? "float32" : "float64");
}

std::string checkpoint_scheme_text() {
  return "u and u_prev (float64) to restart from; planes and records as in /awave_integrity";
}

namespace {
const char* const kAllArrays[] = {"sos", "damp", "u", "u_prev"};  // the order of VtkHdfWriter::offsets_

// Before any other HDF5 call: awave reports HDF5 failures itself, in one line; and HDF5's exit-time cleanup is off.
// That cleanup flushes files left open, and a file whose flush failed stays open (H5Fclose returns an error): on a
// disk that filled while the file was made, the cleanup then died with SIGSEGV in H5F__close_cb after awave's one
// line (issue 81, 9 of 9 runs). awave closes every file it writes or reads itself (VtkHdfWriter, ReadFile).
struct Hdf5Setup {
  Hdf5Setup() {
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
};
const Hdf5Setup hdf5_setup;

// The checksums of a time series, preallocated like the arrays they cover: planes
// [slots][fields][nx] and records [slots], in `group`.
void create_series_checksums(hid_t group, VtkHdfWriter::Series& series, hsize_t slots, int fields, hsize_t nx) {
  const hsize_t chunk[3] = {1, hsize_t(fields), nx};
  Handle space = make_space({slots, hsize_t(fields), nx}, {H5S_UNLIMITED, hsize_t(fields), nx});
  Handle create(preallocated_dataset_plist(3, chunk), H5Pclose, "dataset creation");
  Handle access(uncached_access_plist(), H5Pclose, "dataset access");
  series.sums = check(H5Dcreate2(group, "planes", H5T_NATIVE_UINT32, space, H5P_DEFAULT, create, access), "planes");
  Handle rspace = make_space({slots}, {H5S_UNLIMITED});
  Handle rcreate(preallocated_dataset_plist(1, &slots), H5Pclose, "dataset creation");
  series.records =
      check(H5Dcreate2(group, "records", H5T_NATIVE_UINT32, rspace, H5P_DEFAULT, rcreate, access), "records");
}

// One field of a series' slot: its values (converted to Stored where Field differs), then its
// plane checksums, in the stored type.
template <class Stored, class Field>
void write_series_field(hid_t ds, hid_t sums, ChecksumSeries series, int field, hsize_t t, const Field* padded,
                        const WaveParams& global, const Part& part, const PaddedGeometry& g,
                        VtkHdfWriter::Parts& parts) {
  // The checksums on their own threads while the values are written (both only read `padded`).
  double checksum_seconds = 0;
  std::future<std::vector<std::uint32_t>> planes = std::async(std::launch::async, [&] {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::uint32_t> sums = plane_checksums<Stored>(padded, g, part.pi0, int(part.ni));
    const std::size_t plane_bytes = std::size_t(global.ny()) * std::size_t(global.nz()) * sizeof(Stored);
    for (hsize_t i = 0; i < part.ni; ++i)
      sums[i] ^= plane_binding(kChecksumScheme, series, field, int64_t(t), int(part.i0 + i), plane_bytes);
    checksum_seconds = seconds_since(start);
    return sums;
  });
  try {
    write_part_of_slot<Stored>(
        ds, global, part, t,
        [&](Stored* slab, int k0, int nk) {
          transpose_planes<true>(slab, const_cast<Field*>(padded), g, part.pi0, int(part.ni), k0, nk);
        },
        &parts);
  } catch (...) {
    planes.wait();
    throw;
  }
  const std::vector<std::uint32_t> sums_of_planes = planes.get();
  parts.checksum += checksum_seconds;
  write_checksums(sums, {t, hsize_t(field), part.i0}, sums_of_planes, part);
}

}  // namespace

VtkHdfWriter::VtkHdfWriter(const std::string& path, const WaveProblem& problem, const OutputLayout& layout,
                           int64_t slots)
    : params_(problem.global_params()), geometry_(problem.geometry()), layout_(layout), slots_(slots) {
  const WaveParams& p = params_;
  if (slots < 1) fail("a file needs at least one snapshot slot");
  i0_ = problem.slab().offset;
  ni_ = problem.slab().nx;
  pi0_ = problem.slab().own_padded_plane0();
  root_ = problem.slab().rank == 0;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access");
  dxpl_ = check(H5Pcreate(H5P_DATASET_XFER), "transfer properties");
  if (const void* comm = ProcessGroup::world().hdf5_comm()) {
#if defined(H5_HAVE_PARALLEL)
    // One file for every process, written collectively (parallel HDF5).
    // (ProcessGroup::hdf5_info: every process gathers collective writes into the file)
    const MPI_Info info = *static_cast<const MPI_Info*>(ProcessGroup::world().hdf5_info());
    check(H5Pset_fapl_mpio(fapl, *static_cast<const MPI_Comm*>(comm), info), "MPI-IO file access");
    check(H5Pset_dxpl_mpio(dxpl_, H5FD_MPIO_COLLECTIVE), "collective transfers");
#else
    (void)comm;
    H5Pclose(std::exchange(dxpl_, -1));
    fail("this build's HDF5 is not parallel: a run over MPI cannot write one file");
#endif
  }
  file_ = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl);  // (exclusive: through no link, over nothing)
  if (file_ < 0) {
    H5Pclose(std::exchange(dxpl_, -1));
    fail("cannot create " + path);
  }
#if defined(H5_HAVE_PARALLEL)
  if (ProcessGroup::world().hdf5_comm()) record_mpi_io_hints(file_, fapl);
#endif
  const Part part{hsize_t(i0_), hsize_t(ni_), dxpl_, root_, pi0_};
  try {
    Handle root(H5Gcreate2(file_, "/VTKHDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "/VTKHDF");
    write_attribute<int64_t>(root, "Version", {2, 3});
    write_string_attribute(root, "Type", "ImageData");
    write_attribute<double>(root, "Origin", {0.0, 0.0, 0.0});
    write_attribute<double>(root, "Spacing", {p.dx, p.dx, p.dx});
    write_attribute<int64_t>(root, "WholeExtent", {0, p.nx() - 1, 0, p.ny() - 1, 0, p.nz() - 1});
    write_attribute<double>(root, "Direction", {1, 0, 0, 0, 1, 0, 0, 0, 1});

    Handle point_data(H5Gcreate2(root, "PointData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "PointData");
    write_static_array(point_data, "sos", p, part, [&](int, int, int k) { return problem.sos_k()[k]; });
    write_static_array(point_data, "damp", p, part, [&](int i, int j, int) { return problem.damp(pi0_ - 1 + i, j); });
    const int fields = layout.snapshot_fields();
    snapshots_.single = layout.single_precision;
    for (int a = 0; a < fields; ++a)
      snapshots_.data[a] = create_time_array(point_data, kTimeArrays[a], p, hsize_t(slots),
                                             layout.single_precision ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE);

    steps_group_ = check(H5Gcreate2(root, "Steps", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "Steps");
    write_scalar_attribute<int64_t>(steps_group_, "NSteps", 0);
    snapshots_.steps = create_steps_array(steps_group_, "Values", hsize_t(slots));
    Handle offsets(H5Gcreate2(steps_group_, "PointDataOffsets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                   "PointDataOffsets");
    for (int a = 0; a < 2 + fields; ++a) offsets_[a] = create_steps_array(offsets, kAllArrays[a], hsize_t(slots));

    // /awave_integrity (io/integrity.hpp): plane checksums and snapshot records, preallocated
    // like the arrays they cover; the static arrays' checksums now.
    Handle integrity(H5Gcreate2(file_, "/awave_integrity", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                     "/awave_integrity");
    write_string_attribute(integrity, "scheme", integrity_scheme_text(layout.single_precision));
    checkpoint_slots_ = layout.checkpoints(problem.params());
    checkpoint_period_ = checkpoint_slots_ > 0 ? layout.checkpoint_period : 0;
    write_attribute<int64_t>(integrity, "committed", {0, 0, int64_t(committed_record(0, 0, 0, checkpoint_period_))});
    const hsize_t nx = hsize_t(p.nx());
    create_series_checksums(integrity, snapshots_, hsize_t(slots), fields, nx);
    {
      Handle sspace = make_space({2, nx});
      Handle statics(
          H5Dcreate2(integrity, "static_planes", H5T_NATIVE_UINT32, sspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
          H5Dclose, "static_planes");
      const int ny = p.ny(), nz = p.nz();
      write_checksums(statics, {0, part.i0},
                      static_plane_checksums(part, 0, ny, nz, [&](int, int, int k) { return problem.sos_k()[k]; }),
                      part);
      write_checksums(statics, {1, part.i0},
                      static_plane_checksums(part, 1, ny, nz,
                                             [&](int i, int j, int) { return problem.damp(pi0_ - 1 + i, j); }),
                      part);
    }

    // Checkpoints apart from the snapshots (io/output_layout.hpp): u and u_prev in double with
    // their checksums, a steps array whose length is the number committed, and the period (checkpoint_slots_ and
    // checkpoint_period_ set above, for the committed record).
    if (checkpoint_slots_ > 0) {
      Handle group(H5Gcreate2(file_, kCheckpointGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                   kCheckpointGroup);
      write_scalar_attribute<int>(group, "period", layout.checkpoint_period);
      write_string_attribute(group, "scheme", checkpoint_scheme_text());
      for (int a = 0; a < 2; ++a)
        checkpoints_series_.data[a] =
            create_time_array(group, kTimeArrays[a], p, hsize_t(checkpoint_slots_), H5T_NATIVE_DOUBLE);
      checkpoints_series_.steps = create_steps_array(group, "steps", hsize_t(checkpoint_slots_));
      create_series_checksums(group, checkpoints_series_, hsize_t(checkpoint_slots_), 2, nx);
    }

    wave_params_ = check(H5Gcreate2(file_, "/wave_params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/wave_params");
    write_scalar_attribute(wave_params_, "dt", p.dt);
    write_scalar_attribute(wave_params_, "dx", p.dx);
    write_scalar_attribute<int>(wave_params_, "nBoundaryLayers", kBoundaryLayers);
    // The time counter the run ends at: nsteps for a run from the start (docs/model.md), the
    // restart step plus the steps run for a restarted one.
    write_scalar_attribute<int>(wave_params_, "nsteps", int(p.end_step()));
    write_scalar_attribute<int>(wave_params_, "out_period", p.out_period);
    write_attribute<int>(wave_params_, "shape", {p.nx(), p.ny(), p.nz()});
    write_scalar_attribute<int>(wave_params_, "complete", 0);
    // Says that /awave_integrity exists: a file whose checksums were lost to damage is then
    // refused rather than taken for one written before checksums.
    write_scalar_attribute<int>(wave_params_, "checksums", kChecksumScheme);
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush");
  } catch (...) {
    release();
    throw;
  }
}

VtkHdfWriter::~VtkHdfWriter() {
  release();
}

std::vector<long*> VtkHdfWriter::datasets() {
  std::vector<long*> all{&offsets_[0], &offsets_[1], &offsets_[2], &offsets_[3]};
  for (Series* s : {&snapshots_, &checkpoints_series_})
    for (long* ds : {&s->data[0], &s->data[1], &s->sums, &s->records, &s->steps}) all.push_back(ds);
  return all;
}

// Closes every handle, reporting nothing (a destructor, or a writer giving up after an error).
void VtkHdfWriter::release() noexcept {
  for (long* ds : datasets())
    if (*ds >= 0) H5Dclose(std::exchange(*ds, -1));
  if (steps_group_ >= 0) H5Gclose(std::exchange(steps_group_, -1));
  if (wave_params_ >= 0) H5Gclose(std::exchange(wave_params_, -1));
  if (dxpl_ >= 0) H5Pclose(std::exchange(dxpl_, -1));
  if (file_ >= 0) H5Fclose(std::exchange(file_, -1));
}

void VtkHdfWriter::close(bool complete) {
  if (file_ < 0) return;
  try {
    if (complete) {
      Handle attr(H5Aopen(wave_params_, "complete", H5P_DEFAULT), H5Aclose, "complete");
      const int one = 1;
      check(H5Awrite(attr, H5T_NATIVE_INT, &one), "mark the file complete");
      write_committed(steps_, checkpoints_, 1);
    }
    release_checked();
  } catch (...) {
    release();
    throw;
  }
}

// The checksummed record of the counts, completeness and checkpoint period (io/integrity.hpp, scheme 2).
void VtkHdfWriter::write_committed(int64_t snapshots, int64_t checkpoints, int complete) {
  const int64_t committed[3] = {snapshots, checkpoints,
                                int64_t(committed_record(snapshots, checkpoints, complete, checkpoint_period_))};
  Handle integrity(H5Gopen2(file_, "/awave_integrity", H5P_DEFAULT), H5Gclose, "/awave_integrity");
  Handle count(H5Aopen(integrity, "committed", H5P_DEFAULT), H5Aclose, "committed");
  check(H5Awrite(count, H5T_NATIVE_INT64, committed), "the committed record");
}

void VtkHdfWriter::release_checked() {
  for (long* ds : datasets())
    if (*ds >= 0) check(H5Dclose(std::exchange(*ds, -1)), "close a dataset");
  check(H5Gclose(std::exchange(steps_group_, -1)), "close a group");
  check(H5Gclose(std::exchange(wave_params_, -1)), "close a group");
  check(H5Pclose(std::exchange(dxpl_, -1)), "close properties");
  check(H5Fclose(std::exchange(file_, -1)), "close file");
}

// Slot `slot` of a series: u (and u_prev where stored) with their checksums, and the record.
void VtkHdfWriter::write_slot(const Series& series, long time, int64_t slot, const State& state) {
  const Part part{hsize_t(i0_), hsize_t(ni_), dxpl_, root_, pi0_};
  const hsize_t t = hsize_t(slot);
  const double n = double(params_.interior_points()) / params_.nx() * ni_ * (series.single ? 4 : 8);
  double& bytes = &series == &snapshots_ ? parts_.snapshot_bytes : parts_.checkpoint_bytes;
  const ChecksumSeries id = &series == &snapshots_ ? ChecksumSeries::snapshots : ChecksumSeries::checkpoints;
  for (int a = 0; a < 2 && series.data[a] >= 0; ++a) {
    const double* field = a == 0 ? state.now : state.prev;
    if (a == 0 && state.now_single)
      write_series_field<float>(series.data[a], series.sums, id, a, t, state.now_single, params_, part, geometry_,
                                parts_);
    else if (!field)
      fail(fmt::format("no {} given for time {}", kTimeArrays[a], time));
    else if (series.single)
      write_series_field<float>(series.data[a], series.sums, id, a, t, field, params_, part, geometry_, parts_);
    else
      write_series_field<double>(series.data[a], series.sums, id, a, t, field, params_, part, geometry_, parts_);
    bytes += n;
  }
  // Entry = slot: the writer fills the slots in order (PointDataOffsets u of entry n is n).
  const int64_t slot_prev = series.data[1] >= 0 ? slot : -1;
  write_record(series.records, t,
               snapshot_record(kChecksumScheme, id, slot, time, slot, slot_prev, params_, kBoundaryLayers), part);
}

// A snapshot becomes part of the file in two phases. First its slots are written, and those of
// the checkpoint that goes with it (raw data, straight to the file: no cache), with their
// checksums; a crash here leaves the file as it was. Then the Steps arrays (and the checkpoints'
// steps) grow by one entry and NSteps counts it: a few small object headers rewritten in place,
// no allocation (all of it was made at creation), written by one H5Fflush. Only a crash inside
// that flush (microseconds; measured in bench/results) can leave NSteps and the Steps arrays
// disagreeing, which restart tolerates (restart.cpp) and VTK 9.3 does not.
void VtkHdfWriter::append(long time, const State& state, bool checkpoint) {
  if (file_ < 0) fail("append to a closed file");
  if (steps_ >= slots_) fail(fmt::format("more snapshots than the {} slots the file was made for", slots_));
  if (checkpoint && checkpoints_ >= checkpoint_slots_)
    fail(fmt::format("more checkpoints than the {} slots the file was made for", checkpoint_slots_));
  const Part part{hsize_t(i0_), hsize_t(ni_), dxpl_, root_, pi0_};
  if (checkpoint) {
    write_slot(checkpoints_series_, time, checkpoints_, {state.now, state.prev, nullptr});
    extend_steps_array(checkpoints_series_.steps, hsize_t(checkpoints_), time, part);
  }
  const hsize_t t = hsize_t(steps_);
  write_slot(snapshots_, time, steps_, state);
  extend_steps_array(snapshots_.steps, t, time, part);
  for (int a = 0; a < 4; ++a)  // sos, damp, u, u_prev
    if (offsets_[a] >= 0) extend_steps_array(offsets_[a], t, a < 2 ? 0 : int64_t(t), part);
  const int64_t nsteps = steps_ + 1;
  Handle attr(H5Aopen(steps_group_, "NSteps", H5P_DEFAULT), H5Aclose, "NSteps");
  check(H5Awrite(attr, H5T_NATIVE_INT64, &nsteps), "NSteps");
  // The checksummed counts, in the same flush (io/integrity.hpp, scheme 2).
  const int64_t kept = checkpoints_ + (checkpoint ? 1 : 0);
  write_committed(nsteps, kept, 0);
  const auto start = std::chrono::steady_clock::now();
  check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush");
  const double took = seconds_since(start);
  parts_.flush += took;
  parts_.longest_flush = std::max(parts_.longest_flush, took);
  ++steps_;
  if (checkpoint) ++checkpoints_;
}

void quiet_hdf5_errors_in_this_thread() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

// ---- reading ------------------------------------------------------------------------------
//
// A damaged file must never crash awave, hang it, or make it allocate more than the file holds
// (-verify, -restart). So every read of a file goes through the checked reads below, which look
// at an object before HDF5 converts it or awave sizes a buffer from it: its stored datatype must
// equal, field for field (H5Tequal), the one the writer above stores, so that HDF5 never converts
// a damaged type (its integer conversion crashed in H5T__bit_find on one); its dataspace must have
// the writer's rank and an extent the file's size can hold (a damaged extent made awave zero 21 GB
// for a 400 kB file); and the callers hold extents to the grid and the slots the file declares.
// What HDF5 decodes before any of this can look: docs/output.md, "Damaged files".

namespace {

// The type the writer stores for T: it writes native_type<T>, and awave runs on little-endian
// machines. A read accepts only this, so that reading into native_type<T> converts nothing.
template <class T>
hid_t stored_type();
template <>
hid_t stored_type<double>() {
  return H5T_IEEE_F64LE;
}
template <>
hid_t stored_type<float>() {
  return H5T_IEEE_F32LE;
}
template <>
hid_t stored_type<int64_t>() {
  return H5T_STD_I64LE;
}
template <>
hid_t stored_type<int>() {
  static_assert(sizeof(int) == 4, "the writer's int attributes are 32-bit");
  return H5T_STD_I32LE;
}
template <>
hid_t stored_type<std::uint32_t>() {
  return H5T_STD_U32LE;
}

// The stored types of the time-series arrays (float64, or float32 snapshots) and of the rest.
std::vector<hid_t> field_types() {
  return {stored_type<double>(), stored_type<float>()};
}

// An open file and its size: no dataset of it holds more bytes.
class ReadFile {
 public:
  explicit ReadFile(const std::string& path)
      : handle_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, ("cannot open " + path).c_str()) {
    check(H5Fget_filesize(handle_, &bytes_), "file size");
  }
  operator hid_t() const { return handle_; }
  hsize_t bytes() const { return bytes_; }
  // What the whole arrays read from this file (read_all) take in memory, held to the file's size in all: eleven
  // index and checksum arrays that each claimed a sparse file's 100 MB passed one by one (1.65 GB resident, issue
  // 81); together they cannot.
  void take(hsize_t bytes, const std::string& what) const {
    if (bytes > bytes_ - taken_)
      fail(fmt::format("{} ({} bytes) with the arrays read before it is more than the file's {} bytes", what, bytes,
                       bytes_));
    taken_ += bytes;
  }

 private:
  Handle handle_;
  hsize_t bytes_ = 0;
  mutable hsize_t taken_ = 0;
};

// The link access of every read by path: an external link is refused before HDF5 opens what it names
// (awave writes none; one naming a FIFO hung the reader, issue 81), and no chain of soft links is followed.
herr_t refuse_external_link(const char*, const char*, const char*, const char*, unsigned*, hid_t, void*) {
  return -1;
}
hid_t refusing_links(hid_t plist_class) {
  const hid_t p = check(H5Pcreate(plist_class), "link access");
  check(H5Pset_elink_cb(p, refuse_external_link, nullptr), "link access");
  check(H5Pset_nlinks(p, 1), "link access");
  return p;
}
hid_t read_links() {  // for H5Lexists
  static const hid_t lapl = refusing_links(H5P_LINK_ACCESS);
  return lapl;
}
hid_t read_group_access() {  // for H5Gopen2 (a group access list is a link access list)
  static const hid_t gapl = refusing_links(H5P_GROUP_ACCESS);
  return gapl;
}
hid_t read_dataset_access() {  // for H5Dopen2
  static const hid_t dapl = refusing_links(H5P_DATASET_ACCESS);
  return dapl;
}

// Which of `types` the stored datatype `type` of `what` is, exactly; refused if none.
hid_t require_stored_type(hid_t type, const std::vector<hid_t>& types, const std::string& what) {
  for (hid_t t : types)
    if (H5Tequal(type, t) > 0) return t;
  fail(what + " is not stored as awave writes it (its datatype differs)");
}

// Whether `dims` values of `value_bytes` bytes fit in `limit` bytes (without overflowing).
bool fits(const std::vector<hsize_t>& dims, std::size_t value_bytes, hsize_t limit) {
  hsize_t bytes = value_bytes;
  for (hsize_t d : dims) {
    if (d != 0 && bytes > limit / d) return false;
    bytes *= d;
  }
  return bytes <= limit;
}

std::string extent_text(const std::vector<hsize_t>& dims) {
  std::string text;
  for (hsize_t d : dims) text += (text.empty() ? "" : "x") + std::to_string(d);
  return text.empty() ? "scalar" : text;
}

// The extent of `what`'s dataspace, refused unless of rank `rank` (0: a scalar) and holding no
// more values of `value_bytes` bytes than `limit` bytes hold.
std::vector<hsize_t> checked_extent(hid_t space, int rank, std::size_t value_bytes, hsize_t limit,
                                    const std::string& what) {
  const H5S_class_t kind = H5Sget_simple_extent_type(space);
  if (!(rank == 0 && kind == H5S_SCALAR) &&
      !(rank > 0 && kind == H5S_SIMPLE && H5Sget_simple_extent_ndims(space) == rank))
    fail(what + (rank == 0 ? " is not a scalar" : fmt::format(" is not {}-D", rank)));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space, dims.data(), nullptr) != rank) fail(what + ": no extent");
  if (!fits(dims, value_bytes, limit))
    fail(fmt::format("{} ({} values of {} bytes) is larger than the {} bytes it can take up", what, extent_text(dims),
                     value_bytes, limit));
  return dims;
}

// `path` opened, refused before anything reads its dataspace (which a virtual dataset's takes from its sources,
// opening them) unless laid out as awave writes it: chunked or contiguous, its values in this file.
hid_t open_as_awave_writes(hid_t file, const std::string& path) {
  Handle ds(H5Dopen2(file, path.c_str(), read_dataset_access()), H5Dclose, path.c_str());
  Handle create(H5Dget_create_plist(ds), H5Pclose, path.c_str());
  const H5D_layout_t layout = H5Pget_layout(create);
  if (layout != H5D_CHUNKED && layout != H5D_CONTIGUOUS)
    fail(path + (layout == H5D_VIRTUAL ? " is a virtual dataset" : " is not laid out as awave writes it") +
         ", which awave never writes");
  if (H5Pget_external_count(create) != 0) fail(path + " keeps its values in external files, which awave never writes");
  return ds.release();
}

// A dataset opened for reading, refused unless its datatype is one of `types` (what the writer
// stores there), it has no filters (the writer uses none), and its extent (of rank `rank`) and
// its chunks fit in the file.
class CheckedDataset {
  const ReadFile* file_;  // (first: the members below are made from it)

 public:
  CheckedDataset(const ReadFile& file, const std::string& path, const std::vector<hid_t>& types, int rank)
      : file_(&file),
        path(path),
        ds(open_as_awave_writes(file, path), H5Dclose, path.c_str()),
        space(H5Dget_space(ds), H5Sclose, path.c_str()) {
    {
      Handle type(H5Dget_type(ds), H5Tclose, path.c_str());
      stored = require_stored_type(type, types, path);  // before anything that converts with it
    }
    value_bytes = H5Tget_size(stored);
    Handle create(H5Dget_create_plist(ds), H5Pclose, path.c_str());
    if (H5Pget_nfilters(create) != 0) fail(path + " has filters, which awave never writes");
    dims = checked_extent(space, rank, value_bytes, file.bytes(), path);
    file_bytes = file.bytes();
    if (H5Pget_layout(create) == H5D_CHUNKED) {  // HDF5 allocates a chunk to read one
      chunk.resize(static_cast<std::size_t>(rank));
      if (H5Pget_chunk(create, rank, chunk.data()) != rank || !fits(chunk, value_bytes, file.bytes()) ||
          std::count(chunk.begin(), chunk.end(), 0))
        fail(path + "'s chunks are not what awave writes");
    }
  }
  // Reads the hyperslab [start, start + count) into `values` (as mem_type), after checking each
  // chunk it touches in HDF5's chunk index, which H5Dread follows: an entry of another size than
  // the chunk's, or beyond the file's end, is damaged (HDF5 would allocate that size to read it).
  void read(hid_t mem_type, const std::vector<hsize_t>& start, const std::vector<hsize_t>& count, void* values) const {
    if (std::count(count.begin(), count.end(), 0)) return;
    require_chunks(start, count);
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), "select");
    Handle mem(H5Screate_simple(int(count.size()), count.data(), nullptr), H5Sclose, "create dataspace");
    check(H5Dread(ds, mem_type, mem, space, H5P_DEFAULT, values), path.c_str());
  }
  // Every value, stored as T (the dataset opened with stored_type<T>() alone).
  template <class T>
  std::vector<T> read_all() const {
    if (H5Tequal(stored, stored_type<T>()) <= 0) fail(path + ": read as another type than it holds");
    hsize_t n = 1;
    for (hsize_t d : dims) n *= d;  // fits in the file (checked_extent)
    file_->take(n * sizeof(T), path);
    std::vector<T> values(n);
    read(native_type<T>(), std::vector<hsize_t>(dims.size(), 0), dims, values.data());
    return values;
  }

  std::string path;
  Handle ds, space;
  hid_t stored = -1;  // one of the predefined types given
  std::size_t value_bytes = 0;
  std::vector<hsize_t> dims, chunk;  // chunk: empty where contiguous
  hsize_t file_bytes = 0;

 private:
  void require_chunks(const std::vector<hsize_t>& start, const std::vector<hsize_t>& count) const {
    if (chunk.empty()) return;
    hsize_t chunk_bytes = value_bytes;
    for (hsize_t c : chunk) chunk_bytes *= c;  // fits in the file (checked on opening)
    std::vector<hsize_t> at(chunk.size());
    auto first = [&](std::size_t a) { return start[a] / chunk[a] * chunk[a]; };
    for (std::size_t a = 0; a < at.size(); ++a) at[a] = first(a);
    for (;;) {
      // (H5Dget_chunk_storage_size would look the index up rather than walk it, but HDF5 1.10 answers it with the
      // nominal chunk size, not the entry's: it passed the 2 GiB entry H5Dread then allocates.)
      unsigned filters = 0;
      haddr_t addr = HADDR_UNDEF;
      hsize_t size = 0;
      if (H5Dget_chunk_info_by_coord(ds, at.data(), &filters, &addr, &size) < 0)
        fail(path + ": its chunk index cannot be read");
      if (addr != HADDR_UNDEF && (size != chunk_bytes || addr > file_bytes || size > file_bytes - addr))
        fail(fmt::format("{}: a chunk of {} bytes at {} in the index, not one of {} bytes in the file's {}", path, size,
                         addr, chunk_bytes, file_bytes));
      std::size_t a = at.size();  // the next chunk, the last axis fastest
      while (a > 0 && (at[a - 1] += chunk[a - 1]) >= start[a - 1] + count[a - 1]) {
        at[a - 1] = first(a - 1);
        --a;
      }
      if (a == 0) return;
    }
  }
};

// Attribute `name` of `obj`: N values stored as T, a scalar (N = 1) or a 1-D array of N, as the
// writer stores them.
template <class T, std::size_t N>
std::array<T, N> read_fixed(hid_t obj, const char* name) {
  const std::string what = std::string("attribute ") + name;
  Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, what.c_str());
  {
    Handle type(H5Aget_type(attr), H5Tclose, what.c_str());
    require_stored_type(type, {stored_type<T>()}, what);
  }
  Handle space(H5Aget_space(attr), H5Sclose, what.c_str());
  const std::vector<hsize_t> dims = checked_extent(space, N == 1 ? 0 : 1, sizeof(T), N * sizeof(T), what);
  if (N > 1 && dims[0] != N) fail(fmt::format("{} has {} values, expected {}", what, dims[0], N));
  std::array<T, N> a{};
  check(H5Aread(attr, native_type<T>(), a.data()), what.c_str());
  return a;
}

// A fixed-length ASCII string attribute of up to 256 characters (the writer's are shorter).
std::string read_string_attribute(hid_t obj, const char* name) {
  const std::string what = std::string("attribute ") + name;
  Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, what.c_str());
  Handle stored(H5Aget_type(attr), H5Tclose, what.c_str());
  const std::size_t size =
      H5Tget_class(stored) == H5T_STRING && H5Tis_variable_str(stored) == 0 ? H5Tget_size(stored) : 0;
  if (size == 0 || size > 256) fail(what + " is not a fixed-length string as awave writes it");
  Handle type = fixed_string_type(size);
  require_stored_type(stored, {type}, what);
  Handle space(H5Aget_space(attr), H5Sclose, what.c_str());
  checked_extent(space, 0, size, size, what);
  std::string value(size, '\0');
  check(H5Aread(attr, type, value.data()), what.c_str());
  return value.substr(0, value.find('\0'));
}

// A 1-D array of T (a Steps array). Its length is held to nothing but the file's size: where the
// Steps arrays and NSteps disagree (a kill inside a commit flush), committed_snapshots() takes
// what they all agree on, and every reader of a slot checks it against the slots there are.
template <class T>
std::vector<T> read_1d(const ReadFile& file, const std::string& path) {
  return CheckedDataset(file, path, {stored_type<T>()}, 1).read_all<T>();
}

// A time-series (or static) array [slots][nz][ny][nx] of one of `types`, whose grid is `grid`
// ([nz][ny][nx], where given).
CheckedDataset open_time_array(const ReadFile& file, const std::string& path, const std::vector<hid_t>& types,
                               const std::optional<std::array<int64_t, 3>>& grid = std::nullopt) {
  CheckedDataset d(file, path, types, 4);
  if (grid &&
      (int64_t(d.dims[1]) != (*grid)[0] || int64_t(d.dims[2]) != (*grid)[1] || int64_t(d.dims[3]) != (*grid)[2]))
    fail(fmt::format("{} is of shape {}, not the grid's {}x{}x{}", path, extent_text(d.dims), (*grid)[0], (*grid)[1],
                     (*grid)[2]));
  return d;
}

}  // namespace

int64_t VtkHdfContents::committed_snapshots() const {
  int64_t n = std::min<int64_t>(nsteps, int64_t(step_values.size()));
  for (const auto& [name, array] : offsets) n = std::min<int64_t>(n, int64_t(array.size()));
  return std::max<int64_t>(n, 0);
}

bool VtkHdfContents::arrays_have_params_shape() const {
  const std::array<int64_t, 3> grid{params.nz(), params.ny(), params.nx()};  // every array's: checked on reading
  return std::equal(grid.begin(), grid.end(), dims.at("u").begin() + 1);
}

bool VtkHdfContents::snapshots_restart() const {
  return value_bytes.count("u_prev") && value_bytes.at("u") == 8 && value_bytes.at("u_prev") == 8;
}

namespace {

// `found` (a group's links or an object's attributes, as HDF5 lists them) held to the names awave writes there:
// each of `names`, any of `optional`, nothing else.
void require_names(const std::vector<std::string>& found, std::vector<std::string> names,
                   std::vector<std::string> optional, const std::string& what, const char* kind) {
  for (const std::string& name : found) {
    auto at = std::find(names.begin(), names.end(), name);
    if (at != names.end()) {
      names.erase(at);
      continue;
    }
    at = std::find(optional.begin(), optional.end(), name);
    if (at == optional.end())
      fail(fmt::format("{} holds {} '{}', which awave never writes there", what, kind, name.substr(0, 64)));
    optional.erase(at);
  }
  if (!names.empty()) fail(fmt::format("{} lacks {} '{}'", what, kind, names.front()));
}

// Collects names from H5Literate or H5Aiterate2, at most 64 (more than awave writes anywhere).
template <class Info>
herr_t collect_name(hid_t, const char* name, const Info*, void* out) {
  auto& list = *static_cast<std::vector<std::string>*>(out);
  if (list.size() > 64) return 1;
  list.emplace_back(name);
  return 0;
}

// The links and attributes of every group awave writes, walked through HDF5's group indexes (B-trees, symbol nodes,
// local heaps) and object headers, and held to the names awave writes there: a group index damaged where awave's
// reads did not pass, or an attribute message turned into another (a .partial's complete gone, read as not
// complete), verified while h5py could not read the file the same (tests/tools/structure_fuzz.py).
void require_group(const ReadFile& file, const char* group, std::vector<std::string> links,
                   std::vector<std::string> optional_links, std::vector<std::string> attributes,
                   std::vector<std::string> optional_attributes = {}) {
  Handle g(H5Gopen2(file, group, read_group_access()), H5Gclose, group);
  std::vector<std::string> found;
  if (H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name<H5L_info_t>, &found) < 0)
    fail(fmt::format("the links of {} cannot be listed (its group index is damaged)", group));
  require_names(found, std::move(links), std::move(optional_links), group, "link");
  found.clear();
  if (H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name<H5A_info_t>, &found) < 0)
    fail(fmt::format("the attributes of {} cannot be listed (its header is damaged)", group));
  require_names(found, std::move(attributes), std::move(optional_attributes), group, "attribute");
}

}  // namespace

VtkHdfContents read_vtkhdf_contents(const std::string& path) {
  const ReadFile file(path);
  require_group(file, "/", {"VTKHDF", "wave_params"}, {"awave_integrity", "awave_checkpoints"}, {});
  require_group(file, "/VTKHDF", {"PointData", "Steps"}, {},
                {"Version", "Type", "Origin", "Spacing", "WholeExtent", "Direction"});
  require_group(file, "/VTKHDF/PointData", {"sos", "damp", "u"}, {"u_prev"}, {});
  require_group(file, "/VTKHDF/Steps", {"Values", "PointDataOffsets"}, {}, {"NSteps"});
  require_group(file, "/VTKHDF/Steps/PointDataOffsets", {"sos", "damp", "u"}, {"u_prev"}, {});
  const bool checksums = H5Lexists(file, "/awave_integrity", read_links()) > 0;
  // (complete and checksums: every file with checksums has them; files before them may lack them)
  require_group(file, "/wave_params", {}, {}, {"dt", "dx", "nBoundaryLayers", "nsteps", "out_period", "shape"},
                {"complete", "checksums"});
  if (checksums) {
    require_group(file, "/awave_integrity", {"planes", "records", "static_planes"}, {}, {"scheme"}, {"committed"});
    Handle wave(H5Gopen2(file, "/wave_params", read_group_access()), H5Gclose, "/wave_params");
    for (const char* name : {"complete", "checksums"})
      if (H5Aexists(wave, name) <= 0) fail(fmt::format("/wave_params lacks attribute '{}'", name));
  }
  if (H5Lexists(file, kCheckpointGroup, read_links()) > 0)
    require_group(file, kCheckpointGroup, {"u", "u_prev", "steps", "planes", "records"}, {}, {"period", "scheme"});
  Handle root(H5Gopen2(file, "/VTKHDF", read_group_access()), H5Gclose, "/VTKHDF");
  VtkHdfContents c;
  c.version = read_fixed<int64_t, 2>(root, "Version");
  c.type = read_string_attribute(root, "Type");
  c.origin = read_fixed<double, 3>(root, "Origin");
  c.spacing = read_fixed<double, 3>(root, "Spacing");
  c.whole_extent = read_fixed<int64_t, 6>(root, "WholeExtent");
  c.direction = read_fixed<double, 9>(root, "Direction");
  // The grid the file declares, [nz][ny][nx], which every array must have.
  std::array<int64_t, 3> grid{};
  for (int a = 0; a < 3; ++a) {
    const int64_t first = c.whole_extent[std::size_t(2 * a)], last = c.whole_extent[std::size_t(2 * a + 1)];
    if (first != 0 || last < 0 || last >= std::numeric_limits<int>::max())
      fail("attribute WholeExtent is not [0,nx-1,0,ny-1,0,nz-1]");
    grid[std::size_t(2 - a)] = last + 1;
  }
  for (const char* name : kAllArrays) {
    const std::string ds_path = std::string(kSnapshotArrays) + "/" + name;
    const bool time_array = std::strcmp(name, "u") == 0 || std::strcmp(name, "u_prev") == 0;
    if (std::strcmp(name, "u_prev") == 0 && H5Lexists(file, ds_path.c_str(), read_links()) <= 0)
      continue;  // snapshots of u only (-snapshot_fields u)
    const CheckedDataset d =
        open_time_array(file, ds_path, time_array ? field_types() : std::vector<hid_t>{stored_type<double>()}, grid);
    if (!time_array && d.dims[0] != 1) fail(ds_path + " has more than one slot");
    c.dims[name] = {int64_t(d.dims[0]), int64_t(d.dims[1]), int64_t(d.dims[2]), int64_t(d.dims[3])};
    c.value_bytes[name] = int(d.value_bytes);
  }
  if (c.dims.count("u_prev") && c.dims.at("u_prev")[0] != c.dims.at("u")[0])
    fail("/VTKHDF/PointData/u_prev does not have u's slots");
  Handle steps(H5Gopen2(root, "Steps", read_group_access()), H5Gclose, "Steps");
  c.nsteps = read_fixed<int64_t, 1>(steps, "NSteps")[0];
  c.step_values = read_1d<int64_t>(file, "/VTKHDF/Steps/Values");
  for (const auto& [name, dims] : c.dims)
    c.offsets[name] = read_1d<int64_t>(file, "/VTKHDF/Steps/PointDataOffsets/" + name);
  if (H5Lexists(file, kCheckpointGroup, read_links()) > 0) {
    Handle group(H5Gopen2(file, kCheckpointGroup, read_group_access()), H5Gclose, kCheckpointGroup);
    CheckpointIndex index;
    index.period = read_fixed<int, 1>(group, "period")[0];
    for (const char* name : kTimeArrays) {
      const std::string ds_path = std::string(kCheckpointGroup) + "/" + name;
      const CheckedDataset d = open_time_array(file, ds_path, {stored_type<double>()}, grid);
      if (index.slots && hsize_t(index.slots) != d.dims[0]) fail(ds_path + " does not match the snapshots' shape");
      index.slots = int64_t(d.dims[0]);
    }
    index.steps = read_1d<int64_t>(file, std::string(kCheckpointGroup) + "/steps");
    c.checkpoints = std::move(index);
  }
  Handle wave(H5Gopen2(file, "/wave_params", read_group_access()), H5Gclose, "/wave_params");
  c.params.dt = read_fixed<double, 1>(wave, "dt")[0];
  c.params.dx = read_fixed<double, 1>(wave, "dx")[0];
  c.params.nsteps = read_fixed<int, 1>(wave, "nsteps")[0];
  c.params.out_period = read_fixed<int, 1>(wave, "out_period")[0];
  c.params.shape = read_fixed<int, 3>(wave, "shape");
  c.n_boundary_layers = read_fixed<int, 1>(wave, "nBoundaryLayers")[0];
  if (H5Aexists(wave, "complete") > 0) {  // 0 or 1 as written; anything else is damage, not "not complete"
    const int complete = read_fixed<int, 1>(wave, "complete")[0];
    if (complete != 0 && complete != 1) fail(fmt::format("/wave_params complete reads {}, not 0 or 1", complete));
    c.complete = complete == 1;
  }
  return c;
}

namespace {

// Global x-planes [gi0, gi0 + ni) of the time-series dataset ds_path at time slot t, in the
// file's order ([nz][ny][ni], x fastest); ni < 0: every plane. Sets nz, ny.
std::vector<double> read_slot_planes(const std::string& path, const std::string& ds_path, int64_t t, int gi0, int& ni,
                                     hsize_t& nz, hsize_t& ny) {
  const ReadFile file(path);
  const CheckedDataset d = open_time_array(file, ds_path, field_types());
  if (ni < 0) ni = int(d.dims[3]) - gi0;
  if (t < 0 || hsize_t(t) >= d.dims[0] || gi0 < 0 || ni < 0 || hsize_t(gi0) + hsize_t(ni) > d.dims[3])
    fail(fmt::format("{} has no slot {} with planes {}..{}", ds_path, t, gi0, int64_t(gi0) + ni));
  nz = d.dims[1];
  ny = d.dims[2];
  std::vector<double> values(nz * ny * hsize_t(ni));
  d.read(H5T_NATIVE_DOUBLE, {hsize_t(t), 0, 0, hsize_t(gi0)}, {1, nz, ny, hsize_t(ni)}, values.data());
  return values;
}

}  // namespace

std::vector<double> read_vtkhdf_array(const std::string& path, const std::string& name, int64_t t) {
  int ni = -1;
  hsize_t nz = 0, ny = 0;
  return read_slot_planes(path, std::string(kSnapshotArrays) + "/" + name, t, 0, ni, nz, ny);
}

std::vector<double> read_vtkhdf_planes(const std::string& path, const std::string& dataset, int64_t t, int gi0,
                                       int ni) {
  hsize_t nz = 0, ny = 0;
  const std::vector<double> file_order = read_slot_planes(path, dataset, t, gi0, ni, nz, ny);
  std::vector<double> planes(file_order.size());
  for (hsize_t k = 0; k < nz; ++k)
    for (hsize_t j = 0; j < ny; ++j)
      for (hsize_t i = 0; i < hsize_t(ni); ++i) planes[(i * ny + j) * nz + k] = file_order[(k * ny + j) * ni + i];
  return planes;
}

namespace {

void read_kslabs_of(const CheckedDataset& checked, const std::string& dataset, int64_t t, int& nx, int& ny, int& nz,
                    const std::function<void(const KSlab&)>& visit) {
  const std::vector<hsize_t>& d = checked.dims;
  if (t < 0 || hsize_t(t) >= d[0]) fail(fmt::format("{} has no slot {}", dataset, t));
  nz = int(d[1]);
  ny = int(d[2]);
  nx = int(d[3]);
  WaveParams global;
  global.shape = {nx, ny, nz};
  const hsize_t planes = planes_per_slab(global);
  // The stored type, checked little-endian float32 or float64 (field_types), is the native one here:
  // HDF5 copies the bytes.
  const bool single = checked.value_bytes == sizeof(float);
  std::vector<float> singles;
  std::vector<double> doubles;
  for (hsize_t k0 = 0; k0 < d[1]; k0 += planes) {
    const hsize_t nk = std::min(planes, d[1] - k0), count = nk * d[2] * d[3];
    void* values = single ? static_cast<void*>((singles.resize(count), singles.data()))
                          : static_cast<void*>((doubles.resize(count), doubles.data()));
    checked.read(single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE, {hsize_t(t), k0, 0, 0}, {1, nk, d[2], d[3]}, values);
    visit(KSlab{int(k0), int(nk), int(checked.value_bytes), values});
  }
}

}  // namespace

void read_vtkhdf_kslabs(const std::string& path, const std::string& dataset, int64_t t, int& nx, int& ny, int& nz,
                        const std::function<void(const KSlab&)>& visit) {
  VtkHdfSlabReader(path).read_kslabs(dataset, t, nx, ny, nz, visit);
}

struct VtkHdfSlabReader::Open {
  explicit Open(const std::string& path) : file(path) {}
  ReadFile file;
  std::map<std::string, CheckedDataset> datasets;
};

VtkHdfSlabReader::VtkHdfSlabReader(const std::string& path) : open_(std::make_unique<Open>(path)) {}
VtkHdfSlabReader::~VtkHdfSlabReader() = default;

void VtkHdfSlabReader::read_kslabs(const std::string& dataset, int64_t t, int& nx, int& ny, int& nz,
                                   const std::function<void(const KSlab&)>& visit) {
  auto found = open_->datasets.find(dataset);
  if (found == open_->datasets.end())
    found = open_->datasets.emplace(dataset, open_time_array(open_->file, dataset, field_types())).first;
  read_kslabs_of(found->second, dataset, t, nx, ny, nz, visit);
}

std::optional<VtkHdfChecksums> read_vtkhdf_checksums(const std::string& path) {
  const ReadFile file(path);
  if (H5Lexists(file, "/awave_integrity", read_links()) <= 0) {
    Handle wave(H5Gopen2(file, "/wave_params", read_group_access()), H5Gclose, "/wave_params");
    if (H5Aexists(wave, "checksums") > 0) fail("/wave_params says it has checksums, but /awave_integrity is missing");
    return std::nullopt;
  }
  // planes [slot][fields][nx] (fields set), records [slot], static_planes [2][nx]: their sizes
  // against the file's shape are check_integrity's.
  auto read_all = [&file](const std::string& ds_path, int rank, int* fields = nullptr) {
    const CheckedDataset d(file, ds_path, {stored_type<std::uint32_t>()}, rank);
    if (fields) *fields = int(std::min<hsize_t>(d.dims[1], 3));  // 1 or 2 where undamaged
    return d.read_all<std::uint32_t>();
  };
  VtkHdfChecksums c;
  {
    Handle wave(H5Gopen2(file, "/wave_params", read_group_access()), H5Gclose, "/wave_params");
    c.scheme = H5Aexists(wave, "checksums") > 0 ? read_fixed<int, 1>(wave, "checksums")[0] : 1;
    Handle integrity(H5Gopen2(file, "/awave_integrity", read_group_access()), H5Gclose, "/awave_integrity");
    if (H5Aexists(integrity, "committed") > 0) c.committed = read_fixed<int64_t, 3>(integrity, "committed");
    if (H5Aexists(integrity, "scheme") > 0) c.scheme_text = read_string_attribute(integrity, "scheme");
  }
  c.snapshots.planes = read_all("/awave_integrity/planes", 3, &c.snapshots.fields);
  c.snapshots.records = read_all("/awave_integrity/records", 1);
  c.static_planes = read_all("/awave_integrity/static_planes", 2);
  if (H5Lexists(file, kCheckpointGroup, read_links()) > 0) {
    c.checkpoints.emplace();
    c.checkpoints->planes = read_all(std::string(kCheckpointGroup) + "/planes", 3, &c.checkpoints->fields);
    c.checkpoints->records = read_all(std::string(kCheckpointGroup) + "/records", 1);
    Handle group(H5Gopen2(file, kCheckpointGroup, read_group_access()), H5Gclose, kCheckpointGroup);
    if (H5Aexists(group, "scheme") > 0) c.checkpoint_scheme_text = read_string_attribute(group, "scheme");
  }
  return c;
}

void read_vtkhdf_state(const std::string& path, const std::string& group, int64_t slot, const WaveParams& global,
                       int gi0, int ni, const PaddedGeometry& g, int pi0, double* padded_now, double* padded_prev) {
  const ReadFile file(path);
  const hsize_t nx = global.nx(), ny = global.ny(), nz = global.nz();
  const hsize_t planes = planes_per_slab(global);
  std::vector<double> slab;
  double* fields[] = {padded_now, padded_prev};
  for (int a = 0; a < 2; ++a) {
    const std::string ds_path = group + "/" + kTimeArrays[a];
    const CheckedDataset checked = open_time_array(file, ds_path, field_types());
    if (checked.value_bytes != sizeof(double))
      fail(ds_path + " is not in double precision: a restart needs the fields bit for bit");
    const std::vector<hsize_t>& d = checked.dims;
    if (d[1] != nz || d[2] != ny || d[3] != nx || slot < 0 || hsize_t(slot) >= d[0] || gi0 < 0 || ni < 0 ||
        hsize_t(gi0 + ni) > nx || int(g.ny) != int(ny) || int(g.nz) != int(nz) || pi0 < 0 || pi0 + ni > g.nx + 2)
      fail(fmt::format("{} has no slot {} of shape {}x{}x{} with planes {}..{}", ds_path, slot, nx, ny, nz, gi0,
                       gi0 + ni));
    slab.resize(planes * ny * hsize_t(ni));  // the shape checked: no more than the file holds
    for (hsize_t k0 = 0; k0 < nz; k0 += planes) {
      const hsize_t nk = std::min(planes, nz - k0);
      checked.read(H5T_NATIVE_DOUBLE, {hsize_t(slot), k0, 0, hsize_t(gi0)}, {1, nk, ny, hsize_t(ni)}, slab.data());
      transpose_planes<false>(slab.data(), fields[a], g, pi0, ni, int(k0), int(nk));
    }
  }
}

void read_vtkhdf_state(const std::string& path, const std::string& group, int64_t slot, const PaddedGeometry& g,
                       double* padded_now, double* padded_prev) {
  WaveParams global;
  global.shape = {g.nx, g.ny, g.nz};
  read_vtkhdf_state(path, group, slot, global, 0, g.nx, g, 1, padded_now, padded_prev);
}

const std::map<std::string, std::string>& mpi_io_hints_in_effect() {
  return hints_in_effect;
}

}  // namespace awave
