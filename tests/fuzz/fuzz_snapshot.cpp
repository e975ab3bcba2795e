// Kubernetes snapshots (kubectl get -o yaml|json): every kind the importer reads, the scheduler
// ConfigMaps inside them (volcano-scheduler.conf, YuniKorn queues.yaml) and the workload manifests
// (Job, PyTorchJob, JobSet, PodGroup, ...).
#include "fuzz_target.h"
#include "input_error.h"
#include "snapshot/snapshot_importer.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::SnapshotImporter importer;
        importer.addText(text, "fuzz.yaml");
        gantry::Diagnostics diagnostics;
        importer.finish(diagnostics);
    } catch (const gantry::InputError&) {
    }
}
