/* The OMPIO race without awave (run.sh). Writer thread: collective MPI_File_write_at_all on a dup'd communicator.
   Main thread: halo-style Isend/Irecv + Testall polling on MPI_COMM_WORLD. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static MPI_Comm io_comm;
static int rank, size, rounds;
static size_t bytes;
static volatile int writer_done = 0;
static void* writer(void* arg) {
  (void)arg;
  char* buf = malloc(bytes);
  memset(buf, rank, bytes);
  MPI_File fh;
  MPI_File_open(io_comm, "race.bin", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  for (int r = 0; r < rounds; ++r)
    MPI_File_write_at_all(fh, (MPI_Offset)rank * bytes, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  free(buf);
  writer_done = 1;
  return NULL;
}
int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &io_comm);
  bytes = (size_t)atol(argv[1]);
  rounds = atoi(argv[2]);
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  double plane[1024], in_lo[1024], in_hi[1024];
  long exchanges = 0;
  for (int local_done = 0; !local_done;) {
    MPI_Request req[4];
    int n = 0;
    if (rank > 0) {
      MPI_Irecv(in_lo, 1024, MPI_DOUBLE, rank - 1, 1, MPI_COMM_WORLD, &req[n++]);
      MPI_Isend(plane, 1024, MPI_DOUBLE, rank - 1, 2, MPI_COMM_WORLD, &req[n++]);
    }
    if (rank < size - 1) {
      MPI_Irecv(in_hi, 1024, MPI_DOUBLE, rank + 1, 2, MPI_COMM_WORLD, &req[n++]);
      MPI_Isend(plane, 1024, MPI_DOUBLE, rank + 1, 1, MPI_COMM_WORLD, &req[n++]);
    }
    for (int done = 0; !done;) MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    ++exchanges;
    /* stop together: everyone's writer finished */
    int mine = writer_done, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    local_done = all;
  }
  pthread_join(t, NULL);
  if (rank == 0) printf("ok: %ld exchanges during %d collective writes\n", exchanges, rounds);
  MPI_Comm_free(&io_comm);
  MPI_Finalize();
  return 0;
}
