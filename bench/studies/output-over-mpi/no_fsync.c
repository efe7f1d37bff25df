/* A measuring tool, never the product: fsync and fdatasync that return at once, preloaded
 * (LD_PRELOAD) into a run to size what the file's syncs cost. HDF5 1.10's MPI-IO driver syncs the
 * file at every H5Fflush (MPI_File_sync: ROMIO's fsync); its serial driver does not.
 *   gcc -shared -fPIC -O2 -o no_fsync.so no_fsync.c */
int fsync(int fd) {
  (void)fd;
  return 0;
}
int fdatasync(int fd) {
  (void)fd;
  return 0;
}
