#pragma once
// Runs independent tasks on several threads. Each task writes only its own slot of the caller's
// output, so what comes out does not depend on how many threads ran or in which order they finished.
#include <atomic>
#include <cstddef>
#include <functional>

namespace gantry::plan {

// The number of threads to use for `requested` (0 = one per hardware thread), at least 1.
int threadCount(int requested);

// Calls task(i) for every i in [0, count) on up to `threads` threads (the caller's among them).
// Stops handing out tasks once *cancel is set; returns false then. The first exception a task
// throws (the one of the lowest index, when several do) is rethrown after every thread has stopped.
bool runParallel(size_t count, int threads, const std::function<void(size_t)>& task,
                 const std::atomic<bool>* cancel = nullptr);

} // namespace gantry::plan
