#pragma once
// What a translation of the model into one scheduler's terms could not keep, step by step, in the
// order it happened: the exporters report it, and a profile that runs the same translation (a
// YuniKorn what-if on a project's queues) can say the same.
#include "model/diagnostic.h"
#include "model/queue.h"

#include <string>
#include <vector>

namespace gantry {

struct Loss {
    std::string what;  // "queue", "namespace", "workload"
    std::string name;  // the object's name
    std::string field; // may be empty
    std::string message;
    SourceRef where;
};

class LossLog {
  public:
    void add(std::string what, std::string name, std::string field, std::string message,
             const SourceRef& where = {}) {
        losses.push_back(Loss{std::move(what), std::move(name), std::move(field), std::move(message), where});
    }
    void queue(const Queue& q, std::string field, std::string message) {
        add("queue", q.name, std::move(field), std::move(message), q.source);
    }
    void note(std::string text) { notes.push_back(std::move(text)); }

    std::vector<Loss> losses;
    std::vector<std::string> notes;
};

} // namespace gantry
