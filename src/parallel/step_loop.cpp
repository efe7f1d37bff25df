#include "parallel/step_loop.hpp"

#include "core/tuning.hpp"  // test_fault, tuning_word

namespace awave {

namespace {
// sweep.overlap=0: a sweep over MPI waits for its planes before it starts, to compare.
bool overlap_sweeps() {
  static const bool on = tuning_word("sweep.overlap").value_or("1") == "1";
  return on;
}
}  // namespace

StepLoop::StepLoop(WaveImpl& impl, const WaveProblem& problem, ProcessGroup& group, const HaloSettings& settings)
    : impl_(impl), group_(group), halo_(impl, problem, group, settings) {}

void StepLoop::run(int steps) {
  if (!group_.distributed()) return impl_.run(steps);
  int s = 0;
  for (const int sweep = impl_.plan().steps_per_sweep; sweep > 1 && s + sweep <= steps; s += sweep)
    sweep_with_exchange();
  for (; s < steps; ++s) halo_.ordered_on_gpu() ? step_ordered_on_gpu() : step_with_exchange();
  if (halo_.ordered_on_gpu()) add_time(step_seconds_, [&] { halo_.wait_for_queued_steps(); });
}

// The host keeps the order: the planes leave while the previous step is complete (so they are
// final), the bulk computes while they travel, and the edges are queued once they have arrived.
void StepLoop::step_with_exchange() {
  halo_.send();
  SplitStep* const split = impl_.split_step();
  if (!split) {
    halo_.receive();
    halo_.copy_in();
    add_time(step_seconds_, [&] { impl_.run(1); });
    return;
  }
  halo_.receive_while([&] { add_time(step_seconds_, [&] { split->queue_step_part(StepRegion::bulk); }); });
  if (!halo_.gpu_to_gpu()) {  // the planes came to host buffers: into `now` once the bulk is done with it
    add_time(step_seconds_, [&] { split->wait_for_step_parts(); });
    halo_.copy_in();
  }
  add_time(step_seconds_, [&] {
    split->queue_step_part(StepRegion::edges);
    split->finish_step();
  });
}

// A sweep's planes, then the sweep over the slab and the neighbours' planes it recomputes. Where
// the implementation sweeps in parts, the interior segments (which read no recomputed plane) run
// while the planes travel, and the outer segments once they have arrived; the sends read only the
// levels the sweep reads, the receives write only recomputed planes, so the two never meet.
void StepLoop::sweep_with_exchange() {
  const int steps = impl_.plan().steps_per_sweep;
  // (A planted fault for tests/tools/mpi_check.sh: a plane of u(t) a side too few, which must show.)
  static const bool shallow = test_fault("SHALLOW_HALO").has_value();
  const HaloDepth depth = shallow ? HaloDepth{steps - 1, steps - 1} : HaloDepth::sweep(steps);
  SplitSweep* const split = overlap_sweeps() ? impl_.split_sweep() : nullptr;
  if (!split) {
    halo_.send(depth);
    halo_.receive();
    halo_.copy_in();
    add_time(step_seconds_, [&] { impl_.run(steps); });
    return;
  }
  // GPU to GPU the interior is queued first, so that the GPU computes it while the host queues the
  // planes (NCCL's calls, with the GPU idle, were most of the exchange's 0.2 ms a sweep:
  // results/h200x2-2026-11-26); through host buffers the planes are copied out first (the copies
  // would queue behind the interior on the implementation's stream).
  const bool interior_first = halo_.gpu_to_gpu();
  if (interior_first) add_time(step_seconds_, [&] { split->queue_sweep_part(SweepPart::interior); });
  halo_.send(depth);
  // (The interior is waited for inside the work, so that the exchange's time is what it adds.)
  halo_.receive_while([&] {
    add_time(step_seconds_, [&] {
      if (!interior_first) split->queue_sweep_part(SweepPart::interior);
      split->wait_for_sweep_parts();
    });
  });
  halo_.copy_in();
  add_time(step_seconds_, [&] {
    split->queue_sweep_part(SweepPart::outer);
    split->finish_sweep();
  });
}

// The GPU keeps the order, on the implementation's CUDA stream: the planes leave once the stream
// has finished the previous step, the bulk computes while they travel, the edges wait for their
// arrival; the host only queues, one step ahead (queue_step_end waits for the step before).
void StepLoop::step_ordered_on_gpu() {
  // (ordered_on_gpu(): the implementation splits its steps and queues them on a stream.)
  StreamOrderedSteps& ordered = *impl_.stream_ordered_steps();
  SplitStep& split = *impl_.split_step();
  void* const stream = *ordered.device_queue();
  add_time(step_seconds_, [&] {
    halo_.queue_send_receive(stream);
    split.queue_step_part(StepRegion::bulk);
    halo_.queue_wait_for_planes(stream);
    split.queue_step_part(StepRegion::edges);
    ordered.advance_queued_step();
    halo_.queue_step_end(stream);
  });
}

}  // namespace awave
