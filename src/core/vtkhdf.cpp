#include "vtkhdf.hpp"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace awave {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("HDF5: " + what);
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
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }

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
hid_t native_type<int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
hid_t native_type<int>() {
  return H5T_NATIVE_INT;
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

// VTK 9.3's reader rejects a variable-length string here; a fixed-length ASCII one opens.
void write_string_attribute(hid_t obj, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
  check(H5Tset_size(type, value.size()), "set string size");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), "set string padding");
  check(H5Tset_cset(type, H5T_CSET_ASCII), "set string charset");
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create scalar dataspace");
  Handle attr(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  check(H5Awrite(attr, type, value.data()), name);
}

// Chunks of at most ~32 MiB: HDF5 caps a chunk at 4 GiB, and large grids exceed that.
std::vector<hsize_t> chunk_dims(const WaveParams& p) {
  std::vector<hsize_t> c{1, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())};
  auto bytes = [&c] { return c[1] * c[2] * c[3] * sizeof(double); };
  while (bytes() > (32u << 20)) {
    auto largest = std::max_element(c.begin() + 1, c.end());
    *largest = (*largest + 1) / 2;
  }
  return c;
}

void create_time_array(hid_t point_data, const char* name, const WaveParams& p) {
  Handle space = make_space({0, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())},
                            {H5S_UNLIMITED, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())});
  Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create property list");
  const std::vector<hsize_t> chunk = chunk_dims(p);
  check(H5Pset_chunk(plist, 4, chunk.data()), "set chunk");
  Handle ds(H5Dcreate2(point_data, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, plist, H5P_DEFAULT), H5Dclose, name);
}

void create_extendible_1d(hid_t group, const char* name) {
  Handle space = make_space({0}, {H5S_UNLIMITED});
  Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create property list");
  const hsize_t chunk = 64;
  check(H5Pset_chunk(plist, 1, &chunk), "set chunk");
  Handle ds(H5Dcreate2(group, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, plist, H5P_DEFAULT), H5Dclose, name);
}

void append_1d(hid_t file, const std::string& path, int64_t value) {
  Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose, path.c_str());
  Handle old_space(H5Dget_space(ds), H5Sclose, "get dataspace");
  hsize_t n = 0;
  H5Sget_simple_extent_dims(old_space, &n, nullptr);
  const hsize_t new_n = n + 1, one = 1;
  check(H5Dset_extent(ds, &new_n), "extend dataset");
  Handle space(H5Dget_space(ds), H5Sclose, "get dataspace");
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, &n, nullptr, &one, nullptr), "select");
  Handle mem = make_space({1});
  check(H5Dwrite(ds, H5T_NATIVE_INT64, mem, space, H5P_DEFAULT, &value), path.c_str());
}

// Writes a 4-D [t][nz][ny][nx] slot from a function giving the value at interior (i, j, k),
// in slabs of whole k-planes so that the staging buffer stays small for large grids.
template <class ValueAt>
void write_slot(hid_t ds, const WaveParams& p, hsize_t t, ValueAt value_at) {
  const hsize_t nx = p.nx(), ny = p.ny(), nz = p.nz();
  const hsize_t planes = std::max<hsize_t>(1, std::min<hsize_t>(nz, (8u << 20) / (nx * ny)));
  std::vector<double> slab(planes * ny * nx);
  Handle file_space(H5Dget_space(ds), H5Sclose, "get dataspace");
  for (hsize_t k0 = 0; k0 < nz; k0 += planes) {
    const hsize_t nk = std::min(planes, nz - k0);
    for (hsize_t k = 0; k < nk; ++k)
      for (hsize_t j = 0; j < ny; ++j)
        for (hsize_t i = 0; i < nx; ++i) slab[(k * ny + j) * nx + i] = value_at(int(i), int(j), int(k0 + k));
    const hsize_t start[4] = {t, k0, 0, 0}, count[4] = {1, nk, ny, nx};
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select slab");
    Handle mem = make_space({1, nk, ny, nx});
    check(H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, file_space, H5P_DEFAULT, slab.data()), "write slab");
  }
}

template <class ValueAt>
void write_static_array(hid_t point_data, const char* name, const WaveParams& p, ValueAt value_at) {
  Handle space = make_space({1, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())});
  Handle ds(H5Dcreate2(point_data, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
            name);
  write_slot(ds, p, 0, value_at);
}

const char* const kStaticArrays[] = {"sos", "damp"};
const char* const kTimeArrays[] = {"u", "u_prev"};

struct SilenceHdf5Errors {  // awave reports HDF5 failures itself, in one line
  SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
};
const SilenceHdf5Errors silence_hdf5_errors;

}  // namespace

VtkHdfWriter::VtkHdfWriter(const std::string& path, const WaveProblem& problem) : params_(problem.params()) {
  const WaveParams& p = params_;
  file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file_ < 0) fail("cannot create " + path);
  try {
    Handle root(H5Gcreate2(file_, "/VTKHDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "/VTKHDF");
    write_attribute<int64_t>(root, "Version", {2, 3});
    write_string_attribute(root, "Type", "ImageData");
    write_attribute<double>(root, "Origin", {0.0, 0.0, 0.0});
    write_attribute<double>(root, "Spacing", {p.dx, p.dx, p.dx});
    write_attribute<int64_t>(root, "WholeExtent", {0, p.nx() - 1, 0, p.ny() - 1, 0, p.nz() - 1});
    write_attribute<double>(root, "Direction", {1, 0, 0, 0, 1, 0, 0, 0, 1});

    Handle point_data(H5Gcreate2(root, "PointData", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "PointData");
    write_static_array(point_data, "sos", p, [&](int, int, int k) { return problem.sos_k()[k]; });
    write_static_array(point_data, "damp", p, [&](int i, int j, int) { return problem.damp(i, j); });
    for (const char* name : kTimeArrays) create_time_array(point_data, name, p);

    Handle steps(H5Gcreate2(root, "Steps", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "Steps");
    write_scalar_attribute<int64_t>(steps, "NSteps", 0);
    create_extendible_1d(steps, "Values");
    Handle offsets(H5Gcreate2(steps, "PointDataOffsets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                   "PointDataOffsets");
    for (const char* name : kStaticArrays) create_extendible_1d(offsets, name);
    for (const char* name : kTimeArrays) create_extendible_1d(offsets, name);

    Handle wave(H5Gcreate2(file_, "/wave_params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "/wave_params");
    write_scalar_attribute(wave, "dt", p.dt);
    write_scalar_attribute(wave, "dx", p.dx);
    write_scalar_attribute<int>(wave, "nBoundaryLayers", kBoundaryLayers);
    write_scalar_attribute<int>(wave, "nsteps", p.nsteps);
    write_scalar_attribute<int>(wave, "out_period", p.out_period);
    write_attribute<int>(wave, "shape", {p.nx(), p.ny(), p.nz()});
  } catch (...) {
    H5Fclose(file_);
    file_ = -1;
    throw;
  }
}

VtkHdfWriter::~VtkHdfWriter() {
  if (file_ >= 0) H5Fclose(file_);
}

void VtkHdfWriter::close() {
  if (file_ < 0) return;
  const herr_t status = H5Fclose(file_);
  file_ = -1;
  check(status, "close file");
}

void VtkHdfWriter::append_u(long time, const double* padded_now, const double* padded_prev) {
  if (file_ < 0) fail("append to a closed file");
  const WaveParams& p = params_;
  const PaddedGeometry g{p.nx(), p.ny(), p.nz()};
  const hsize_t t = hsize_t(steps_);
  const double* fields[] = {padded_now, padded_prev};
  for (int a = 0; a < 2; ++a) {
    const std::string path = std::string("/VTKHDF/PointData/") + kTimeArrays[a];
    Handle ds(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), H5Dclose, path.c_str());
    const hsize_t dims[4] = {t + 1, hsize_t(p.nz()), hsize_t(p.ny()), hsize_t(p.nx())};
    check(H5Dset_extent(ds, dims), "extend u");
    const double* field = fields[a];
    write_slot(ds, p, t, [&](int i, int j, int k) { return field[g.index(i + 1, j + 1, k + 1)]; });
  }
  append_1d(file_, "/VTKHDF/Steps/Values", time);
  for (const char* name : kStaticArrays) append_1d(file_, std::string("/VTKHDF/Steps/PointDataOffsets/") + name, 0);
  for (const char* name : kTimeArrays)
    append_1d(file_, std::string("/VTKHDF/Steps/PointDataOffsets/") + name, int64_t(t));
  ++steps_;
  Handle steps(H5Gopen2(file_, "/VTKHDF/Steps", H5P_DEFAULT), H5Gclose, "Steps");
  Handle attr(H5Aopen(steps, "NSteps", H5P_DEFAULT), H5Aclose, "NSteps");
  const int64_t nsteps = steps_;
  check(H5Awrite(attr, H5T_NATIVE_INT64, &nsteps), "NSteps");
}

// ---- reading ------------------------------------------------------------------------------

namespace {

template <class T>
std::vector<T> read_attribute(hid_t obj, const char* name) {
  Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, name);
  Handle space(H5Aget_space(attr), H5Sclose, name);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  std::vector<T> values(std::size_t(std::max<hssize_t>(n, 0)));
  check(H5Aread(attr, native_type<T>(), values.data()), name);
  return values;
}

template <class T, std::size_t N>
std::array<T, N> read_fixed(hid_t obj, const char* name) {
  const std::vector<T> v = read_attribute<T>(obj, name);
  if (v.size() != N) fail(fmt::format("attribute {} has {} values, expected {}", name, v.size(), N));
  std::array<T, N> a{};
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

std::string read_string_attribute(hid_t obj, const char* name) {
  Handle attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, name);
  Handle type(H5Aget_type(attr), H5Tclose, name);
  if (H5Tis_variable_str(type) > 0) fail(fmt::format("attribute {} is a variable-length string", name));
  std::string value(H5Tget_size(type), '\0');
  check(H5Aread(attr, type, value.data()), name);
  return value.substr(0, value.find('\0'));
}

std::vector<int64_t> read_1d(hid_t file, const std::string& path) {
  Handle ds(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose, path.c_str());
  Handle space(H5Dget_space(ds), H5Sclose, path.c_str());
  std::vector<int64_t> values(std::size_t(H5Sget_simple_extent_npoints(space)));
  check(H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), path.c_str());
  return values;
}

Handle open_file(const std::string& path) {
  return Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, ("cannot open " + path).c_str());
}

}  // namespace

VtkHdfContents read_vtkhdf_contents(const std::string& path) {
  Handle file = open_file(path);
  Handle root(H5Gopen2(file, "/VTKHDF", H5P_DEFAULT), H5Gclose, "/VTKHDF");
  VtkHdfContents c;
  c.version = read_fixed<int64_t, 2>(root, "Version");
  c.type = read_string_attribute(root, "Type");
  c.origin = read_fixed<double, 3>(root, "Origin");
  c.spacing = read_fixed<double, 3>(root, "Spacing");
  c.whole_extent = read_fixed<int64_t, 6>(root, "WholeExtent");
  c.direction = read_fixed<double, 9>(root, "Direction");
  Handle steps(H5Gopen2(root, "Steps", H5P_DEFAULT), H5Gclose, "Steps");
  c.nsteps = read_fixed<int64_t, 1>(steps, "NSteps")[0];
  c.step_values = read_1d(file, "/VTKHDF/Steps/Values");
  for (const char* name : {"sos", "damp", "u", "u_prev"}) {
    c.offsets[name] = read_1d(file, std::string("/VTKHDF/Steps/PointDataOffsets/") + name);
    const std::string ds_path = std::string("/VTKHDF/PointData/") + name;
    Handle ds(H5Dopen2(file, ds_path.c_str(), H5P_DEFAULT), H5Dclose, ds_path.c_str());
    Handle space(H5Dget_space(ds), H5Sclose, name);
    if (H5Sget_simple_extent_ndims(space) != 4) fail(ds_path + " is not 4-D");
    hsize_t d[4];
    H5Sget_simple_extent_dims(space, d, nullptr);
    c.dims[name] = {int64_t(d[0]), int64_t(d[1]), int64_t(d[2]), int64_t(d[3])};
  }
  Handle wave(H5Gopen2(file, "/wave_params", H5P_DEFAULT), H5Gclose, "/wave_params");
  c.params.dt = read_fixed<double, 1>(wave, "dt")[0];
  c.params.dx = read_fixed<double, 1>(wave, "dx")[0];
  c.params.nsteps = read_fixed<int, 1>(wave, "nsteps")[0];
  c.params.out_period = read_fixed<int, 1>(wave, "out_period")[0];
  c.params.shape = read_fixed<int, 3>(wave, "shape");
  c.n_boundary_layers = read_fixed<int, 1>(wave, "nBoundaryLayers")[0];
  return c;
}

std::vector<double> read_vtkhdf_array(const std::string& path, const std::string& name, int64_t t) {
  Handle file = open_file(path);
  const std::string ds_path = "/VTKHDF/PointData/" + name;
  Handle ds(H5Dopen2(file, ds_path.c_str(), H5P_DEFAULT), H5Dclose, ds_path.c_str());
  Handle space(H5Dget_space(ds), H5Sclose, name.c_str());
  hsize_t d[4];
  if (H5Sget_simple_extent_ndims(space) != 4) fail(ds_path + " is not 4-D");
  H5Sget_simple_extent_dims(space, d, nullptr);
  if (t < 0 || hsize_t(t) >= d[0]) fail(fmt::format("{} has no time slot {}", ds_path, t));
  const hsize_t start[4] = {hsize_t(t), 0, 0, 0}, count[4] = {1, d[1], d[2], d[3]};
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
  std::vector<double> values(d[1] * d[2] * d[3]);
  Handle mem = make_space({1, d[1], d[2], d[3]});
  check(H5Dread(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, values.data()), ds_path.c_str());
  return values;
}

}  // namespace awave
