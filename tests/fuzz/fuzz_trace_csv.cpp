// The Alibaba GPU trace's CSV files: the first byte chooses the node table or the task table.
#include "fuzz_target.h"
#include "input_error.h"
#include "trace/alibaba_trace.h"

GANTRY_FUZZ_TARGET(text) {
    if (text.empty()) return;
    std::string_view csv(text.data() + 1, text.size() - 1);
    gantry::Diagnostics warnings;
    try {
        if (text[0] & 1)
            gantry::parseTraceTasks(csv, "pods.csv", warnings);
        else
            gantry::parseTraceNodes(csv, "nodes.csv", warnings);
    } catch (const gantry::InputError&) {
    }
}
