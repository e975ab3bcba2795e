#pragma once
// Where `gantry import` and the studio's "Connect to cluster" write a live snapshot: an atomic file
// (formats/atomic_stream.h) behind the live importer's output interface. commit() once the import
// has succeeded; destroyed without it (an error, a cancel), it leaves no file and the old one intact.
#include "atomic_stream.h"
#include "live/live_import.h"

#include <string>

namespace gantry {

class LiveSnapshotFile : public live::SnapshotOutput {
  public:
    explicit LiveSnapshotFile(const std::string& path) : file_(path) {}
    void write(std::string_view text) override { file_.write(text); }
    uint64_t size() const override { return file_.size(); }
    void truncate(uint64_t size) override { file_.truncate(size); }
    void commit() { file_.commit(); }

  private:
    AtomicFileStream file_;
};

} // namespace gantry
