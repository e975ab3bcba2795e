#include "plan/parallel.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gantry::plan {

int threadCount(int requested) {
    if (requested > 0) return requested;
    return std::max(1, int(std::thread::hardware_concurrency()));
}

bool runParallel(size_t count, int threads, const std::function<void(size_t)>& task,
                 const std::atomic<bool>* cancel) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::exception_ptr error;
    size_t errorIndex = count;
    auto work = [&] {
        for (;;) {
            if ((cancel && cancel->load(std::memory_order_relaxed)) || failed.load(std::memory_order_relaxed))
                return;
            const size_t i = next.fetch_add(1);
            if (i >= count) return;
            try {
                task(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(errorMutex);
                if (i < errorIndex) {
                    errorIndex = i;
                    error = std::current_exception();
                }
                failed.store(true);
            }
        }
    };
    const size_t helpers = std::min(size_t(std::max(1, threads)), count) - (count > 0 ? 1 : 0);
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    return !(cancel && cancel->load());
}

} // namespace gantry::plan
