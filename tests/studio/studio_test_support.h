#pragma once
// Shared by the studio's tests: the lab cluster snapshot (tests/data/studio/lab-cluster.yaml, a
// 100-node cluster written by make_lab_cluster.py) read through the real snapshot importer.
#include "core/project_document.h"
#include "core/project_files.h"

#include <QString>
#include <QtTest>

namespace gantry::studio::fixtures {

inline QString labClusterPath() {
    return QStringLiteral(GANTRY_TEST_DATA "/studio/lab-cluster.yaml");
}

inline Project loadLab() {
    return loadFile(labClusterPath()).project;
}

inline void openLab(ProjectDocument& doc) {
    doc.replace(loadLab(), QString(), labClusterPath());
}

} // namespace gantry::studio::fixtures
