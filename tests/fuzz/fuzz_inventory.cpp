// Gantry inventories (nodes, queues, what-if workloads and priority classes of a designed cluster).
#include "fuzz_target.h"
#include "input_error.h"
#include "inventory/inventory_reader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::Diagnostics warnings;
        gantry::readInventory(text, "fuzz.yaml", &warnings);
    } catch (const gantry::InputError&) {
    }
}
